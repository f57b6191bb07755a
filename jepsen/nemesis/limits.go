package nemesis

import (
	"fmt"
	"strings"
)

// Limits are what a rack's protocol cannot be held to, as ./innet rack up records them in the plan
// (docs/jepsen.md, "Protocols whose guarantee is narrower"): LaKe's memcached applies a duplicated SET
// twice, so its guarantee assumes a network that does not duplicate; memcached keeps items in memory,
// so a killed memcached comes back empty (memcached's own behaviour, which no cache in front of it can
// hide); memcached has no command socket, so its clock cannot be skewed.
type Limits struct {
	// NoDuplication: the protocol's guarantee assumes the network does not duplicate packets.
	NoDuplication bool
	// ServerProgram names the program the servers run if it is not innet's own ("memcached"), else "".
	ServerProgram string
	// VolatileServers: a killed server loses what it held (memcached).
	VolatileServers bool
	// WipesModelled: the campaign knows which keys each server holds, so its checker takes a volatile
	// server's restart as the deletion of those keys (campaign.Wipes) and server kills can run.
	WipesModelled bool
}

// Limited is an Env that knows its rack's Limits (RackEnv reads them from the plan).
type Limited interface {
	Limits() Limits
}

// LimitsOf is env's Limits, or none if env does not say.
func LimitsOf(env Env) Limits {
	if l, ok := env.(Limited); ok {
		return l.Limits()
	}
	return Limits{}
}

func limitsFromSettings(settings map[string]string) Limits {
	return Limits{
		NoDuplication:   settings["duplication-tolerated"] == "no",
		ServerProgram:   settings["server-program"],
		VolatileServers: settings["servers-durable"] == "no",
	}
}

// Restrict takes out of kinds the faults the rack's protocol does not promise to survive: dup when
// it needs a network without duplication, kill-server when its servers are volatile. Under a combined
// schedule (--nemesis all) they are left out and notes say why; listed by name they are an error, since
// the campaign would test a guarantee the protocol does not give. A plain kill then draws no server
// (Kill's target, New), and skew no server without a command socket.
func Restrict(kinds []string, combined bool, lim Limits) (kept []string, notes []string, err error) {
	for _, k := range kinds {
		var why string
		switch {
		case k == "dup" && lim.NoDuplication:
			why = "the protocol's guarantee assumes a network that does not duplicate packets (its servers apply a duplicated write twice)"
		case k == "kill-server" && lim.VolatileServers && !lim.WipesModelled:
			why = fmt.Sprintf("its servers (%s) keep data in memory only: a killed server comes back empty, and this campaign cannot tell which keys it held", lim.ServerProgram)
		}
		if why == "" {
			kept = append(kept, k)
			continue
		}
		if !combined {
			return nil, nil, fmt.Errorf("nemesis %s is not run against this rack: %s (docs/jepsen.md)", k, why)
		}
		notes = append(notes, k+" left out: "+why)
	}
	if len(kept) == 0 {
		return nil, notes, fmt.Errorf("no nemesis left to run (%s)", strings.Join(notes, "; "))
	}
	if lim.VolatileServers && !lim.WipesModelled && contains(kept, "kill") {
		notes = append(notes, "kill draws no server (they are volatile); pause may stop one")
	}
	if lim.VolatileServers && lim.WipesModelled && (contains(kept, "kill") || contains(kept, "kill-server")) {
		notes = append(notes, "a killed "+lim.ServerProgram+" restarts empty: the checker takes each restart as the deletion of the keys that server held")
	}
	if lim.ServerProgram != "" && contains(kept, "skew") {
		notes = append(notes, "skew: only the controller's clock (the servers run "+lim.ServerProgram+", which has no injected clock)")
	}
	return kept, notes, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// killTargets: every host, without volatile servers whose losses the checker cannot model.
func killTargets(env Env, lim Limits) []int {
	if lim.VolatileServers && !lim.WipesModelled {
		return append(append([]int{}, env.Clients()...), env.Controller())
	}
	return allHosts(env)
}

// skewTargets: the servers and the controller, without servers that have no injected clock.
func skewTargets(env Env, lim Limits) []int {
	if lim.ServerProgram != "" {
		return []int{env.Controller()}
	}
	return append(append([]int{}, env.Servers()...), env.Controller())
}
