package campaign

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"innet.dev/jepsen/history"
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

func TestAVolatileServersRestartIsTheDeletionOfTheKeysItHeld(t *testing.T) {
	owners := map[string]int{"aa": 1, "bb": 2, "cc": 1}
	events := []nemesis.Event{
		{Kind: "kill", What: "kill -9 server-h1 (pid 5)", Note: "restarted server-h1", StartMono: 100, EndMono: 200},
		{Kind: "kill", What: "kill -9 client-h3 (pid 6)", Note: "restarted client-h3", StartMono: 300, EndMono: 400},
		{Kind: "health", What: "after round 2", Note: "restarted server-h2, controller-h254", StartMono: 500, EndMono: 600},
		{Kind: "pause", What: "SIGSTOP server-h1 (pid 7)", StartMono: 700, EndMono: 800},
	}
	wipes := Wipes(events, owners)
	var got []string
	for _, w := range wipes {
		if w.Kind != history.Delete || w.Result != history.OK || w.Client < WipeClientBase {
			t.Fatalf("a wipe is an acknowledged delete of a client of its own: %+v", w)
		}
		got = append(got, fmt.Sprintf("%s@%d-%d", w.Key, w.Call, w.Return))
	}
	if strings.Join(got, " ") != "aa@100-200 cc@100-200 bb@500-600" {
		t.Fatalf("wipes %v", got)
	}
}

func TestWipesMakeAKilledMemcachedsLossValidAndTheirAbsenceInvalid(t *testing.T) {
	// a put acknowledged, then memcached h1 killed and restarted (its key gone), then a final read
	// that finds nothing: memcached's own behaviour, valid once the restart is in the history
	hist := func() string {
		return fixture(t,
			`{"client":1,"op":"put",`+key+`,"value":"v1","call":0,"return":10,"result":"ok","id":1}`,
			`{"client":2,"op":"get",`+key+`,"call":1000000000000,"return":1000000000010,"result":"not_found","id":2}`)
	}
	killAt := nemesis.Event{Kind: "kill", What: "kill -9 server-h1 (pid 5)", Note: "restarted server-h1", StartMono: 20, EndMono: 30}
	c := config(t)
	s := Summary{}
	dir := t.TempDir()
	owners := map[string]int{"6b000000000000000000000000000000": 1}
	used := limitsUsed{lim: nemesis.Limits{VolatileServers: true, WipesModelled: true}, owners: owners}
	if err := check(c, hist(), dir, []nemesis.Event{killAt}, &s, io.Discard, used); err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Valid || s.ServerWipes != 1 {
		t.Fatalf("with the wipe: %+v", s)
	}
	s = Summary{}
	if err := check(c, hist(), t.TempDir(), []nemesis.Event{killAt}, &s, io.Discard, limitsUsed{}); err != nil {
		t.Fatal(err)
	}
	if s.Verdict != Invalid {
		t.Fatalf("without the wipe the loss must be a violation: %+v", s)
	}
}
