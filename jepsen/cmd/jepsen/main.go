// Command jepsen runs a campaign against a live innet rack (docs/jepsen.md): it brings a rack up
// through ./innet rack, runs a workload of unique-value reads, writes and deletes from several
// clients with a final read of every key, takes the rack down, and checks the history (porcupine
// per key; no acknowledged write lost). Results go to results/jepsen/<protocol>/<time>/, with
// results/jepsen/latest pointing at the newest run. No nemesis is implemented yet.
//
//	jepsen -root REPO -protocol farreach [-servers 2] [-clients 2] [-ops 400] [-keys 8] [-seed 1]
//
// Exit status: 0 valid, 1 invalid, 2 unknown or error (including bad arguments).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"innet.dev/jepsen/campaign"
)

const exitError = 2

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("jepsen", flag.ContinueOnError)
	flags.SetOutput(stderr)
	root := flags.String("root", os.Getenv("INNET_ROOT"), "the repository root, where ./innet is (default: $INNET_ROOT)")
	name := flags.String("name", "jepsen", "the rack's name")
	protocol := flags.String("protocol", "", "a registered protocol: farreach, netcache, nocache")
	servers := flags.Int("servers", 2, "storage servers")
	clients := flags.Int("clients", 2, "client hosts")
	ops := flags.Int("ops", 400, "operations in all, split over the clients")
	keys := flags.Int("keys", 8, "keys")
	seed := flags.Int64("seed", 1, "seed of the rack's switch and hosts")
	checkTimeout := flags.Duration("check-timeout", 60*time.Second, "bound on porcupine's search; undecided keys are unknown")
	nemesis := flags.String("nemesis", "none", "faults to inject; only none exists yet")
	out := flags.String("out", "", "results root (default: ROOT/results/jepsen)")
	if err := flags.Parse(args); err != nil {
		return exitError
	}
	if flags.NArg() != 0 {
		fmt.Fprintf(stderr, "jepsen: unexpected argument %q\n", flags.Arg(0))
		return exitError
	}
	if *nemesis != "none" {
		fmt.Fprintf(stderr, "jepsen: -nemesis %q: no nemesis is implemented yet (only none)\n", *nemesis)
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
		CheckTimeout: *checkTimeout, ResultsRoot: results}
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
