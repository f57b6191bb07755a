#!/usr/bin/env bash
# The --target bmv2 path of ptf/run.sh, without bmv2 (which cannot be installed here, TOOLCHAIN.md):
#  1. with no p4c/simple_switch/simple_switch_CLI on PATH, it stops before making anything, exit 3, naming
#     each tool and where to get it;
#  2. with the stand-ins of ptf/tests/bmv2-standin on PATH (a fake p4c-bm2-ss that checks its arguments and
#     writes a JSON naming the program; a simple_switch that execs p4sim on the same interfaces with its CLI
#     on the Thrift port; a simple_switch_CLI that feeds stdin to that port), the nocache tests pass, the
#     driver's command lines are the ones bmv2 expects, every table write went through simple_switch_CLI,
#     and afterwards the switch process and the namespace are gone.
# Run as root from anywhere: ptf/tests/bmv2_driver_test.sh (JAVA: a JDK >= 25's java). Exit 0 when all hold.
set -uo pipefail

INNET_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export INNET_ROOT
STANDIN="$INNET_ROOT/ptf/tests/bmv2-standin"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
namespaces() { ip netns list | awk '{print $1}' | grep '^innet-ptf-' | sort; }

# A PATH with the basics but none of bmv2's tools (real or stand-in)
bare="$(mktemp -d)"
trap 'rm -rf "$bare"' EXIT
for tool in bash ip sed awk grep cat id dirname basename python3 seq sleep rm mkdir tail sysctl readlink; do
  ln -s "$(command -v "$tool")" "$bare/$tool"
done

# 1. missing tools
before="$(namespaces)"
out="$(PATH="$bare" "$INNET_ROOT/ptf/run.sh" nocache --target bmv2 2>&1)"; code=$?
[[ $code == 3 ]] && pass "missing bmv2: exit 3" || fail "missing bmv2: exit $code, want 3 ($out)"
for want in "p4c (p4c-bm2-ss or p4c" "simple_switch (install bmv2" "simple_switch_CLI" "--target p4sim runs the same tests"; do
  [[ $out == *"$want"* ]] && pass "missing bmv2: message names '$want'" || fail "missing bmv2: no '$want' in: $out"
done
[[ "$(namespaces)" == "$before" ]] && pass "missing bmv2: no namespace made" || fail "missing bmv2: namespaces changed"

