// Command jepsen runs a campaign against a live innet rack (docs/jepsen.md): it brings a rack up
// through ./innet rack, runs a workload of unique-value reads, writes and deletes from several
// clients with a final read of every key, takes the rack down, and checks the history (porcupine
// per key; no acknowledged write lost). Results go to results/jepsen/<protocol>/<time>/, with
// results/jepsen/latest pointing at the newest run. With -nemesis, faults are injected while a
// workload of -time runs (package nemesis), and healed before the final reads.
//
//	jepsen -root REPO -protocol farreach [-servers 2] [-clients 2] [-ops 400] [-keys 8] [-seed 1]
//	       [-nemesis partition,kill,pause,loss,delay,dup,reorder,switch-crash,skew|all|none] [-time 60s] [-rate 200]
//
// Exit status: 0 valid, 1 invalid, 2 unknown or error (including bad arguments).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"innet.dev/jepsen/campaign"
	"innet.dev/jepsen/nemesis"
)

// parseTime reads -time: plain seconds ("60") or a Go duration ("90s", "10m"); empty is no time limit.
func parseTime(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("must not be negative")
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("not a number of seconds or a duration")
	}
	return d, nil
}

const exitError = 2

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("jepsen", flag.ContinueOnError)
	flags.SetOutput(stderr)
	root := flags.String("root", os.Getenv("INNET_ROOT"), "the repository root, where ./innet is (default: $INNET_ROOT)")
	name := flags.String("name", "jepsen", "the rack's name")
	protocol := flags.String("protocol", "", "a registered protocol: farreach, netcache, nocache, lake, pegasus, visibility, distcache")
	servers := flags.Int("servers", 2, "storage servers")
	clients := flags.Int("clients", 2, "client hosts")
	ops := flags.Int("ops", 400, "operations in all, split over the clients")
	keys := flags.Int("keys", 8, "keys")
	seed := flags.Int64("seed", 1, "seed of the rack's switch and hosts")
	checkTimeout := flags.Duration("check-timeout", 60*time.Second, "bound on porcupine's search; undecided keys are unknown")
	nemesisFlag := flags.String("nemesis", "none", "faults: a comma-separated list of "+strings.Join(nemesis.Kinds, ",")+
		", all (combined rounds) or none")
	runTime := flags.String("time", "", "run the workload this long (seconds, or a Go duration); needed with a nemesis")
	rate := flags.Int("rate", 0, "target operations per second, all clients together (0: as fast as they go)")
	quiet := flags.Duration("quiet", 2*time.Second, "fault-free gap before each fault round (drawn between it and twice it)")
	hold := flags.Duration("hold", 3*time.Second, "how long a round's faults last (drawn between it and twice it)")
	seededBug := flags.String("seeded-bug", "", "test only: a known bug (volatile-store: servers; stale-restart: LaKe keeps what a restarted memcached lost); the campaign must be invalid")
	campaignShape := flags.Bool("campaign-shape", false, "run the protocol as ./innet sim's campaigns do (visibility: keys colliding in 8 switch slots under 4 fingerprints)")
	out := flags.String("out", "", "results root (default: ROOT/results/jepsen)")
	target := flags.String("target", "p4sim", "the switch: p4sim, or bmv2 (simple_switch, p4c and simple_switch_CLI on PATH)")
	control := flags.String("control", "cli", "how the controller programs the switch: cli (p4sim's CLI port), or p4runtime")
	if err := flags.Parse(args); err != nil {
		return exitError
	}
	if flags.NArg() != 0 {
		fmt.Fprintf(stderr, "jepsen: unexpected argument %q\n", flags.Arg(0))
		return exitError
	}
	kinds, combined, err := nemesis.ParseKinds(*nemesisFlag)
	if err != nil {
		fmt.Fprintf(stderr, "jepsen: -nemesis: %v\n", err)
		return exitError
	}
	duration, err := parseTime(*runTime)
	if err != nil {
		fmt.Fprintf(stderr, "jepsen: -time %q: %v\n", *runTime, err)
		return exitError
	}
	if *root == "" {
		fmt.Fprintln(stderr, "jepsen: -root is required (or set INNET_ROOT)")
		return exitError
	}
	if _, err := os.Stat(filepath.Join(*root, "innet")); err != nil {
		fmt.Fprintf(stderr, "jepsen: -root %s: no innet script there\n", *root)
		return exitError
	}
	results := *out
	if results == "" {
		results = filepath.Join(*root, "results", "jepsen")
	}
	c := campaign.Config{Protocol: *protocol, Servers: *servers, Clients: *clients, Ops: *ops, Keys: *keys, Seed: *seed,
		CheckTimeout: *checkTimeout, ResultsRoot: results, Time: duration, Rate: *rate, Nemeses: kinds, Combined: combined,
		Quiet: *quiet, Hold: *hold, SeededBug: *seededBug, CampaignShape: *campaignShape, Target: *target, Control: *control}
	if err := c.Validate(); err != nil {
		fmt.Fprintf(stderr, "jepsen: %v\n", err)
		return exitError
	}
	rack := campaign.InnetRack{Root: *root, Name: *name, Out: stdout}
	s, err := campaign.Run(c, rack, time.Now, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "jepsen: %v\n", err)
		return exitError
	}
	if s.Error != "" {
		fmt.Fprintf(stdout, "jepsen: error: %s\n", s.Error)
	}
	fmt.Fprintf(stdout, "jepsen: %s: %s (results in %s)\n", c.Protocol, s.Verdict, s.Dir)
	return s.Verdict.ExitCode()
}
