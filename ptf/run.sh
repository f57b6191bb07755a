#!/usr/bin/env bash
# ./innet ptf PROGRAM: one program's PTF tests (ptf/PROGRAM/) against a switch running p4/PROGRAM.p4 over
# veth pairs in a network namespace of its own, as the P4 community runs PTF against bmv2 (docs/ptf.md).
#
#   ptf/run.sh PROGRAM [--target p4sim|bmv2] [--port N] [TEST ...]
#
# Inside namespace innet-ptf-<pid of this script>: for each port N of ptf/PROGRAM/PORTS a veth pair swN
# (the switch's port N) <-> ptfN (PTF's port N). The switch is p4sim (the jar of impl-java/p4sim) or, with
# --target bmv2, simple_switch running the program compiled by p4c (all found on PATH). Tables are
# programmed by the tests through bmv2's runtime-CLI commands: p4sim's CLI port, or simple_switch_CLI.
# On exit, whatever happened, it stops the switch it started (by pid) and deletes the namespace it made
# (by name; the veths go with it). Exit: ptf's status (0 all passed), 2 bad arguments, 3 a tool missing.
set -euo pipefail

INNET_ROOT="${INNET_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
export INNET_ROOT
PTF_DIR="$INNET_ROOT/ptf"

die_usage() { echo "ptf: $*" >&2; exit 2; }
die_missing() { echo "ptf: $*" >&2; exit 3; }
log() { echo "ptf: $*" >&2; }

programs() { (cd "$PTF_DIR" && for d in */; do [[ -f "$d/PORTS" ]] && printf '%s ' "${d%/}"; done); }

