#!/usr/bin/env bash
# Locate Go and download the jepsen/ module's dependencies into the Go module cache (once).
set -euo pipefail

innet_bootstrap_go() {
  if ! command -v go >/dev/null 2>&1; then
    if [[ -x /usr/local/go/bin/go ]]; then
      export PATH="/usr/local/go/bin:$PATH"
    else
      echo "innet: error: Go not found; install Go >= 1.22 (https://go.dev/dl or Debian golang) and put it on PATH." >&2
      return 1
    fi
  fi
  [[ -f "$INNET_ROOT/jepsen/go.mod" ]] || return 0
  # go mod download is a no-op when the module cache already holds everything go.sum lists.
  (cd "$INNET_ROOT/jepsen" && go mod download) || {
    echo "innet: error: 'go mod download' failed in jepsen/ (the Go module proxy must be reachable on first run)." >&2
    return 1
  }
}
