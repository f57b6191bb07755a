package nemesis

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Kinds are the nemeses by name, as --nemesis takes them.
var Kinds = []string{"partition", "loss", "delay", "dup", "reorder", "kill", "kill-server", "pause", "switch-crash", "skew"}

// networkKinds act on packets; the others on processes or clocks. A combined schedule pairs one of each.
var networkKinds = map[string]bool{"partition": true, "loss": true, "delay": true, "dup": true, "reorder": true}

// Fault is one injected fault: Start breaks something and says what, Heal repairs exactly that and
// may say what else it had to do (a note for the timeline).
type Fault interface {
	Kind() string
	Start(env Env) (string, error)
	Heal(env Env) (string, error)
}

// New draws one fault of the named kind, its target and strength from r, within env's Limits.
func New(kind string, env Env, r *rand.Rand) (Fault, error) {
	return NewWithin(kind, env, r, LimitsOf(env))
}

// NewWithin is New within the given limits (a campaign's, which may model more than the rack's plan says).
func NewWithin(kind string, env Env, r *rand.Rand, lim Limits) (Fault, error) {
	switch kind {
	case "partition":
		return newPartition(env, r), nil
	case "loss":
		return &Loss{Percent: 5 + r.Intn(21)}, nil
	case "delay":
		return &PortFault{kind: kind, Settings: fmt.Sprintf("delay_us=%d", 1000+r.Intn(9001))}, nil
	case "dup":
		return &PortFault{kind: kind, Settings: fmt.Sprintf("dup=%d", 10+r.Intn(41))}, nil
	case "reorder":
		return &PortFault{kind: kind, Settings: fmt.Sprintf("reorder=%d hold_us=%d", 10+r.Intn(41), 1000+r.Intn(4001))}, nil
	case "kill":
		hosts := killTargets(env, lim)
		return &Kill{Target: processName(env, hosts[r.Intn(len(hosts))])}, nil
	case "kill-server":
		servers := env.Servers()
		return &Kill{Target: processName(env, servers[r.Intn(len(servers))]), ServersOnly: true}, nil
	case "pause":
		return &Pause{Target: processTarget(env, r)}, nil
	case "switch-crash":
		switches := SwitchProcesses(env)
		if len(switches) == 1 {
			// no draw: a one-switch rack's schedules stay what they were for each seed
			return &SwitchCrash{Target: switches[0]}, nil
		}
		return &SwitchCrash{Target: switches[r.Intn(len(switches))]}, nil
	case "skew":
		hosts := skewTargets(env, lim)
		return &Skew{Host: hosts[r.Intn(len(hosts))], Millis: 200 + r.Intn(1801)}, nil
	}
	return nil, fmt.Errorf("unknown nemesis %q (one of %s)", kind, strings.Join(Kinds, ", "))
}

// processTarget: a server, a client or the controller. A killed client leaves its share of the
// history in its journal (docs/live-rack.md), and the workload goes on without it.
func processTarget(env Env, r *rand.Rand) string {
	hosts := allHosts(env)
	h := hosts[r.Intn(len(hosts))]
	return processName(env, h)
}

func processName(env Env, h int) string {
	if h == env.Controller() {
		return fmt.Sprintf("controller-h%d", h)
	}
	for _, c := range env.Clients() {
		if c == h {
			return fmt.Sprintf("client-h%d", h)
		}
	}
	return fmt.Sprintf("server-h%d", h)
}

func allHosts(env Env) []int {
	return append(append(append([]int{}, env.Servers()...), env.Clients()...), env.Controller())
}

func ip(h int) string { return fmt.Sprintf("10.0.0.%d", h) }

// ---------------------------------------------------------------- partitions (nft)

// PartitionTable is the nft table (family inet) the partition nemesis creates in a namespace; healing
// deletes exactly this table there.
const PartitionTable = "innet_partition"

// LossTable is the loss nemesis's table.
const LossTable = "innet_loss"

// Partition drops traffic between groups of hosts with nft rules inside the namespaces: in each
// namespace listed, packets from DropFrom[h] are dropped on input and packets to DropTo[h] on output
// (on the host's rack interface only, so the switch's own loopback control port is untouched).
type Partition struct {
	Mode     string
	DropFrom map[int][]int
	DropTo   map[int][]int
}