usage() { sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; echo "programs: $(programs)"; }
[[ $# -ge 1 ]] || die_usage "which program? one of: $(programs)"
[[ $1 == -h || $1 == --help ]] && { usage; exit 0; }
program="$1"; shift
target=p4sim
control_port=9090
tests=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --target) [[ $# -ge 2 ]] || die_usage "--target needs a value (p4sim or bmv2)"; target="$2"; shift 2 ;;
    --port) [[ $# -ge 2 && $2 =~ ^[0-9]+$ && $2 -ge 1 && $2 -le 65535 ]] || die_usage "--port needs a TCP port 1..65535"
            control_port="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) die_usage "unknown option '$1'" ;;
    *) tests+=("$1"); shift ;;
  esac
done
[[ $target == p4sim || $target == bmv2 ]] || die_usage "--target must be p4sim or bmv2, got '$target'"
[[ -f "$PTF_DIR/$program/PORTS" ]] || die_usage "no PTF tests for '$program' (ptf/$program/PORTS); programs: $(programs)"
p4="$INNET_ROOT/p4/$program.p4"
[[ -f "$p4" ]] || die_usage "no p4/$program.p4"
read -r -a ports <"$PTF_DIR/$program/PORTS"

[[ $(id -u) == 0 ]] || die_missing "needs root (network namespaces, veth pairs, raw sockets)"
command -v ip >/dev/null 2>&1 || die_missing "ip (iproute2) is not on PATH: apt-get install iproute2"

# The bmv2 tools, found on PATH, before anything is made (a missing one names what to install).
if [[ $target == bmv2 ]]; then
  compiler="$(command -v p4c-bm2-ss || command -v p4c || true)"
  switch_bin="$(command -v simple_switch || command -v simple_switch_grpc || true)"
  cli_bin="$(command -v simple_switch_CLI || true)"
  missing=()
  [[ -n $compiler ]] || missing+=("p4c (p4c-bm2-ss or p4c: install p4c, https://github.com/p4lang/p4c)")
  [[ -n $switch_bin ]] || missing+=("simple_switch (install bmv2, https://github.com/p4lang/behavioral-model)")
  [[ -n $cli_bin ]] || missing+=("simple_switch_CLI (installed with bmv2's Python runtime CLI)")
  ((${#missing[@]} == 0)) || die_missing "--target bmv2 needs on PATH: ${missing[*]}; --target p4sim runs the same tests on p4sim"
fi

python="$("$INNET_ROOT/ci/bootstrap-ptf.sh")" || die_missing "the PTF venv could not be made (ci/bootstrap-ptf.sh)"
ptf_bin="$(dirname "$python")/ptf"

work="$INNET_ROOT/.cache/ptf/$program-$target"
rm -rf "$work"; mkdir -p "$work"
ns="innet-ptf-$$"
switch_pid=""

teardown() {
  local status=$?
  if [[ -n $switch_pid ]] && kill -0 "$switch_pid" 2>/dev/null; then
    kill -TERM "$switch_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6; do kill -0 "$switch_pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$switch_pid" 2>/dev/null && kill -KILL "$switch_pid" 2>/dev/null || true
    wait "$switch_pid" 2>/dev/null || true
  fi
  if ip netns list | grep -qw "^$ns"; then ip netns del "$ns" || log "could not delete namespace $ns"; fi
  exit "$status"
}
trap teardown EXIT
trap 'exit 130' INT TERM

ip netns add "$ns"
in_ns() { ip netns exec "$ns" "$@"; }
in_ns ip link set lo up
# no IPv6: router solicitations and the like would reach the switch and PTF's ports as stray packets
in_ns sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
switch_ifaces=(); ptf_ifaces=()
for p in "${ports[@]}"; do
  in_ns ip link add "sw$p" type veth peer name "ptf$p"
  in_ns ip link set "sw$p" up
  in_ns ip link set "ptf$p" up
  switch_ifaces+=(-i "$p@sw$p"); ptf_ifaces+=(-i "$p@ptf$p")
done

# Starts the switch in the namespace, output to switch.log. ip netns exec forks and waits, so the switch's
# own pid comes from the shell that execs it (teardown stops that pid, not ip's).
start_switch() {
  rm -f "$work/switch.pid"
  in_ns bash -c 'echo $$ >"$0"; exec "$@"' "$work/switch.pid" "$@" >"$work/switch.log" 2>&1 &
  for _ in $(seq 100); do [[ -s "$work/switch.pid" ]] && break; sleep 0.05; done
  switch_pid="$(cat "$work/switch.pid")"
}

case $target in
  p4sim)
    jar="$INNET_ROOT/impl-java/p4sim/target/innet-p4sim-0.1.0-SNAPSHOT.jar"
    [[ -f $jar ]] || die_missing "no $jar (./innet setup builds it)"
    start_switch "${JAVA:-java}" --enable-native-access=ALL-UNNAMED -jar "$jar" --program "$p4" \
      "${switch_ifaces[@]}" --control-port "$control_port"
    params="target='p4sim';control='127.0.0.1:$control_port'" ;;
  bmv2)
    json="$work/$program.json"
    if [[ $(basename "$compiler") == p4c-bm2-ss ]]; then
      compile=("$compiler" --arch v1model -I "$INNET_ROOT/p4" -o "$json" "$p4")
    else
      compile=("$compiler" --target bmv2 --arch v1model -I "$INNET_ROOT/p4" -o "$work" "$p4")
    fi
    echo "${compile[*]}" >"$work/commands.txt"
    "${compile[@]}" >"$work/p4c.log" 2>&1 || { log "p4c failed on $p4:"; tail -20 "$work/p4c.log" >&2; exit 1; }
    [[ -f $json ]] || { log "p4c wrote no $json"; exit 1; }
    echo "$switch_bin ${switch_ifaces[*]} --thrift-port $control_port $json" >>"$work/commands.txt"
    start_switch "$switch_bin" "${switch_ifaces[@]}" --thrift-port "$control_port" "$json"
    params="target='bmv2';thrift='$control_port';cli='$cli_bin'" ;;
esac

# Ready when the control port (p4sim's CLI port, bmv2's Thrift port) accepts a connection.
for ((i = 0; i < 600; i++)); do
  kill -0 "$switch_pid" 2>/dev/null || { log "the switch exited before its control port opened:"; tail -20 "$work/switch.log" >&2; exit 1; }
  if in_ns bash -c "exec 3<>/dev/tcp/127.0.0.1/$control_port" 2>/dev/null; then break; fi
  sleep 0.1
done
((i < 600)) || { log "the switch's control port $control_port did not open within 60 s"; tail -20 "$work/switch.log" >&2; exit 1; }
log "$target running p4/$program.p4 on ports ${ports[*]} in namespace $ns (pid $switch_pid, logs in ${work#"$INNET_ROOT/"})"

status=0
in_ns "$ptf_bin" --test-dir "$PTF_DIR/$program" --pypath "$PTF_DIR/lib" "${ptf_ifaces[@]}" \
  --test-params "$params" --log-file "$work/ptf.log" --test-case-timeout 60 "${tests[@]}" || status=$?
exit "$status"
