package nemesis

import (
	"fmt"
	"io"
	"math/rand"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeEnv is a two-server, one-client rack that records what the nemeses do and keeps the state they
// change (nft tables per namespace, dead and stopped processes, port faults, clock offsets).
type fakeEnv struct {
	calls    []string
	tables   map[string]bool // "ns/table"
	dead     map[string]bool
	stopped  map[string]bool
	ports    string
	skew     map[int]int
	restarts []string
	// controllerDiesWithSwitch: a switch crash also kills the controller
	controllerDiesWithSwitch bool
}

func newFake() *fakeEnv {
	return &fakeEnv{tables: map[string]bool{}, dead: map[string]bool{}, stopped: map[string]bool{}, skew: map[int]int{}}
}

func (f *fakeEnv) Servers() []int          { return []int{1, 2} }
func (f *fakeEnv) Clients() []int          { return []int{3} }
func (f *fakeEnv) Controller() int         { return 254 }
func (f *fakeEnv) SwitchNamespace() string { return "sw" }
func (f *fakeEnv) Namespace(h int) string {
	if h == 254 {
		return "sw"
	}
	return fmt.Sprintf("h%d", h)
}
func (f *fakeEnv) Device(h int) string {
	if h == 254 {
		return "ctl0"
	}
	return "eth0"
}

func (f *fakeEnv) Exec(ns, stdin string, args ...string) (string, error) {
	f.calls = append(f.calls, ns+": "+strings.Join(args, " ")+" <<"+stdin)
	if len(args) >= 3 && args[0] == "nft" && args[1] == "-f" {
		name := strings.Fields(stdin)[2]
		if f.tables[ns+"/"+name] {
			return "", fmt.Errorf("table exists")
		}
		f.tables[ns+"/"+name] = true
		return "", nil
	}
	if len(args) == 5 && args[0] == "nft" && args[1] == "delete" {
		if !f.tables[ns+"/"+args[4]] {
			return "Error: No such file or directory", fmt.Errorf("exit 1")
		}
		delete(f.tables, ns+"/"+args[4])
		return "", nil
	}
	return "", fmt.Errorf("unexpected command %v", args)
}

func (f *fakeEnv) Process(name string) (Process, error) { return Process{Name: name, PID: 100}, nil }
func (f *fakeEnv) Alive(p Process) bool                 { return !f.dead[p.Name] }
func (f *fakeEnv) Signal(p Process, sig syscall.Signal) error {
	f.calls = append(f.calls, fmt.Sprintf("signal %s %v", p.Name, sig))
	switch sig {
	case syscall.SIGKILL:
		f.dead[p.Name] = true
		if p.Name == "switch" && f.controllerDiesWithSwitch {
			f.dead["controller-h254"] = true
		}
	case syscall.SIGSTOP:
		f.stopped[p.Name] = true
	case syscall.SIGCONT:
		delete(f.stopped, p.Name)
	}
	return nil
}
func (f *fakeEnv) Restart(name string) error {
	if !f.dead[name] {
		return fmt.Errorf("%s is still running", name)
	}
	f.restarts = append(f.restarts, name)
	delete(f.dead, name)
	return nil
}
func (f *fakeEnv) AskHost(h int, request string) (string, error) {
	var ms int
	if _, err := fmt.Sscanf(request, "clock-skew %d", &ms); err != nil {
		return "", err
	}
	f.skew[h] += ms
	return fmt.Sprintf("ok offset_ms=%d", f.skew[h]), nil
}
func (f *fakeEnv) SwitchCommand(c string) (string, error) {
	f.calls = append(f.calls, "switch: "+c)
	f.ports = strings.TrimPrefix(c, "p4sim_port_fault all ")
	return "ok", nil
}
func (f *fakeEnv) Healthy() error {
	var bad []string
	for n := range f.dead {
		bad = append(bad, n+" dead")
	}
	for n := range f.stopped {
		bad = append(bad, n+" stopped")
	}
	if len(bad) > 0 {
		return fmt.Errorf("%v", bad)
	}
	return nil
}

func TestIsolatingAHostDropsEveryOtherHostThereAndHealingDeletesOnlyThatTable(t *testing.T) {
	env := newFake()
	p := &Partition{Mode: "isolate h1", DropFrom: map[int][]int{1: {2, 3, 254}}, DropTo: map[int][]int{1: {2, 3, 254}}}
	env.tables["h1/other"] = true
	if _, err := p.Start(env); err != nil {
		t.Fatal(err)
	}
	rules := p.Rules(env, 1)
	for _, want := range []string{`iifname "eth0" ip saddr { 10.0.0.2, 10.0.0.3, 10.0.0.254 } drop;`,
		`oifname "eth0" ip daddr { 10.0.0.2, 10.0.0.3, 10.0.0.254 } drop;`, "table inet innet_partition"} {
		if !strings.Contains(rules, want) {
			t.Errorf("rules lack %q:\n%s", want, rules)
		}
	}
	if !env.tables["h1/innet_partition"] || len(env.tables) != 2 {
		t.Fatalf("tables after start: %v", env.tables)
	}
	if _, err := p.Heal(env); err != nil {
		t.Fatal(err)
	}
	if len(env.tables) != 1 || !env.tables["h1/other"] {
		t.Fatalf("heal must delete exactly innet_partition: %v", env.tables)
	}
}

func TestTheControllerIsPartitionedOnItsOwnLinkNotOnTheSwitchsLoopback(t *testing.T) {
	env := newFake()
	p := &Partition{DropFrom: map[int][]int{254: {1}}}
	rules := p.Rules(env, 254)
	if !strings.Contains(rules, `iifname "ctl0" ip saddr { 10.0.0.1 } drop;`) || strings.Contains(rules, "daddr") {
		t.Fatalf("one-way rules for the controller:\n%s", rules)
	}
}

func TestDrawnPartitionsAreSeededAndCoverEveryMode(t *testing.T) {
	env := newFake()
	modes := map[string]bool{}
	for seed := int64(0); seed < 40; seed++ {
		a := newPartition(env, rand.New(rand.NewSource(seed)))
		b := newPartition(env, rand.New(rand.NewSource(seed)))
		if a.Mode != b.Mode {
			t.Fatalf("seed %d: %q then %q", seed, a.Mode, b.Mode)
		}
		modes[strings.Fields(a.Mode)[0]] = true
		for h, from := range a.DropFrom {
			for _, x := range from {
				if x == h {
					t.Fatalf("%s: h%d drops itself", a.Mode, h)
				}
			}
		}
	}
	for _, m := range []string{"isolate", "split", "one-way:"} {
		if !modes[m] {
			t.Errorf("mode %s never drawn: %v", m, modes)
		}
	}
}

func TestLossDropsAShareOfEveryHostsInputWithNumgen(t *testing.T) {
	env := newFake()
	l := &Loss{Percent: 17}
	if _, err := l.Start(env); err != nil {
		t.Fatal(err)
	}
	if len(env.tables) != 4 {
		t.Fatalf("loss in every host's namespace (h1 h2 h3 sw): %v", env.tables)
	}
	if r := l.Rules(env, 254); !strings.Contains(r, `iifname "ctl0" numgen random mod 100 < 17 drop;`) {
		t.Fatalf("rules: %s", r)
	}
	if _, err := l.Heal(env); err != nil || len(env.tables) != 0 {
		t.Fatalf("heal: %v, left %v", err, env.tables)
	}
}

func TestKillRestartsAndASwitchCrashRestartsAControllerThatDiedWithIt(t *testing.T) {
	env := newFake()
	k := &Kill{Target: "server-h2"}
	if _, err := k.Start(env); err != nil || !env.dead["server-h2"] {
		t.Fatalf("kill: %v %v", err, env.dead)
	}
	if _, err := k.Heal(env); err != nil || env.dead["server-h2"] {
		t.Fatalf("restart: %v %v", err, env.dead)
	}
	env.controllerDiesWithSwitch = true
	s := &SwitchCrash{}
	if _, err := s.Start(env); err != nil {
		t.Fatal(err)
	}
	note, err := s.Heal(env)
	if err != nil || !strings.Contains(note, "controller had stopped") || env.Healthy() != nil {
		t.Fatalf("heal: %q %v %v", note, err, env.Healthy())
	}
	if got := strings.Join(env.restarts, ","); got != "server-h2,switch,controller-h254" {
		t.Fatalf("restarts: %s", got)
	}
}

func TestPauseResumesAndPortFaultsClear(t *testing.T) {
	env := newFake()
	p := &Pause{Target: "controller-h254"}
	if _, err := p.Start(env); err != nil || env.Healthy() == nil {
		t.Fatalf("pause: %v", err)
	}
	if _, err := p.Heal(env); err != nil || env.Healthy() != nil {
		t.Fatalf("resume: %v %v", err, env.Healthy())
	}
	f, _ := New("reorder", env, rand.New(rand.NewSource(3)))
	if _, err := f.Start(env); err != nil || !strings.HasPrefix(env.ports, "reorder=") {
		t.Fatalf("reorder: %v %q", err, env.ports)
	}
	if _, err := f.Heal(env); err != nil || env.ports != "clear" {
		t.Fatalf("clear: %v %q", err, env.ports)
	}
}

func TestAScheduleHealsEveryFaultAndRecordsEachInterval(t *testing.T) {
	controllerExitGrace = 0
	env := newFake()
	cfg := Config{Kinds: append([]string{}, Kinds...), Combined: true, Duration: 300 * time.Millisecond,
		Quiet: 5 * time.Millisecond, Hold: 5 * time.Millisecond, Recover: 50 * time.Millisecond, Seed: 9}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	events := Schedule(env, cfg, make(chan struct{}), io.Discard)
	faults := 0
	for _, e := range events {
		if e.Error != "" {
			t.Fatalf("event failed: %+v", e)
		}
		if e.End.Before(e.Start) || e.EndMono < e.StartMono {
			t.Fatalf("interval backwards: %+v", e)
		}
		if e.Kind != "health" {
			faults++
		}
	}
	if faults < 4 {
		t.Fatalf("only %d faults in 300 ms", faults)
	}
	if len(env.tables) != 0 || env.Healthy() != nil {
		t.Fatalf("left broken: tables %v, %v", env.tables, env.Healthy())
	}
	if env.ports != "" && env.ports != "clear" {
		t.Fatalf("port faults left: %q", env.ports)
	}
}

func TestParseKinds(t *testing.T) {
	if k, c, err := ParseKinds("all"); err != nil || !c || len(k) != len(Kinds) {
		t.Fatalf("all: %v %v %v", k, c, err)
	}
	if k, c, err := ParseKinds("kill,loss"); err != nil || c || strings.Join(k, ",") != "kill,loss" {
		t.Fatalf("list: %v %v %v", k, c, err)
	}
	if _, _, err := ParseKinds("kill,meteor"); err == nil || !strings.Contains(err.Error(), "meteor") {
		t.Fatalf("unknown: %v", err)
	}
	if k, _, err := ParseKinds("none"); err != nil || k != nil {
		t.Fatalf("none: %v %v", k, err)
	}
}

func TestKillServerKillsOnlyStorageServers(t *testing.T) {
	env := newFake()
	r := rand.New(rand.NewSource(1))
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		f, err := New("kill-server", env, r)
		if err != nil {
			t.Fatal(err)
		}
		k := f.(*Kill)
		if !strings.HasPrefix(k.Target, "server-h") || f.Kind() != "kill-server" {
			t.Fatalf("kill-server drew %q (kind %s)", k.Target, f.Kind())
		}
		seen[k.Target] = true
	}
	if len(seen) != 2 {
		t.Fatalf("kill-server should reach both servers, drew %v", seen)
	}
	// plain kill reaches clients and the controller too
	other := false
	for i := 0; i < 200; i++ {
		f, _ := New("kill", env, r)
		if !strings.HasPrefix(f.(*Kill).Target, "server-h") {
			other = true
		}
	}
	if !other {
		t.Fatal("kill never drew a client or the controller")
	}
}

