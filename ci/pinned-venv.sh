# Sourced by ci/bootstrap-p4runtime.sh and ci/bootstrap-ptf.sh (needs PYTHON and a die function).
#
# make_venv DIR PACKAGE...: a venv holding exactly these pinned packages from PyPI. A stamp in the venv
# records them; when it matches, nothing is downloaded.
make_venv() {
  local venv="$1"; shift
  local want
  want="$(printf '%s\n' "$@")"
  if [[ -x "$venv/bin/python" && -f "$venv/.innet-stamp" && "$(cat "$venv/.innet-stamp")" == "$want" ]]; then
    return 0
  fi
  command -v "$PYTHON" >/dev/null 2>&1 || die "'$PYTHON' not found; install Python >= 3.10 with venv or set INNET_PYTHON"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  "$PYTHON" -m venv "$venv" || die "could not create a venv at $venv (Debian: apt-get install python3-venv)"
  echo "$(basename "$0" .sh): installing $* into $venv" >&2
  PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install -q "$@" >&2 \
    || die "pip install $* failed"
  echo "$want" >"$venv/.innet-stamp"
}
