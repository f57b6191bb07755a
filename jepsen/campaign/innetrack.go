package campaign

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"innet.dev/jepsen/nemesis"
)

// InnetRack drives a live rack through the repository's ./innet rack command (docs/live-rack.md).
type InnetRack struct {
	// Root is the repository root (where ./innet is).
	Root string
	// Name is the rack's name (its namespaces are innet-<name>-...).
	Name string
	// Out gets the command's output as it runs.
	Out io.Writer
}

func (r InnetRack) command(args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(r.Root, "innet"), append([]string{"rack"}, args...)...)
	cmd.Dir = r.Root
	return cmd
}

// Up runs ./innet rack up; it waits until every process is healthy, or tears down and fails.
func (r InnetRack) Up(c Config) error {
	args := []string{"up", "--name", r.Name, "--protocol", c.Protocol, "--servers", strconv.Itoa(c.Servers),
		"--clients", strconv.Itoa(c.Clients), "--seed", strconv.FormatInt(c.Seed, 10)}
	if c.SeededBug != "" {
		args = append(args, "--seeded-bug", c.SeededBug)
	}
	if c.CampaignShape {
		args = append(args, "--campaign-shape")
	}
	if c.Target != "" {
		args = append(args, "--target", c.Target)
	}
	if c.Control != "" {
		args = append(args, "--control", c.Control)
	}
	return r.runEcho(args...)
}

// Workload runs ./innet rack run --no-check --no-final-reads (the campaign checks the history itself,
// and reads the keys only after healing) and returns the history file the command names.
func (r InnetRack) Workload(c Config, started func()) (string, error) {
	args := []string{"run", "--name", r.Name, "--keys", strconv.Itoa(c.Keys), "--no-check", "--no-final-reads"}
	if c.Time > 0 {
		// the time ends the run; the operation count is only a cap
		args = append(args, "--time", strconv.Itoa(int(c.Time.Seconds())), "--rate", strconv.Itoa(c.Rate),
			"--ops", "1000000000", "--timeout", strconv.Itoa(int(c.Time.Seconds())+180))
	} else {
		args = append(args, "--ops", strconv.Itoa(c.Ops))
	}
	return r.runForHistory(started, args...)
}

// FinalReads runs ./innet rack run --final-reads-only: one client reads every key once.
func (r InnetRack) FinalReads(c Config) (string, error) {
	return r.runForHistory(func() {}, "run", "--name", r.Name, "--keys", strconv.Itoa(c.Keys), "--no-check", "--final-reads-only")
}

// Owners runs ./innet rack owners: which server holds each workload key (KeyOwners).
func (r InnetRack) Owners(c Config) (map[string]int, error) {
	var buf bytes.Buffer
	cmd := r.command("owners", "--name", r.Name, "--keys", strconv.Itoa(c.Keys))
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("rack owners: %v: %s", err, strings.TrimSpace(buf.String()))
	}
	owners := map[string]int{}
	for _, line := range strings.Split(buf.String(), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || !strings.HasPrefix(f[1], "h") {
			continue
		}
		h, err := strconv.Atoi(f[1][1:])
		if err != nil {
			return nil, fmt.Errorf("rack owners: bad line %q", line)
		}
		owners[f[0]] = h
	}
	if len(owners) != c.Keys {
		return nil, fmt.Errorf("rack owners: %d keys listed, want %d: %s", len(owners), c.Keys, strings.TrimSpace(buf.String()))
	}
	return owners, nil
}

// Nemesis is the rack as the nemeses see it (namespaces, plan, command sockets; docs/live-rack.md).
func (r InnetRack) Nemesis() (nemesis.Env, error) {
	return nemesis.NewRackEnv(r.Root, r.Name)
}

func (r InnetRack) runForHistory(started func(), args ...string) (string, error) {
	var buf bytes.Buffer
	cmd := r.command(args...)
	cmd.Stdout = io.MultiWriter(r.Out, &buf, &lineWatch{line: "rack run: started", seen: started})
	cmd.Stderr = r.Out
	if err := cmd.Run(); err != nil {
		return "", err
	}
	return HistoryPathFrom(buf.String())
}

// Healthy runs ./innet rack status, which exits 0 only if every recorded process runs and every host
// answers its health check with ready; otherwise the error carries the status listing.
func (r InnetRack) Healthy() error {
	var buf bytes.Buffer
	cmd := r.command("status", "--name", r.Name)
	cmd.Stdout = io.MultiWriter(r.Out, &buf)
	cmd.Stderr = cmd.Stdout
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(buf.String()))
	}
	return nil
}

// Down runs ./innet rack down (idempotent).
func (r InnetRack) Down() error {
	return r.runEcho("down", "--name", r.Name)
}

// LogDir is where ./innet rack keeps the rack's per-process logs.
func (r InnetRack) LogDir() string {
	return filepath.Join(r.Root, ".cache", "rack", r.Name, "logs")
}

func (r InnetRack) runEcho(args ...string) error {
	cmd := r.command(args...)
	cmd.Stdout = r.Out
	cmd.Stderr = r.Out
	return cmd.Run()
}

// HistoryPathFrom finds the "rack run: history PATH" line in the output of ./innet rack run.
func HistoryPathFrom(output string) (string, error) {
	const prefix = "rack run: history "
	scanner := bufio.NewScanner(strings.NewReader(output))
	for scanner.Scan() {
		if line := scanner.Text(); strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(strings.TrimPrefix(line, prefix)), nil
		}
	}
	return "", fmt.Errorf("no %q line in the output of rack run", strings.TrimSpace(prefix))
}

// lineWatch calls seen the first time a whole output line equals line.
type lineWatch struct {
	line    string
	seen    func()
	partial []byte
	done    bool
}

func (w *lineWatch) Write(p []byte) (int, error) {
	if w.done {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		if strings.TrimSpace(string(w.partial[:i])) == w.line {
			w.done = true
			w.partial = nil
			w.seen()
			return len(p), nil
		}
		w.partial = w.partial[i+1:]
	}
}
