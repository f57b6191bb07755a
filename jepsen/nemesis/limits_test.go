package nemesis

import (
	"math/rand"
	"strings"
	"testing"
)

// limitedEnv is the recorder env of a rack whose protocol is LaKe-like: memcached servers.
type limitedEnv struct {
	*fakeEnv
	lim Limits
}

func (l limitedEnv) Limits() Limits { return l.lim }

func memcachedLimits() Limits {
	return limitsFromSettings(map[string]string{"duplication-tolerated": "no", "server-program": "memcached",
		"servers-durable": "no"})
}

func TestLimitsAreReadFromThePlanSettings(t *testing.T) {
	lim := memcachedLimits()
	if !lim.NoDuplication || !lim.VolatileServers || lim.ServerProgram != "memcached" {
		t.Fatalf("limits %+v", lim)
	}
	if none := limitsFromSettings(map[string]string{"duplication-tolerated": "yes"}); none != (Limits{}) {
		t.Fatalf("a protocol with its own durable servers has no limits, got %+v", none)
	}
}

func TestRestrictLeavesOutUnpromisedFaultsUnderAllAndRefusesThemByName(t *testing.T) {
	kept, notes, err := Restrict(append([]string{}, Kinds...), true, memcachedLimits())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kept {
		if k == "dup" || k == "kill-server" {
			t.Fatalf("%s kept: %v", k, kept)
		}
	}
	if len(kept) != len(Kinds)-2 || !strings.Contains(strings.Join(notes, "|"), "dup left out") {
		t.Fatalf("kept %v, notes %v", kept, notes)
	}
	if _, _, err := Restrict([]string{"loss", "dup"}, false, memcachedLimits()); err == nil || !strings.Contains(err.Error(), "dup") {
		t.Fatalf("dup named explicitly must be refused, got %v", err)
	}
	if _, _, err := Restrict([]string{"kill-server"}, false, memcachedLimits()); err == nil {
		t.Fatal("kill-server of memcached must be refused")
	}
	if _, notes, _ := Restrict([]string{"loss"}, false, memcachedLimits()); len(notes) != 0 {
		t.Fatalf("notes about faults not run: %v", notes)
	}
	if kept, _, err := Restrict([]string{"dup", "kill-server"}, false, Limits{}); err != nil || len(kept) != 2 {
		t.Fatalf("without limits everything runs: %v %v", kept, err)
	}
}

func TestKillAndSkewSpareServersTheyCannotTest(t *testing.T) {
	env := limitedEnv{fakeEnv: newFake(), lim: memcachedLimits()}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		f, err := New("kill", env, r)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(f.(*Kill).Target, "server-") {
			t.Fatalf("kill drew %s, a memcached server", f.(*Kill).Target)
		}
		s, _ := New("skew", env, r)
		if s.(*Skew).Host != env.Controller() {
			t.Fatalf("skew drew h%d, which has no injected clock", s.(*Skew).Host)
		}
	}
	// the same draws without limits reach servers: the restriction is what spares them
	plain, servers := newFake(), 0
	for i := 0; i < 200; i++ {
		f, _ := New("kill", plain, r)
		if strings.HasPrefix(f.(*Kill).Target, "server-") {
			servers++
		}
	}
	if servers == 0 {
		t.Fatal("an unrestricted kill never drew a server")
	}
}
