#!/usr/bin/env bash
# Run ivy_check on every model listed in models/*/MANIFEST and compare with its expected result.
#
#   models/check-all.sh              # all protocols
#   models/check-all.sh pegasus      # only models/pegasus
#   models/check-all.sh --bmc 6 [protocol...]
#                                    # bounded model checking from the initial state instead, N steps:
#                                    # a `fails` model must yield a concrete counterexample trace (so the
#                                    # bug is reachable, not merely a non-inductive invariant), an `ok`
#                                    # model must show none. Slower (up to minutes per model).
#                                    # BMC checks only the safety invariants (those whose comment
#                                    # line starts with "# safety:") and the assertions in actions:
#                                    # supporting invariants are there for the induction, and a trace
#                                    # must break a property we care about, not a proof device.
#
# A model counts as proved when ivy_check exits 0 and its last line is "OK"; as refuted when it
# exits 1 and prints "error: failed checks: N" (with "... FAIL" on the failed checks). Anything
# else (syntax or type error, crash, missing file) is an error, whatever the MANIFEST expects.
# Prints one line per model and closes with "N passed, N failed"; exits 1 if any model did not
# behave as its MANIFEST says. Full ivy_check output goes to .cache/ivy/<protocol>/<file>.log.
set -euo pipefail

INNET_ROOT="${INNET_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
export INNET_ROOT
"$INNET_ROOT/ci/bootstrap-python.sh" >&2
IVY_CHECK="$INNET_ROOT/.cache/venv/bin/ivy_check"
LOGS="$INNET_ROOT/.cache/ivy"

bmc=""
if [[ "${1:-}" == "--bmc" ]]; then
  [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "usage: $0 [--bmc STEPS] [protocol...]" >&2; exit 2; }
  bmc="$2"
  shift 2
fi

if [[ $# -gt 0 ]]; then
  manifests=()
  for p in "$@"; do manifests+=("$INNET_ROOT/models/$p/MANIFEST"); done
else
  manifests=("$INNET_ROOT"/models/*/MANIFEST)
fi

passed=0
failed=0
printf '%-10s %-32s %-6s %-22s %s\n' protocol file expect result time
for manifest in "${manifests[@]}"; do
  [[ -f "$manifest" ]] || { echo "no such manifest: $manifest" >&2; failed=$((failed + 1)); continue; }
  dir="$(dirname "$manifest")"
  proto="$(basename "$dir")"
  mkdir -p "$LOGS/$proto"
  while read -r file expect _note; do
    [[ -z "$file" || "$file" == \#* ]] && continue
    log="$LOGS/$proto/$file${bmc:+.bmc$bmc}.log"
    rundir="$dir"
    args=("$file")
    if [[ -n "$bmc" ]]; then
      # A copy without the supporting invariants (an invariant line not preceded by "# safety:").
      rundir="$LOGS/$proto/bmc"
      mkdir -p "$rundir"
      awk '/^[[:space:]]*invariant[[:space:]]*\[/ { if (prev !~ /^[[:space:]]*# safety:/) { prev = $0; next } }
           { print } NF { prev = $0 }' "$dir/$file" >"$rundir/$file"
      args=("method=bmc[$bmc]" "$file")
    fi
    start=$(date +%s.%N)
    set +e
    (cd "$rundir" && "$IVY_CHECK" "${args[@]}") >"$log" 2>&1
    rc=$?
    set -e
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1fs", b - a }')
    last="$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 || true)"
    if [[ -n "$bmc" ]]; then
      # ivy_check exits 0 in BMC mode whether or not it finds a counterexample: read its output.
      if [[ $rc -eq 0 ]] && grep -q '^BMC with bound [0-9]* found a counter-example' "$log"; then
        got=fails
      elif [[ $rc -eq 0 && "$last" == "OK" ]] && grep -qx 'BOUNDED' "$log"; then
        got=ok
      else
        got=error
      fi
    elif [[ $rc -eq 0 && "$last" == "OK" ]]; then
      got=ok
    elif [[ $rc -eq 1 ]] && grep -q '^error: failed checks: [0-9]' "$log"; then
      got=fails
    else
      got=error
    fi
    if [[ "$got" == "$expect" ]]; then
      passed=$((passed + 1))
      if [[ $got == fails && -n "$bmc" ]]; then
        result="trace of $(sed -n 's/^BMC with bound \([0-9]*\) found.*/\1/p' "$log" | head -n 1) steps"
      elif [[ $got == fails ]]; then
        result="fails (expected)"
      else
        result=ok
      fi
    else
      failed=$((failed + 1))
      result="UNEXPECTED $got"
    fi
    printf '%-10s %-32s %-6s %-22s %s\n' "$proto" "$file" "$expect" "$result" "$secs"
    if [[ "$got" != "$expect" ]]; then
      grep -E 'FAIL|error' "$log" | head -n 5 | sed 's/^/    /'
      echo "    log: $log"
    fi
  done <"$manifest"
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