// switchedEnv is fakeEnv with a network of switches (DistCache's leaf-spine: one p4sim each).
type switchedEnv struct {
	*fakeEnv
	switches []string
}

func (s *switchedEnv) SwitchProcesses() []string { return s.switches }

func TestASwitchCrashInANetworkKillsAndRestartsOneOfItsSwitches(t *testing.T) {
	env := &switchedEnv{fakeEnv: newFake(), switches: []string{"switch-spine1", "switch-spine2", "switch-leaf1"}}
	drawn := map[string]bool{}
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 60; i++ {
		f, err := New("switch-crash", env, r)
		if err != nil {
			t.Fatal(err)
		}
		drawn[f.(*SwitchCrash).Target] = true
	}
	if len(drawn) != 3 || drawn["switch"] {
		t.Fatalf("targets drawn: %v, want each of the network's switches and never the one-switch name", drawn)
	}
	s := &SwitchCrash{Target: "switch-leaf1"}
	what, err := s.Start(env)
	if err != nil || !strings.Contains(what, "switch-leaf1") || !env.dead["switch-leaf1"] || env.dead["switch-spine1"] {
		t.Fatalf("start: %q %v, dead %v", what, err, env.dead)
	}
	if _, err := s.Heal(env); err != nil || len(env.restarts) != 1 || env.restarts[0] != "switch-leaf1" {
		t.Fatalf("heal: %v, restarts %v", err, env.restarts)
	}
	names := recordedNames(env)
	for _, want := range env.switches {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Fatalf("recorded names %v lack %s", names, want)
		}
	}
	if got := SwitchProcesses(newFake()); len(got) != 1 || got[0] != "switch" {
		t.Fatalf("a one-switch env: %v", got)
	}
}

