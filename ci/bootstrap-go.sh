#!/usr/bin/env bash
# Locate Go, check it is at least the version jepsen/go.mod's `go` directive requires, and download the
# jepsen/ module's dependencies into the Go module cache (once).
set -euo pipefail

# The Go version jepsen/go.mod requires (its `go` directive, e.g. 1.26), read from the file so that the
# messages below cannot drift from it; empty if there is no go.mod.
innet_go_required() {
  local mod="$INNET_ROOT/jepsen/go.mod"
  [[ -f "$mod" ]] || return 0
  sed -n 's/^go[[:space:]]\{1,\}\([0-9][0-9.]*\)[[:space:]]*$/\1/p' "$mod" | head -1
}

# Succeeds if dotted version $1 >= $2 (missing parts count as 0: 1.26 = 1.26.0).
innet_version_at_least() {
  local -a have want
  local i
  IFS=. read -r -a have <<<"$1"
  IFS=. read -r -a want <<<"$2"
  for ((i = 0; i < ${#have[@]} || i < ${#want[@]}; i++)); do
    if ((10#${have[i]:-0} > 10#${want[i]:-0})); then return 0; fi
    if ((10#${have[i]:-0} < 10#${want[i]:-0})); then return 1; fi
  done
  return 0
}

innet_bootstrap_go() {
  local required installed
  required="$(innet_go_required)"
  if [[ -f "$INNET_ROOT/jepsen/go.mod" && -z "$required" ]]; then
    echo "innet: error: jepsen/go.mod has no 'go' directive (e.g. 'go 1.26'); cannot tell which Go it needs." >&2
    return 1
  fi
  if ! command -v go >/dev/null 2>&1; then
    if [[ -x /usr/local/go/bin/go ]]; then
      export PATH="/usr/local/go/bin:$PATH"
    else
      echo "innet: error: Go not found; install Go${required:+ >= $required (jepsen/go.mod says 'go $required')}" \
        "(https://go.dev/dl) and put it on PATH." >&2
      return 1
    fi
  fi
  [[ -f "$INNET_ROOT/jepsen/go.mod" ]] || return 0
  # GOTOOLCHAIN=local: the version of the Go installed here. Without it a go command configured with
  # GOTOOLCHAIN=auto would download the toolchain go.mod asks for and report that one instead.
  installed="$(GOTOOLCHAIN=local go env GOVERSION 2>/dev/null || true)"
  if [[ "$installed" =~ ^go([0-9]+(\.[0-9]+)*) ]]; then
    if ! innet_version_at_least "${BASH_REMATCH[1]}" "$required"; then
      echo "innet: error: jepsen/go.mod needs Go >= $required (its 'go $required' directive), but $(command -v go) is $installed;" \
        "install Go $required or newer (https://go.dev/dl) and put it first on PATH." >&2
      return 1
    fi
  else
    # a development build (e.g. "devel go1.27-abcdef") has no release number to compare; let go decide
    echo "innet: warning: cannot read a release number from Go version '$installed'; not checking it against go $required" >&2
  fi
  # go mod download is a no-op when the module cache already holds everything go.sum lists.
  (cd "$INNET_ROOT/jepsen" && go mod download) || {
    echo "innet: error: 'go mod download' failed in jepsen/ (the Go module proxy must be reachable on first run)." >&2
    return 1
  }
}