func newPartition(env Env, r *rand.Rand) *Partition {
	hosts := allHosts(env)
	p := &Partition{DropFrom: map[int][]int{}, DropTo: map[int][]int{}}
	others := func(h int) []int {
		var o []int
		for _, x := range hosts {
			if x != h {
				o = append(o, x)
			}
		}
		return o
	}
	switch r.Intn(3) {
	case 0:
		h := hosts[r.Intn(len(hosts))]
		p.Mode = fmt.Sprintf("isolate h%d", h)
		p.DropFrom[h], p.DropTo[h] = others(h), others(h)
	case 1:
		shuffled := append([]int{}, hosts...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		cut := 1 + r.Intn(len(shuffled)-1)
		a, b := append([]int{}, shuffled[:cut]...), append([]int{}, shuffled[cut:]...)
		sort.Ints(a)
		sort.Ints(b)
		p.Mode = fmt.Sprintf("split %v | %v", a, b)
		for _, h := range a {
			p.DropFrom[h], p.DropTo[h] = b, b
		}
	default:
		h := hosts[r.Intn(len(hosts))]
		p.Mode = fmt.Sprintf("one-way: h%d hears nobody", h)
		p.DropFrom[h] = others(h)
	}
	return p
}

func (p *Partition) Kind() string { return "partition" }

func (p *Partition) touched() []int {
	seen := map[int]bool{}
	var hs []int
	for h := range p.DropFrom {
		seen[h] = true
		hs = append(hs, h)
	}
	for h := range p.DropTo {
		if !seen[h] {
			hs = append(hs, h)
		}
	}
	sort.Ints(hs)
	return hs
}

// Rules is the nft script for host h's namespace.
func (p *Partition) Rules(env Env, h int) string {
	dev := env.Device(h)
	var in, out string
	if from := p.DropFrom[h]; len(from) > 0 {
		in = fmt.Sprintf("iifname %q ip saddr { %s } drop;", dev, ipSet(from))
	}
	if to := p.DropTo[h]; len(to) > 0 {
		out = fmt.Sprintf("oifname %q ip daddr { %s } drop;", dev, ipSet(to))
	}
	return filterTable(PartitionTable, in, out)
}

func (p *Partition) Start(env Env) (string, error) {
	for _, h := range p.touched() {
		if _, err := env.Exec(env.Namespace(h), p.Rules(env, h), "nft", "-f", "-"); err != nil {
			_, _ = p.Heal(env)
			return "", err
		}
	}
	return p.Mode, nil
}

func (p *Partition) Heal(env Env) (string, error) {
	return "", deleteTables(env, PartitionTable, p.touched())
}

// ---------------------------------------------------------------- loss (nft numgen)

// Loss drops Percent % of the packets every host receives on its rack interface (nft numgen random).
type Loss struct{ Percent int }

func (l *Loss) Kind() string { return "loss" }

func (l *Loss) Rules(env Env, h int) string {
	return filterTable(LossTable, fmt.Sprintf("iifname %q numgen random mod 100 < %d drop;", env.Device(h), l.Percent), "")
}

func (l *Loss) Start(env Env) (string, error) {
	for _, h := range allHosts(env) {
		if _, err := env.Exec(env.Namespace(h), l.Rules(env, h), "nft", "-f", "-"); err != nil {
			_, _ = l.Heal(env)
			return "", err
		}
	}
	return fmt.Sprintf("%d %% of received packets dropped on every host", l.Percent), nil
}

func (l *Loss) Heal(env Env) (string, error) {
	return "", deleteTables(env, LossTable, allHosts(env))
}

func filterTable(name, input, output string) string {
	return fmt.Sprintf("table inet %s {\n  chain input { type filter hook input priority -10; policy accept; %s }\n"+
		"  chain output { type filter hook output priority -10; policy accept; %s }\n}\n", name, input, output)
}

func ipSet(hosts []int) string {
	s := make([]string, len(hosts))
	for i, h := range hosts {
		s[i] = ip(h)
	}
	return strings.Join(s, ", ")
}

// deleteTables deletes table name in each host's namespace; a table already gone is not an error (a
// heal after a half-made start), any other failure is.
func deleteTables(env Env, name string, hosts []int) error {
	var errs []string
	for _, h := range hosts {
		out, err := env.Exec(env.Namespace(h), "", "nft", "delete", "table", "inet", name)
		if err != nil && !strings.Contains(out+err.Error(), "No such file or directory") {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("healing %s: %s", name, strings.Join(errs, "; "))
	}
	return nil
}

// ---------------------------------------------------------------- p4sim port faults

// PortFault sets delay, duplication or reordering on every port of p4sim (p4sim_port_fault; seeded by
// the switch's seed), healed by clearing every port.
type PortFault struct {
	kind     string
	Settings string
}

func (f *PortFault) Kind() string { return f.kind }

func (f *PortFault) Start(env Env) (string, error) {
	if _, err := env.SwitchCommand("p4sim_port_fault all " + f.Settings); err != nil {
		return "", err
	}
	return "every switch port: " + f.Settings, nil
}

func (f *PortFault) Heal(env Env) (string, error) {
	_, err := env.SwitchCommand("p4sim_port_fault all clear")
	return "", err
}

// ---------------------------------------------------------------- processes

// Kill sends SIGKILL to a server, a client or the controller; Heal starts it again (./innet rack restart).
// ServersOnly: drawn by "kill-server", which kills storage servers only (a durability bug shows only
// when a server dies; "kill" spreads its kills over every process).
type Kill struct {
	Target      string
	ServersOnly bool
}

func (k *Kill) Kind() string {
	if k.ServersOnly {
		return "kill-server"
	}
	return "kill"
}

func (k *Kill) Start(env Env) (string, error) {
	p, err := env.Process(k.Target)
	if err != nil {
		return "", err
	}
	if err := env.Signal(p, syscall.SIGKILL); err != nil {
		return "", err
	}
	return fmt.Sprintf("kill -9 %s (pid %d)", k.Target, p.PID), nil
}

func (k *Kill) Heal(env Env) (string, error) {
	return "restarted " + k.Target, restartIfDead(env, k.Target)
}

// Pause stops a server, a client or the controller with SIGSTOP; Heal resumes it with SIGCONT.
type Pause struct {
	Target string
	pid    Process
}

func (p *Pause) Kind() string { return "pause" }

func (p *Pause) Start(env Env) (string, error) {
	proc, err := env.Process(p.Target)
	if err != nil {
		return "", err
	}
	if err := env.Signal(proc, syscall.SIGSTOP); err != nil {
		return "", err
	}
	p.pid = proc
	return fmt.Sprintf("SIGSTOP %s (pid %d)", p.Target, proc.PID), nil
}

func (p *Pause) Heal(env Env) (string, error) {
	if p.pid.PID == 0 {
		return "", nil
	}
	return "", env.Signal(p.pid, syscall.SIGCONT)
}

// controllerExitGrace: how long a controller that failed with its switch takes to exit (tests shorten it).
var controllerExitGrace = 500 * time.Millisecond

// SwitchCrash kills one p4sim, Target (every table and register lost; "switch" in a one-switch rack,
// "switch-<name>" in a network of several); Heal starts a new, empty p4sim, and the controller
// reattaches and reprograms it. Should the controller have died with the switch (p4sim died in the
// middle of one of its control calls), Heal restarts it too and says so.
type SwitchCrash struct {
	Target string
}

func (s *SwitchCrash) Kind() string { return "switch-crash" }

func (s *SwitchCrash) target() string {
	if s.Target == "" {
		return SingleSwitchProcess
	}
	return s.Target
}

func (s *SwitchCrash) Start(env Env) (string, error) {
	p, err := env.Process(s.target())
	if err != nil {
		return "", err
	}
	if err := env.Signal(p, syscall.SIGKILL); err != nil {
		return "", err
	}
	if s.target() == SingleSwitchProcess {
		return fmt.Sprintf("kill -9 p4sim (pid %d)", p.PID), nil
	}
	return fmt.Sprintf("kill -9 p4sim %s (pid %d)", s.target(), p.PID), nil
}

func (s *SwitchCrash) Heal(env Env) (string, error) {
	if err := restartIfDead(env, s.target()); err != nil {
		return "", err
	}
	controller := processName(env, env.Controller())
	// give a controller that lost its switch mid-call the moment it needs to exit
	time.Sleep(controllerExitGrace)
	p, err := env.Process(controller)
	if err != nil {
		return "", err
	}
	if !alive(env, p) {
		return "restarted the switch; the controller had stopped with it, restarted too", env.Restart(controller)
	}
	return "restarted the switch; the controller reattached", nil
}

// Skew moves a server's or the controller's clock forward (its injected clock; forward only, since a
// Clock never decreases); nothing to heal.
type Skew struct {
	Host   int
	Millis int
}

func (s *Skew) Kind() string { return "skew" }

func (s *Skew) Start(env Env) (string, error) {
	reply, err := env.AskHost(s.Host, fmt.Sprintf("clock-skew %d", s.Millis))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("h%d clock +%d ms (%s)", s.Host, s.Millis, reply), nil
}

func (s *Skew) Heal(Env) (string, error) { return "", nil }

// alive asks the Env whether p runs; RackEnv checks /proc, a test Env decides itself.
func alive(env Env, p Process) bool {
	if a, ok := env.(interface{ Alive(Process) bool }); ok {
		return a.Alive(p)
	}
	return Alive(p)
}

func restartIfDead(env Env, name string) error {
	p, err := env.Process(name)
	if err != nil {
		return err
	}
	if alive(env, p) {
		return nil
	}
	return env.Restart(name)
}
