package campaign

import (
	"io"
	"strings"
	"testing"
	"time"

	"innet.dev/jepsen/nemesis"
)

// memcachedEnv is a skew-taking env whose rack runs memcached (LaKe): it records its limits.
type memcachedEnv struct{ skewOnlyEnv }

func (e *memcachedEnv) Limits() nemesis.Limits {
	return nemesis.Limits{NoDuplication: true, ServerProgram: "memcached", VolatileServers: true}
}

func TestACampaignNamingAFaultTheProtocolDoesNotPromiseIsRefusedAndTornDown(t *testing.T) {
	rack := &slowRack{fakeRack{logDir: logDir(t), env: &memcachedEnv{}, history: fixture(t,
		`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`)}}
	c := config(t)
	c.Protocol = "lake"
	c.Nemeses, c.Time, c.Quiet, c.Hold = []string{"skew", "dup"}, 2*time.Second, 20*time.Millisecond, 20*time.Millisecond
	s, err := Run(c, rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Unknown || !strings.Contains(s.Error, "nemesis dup is not run against this rack") {
		t.Fatalf("got %+v, want unknown naming dup", s)
	}
	if got := strings.Join(rack.calls, ","); !strings.HasSuffix(got, "down") {
		t.Fatalf("the rack must still be taken down: %s", got)
	}
}

func TestUnderAllTheLeftOutFaultsAreNotedAndTheRestRun(t *testing.T) {
	env := &memcachedEnv{}
	rack := &slowRack{fakeRack{logDir: logDir(t), env: env, history: fixture(t,
		`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`,
		`{"client":2,"op":"get",`+key+`,"value":"v1","call":20,"return":30,"result":"ok","id":2}`)}}
	c := config(t)
	c.Protocol = "lake"
	// combined (as --nemesis all), with only skew besides the two left out: every round jumps the controller's clock
	c.Nemeses, c.Combined = []string{"skew", "dup", "kill-server"}, true
	c.Time, c.Quiet, c.Hold = 2*time.Second, 20*time.Millisecond, 20*time.Millisecond
	s, err := Run(c, rack, clock(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(s.NemesisNotes, "|")
	if s.Verdict != Valid || !strings.Contains(notes, "dup left out") || !strings.Contains(notes, "kill-server left out") {
		t.Fatalf("got %+v", s)
	}
	if s.Faults == 0 || len(env.asked) != s.Faults {
		t.Fatalf("the remaining faults did not run: %d faults, %v", s.Faults, env.asked)
	}
}
