package nemesis

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// Event is one line of the nemesis timeline: a fault's interval, or a health check around faults.
// Times are wall-clock (RFC 3339) and the machine's monotonic clock in ns, the history's clock, so the
// plot can place faults on the history's time axis.
type Event struct {
	Kind      string    `json:"kind"`
	What      string    `json:"what"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	StartMono int64     `json:"start_mono_ns"`
	EndMono   int64     `json:"end_mono_ns"`
	Note      string    `json:"note,omitempty"`
	Error     string    `json:"error,omitempty"`
}

// Config is a schedule: which kinds, for how long, how the faults are spaced.
type Config struct {
	Kinds []string
	// Combined: each round starts one network fault and one process fault together (when both kinds
	// are enabled); otherwise one fault at a time.
	Combined bool
	Duration time.Duration
	// Quiet and Hold bound the fault-free gap before each round and how long a round's faults last
	// (each drawn uniformly between the bound and twice it).
	Quiet, Hold time.Duration
	// Recover bounds the wait for every process to be healthy after a heal.
	Recover time.Duration
	Seed    int64
	// Limits, if set, replace the env's own (LimitsOf) when faults are drawn.
	Limits *Limits
}

// Validate names the first bad setting.
func (c Config) Validate() error {
	if len(c.Kinds) == 0 {
		return fmt.Errorf("no nemesis given")
	}
	for _, k := range c.Kinds {
		known := false
		for _, n := range Kinds {
			known = known || k == n
		}
		if !known {
			return fmt.Errorf("unknown nemesis %q (one of %s, or all)", k, strings.Join(Kinds, ", "))
		}
	}
	if c.Quiet <= 0 || c.Hold <= 0 || c.Recover <= 0 {
		return fmt.Errorf("quiet, hold and recover times must be positive")
	}
	return nil
}

// ParseKinds reads --nemesis: "none", "all" or a comma-separated list.
func ParseKinds(s string) (kinds []string, combined bool, err error) {
	switch s {
	case "", "none":
		return nil, false, nil
	case "all":
		return append([]string{}, Kinds...), true, nil
	}
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		known := false
		for _, n := range Kinds {
			known = known || k == n
		}
		if !known {
			return nil, false, fmt.Errorf("unknown nemesis %q (one of %s, all or none)", k, strings.Join(Kinds, ", "))
		}
		kinds = append(kinds, k)
	}
	return kinds, false, nil
}

// Schedule runs faults against env until cfg.Duration has passed or stop is closed, one round at a
// time: a quiet gap, a health check (every process healthy, waited for up to cfg.Recover), the round's
// faults started, held, healed (in reverse order), and a health check again; a process still dead then
// is restarted (the campaign's "healthy or restarted"). Every step is an Event; log gets a line each.
// It returns with every fault healed.
func Schedule(env Env, cfg Config, stop <-chan struct{}, log io.Writer) []Event {
	r := rand.New(rand.NewSource(cfg.Seed))
	var events []Event
	deadline := time.Now().Add(cfg.Duration)
	round := 0
	for {
		if !sleep(jitter(r, cfg.Quiet), stop) || time.Now().After(deadline) {
			break
		}
		round++
		events = append(events, AwaitHealthy(env, cfg.Recover, "before round "+fmt.Sprint(round), log))
		kinds := pick(r, cfg)
		var started []Fault
		var open []int
		for _, k := range kinds {
			lim := LimitsOf(env)
			if cfg.Limits != nil {
				lim = *cfg.Limits
			}
			f, err := NewWithin(k, env, r, lim)
			ev := Event{Kind: k, Start: time.Now(), StartMono: Monotonic()}
			if err == nil {
				ev.What, err = f.Start(env)
			}
			if err != nil {
				ev.Error = err.Error()
				ev.End, ev.EndMono = time.Now(), Monotonic()
				fmt.Fprintf(log, "nemesis: %s failed to start: %v\n", k, err)
				events = append(events, ev)
				continue
			}
			fmt.Fprintf(log, "nemesis: start %s: %s\n", k, ev.What)
			started = append(started, f)
			open = append(open, len(events))
			events = append(events, ev)
		}
		sleep(jitter(r, cfg.Hold), stop)
		for i := len(started) - 1; i >= 0; i-- {
			note, err := started[i].Heal(env)
			ev := &events[open[i]]
			ev.End, ev.EndMono, ev.Note = time.Now(), Monotonic(), note
			if err != nil {
				ev.Error = "heal: " + err.Error()
			}
			fmt.Fprintf(log, "nemesis: healed %s %s %s\n", ev.Kind, note, ev.Error)
		}
		events = append(events, AwaitHealthy(env, cfg.Recover, "after round "+fmt.Sprint(round), log))
	}
	return events
}

// pick: one kind, or in a combined schedule one network kind and one process kind when both exist.
func pick(r *rand.Rand, cfg Config) []string {
	if !cfg.Combined {
		return []string{cfg.Kinds[r.Intn(len(cfg.Kinds))]}
	}
	var net, proc []string
	for _, k := range cfg.Kinds {
		if networkKinds[k] {
			net = append(net, k)
		} else {
			proc = append(proc, k)
		}
	}
	var kinds []string
	if len(net) > 0 {
		kinds = append(kinds, net[r.Intn(len(net))])
	}
	if len(proc) > 0 {
		kinds = append(kinds, proc[r.Intn(len(proc))])
	}
	return kinds
}

// AwaitHealthy waits until env is healthy; past the bound it restarts every recorded process that is
// dead and waits once more. The event says how it went.
func AwaitHealthy(env Env, bound time.Duration, label string, log io.Writer) Event {
	ev := Event{Kind: "health", What: label, Start: time.Now(), StartMono: Monotonic()}
	err := waitHealthy(env, bound)
	if err != nil {
		var restarted []string
		for _, name := range recordedNames(env) {
			p, perr := env.Process(name)
			if perr == nil && !alive(env, p) {
				if rerr := env.Restart(name); rerr == nil {
					restarted = append(restarted, name)
				}
			}
		}
		if len(restarted) > 0 {
			ev.Note = "restarted " + strings.Join(restarted, ", ")
			err = waitHealthy(env, bound)
		}
	}
	if err != nil {
		ev.Error = err.Error()
	}
	ev.End, ev.EndMono = time.Now(), Monotonic()
	fmt.Fprintf(log, "nemesis: health %s: %s %s (%.1f s)\n", label, map[bool]string{true: "ok", false: "NOT healthy"}[err == nil],
		ev.Note, ev.End.Sub(ev.Start).Seconds())
	return ev
}

func waitHealthy(env Env, bound time.Duration) error {
	deadline := time.Now().Add(bound)
	for {
		err := env.Healthy()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func recordedNames(env Env) []string {
	names := SwitchProcesses(env)
	for _, h := range allHosts(env) {
		names = append(names, processName(env, h))
	}
	return names
}

func jitter(r *rand.Rand, d time.Duration) time.Duration {
	return d + time.Duration(r.Int63n(int64(d)+1))
}

// sleep waits d or until stop closes; false if stopped.
func sleep(d time.Duration, stop <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-stop:
		return false
	}
}

// Monotonic is CLOCK_MONOTONIC in ns: the clock of the history's times (Java's System.nanoTime).
func Monotonic() int64 {
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 1 /* CLOCK_MONOTONIC */, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0
	}
	return ts.Nano()
}

// WriteTimeline writes the events as JSON lines.
func WriteTimeline(path string, events []Event) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, e := range events {
		if err := enc.Encode(e); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
