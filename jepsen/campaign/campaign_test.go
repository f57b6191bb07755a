package campaign

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"innet.dev/jepsen/nemesis"
)

// fakeRack stands for ./innet rack: it hands out a prepared history and records what was asked.
type fakeRack struct {
	history string
	final   string
	upErr   error
	sick    error
	logDir  string
	calls   []string
	env     nemesis.Env
}

func (f *fakeRack) Up(Config) error { f.calls = append(f.calls, "up"); return f.upErr }
func (f *fakeRack) Workload(_ Config, started func()) (string, error) {
	started()
	f.calls = append(f.calls, "run")
	return f.history, nil
}
func (f *fakeRack) FinalReads(Config) (string, error) {
	f.calls = append(f.calls, "final-reads")
	if f.final == "" {
		path := filepath.Join(f.logDir, "..", "empty-final.jsonl")
		return path, os.WriteFile(path, nil, 0o644)
	}
	return f.final, nil
}
func (f *fakeRack) Nemesis() (nemesis.Env, error) {
	f.calls = append(f.calls, "nemesis")
	return f.env, nil
}
func (f *fakeRack) Healthy() error { f.calls = append(f.calls, "healthy"); return f.sick }
func (f *fakeRack) Down() error    { f.calls = append(f.calls, "down"); return nil }
func (f *fakeRack) LogDir() string { return f.logDir }

const key = `"key":"6b000000000000000000000000000000"`

