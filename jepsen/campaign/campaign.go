// Package campaign runs a campaign against a live innet rack (docs/live-rack.md, docs/jepsen.md):
// bring a rack up, run a workload of unique-value reads, writes and deletes from several clients
// followed by a final read of every key, take the rack down, and check the history: porcupine
// linearizability per key (a checker timeout is "unknown", never a pass) and no acknowledged write
// lost according to the final reads; every process still healthy (or restarted) after the run. With
// nemeses (package nemesis) the workload runs for a set time while faults are injected, healed and
// checked around, and the final reads come only after the last heal.
package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"innet.dev/jepsen/history"
	"innet.dev/jepsen/lincheck"
	"innet.dev/jepsen/nemesis"
)

// Verdict of a whole campaign.
type Verdict string

const (
	Valid   Verdict = "valid"
	Invalid Verdict = "invalid"
	// Unknown: the checker ran out of time, or the campaign could not run to the end.
	Unknown Verdict = "unknown"
)

// ExitCode is the campaign command's exit status for a verdict: 0 valid, 1 invalid, 2 unknown or error.
func (v Verdict) ExitCode() int {
	switch v {
	case Valid:
		return 0
	case Invalid:
		return 1
	default:
		return 2
	}
}

// Config is one campaign.
type Config struct {
	Protocol     string
	Servers      int
	Clients      int
	Ops          int
	Keys         int
	Seed         int64
	CheckTimeout time.Duration
	// Time, if positive, runs the workload that long (Ops is then only a cap) at Rate operations per
	// second in all (0: as fast as the clients go).
	Time time.Duration
	Rate int
	// Nemeses are the fault kinds to inject (none: a fault-free run); Combined pairs a network fault
	// with a process fault in each round (--nemesis all).
	Nemeses  []string
	Combined bool
	// Quiet and Hold space the faults (see nemesis.Config); zero means 2 s and 3 s.
	Quiet, Hold time.Duration
	// SeededBug, test-only, starts the servers with a known bug (rack up --seeded-bug; docs/jepsen.md).
	SeededBug string
	// CampaignShape runs the protocol as its simulated campaigns do (rack up --campaign-shape): for the
	// visibility layer, keys collide in a few switch slots, so its fallback paths are taken.
	CampaignShape bool
	// Target is the switch: "" or "p4sim" (the default), or "bmv2" (rack up --target bmv2, docs/ptf.md).
	Target string
	// Control is how the controller programs the switch: "" or "cli" (the default), or "p4runtime"
	// (rack up --control p4runtime, docs/live-rack.md; p4sim only).
	Control string
	// ResultsRoot is results/jepsen: each run goes to ResultsRoot/<protocol>/<time>/, and
	// ResultsRoot/latest points at the newest.
	ResultsRoot string
}

// Validate reports the first setting that cannot work, naming it.
func (c Config) Validate() error {
	switch {
	case c.Protocol == "":
		return errors.New("-protocol is required")
	case c.Servers < 1:
		return fmt.Errorf("-servers must be at least 1, got %d", c.Servers)
	case c.Clients < 1:
		return fmt.Errorf("-clients must be at least 1, got %d", c.Clients)
	case c.Ops < c.Clients:
		return fmt.Errorf("-ops must be at least one per client (%d), got %d", c.Clients, c.Ops)
	case c.Keys < 1:
		return fmt.Errorf("-keys must be at least 1, got %d", c.Keys)
	case c.CheckTimeout <= 0:
		return fmt.Errorf("-check-timeout must be positive, got %v", c.CheckTimeout)
	case c.Time < 0 || c.Rate < 0:
		return fmt.Errorf("-time and -rate must not be negative")
	case len(c.Nemeses) > 0 && c.Time <= 0:
		return errors.New("a nemesis needs -time (the workload must run while faults come and go)")
	case c.ResultsRoot == "":
		return errors.New("a results directory is required")
	case c.Target != "" && c.Target != "p4sim" && c.Target != "bmv2":
		return fmt.Errorf("-target must be p4sim or bmv2, got %q", c.Target)
	case c.Control != "" && c.Control != "cli" && c.Control != "p4runtime":
		return fmt.Errorf("-control must be cli or p4runtime, got %q", c.Control)
	case c.Control == "p4runtime" && c.Target == "bmv2":
		return errors.New("-control p4runtime needs -target p4sim (the bmv2 driver uses simple_switch_CLI)")
	}
	if c.Target == "bmv2" {
		var needP4sim []string
		for _, k := range c.Nemeses {
			if p4simOnlyNemeses[k] {
				needP4sim = append(needP4sim, k)
			}
		}
		if len(needP4sim) > 0 {
			return fmt.Errorf("-target bmv2: the nemeses %s need p4sim (delay, duplication and reordering are made in "+
				"p4sim's ports); choose among the others", strings.Join(needP4sim, ","))
		}
	}
	return nil
}

