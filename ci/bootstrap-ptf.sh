#!/usr/bin/env bash
# The PTF venv, from PyPI only (docs/ptf.md): ptf (the P4 Testing Framework) and scapy, pinned.
#
#   ci/bootstrap-ptf.sh      make .cache/ptf-venv when missing or stale; prints its python
#
# A venv of its own, as for p4runtime-shell (ci/bootstrap-p4runtime.sh), so these pins cannot
# disturb the Ivy venv. Idempotent: a stamp records what was installed; when it matches, nothing
# is downloaded.
set -euo pipefail

INNET_ROOT="${INNET_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
PYTHON="${INNET_PYTHON:-python3}"
VENV="$INNET_ROOT/.cache/ptf-venv"
PACKAGES=("ptf==0.12.0" "scapy==2.6.1")

die() { echo "bootstrap-ptf: error: $*" >&2; exit 1; }

# shellcheck source=ci/pinned-venv.sh
source "$INNET_ROOT/ci/pinned-venv.sh"
make_venv "$VENV" "${PACKAGES[@]}"
[[ -x "$VENV/bin/ptf" ]] || die "ptf's runner is missing from $VENV/bin"
"$VENV/bin/python" -c 'import ptf.testutils, scapy.all' >/dev/null 2>&1 || die "ptf or scapy does not import in $VENV"
echo "$VENV/bin/python"
