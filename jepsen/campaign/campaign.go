// Package campaign runs a campaign against a live innet rack (docs/live-rack.md, docs/jepsen.md):
// bring a rack up, run a workload of unique-value reads, writes and deletes from several clients
// followed by a final read of every key, take the rack down, and check the history: porcupine
// linearizability per key (a checker timeout is "unknown", never a pass) and no acknowledged write
// lost according to the final reads; every process still healthy after the run. There are no
// faults yet (no nemesis).
package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"innet.dev/jepsen/history"
	"innet.dev/jepsen/lincheck"
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
	case c.ResultsRoot == "":
		return errors.New("a results directory is required")
	}
	return nil
}

// Rack is a live rack as the campaign drives it; ./innet rack in production (InnetRack).
type Rack interface {
	// Up brings the rack up and returns once every process is healthy.
	Up(c Config) error
	// Run runs the workload and the final reads and returns the history file.
	Run(c Config) (string, error)
	// Healthy reports nil if every process of the rack is running and answers its health check.
	Healthy() error
	// Down removes every process, namespace and link the rack made.
	Down() error
	// LogDir holds the rack's per-process logs.
	LogDir() string
}

// Summary is summary.json.
type Summary struct {
	Protocol      string           `json:"protocol"`
	Seed          int64            `json:"seed"`
	Servers       int              `json:"servers"`
	Clients       int              `json:"clients"`
	Ops           int              `json:"ops"`
	Keys          int              `json:"keys"`
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
		Started: started, Dir: dir, Verdict: Unknown}
	historyPath, unhealthy, runErr := upAndRun(c, rack, log)
	s.Unhealthy = unhealthy
	// the logs are evidence whatever happened: copy them before the next rack of this name clears them
	if err := copyDir(rack.LogDir(), filepath.Join(dir, "logs")); err != nil {
		fmt.Fprintf(log, "campaign: copying logs: %v\n", err)
	}
	if runErr != nil {
		s.Error = runErr.Error()
	} else if err := check(c, historyPath, dir, &s, log); err != nil {
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

func upAndRun(c Config, rack Rack, log io.Writer) (historyPath, unhealthy string, err error) {
	fmt.Fprintf(log, "campaign: bringing up a %s rack (%d servers, %d clients)\n", c.Protocol, c.Servers, c.Clients)
	if err := rack.Up(c); err != nil {
		// Up tears down what it made when it fails; Down is idempotent, so make sure
		return "", "", errors.Join(fmt.Errorf("rack up: %w", err), downErr(rack))
	}
	defer func() {
		if derr := downErr(rack); derr != nil {
			err = errors.Join(err, derr)
		}
	}()
	fmt.Fprintf(log, "campaign: running %d operations on %d keys, then final reads\n", c.Ops, c.Keys)
	historyPath, err = rack.Run(c)
	if err != nil {
		return "", "", fmt.Errorf("rack run: %w", err)
	}
	// the third check: every process is still there and healthy (nothing restarts them yet)
	if herr := rack.Healthy(); herr != nil {
		unhealthy = herr.Error()
	}
	return historyPath, unhealthy, nil
}

func downErr(rack Rack) error {
	if err := rack.Down(); err != nil {
		return fmt.Errorf("rack down: %w", err)
	}
	return nil
}

// check copies the history into dir, runs porcupine per key (HTML next to it) and the final-read
// check, and sets the verdict: invalid if either finds a violation, unknown if porcupine ran out of
// time on some key (and nothing is invalid), valid otherwise.
func check(c Config, historyPath, dir string, s *Summary, log io.Writer) error {
	data, err := os.ReadFile(historyPath)
	if err != nil {
		return err
	}
	kept := filepath.Join(dir, "history.jsonl")
	if err := os.WriteFile(kept, data, 0o644); err != nil {
		return err
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
	final := CheckFinalReads(ops)
	s.FinalState = &final
	switch {
	case report.Verdict == lincheck.NotLinearizable || len(final.Lost) > 0 || s.Unhealthy != "":
		s.Verdict = Invalid
	case report.Verdict == lincheck.Unknown:
		s.Verdict = Unknown
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