// p4simOnlyNemeses are the faults a bmv2 rack cannot take (docs/ptf.md, bmv2).
var p4simOnlyNemeses = map[string]bool{"delay": true, "dup": true, "reorder": true}

// Rack is a live rack as the campaign drives it; ./innet rack in production (InnetRack).
type Rack interface {
	// Up brings the rack up and returns once every process is healthy.
	Up(c Config) error
	// Workload runs the workload (no final reads) and returns its history file; it calls started once
	// the rack has passed its health check and the clients are about to begin.
	Workload(c Config, started func()) (string, error)
	// FinalReads reads every key once from one client and returns that history file.
	FinalReads(c Config) (string, error)
	// Healthy reports nil if every process of the rack is running and answers its health check.
	Healthy() error
	// Down removes every process, namespace and link the rack made.
	Down() error
	// LogDir holds the rack's per-process logs.
	LogDir() string
	// Nemesis is what faults act through; asked only when the campaign has nemeses, after Up.
	Nemesis() (nemesis.Env, error)
}

// Summary is summary.json.
type Summary struct {
	Protocol      string           `json:"protocol"`
	Seed          int64            `json:"seed"`
	Servers       int              `json:"servers"`
	Clients       int              `json:"clients"`
	Ops           int              `json:"ops"`
	Keys          int              `json:"keys"`
	TimeSeconds   float64          `json:"time_s,omitempty"`
	Rate          int              `json:"rate,omitempty"`
	Nemeses       []string         `json:"nemeses,omitempty"`
	Combined      bool             `json:"combined,omitempty"`
	SeededBug     string           `json:"seeded_bug,omitempty"`
	CampaignShape bool             `json:"campaign_shape,omitempty"`
	Faults        int              `json:"faults"`
	FaultErrors   []string         `json:"fault_errors,omitempty"`
	Restarted     []string         `json:"restarted_by_health_check,omitempty"`
	NemesisNotes  []string         `json:"nemesis_notes,omitempty"`
	ServerWipes   int              `json:"server_wipes,omitempty"`
	Throughput    float64          `json:"ops_per_s,omitempty"`
	Verdict       Verdict          `json:"verdict"`
	Linearizable  string           `json:"linearizable,omitempty"`
	NonLinearKeys []string         `json:"non_linearizable_keys,omitempty"`
	UnknownKeys   []string         `json:"unknown_keys,omitempty"`
	Counts        *lincheck.Counts `json:"counts,omitempty"`
	FinalState    *FinalState      `json:"final_state,omitempty"`
	// Unhealthy says which process was not running or not healthy after the run ("" if all were).
	Unhealthy string        `json:"unhealthy,omitempty"`
	Error     string        `json:"error,omitempty"`
	Started   time.Time     `json:"started"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	Dir       string        `json:"dir"`
}

// Run runs one campaign on rack and writes its results directory; log gets progress lines.
func Run(c Config, rack Rack, now func() time.Time, log io.Writer) (Summary, error) {
	if err := c.Validate(); err != nil {
		return Summary{}, err
	}
	started := now()
	dir := filepath.Join(c.ResultsRoot, c.Protocol, started.UTC().Format("20060102T150405Z"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Summary{}, err
	}
	s := Summary{Protocol: c.Protocol, Seed: c.Seed, Servers: c.Servers, Clients: c.Clients, Ops: c.Ops, Keys: c.Keys,
		TimeSeconds: c.Time.Seconds(), Rate: c.Rate, SeededBug: c.SeededBug, CampaignShape: c.CampaignShape, Nemeses: c.Nemeses,
		Combined: c.Combined, Started: started, Dir: dir, Verdict: Unknown}
	var lim limitsUsed
	historyPath, unhealthy, events, runErr := upAndRun(c, rack, dir, log, &lim)
	s.NemesisNotes = lim.notes
	s.Unhealthy = unhealthy
	summarizeEvents(events, &s)
	if err := nemesis.WriteTimeline(filepath.Join(dir, "timeline.jsonl"), events); err != nil {
		fmt.Fprintf(log, "campaign: writing the timeline: %v\n", err)
	}
	if runErr != nil {
		s.Error = runErr.Error()
	} else if err := check(c, historyPath, dir, events, &s, log, lim); err != nil {
		s.Error = err.Error()
		s.Verdict = Unknown
	}
	s.Elapsed = now().Sub(started)
	if err := writeSummary(dir, s); err != nil {
		return s, err
	}
	if err := pointLatest(c.ResultsRoot, dir); err != nil {
		return s, err
	}
	return s, nil
}

// limitsUsed is what a campaign made of its rack's limits: the notes, and, when the servers are
// volatile and the rack could say which keys each holds, the owners its checker needs (Wipes).
type limitsUsed struct {
	notes  []string
	lim    nemesis.Limits
	owners map[string]int
}

func upAndRun(c Config, rack Rack, dir string, log io.Writer, used *limitsUsed) (historyPath, unhealthy string, events []nemesis.Event, err error) {
	fmt.Fprintf(log, "campaign: bringing up a %s rack (%d servers, %d clients)\n", c.Protocol, c.Servers, c.Clients)
	if err := rack.Up(c); err != nil {
		// Up tears down what it made when it fails; Down is idempotent, so make sure
		return "", "", nil, errors.Join(fmt.Errorf("rack up: %w", err), downErr(rack))
	}
	defer func() {
		// the logs are evidence whatever happened: copy them before the rack goes
		if cerr := copyDir(rack.LogDir(), filepath.Join(dir, "logs")); cerr != nil {
			fmt.Fprintf(log, "campaign: copying logs: %v\n", cerr)
		}
		if derr := downErr(rack); derr != nil {
			err = errors.Join(err, derr)
		}
	}()
	workload, events, err := workloadWithFaults(c, rack, log, used)
	if err != nil {
		return "", "", events, err
	}
	fmt.Fprintf(log, "campaign: final reads of %d keys\n", c.Keys)
	final, err := rack.FinalReads(c)
	if err != nil {
		return "", "", events, fmt.Errorf("final reads: %w", err)
	}
	historyPath = filepath.Join(dir, "history.jsonl")
	if err := concat(historyPath, workload, final); err != nil {
		return "", "", events, err
	}
	// the third check: every process is still there and healthy (or was restarted by a health check)
	if herr := rack.Healthy(); herr != nil {
		unhealthy = herr.Error()
	}
	return historyPath, unhealthy, events, nil
}

// workloadWithFaults runs the workload; with nemeses, faults come and go while it runs, and once it
// has ended every fault is healed and every process healthy again (restarted if it died) before this
// returns, so the final reads see the healed rack.
func workloadWithFaults(c Config, rack Rack, log io.Writer, used *limitsUsed) (string, []nemesis.Event, error) {
	if len(c.Nemeses) == 0 {
		fmt.Fprintf(log, "campaign: running the workload (%s)\n", describeLoad(c))
		path, err := rack.Workload(c, func() {})
		if err != nil {
			return "", nil, fmt.Errorf("rack run: %w", err)
		}
		return path, nil, nil
	}
	env, err := rack.Nemesis()
	if err != nil {
		return "", nil, fmt.Errorf("nemesis: %w", err)
	}
	// the faults the rack's protocol does not promise to survive are left out, or refused when named
	lim := nemesis.LimitsOf(env)
	if ko, ok := rack.(KeyOwners); ok && lim.VolatileServers {
		// knowing which keys each server holds, the checker can take a volatile server's restart as
		// the loss of exactly those keys: server kills can run
		owners, oerr := ko.Owners(c)
		if oerr != nil {
			fmt.Fprintf(log, "campaign: cannot tell which keys each server holds (%v): server kills left out\n", oerr)
		} else {
			lim.WipesModelled, used.owners = true, owners
		}
	}
	used.lim = lim
	kinds, why, err := nemesis.Restrict(c.Nemeses, c.Combined, lim)
	used.notes = why
	for _, n := range why {
		fmt.Fprintf(log, "campaign: %s\n", n)
	}
	if err != nil {
		return "", nil, err
	}
	ncfg := nemesis.Config{Kinds: kinds, Combined: c.Combined, Duration: c.Time, Quiet: orDefault(c.Quiet, 2*time.Second),
		Hold: orDefault(c.Hold, 3*time.Second), Recover: 30 * time.Second, Seed: c.Seed, Limits: &lim}
	if err := ncfg.Validate(); err != nil {
		return "", nil, err
	}
	fmt.Fprintf(log, "campaign: running the workload (%s) with nemeses %v\n", describeLoad(c), kinds)
	type result struct {
		path string
		err  error
	}
	done := make(chan result, 1)
	stop := make(chan struct{})
	began := make(chan struct{})
	var once sync.Once
	go func() {
		p, err := rack.Workload(c, func() { once.Do(func() { close(began) }) })
		close(stop)
		done <- result{p, err}
	}()
	// faults only once the workload has begun: its own health check must see the rack unbroken
	var events []nemesis.Event
	select {
	case <-began:
		events = nemesis.Schedule(env, ncfg, stop, log)
	case <-stop:
	}
	r := <-done
	// the last heal is done; wait for every process, restarting any that died, before the final reads
	events = append(events, nemesis.AwaitHealthy(env, ncfg.Recover, "after the workload", log))
	if r.err != nil {
		return "", events, fmt.Errorf("rack run: %w", r.err)
	}
	return r.path, events, nil
}

func describeLoad(c Config) string {
	if c.Time > 0 {
		return fmt.Sprintf("%v at %d ops/s, %d keys", c.Time, c.Rate, c.Keys)
	}
	return fmt.Sprintf("%d operations, %d keys", c.Ops, c.Keys)
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func summarizeEvents(events []nemesis.Event, s *Summary) {
	for _, e := range events {
		if e.Kind != "health" {
			s.Faults++
		}
		if e.Error != "" {
			s.FaultErrors = append(s.FaultErrors, e.Kind+" "+e.What+": "+e.Error)
		}
		if e.Kind == "health" && e.Note != "" {
			s.Restarted = append(s.Restarted, e.What+": "+e.Note)
		}
	}
}

func concat(to string, parts ...string) error {
	var all []byte
	for _, p := range parts {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		all = append(all, data...)
	}
	return os.WriteFile(to, all, 0o644)
}

func downErr(rack Rack) error {
	if err := rack.Down(); err != nil {
		return fmt.Errorf("rack down: %w", err)
	}
	return nil
}

// check copies the history into dir, runs porcupine per key (HTML next to it) and the final-read
// check, and sets the verdict: invalid if either finds a violation, unknown if porcupine ran out of
// time on some key, a written key got no final read, or a fault could not be injected (and nothing
// is invalid), valid otherwise.
func check(c Config, historyPath, dir string, events []nemesis.Event, s *Summary, log io.Writer, used limitsUsed) error {
	kept := historyPath
	if used.lim.VolatileServers && used.owners != nil {
		// a volatile server's restart deleted the keys it held: that is part of what happened
		wipes := Wipes(events, used.owners)
		if err := appendWipes(kept, wipes); err != nil {
			return fmt.Errorf("%s: %w", kept, err)
		}
		s.ServerWipes = len(wipes)
	}
	ops, err := history.ReadFile(kept)
	if err != nil {
		return fmt.Errorf("%s: %w", kept, err)
	}
	report := lincheck.Check(ops, lincheck.Options{Timeout: c.CheckTimeout})
	s.Counts = &report.Counts
	s.Linearizable = string(report.Verdict)
	for _, k := range report.Keys {
		switch k.Verdict {
		case lincheck.NotLinearizable:
			s.NonLinearKeys = append(s.NonLinearKeys, k.Key)
		case lincheck.Unknown:
			s.UnknownKeys = append(s.UnknownKeys, k.Key)
		}
	}
	if _, err := report.WriteHTML(filepath.Join(dir, "history.html")); err != nil {
		fmt.Fprintf(log, "campaign: writing the visualization: %v\n", err)
	}
	// the clients' operations: the wipes come last, after the final reads
	clientOps := ops[:len(ops)-s.ServerWipes]
	// the final reads (the clients' last Keys lines) come after the heals: not part of the workload's rate
	workload := clientOps
	if len(clientOps) >= c.Keys {
		workload = clientOps[:len(clientOps)-c.Keys]
	}
	s.Throughput = math.Round(throughput(workload)*10) / 10
	if err := WritePlot(filepath.Join(dir, "plot.html"), clientOps, events); err != nil {
		fmt.Fprintf(log, "campaign: writing the plot: %v\n", err)
	}
	final := CheckFinalReads(ops)
	s.FinalState = &final
	switch {
	case report.Verdict == lincheck.NotLinearizable || len(final.Lost) > 0 || s.Unhealthy != "":
		s.Verdict = Invalid
	case report.Verdict == lincheck.Unknown:
		s.Verdict = Unknown
	case len(final.Unread) > 0:
		// the lost-write check cannot speak for a key whose final read did not answer, and a rack
		// that does not answer after every fault is healed has not recovered
		s.Verdict = Unknown
		s.Error = fmt.Sprintf("%d written keys had no final read: the rack did not answer after the heal", len(final.Unread))
	case len(s.FaultErrors) > 0:
		// faults that could not be injected or healed: the run did not test what it claims
		s.Verdict = Unknown
		s.Error = fmt.Sprintf("%d nemesis steps failed (fault_errors)", len(s.FaultErrors))
	default:
		s.Verdict = Valid
	}
	fmt.Fprintf(log, "campaign: %d operations, %d keys: porcupine %s; final reads of %d keys, %d lost writes; %s\n",
		report.Operations, report.DistinctKeys, report.Verdict, final.KeysRead, len(final.Lost), healthLine(s.Unhealthy))
	return nil
}

func healthLine(unhealthy string) string {
	if unhealthy == "" {
		return "every process healthy after the run"
	}
	return "NOT HEALTHY after the run: " + unhealthy
}

func writeSummary(dir string, s Summary) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "summary.json"), append(data, '\n'), 0o644)
}

// pointLatest makes root/latest a relative symlink to dir, replacing the previous one.
func pointLatest(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return err
	}
	latest := filepath.Join(root, "latest")
	tmp := latest + ".new"
	_ = os.Remove(tmp)
	if err := os.Symlink(rel, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, latest)
}

func copyDir(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