# Only simple_switch missing: the message names it alone
mkdir -p "$bare/partial"; cp -a "$bare"/* "$bare/partial/" 2>/dev/null
ln -s "$STANDIN/p4c-bm2-ss" "$bare/partial/p4c-bm2-ss"; ln -s "$STANDIN/simple_switch_CLI" "$bare/partial/simple_switch_CLI"
out="$(PATH="$bare/partial" "$INNET_ROOT/ptf/run.sh" nocache --target bmv2 2>&1)"; code=$?
if [[ $code == 3 && $out == *"simple_switch (install bmv2"* && $out != *"p4c (p4c-bm2-ss"* ]]; then
  pass "only simple_switch missing: named alone"
else
  fail "only simple_switch missing: exit $code: $out"
fi

# 2. stand-ins on PATH
log="$(mktemp)"; : >"$log"
export STANDIN_LOG="$log"
out="$(PATH="$STANDIN:$PATH" "$INNET_ROOT/ptf/run.sh" nocache --target bmv2 --port 9391 2>&1)"; code=$?
[[ $code == 0 ]] && pass "stand-in bmv2: the nocache PTF tests pass" || fail "stand-in bmv2: exit $code: $(tail -20 <<<"$out")"
[[ $out == *"Ran 3 tests"* ]] && pass "stand-in bmv2: 3 tests ran" || fail "stand-in bmv2: the tests did not run: $(tail -5 <<<"$out")"
grep -q "^p4c-bm2-ss --arch v1model -I $INNET_ROOT/p4 -o $INNET_ROOT/.cache/ptf/nocache-bmv2/nocache.json $INNET_ROOT/p4/nocache.p4$" "$log" \
  && pass "p4c-bm2-ss command line" || fail "p4c-bm2-ss command line: $(grep p4c "$log")"
grep -Eq "^simple_switch pid=[0-9]+ -i 1@sw1 -i 2@sw2 -i 3@sw3 -i 64@sw64 --thrift-port 9391 $INNET_ROOT/.cache/ptf/nocache-bmv2/nocache.json$" "$log" \
  && pass "simple_switch command line" || fail "simple_switch command line: $(grep '^simple_switch ' "$log")"
resets="$(grep -c "^simple_switch_CLI --thrift-port 9391 <<< reset_state$" "$log")"
[[ $resets == 3 ]] && pass "simple_switch_CLI: reset_state before each of the 3 tests" || fail "simple_switch_CLI: $resets reset_state, want 3"
grep -q "^simple_switch_CLI --thrift-port 9391 <<< table_add MyIngress.ipv4_forward MyIngress.set_egress_port 0x0a000001 => 1$" "$log" \
  && pass "simple_switch_CLI: table_add" || fail "simple_switch_CLI: no table_add line"
grep -q "^simple_switch_CLI --thrift-port 9391 <<< register_read MyIngress.drop_count 5$" "$log" \
  && pass "simple_switch_CLI: register_read" || fail "simple_switch_CLI: no register_read line"
pid="$(sed -n 's/^simple_switch pid=\([0-9]*\) .*/\1/p' "$log")"
[[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null && pass "the switch (pid $pid) was stopped" || fail "the switch (pid $pid) still runs"
[[ "$(namespaces)" == "$before" ]] && pass "the namespace was deleted" || fail "namespaces left: $(namespaces)"

# 3. one named test only
: >"$log"
out="$(PATH="$STANDIN:$PATH" "$INNET_ROOT/ptf/run.sh" nocache --target bmv2 --port 9392 nocache_test.UnroutedFramesAreDroppedAndCounted 2>&1)"
[[ $out == *"Ran 1 test"* && $out == *OK* ]] && pass "one named test runs" || fail "one named test: $(tail -5 <<<"$out")"

# 4. simple_switch_CLI goes on after a refused command: the tests' client must read the refusal from its output
#    (innet_ptf.SimpleSwitchCli) and raise, return the output of a command that worked, and report a CLI that
#    exits at start (no switch on the port)
fake="$bare/fake_cli"
cat >"$fake" <<'PY'
#!/usr/bin/env python3
import sys
print("Obtaining JSON from switch...\nDone\nControl utility for runtime P4 table manipulation")
while True:
    sys.stdout.write("RuntimeCmd: "); sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        break
    if line.startswith("table_add MyIngress.nope"):
        print("Error: Invalid table name (MyIngress.nope)")
    else:
        print("Adding entry to exact match table t\nEntry has been added with handle 3")
PY
printf '#!/bin/sh\necho "Could not connect to thrift client on port 9090"\nexit 1\n' >"$fake.dead"
chmod +x "$fake" "$fake.dead"
python="$("$INNET_ROOT/ci/bootstrap-ptf.sh")"
if PYTHONPATH="$INNET_ROOT/ptf/lib" "$python" - "$fake" <<'PY'
import sys
from innet_ptf import ControlError, SimpleSwitchCli
cli = SimpleSwitchCli(sys.argv[1], 9090)
try:
    cli.run("table_add MyIngress.nope a 1 =>")
except ControlError as e:
    assert "Invalid table name" in str(e), e
else:
    sys.exit("no ControlError for a refused command")
out = cli.run("table_add t a 1 =>")
assert out == ["Adding entry to exact match table t", "Entry has been added with handle 3"], out
cli.close()
try:
    SimpleSwitchCli(sys.argv[1] + ".dead", 9090)
except ControlError as e:
    assert "Could not connect" in str(e), e
else:
    sys.exit("no ControlError for a CLI that exits at start")
PY
then pass "simple_switch_CLI: refusals raise ControlError, output of a command that worked is returned, a dead CLI is reported"
else fail "SimpleSwitchCli error handling"; fi
rm -f "$log"

echo "bmv2 driver test: $failures failure(s)"
((failures == 0))