func fixture(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run-1.jsonl")
	data := ""
	for _, l := range lines {
		data += l + "\n"
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func config(t *testing.T) Config {
	return Config{Protocol: "farreach", Servers: 2, Clients: 2, Ops: 2, Keys: 1, Seed: 7, CheckTimeout: 10 * time.Second,
		ResultsRoot: filepath.Join(t.TempDir(), "results", "jepsen")}
}

func logDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "server-h1.log"), []byte("h1 up\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func clock() func() time.Time {
	t := time.Date(2026, 11, 24, 1, 2, 3, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func TestAValidRunIsLaidOutLikeJepsensStore(t *testing.T) {
	rack := &fakeRack{logDir: logDir(t), history: fixture(t,
		`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`,
		`{"client":2,"op":"get",`+key+`,"value":"v1","call":20,"return":30,"result":"ok","id":2}`)}
	c := config(t)
	s, err := Run(c, rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Valid || s.Verdict.ExitCode() != 0 {
		t.Fatalf("verdict %s (%+v), want valid", s.Verdict, s)
	}
	if got := []string{"up", "run", "final-reads", "healthy", "down"}; strings.Join(rack.calls, ",") != strings.Join(got, ",") {
		t.Fatalf("calls %v, want %v", rack.calls, got)
	}
	for _, f := range []string{"history.jsonl", "history.html", "summary.json", "timeline.jsonl", "plot.html", "logs/server-h1.log"} {
		if _, err := os.Stat(filepath.Join(s.Dir, f)); err != nil {
			t.Errorf("results lack %s: %v", f, err)
		}
	}
	latest, err := filepath.EvalSymlinks(filepath.Join(c.ResultsRoot, "latest"))
	if err != nil || latest != s.Dir {
		t.Fatalf("latest -> %q (%v), want %q", latest, err, s.Dir)
	}
	var back Summary
	data, _ := os.ReadFile(filepath.Join(s.Dir, "summary.json"))
	if err := json.Unmarshal(data, &back); err != nil || back.Verdict != Valid || back.FinalState.KeysRead != 1 {
		t.Fatalf("summary.json = %s (%v)", data, err)
	}
}

func TestAStaleFinalReadMakesTheRunInvalid(t *testing.T) {
	rack := &fakeRack{logDir: logDir(t), history: fixture(t,
		`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`,
		`{"client":1,"op":"put",`+key+`,"value":"v2","call":20,"return":30,"result":"ok","id":2}`,
		`{"client":2,"op":"get",`+key+`,"value":"v1","call":40,"return":50,"result":"ok","id":3}`)}
	s, err := Run(config(t), rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Invalid || s.Verdict.ExitCode() != 1 || len(s.NonLinearKeys) != 1 || len(s.FinalState.Lost) != 1 {
		t.Fatalf("got %+v, want invalid with one non-linearizable key and one lost write", s)
	}
}

func TestAWrittenKeyWithoutAFinalReadMakesTheRunUnknown(t *testing.T) {
	// the final read timed out: the rack did not answer after the heal
	rack := &fakeRack{logDir: logDir(t), history: fixture(t,
		`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`,
		`{"client":2,"op":"get",`+key+`,"call":20,"return":30,"result":"unknown","id":2}`)}
	s, err := Run(config(t), rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Unknown || len(s.FinalState.Unread) != 1 || !strings.Contains(s.Error, "no final read") {
		t.Fatalf("got %+v, want unknown naming the unread key", s)
	}
}

func TestAProcessThatDiedDuringTheRunMakesItInvalid(t *testing.T) {
	rack := &fakeRack{logDir: logDir(t), sick: errors.New("server-h2 NOT RUNNING"), history: fixture(t,
		`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`,
		`{"client":2,"op":"get",`+key+`,"value":"v1","call":20,"return":30,"result":"ok","id":2}`)}
	s, err := Run(config(t), rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Invalid || s.Unhealthy != "server-h2 NOT RUNNING" {
		t.Fatalf("got %+v, want invalid naming the process", s)
	}
}

func TestARackThatDoesNotComeUpIsUnknownAndTornDown(t *testing.T) {
	rack := &fakeRack{logDir: logDir(t), upErr: errors.New("h3 did not answer")}
	s, err := Run(config(t), rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Unknown || s.Verdict.ExitCode() != 2 || s.Error == "" {
		t.Fatalf("got %+v, want unknown with the error", s)
	}
	if len(rack.calls) != 2 || rack.calls[1] != "down" {
		t.Fatalf("calls %v, want up then down", rack.calls)
	}
}

func TestBadSettingsAreNamed(t *testing.T) {
	c := config(t)
	c.Ops = 1
	if err := c.Validate(); err == nil || err.Error() != "-ops must be at least one per client (2), got 1" {
		t.Fatalf("got %v", err)
	}
}

func TestBmv2TargetRefusesTheNemesesThatNeedP4sim(t *testing.T) {
	c := config(t)
	c.Time = time.Second
	c.Target = "bmv2"
	c.Nemeses = []string{"partition", "kill", "pause", "switch-crash"}
	if err := c.Validate(); err != nil {
		t.Fatalf("bmv2 with partition,kill,pause,switch-crash: %v", err)
	}
	c.Nemeses = []string{"partition", "delay", "switch-crash", "reorder"}
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "the nemeses delay,reorder need p4sim") {
		t.Fatalf("got %v, want delay and reorder named", err)
	}
	c.Nemeses = nil
	c.Target = "tofino"
	if err := c.Validate(); err == nil || err.Error() != `-target must be p4sim or bmv2, got "tofino"` {
		t.Fatalf("got %v", err)
	}
	c.Target = "p4sim"
	c.Control = "p4runtime"
	if err := c.Validate(); err != nil {
		t.Fatalf("p4sim with -control p4runtime: %v", err)
	}
	c.Control = "thrift"
	if err := c.Validate(); err == nil || err.Error() != `-control must be cli or p4runtime, got "thrift"` {
		t.Fatalf("got %v", err)
	}
	c.Target = "bmv2"
	c.Control = "p4runtime"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "-control p4runtime needs -target p4sim") {
		t.Fatalf("got %v", err)
	}
}

func TestTheStartLineIsSeenAcrossWrites(t *testing.T) {
	n := 0
	w := &lineWatch{line: "rack run: started", seen: func() { n++ }}
	for _, part := range []string{"rack run: h1 ok\nrack run: sta", "rted\nrack run: started\n"} {
		if _, err := w.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if n != 1 {
		t.Fatalf("seen %d times, want once", n)
	}
}

func TestTheHistoryPathIsFoundInRackRunsOutput(t *testing.T) {
	got, err := HistoryPathFrom("rack run: h3 done ops=1\nrack run: history /x/run-1.jsonl\n")
	if err != nil || got != "/x/run-1.jsonl" {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := HistoryPathFrom("nothing"); err == nil {
		t.Fatal("want an error without the line")
	}
}

// skewOnlyEnv takes clock jumps and is always healthy: enough to run a schedule of skews.
type skewOnlyEnv struct{ asked []string }

func (e *skewOnlyEnv) Servers() []int          { return []int{1} }
func (e *skewOnlyEnv) Clients() []int          { return []int{2} }
func (e *skewOnlyEnv) Controller() int         { return 254 }
func (e *skewOnlyEnv) Namespace(h int) string  { return "ns" }
func (e *skewOnlyEnv) Device(h int) string     { return "eth0" }
func (e *skewOnlyEnv) SwitchNamespace() string { return "sw" }
func (e *skewOnlyEnv) Exec(string, string, ...string) (string, error) {
	return "", errors.New("no exec here")
}
func (e *skewOnlyEnv) Process(name string) (nemesis.Process, error) {
	return nemesis.Process{Name: name}, nil
}
func (e *skewOnlyEnv) Alive(nemesis.Process) bool { return true }
func (e *skewOnlyEnv) Signal(nemesis.Process, syscall.Signal) error {
	return errors.New("no signals here")
}
func (e *skewOnlyEnv) Restart(string) error { return errors.New("no restarts here") }
func (e *skewOnlyEnv) AskHost(h int, r string) (string, error) {
	e.asked = append(e.asked, r)
	return "ok", nil
}
func (e *skewOnlyEnv) SwitchCommand(string) (string, error) { return "", errors.New("no switch here") }
func (e *skewOnlyEnv) Healthy() error                       { return nil }

type slowRack struct{ fakeRack }

func (s *slowRack) Workload(c Config, started func()) (string, error) {
	started()
	time.Sleep(400 * time.Millisecond)
	return s.fakeRack.Workload(c, func() {})
}

func TestNemesesRunDuringTheWorkloadAndTheTimelineAndPlotAreKept(t *testing.T) {
	env := &skewOnlyEnv{}
	rack := &slowRack{fakeRack{logDir: logDir(t), env: env, history: fixture(t,
		`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`,
		`{"client":2,"op":"get",`+key+`,"value":"v1","call":20,"return":30,"result":"ok","id":2}`)}}
	c := config(t)
	c.Nemeses, c.Time, c.Quiet, c.Hold = []string{"skew"}, 2*time.Second, 20*time.Millisecond, 20*time.Millisecond
	s, err := Run(c, rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Valid || s.Faults < 2 || len(env.asked) != s.Faults {
		t.Fatalf("got %+v with %d clock jumps, want valid with the faults counted", s, len(env.asked))
	}
	if got := strings.Join(rack.calls, ","); got != "up,nemesis,run,final-reads,healthy,down" {
		t.Fatalf("calls %s", got)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, "timeline.jsonl"))
	if err != nil || strings.Count(string(data), `"kind":"skew"`) != s.Faults || !strings.Contains(string(data), "after the workload") {
		t.Fatalf("timeline: %s (%v)", data, err)
	}
	plot, err := os.ReadFile(filepath.Join(s.Dir, "plot.html"))
	if err != nil || !strings.Contains(string(plot), "<svg") || strings.Count(string(plot), "<b>skew</b>") != s.Faults {
		t.Fatalf("plot: %v\n%s", err, plot)
	}
}

func TestANemesisWithoutATimeIsRefused(t *testing.T) {
	c := config(t)
	c.Nemeses = []string{"kill"}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "-time") {
		t.Fatalf("got %v", err)
	}
}

// failingEnv refuses every fault: a campaign whose faults were not injected must not pass.
type failingEnv struct{ skewOnlyEnv }

func (e *failingEnv) AskHost(int, string) (string, error) { return "", errors.New("no such host") }

func TestFaultsThatCouldNotBeInjectedMakeTheRunUnknown(t *testing.T) {
	rack := &slowRack{fakeRack{logDir: logDir(t), env: &failingEnv{}, history: fixture(t,
		`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`,
		`{"client":2,"op":"get",`+key+`,"value":"v1","call":20,"return":30,"result":"ok","id":2}`)}}
	c := config(t)
	c.Nemeses, c.Time, c.Quiet, c.Hold = []string{"skew"}, 2*time.Second, 20*time.Millisecond, 20*time.Millisecond
	s, err := Run(c, rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Unknown || len(s.FaultErrors) == 0 || !strings.Contains(s.Error, "nemesis steps failed") {
		t.Fatalf("got %+v, want unknown naming the failed faults", s)
	}
}
