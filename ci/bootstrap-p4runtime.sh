#!/usr/bin/env bash
# Python environments for P4Runtime, from PyPI only (docs/p4sim.md, section P4Runtime).
#
#   ci/bootstrap-p4runtime.sh descriptors OUT.desc   write the P4Runtime v1 schema (FileDescriptorSet) read
#                                                    back from the p4runtime 1.6.0 wheel (Maven's
#                                                    impl-java/p4runtime build runs this before protoc)
#   ci/bootstrap-p4runtime.sh shell                  make the p4runtime-shell 0.0.6 venv; prints its python
#
# Two venvs because the packages disagree: p4runtime-shell 0.0.6 pins p4runtime 1.4.1 and protobuf < 3.21,
# while p4runtime 1.6.0 wants protobuf >= 4.21.6. Idempotent: a stamp in each venv records what was
# installed; when it matches, nothing is downloaded.
#
# Why PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python: the 1.6.0 wheel's *_pb2.py modules are in the old
# generated style (explicit descriptor objects), which the C (upb) implementation of protobuf >= 4
# refuses to load; the pure-Python implementation loads them, and we only read their descriptors.
set -euo pipefail

INNET_ROOT="${INNET_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
PYTHON="${INNET_PYTHON:-python3}"
DESC_VENV="$INNET_ROOT/.cache/p4runtime-protos-venv"
SHELL_VENV="$INNET_ROOT/.cache/p4runtime-shell-venv"
DESC_PACKAGES=("p4runtime==1.6.0" "protobuf==7.36.2" "googleapis-common-protos==1.76.0" "grpcio==1.85.1")
SHELL_PACKAGES=("p4runtime-shell==0.0.6" "p4runtime==1.4.1" "protobuf==3.20.3" "googleapis-common-protos==1.73.0"
  "grpcio==1.85.1" "ipython==7.31.1" "jedi==0.17.2" "parso==0.7.1")

die() { echo "bootstrap-p4runtime: error: $*" >&2; exit 1; }

# shellcheck source=ci/pinned-venv.sh
source "$INNET_ROOT/ci/pinned-venv.sh"

case "${1:-}" in
  descriptors)
    [[ $# -eq 2 ]] || die "usage: $0 descriptors OUT.desc"
    make_venv "$DESC_VENV" "${DESC_PACKAGES[@]}"
    mkdir -p "$(dirname "$2")"
    PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python "$DESC_VENV/bin/python" \
      "$INNET_ROOT/ci/p4runtime_descriptors.py" "$2" >&2 ;;
  shell)
    make_venv "$SHELL_VENV" "${SHELL_PACKAGES[@]}"
    "$SHELL_VENV/bin/python" -c 'import p4runtime_sh.shell' >/dev/null 2>&1 \
      || die "p4runtime-shell does not import in $SHELL_VENV"
    echo "$SHELL_VENV/bin/python" ;;
  *) die "usage: $0 descriptors OUT.desc | shell" ;;
esac