func TestThePlansSwitchesSettingIsParsedAndBadOnesAreRefused(t *testing.T) {
	got, err := parseSwitches("switch-spine1:9090,switch-ctor:9094")
	if err != nil || len(got) != 2 || got[1] != (SwitchProcess{Name: "switch-ctor", ControlPort: 9094}) {
		t.Fatalf("%v %v", got, err)
	}
	got, err = parseSwitches("")
	if err != nil || len(got) != 1 || got[0] != (SwitchProcess{Name: "switch", ControlPort: 9090}) {
		t.Fatalf("a plan without the setting (one switch): %v %v", got, err)
	}
	for _, bad := range []string{"switch", "switch:", ":9090", "switch:x", "switch:70000", "a:1,b"} {
		if _, err := parseSwitches(bad); err == nil {
			t.Fatalf("%q was accepted", bad)
		}
	}
}

func TestAOneSwitchRacksSwitchCrashDrawsNothingFromTheSeed(t *testing.T) {
	a, b := rand.New(rand.NewSource(9)), rand.New(rand.NewSource(9))
	f, err := New("switch-crash", newFake(), a)
	if err != nil || f.(*SwitchCrash).Target != "switch" {
		t.Fatalf("%v %v", f, err)
	}
	if a.Int63() != b.Int63() {
		t.Fatal("a one-switch switch crash consumed randomness: every later draw of the schedule would move")
	}
}
