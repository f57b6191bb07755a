#!/usr/bin/env bash
# Bootstrap the Python virtual environment with Ivy (ivy_check) and Z3, from PyPI only.
#
#   ci/bootstrap-python.sh            # create or check $INNET_ROOT/.cache/venv
#
# Idempotent: a stamp file ($VENV/.innet-ivy-stamp) records exactly what was installed; when it
# matches what this script would install and the venv still imports ivy and z3, the script prints
# only "ivy ready: ..." and downloads nothing.
#
# Why the wheel is renamed: PyPI's ms-ivy 1.8.26 ships only a cp310 wheel. Its only native parts
# are shared libraries (libz3.so and a few helper binaries) loaded by ctypes or run as processes,
# not CPython extension modules, so the wheel works on any CPython >= 3.10. We download it for
# Python 3.10, rename the tag cp310-cp310 to py3-none, and pip-install the renamed file.
#
# Environment:
#   INNET_ROOT     repository root (default: the parent of this script's directory)
#   INNET_PYTHON   the Python to build the venv from (default: python3); must be >= 3.10 with venv
set -euo pipefail

INNET_ROOT="${INNET_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
VENV="$INNET_ROOT/.cache/venv"
WHEELS="$INNET_ROOT/.cache/wheels"
STAMP="$VENV/.innet-ivy-stamp"
PYTHON="${INNET_PYTHON:-python3}"

IVY_VERSION="1.8.26"
# Dependencies of ms-ivy, pinned to the versions tested with ivy_check 1.8.26 on Python 3.11
# (ivy imports the top-level z3 module from z3-solver, not its own bundled copy).
DEPS=(
  "ordered-set==4.1.0"
  "ply==3.11"
  "pydot==4.0.1"
  "pyparsing==3.3.3"
  "tarjan==0.2.4"
  "z3-solver==5.4.1.0"
)

die() { echo "bootstrap-python: error: $*" >&2; exit 1; }
say() { echo "bootstrap-python: $*" >&2; }

# What a complete install looks like; the stamp must equal this text.
expected_stamp() {
  printf 'ms-ivy==%s\n' "$IVY_VERSION"
  printf '%s\n' "${DEPS[@]}"
}

venv_ok() {
  [[ -x "$VENV/bin/python" && -x "$VENV/bin/ivy_check" && -f "$STAMP" ]] || return 1
  [[ "$(cat "$STAMP")" == "$(expected_stamp)" ]] || return 1
  "$VENV/bin/python" -c 'import ivy.ivy_check, z3' >/dev/null 2>&1 || return 1
}

if venv_ok; then
  echo "ivy ready: $VENV/bin/ivy_check"
  exit 0
fi

# --- the base Python: present, >= 3.10, with venv and ensurepip -----------------------------------
command -v "$PYTHON" >/dev/null 2>&1 \
  || die "'$PYTHON' not found on PATH; install Python >= 3.10 (Debian: apt-get install python3 python3-venv) or set INNET_PYTHON"
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || die "$("$PYTHON" --version 2>&1) at $(command -v "$PYTHON") is too old: Ivy $IVY_VERSION needs Python >= 3.10 (set INNET_PYTHON)"
"$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1 \
  || die "$("$PYTHON" --version 2>&1) at $(command -v "$PYTHON") lacks the venv/ensurepip modules (Debian: apt-get install python3-venv)"
# ivy_check imports tkinter at start-up (ivy/ivy_ui_util.py), even without a GUI.
"$PYTHON" -c 'import tkinter' >/dev/null 2>&1 \
  || die "$("$PYTHON" --version 2>&1) at $(command -v "$PYTHON") lacks tkinter, which ivy_check imports (Debian's python3: apt-get install python3-tk)"

say "repository root: $INNET_ROOT"
say "virtual environment: $VENV (from $("$PYTHON" --version 2>&1), $(command -v "$PYTHON"))"
say "downloaded wheels: $WHEELS"

# A venv left half-made by an interrupted run, or built by another Python, is rebuilt from scratch.
if [[ -e "$VENV" ]]; then
  say "existing venv is incomplete or out of date: recreating it"
  rm -rf "$VENV"
fi
mkdir -p "$INNET_ROOT/.cache" "$WHEELS"
"$PYTHON" -m venv "$VENV"

export PIP_DISABLE_PIP_VERSION_CHECK=1
PIP=("$VENV/bin/python" -m pip)

# --- ms-ivy: the cp310 wheel, retagged py3-none ---------------------------------------------------
renamed="$(ls "$WHEELS"/ms_ivy-"$IVY_VERSION"-py3-none-*.whl 2>/dev/null | head -n 1 || true)"
if [[ -z "$renamed" ]]; then
  tmp="$(mktemp -d "$WHEELS/dl.XXXXXX")"
  say "downloading ms-ivy $IVY_VERSION (cp310 wheel) from PyPI"
  "${PIP[@]}" download -q --no-deps --python-version 3.10 --only-binary=:all: \
    -d "$tmp" "ms-ivy==$IVY_VERSION" \
    || die "could not download ms-ivy==$IVY_VERSION from PyPI"
  orig="$(ls "$tmp"/ms_ivy-"$IVY_VERSION"-cp310-cp310-*.whl 2>/dev/null | head -n 1 || true)"
  [[ -n "$orig" ]] || die "no cp310 wheel of ms-ivy $IVY_VERSION in $tmp: $(ls "$tmp")"
  base="$(basename "$orig")"
  renamed="$WHEELS/${base/-cp310-cp310-/-py3-none-}"
  mv "$orig" "$renamed"
  rm -rf "$tmp"
fi
say "installing $(basename "$renamed") and ${DEPS[*]}"
"${PIP[@]}" install -q "$renamed" "${DEPS[@]}" || die "pip install of Ivy and its dependencies failed"

# --- check that ivy_check really runs on this Python, then stamp ----------------------------------
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
cat >"$probe/probe.ivy" <<'EOF'
#lang ivy1.8
type t
relation r(X:t)
after init { r(X) := false }
action set(x:t) = { r(x) := true }
export set
invariant [probe] r(X) | ~r(X)
EOF
out="$(cd "$probe" && "$VENV/bin/ivy_check" probe.ivy 2>&1)" \
  || die "ivy_check failed on a trivial model:"$'\n'"$out"
grep -qx 'OK' <<<"$out" || die "ivy_check did not print OK on a trivial model:"$'\n'"$out"

expected_stamp >"$STAMP"
say "stamp: $STAMP"
echo "ivy ready: $VENV/bin/ivy_check"
