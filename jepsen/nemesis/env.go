// Package nemesis injects faults into a live innet rack (docs/jepsen.md, docs/live-rack.md): network
// partitions and random loss with nft rules inside the rack's namespaces, delay, duplication and
// reordering in p4sim's port layer (its p4sim_port_fault control command), kill -9 and restart of a
// server or the controller, SIGSTOP/SIGCONT pauses, a switch crash (kill p4sim, restart it; the
// controller reattaches), and clock jumps through a host's injected clock. Each fault is a small type
// that starts and heals; a Schedule runs them over a campaign and records a timeline of wall-clock
// intervals.
package nemesis

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process is one record of a rack's plan (the latest for its name).
type Process struct {
	Name       string
	PID        int
	StartTicks uint64
}

// Host is the rack host number of a host process ("server-h1" -> 1), or 0 for the switch.
func (p Process) Host() int {
	i := strings.LastIndex(p.Name, "-h")
	if i < 0 {
		return 0
	}
	h, err := strconv.Atoi(p.Name[i+2:])
	if err != nil {
		return 0
	}
	return h
}

// Env is what the nemeses act through: a live rack in production (RackEnv), a recorder in tests.
type Env interface {
	// Servers, Clients and Controller are the rack's host numbers.
	Servers() []int
	Clients() []int
	Controller() int
	// Namespace and Device: where host h's network stack is, and its rack interface there.
	Namespace(h int) string
	Device(h int) string
	// SwitchNamespace is p4sim's namespace.
	SwitchNamespace() string
	// Exec runs a command inside namespace ns with stdin, returning its combined output.
	Exec(ns, stdin string, args ...string) (string, error)
	// Process is the current record of the named process.
	Process(name string) (Process, error)
	// Signal sends sig to p if p is still the recorded process (pid and start time).
	Signal(p Process, sig syscall.Signal) error
	// Restart runs ./innet rack restart for the named process.
	Restart(name string) error
	// AskHost sends one request line to host h's command socket.
	AskHost(h int, request string) (string, error)
	// SwitchCommand sends one control-port command to p4sim and returns its reply lines (error on "error: ...").
	SwitchCommand(command string) (string, error)
	// Healthy reports nil if every recorded process runs and every host answers ready.
	Healthy() error
}

// SingleSwitchProcess is the switch's process name in a rack of one switch.
const SingleSwitchProcess = "switch"

// Switched is an Env whose rack runs several switches (DistCache's leaf-spine network: one p4sim each).
type Switched interface {
	// SwitchProcesses are the switches' process names, as the plan records them.
	SwitchProcesses() []string
}

// SwitchProcesses is env's switches' process names: its own if it says (Switched), else the one switch.
func SwitchProcesses(env Env) []string {
	if s, ok := env.(Switched); ok && len(s.SwitchProcesses()) > 0 {
		return s.SwitchProcesses()
	}
	return []string{SingleSwitchProcess}
}

// RackEnv is the Env of a rack brought up by ./innet rack up (state in ROOT/.cache/rack/NAME).
type RackEnv struct {
	Root       string
	Name       string
	ServerList []int
	ClientList []int
	// RackLimits are the protocol's limits as the plan records them (Limits).
	RackLimits Limits
	// Switches are the switches' processes and control ports (plan setting "switches"; one, "switch" on
	// port 9090, if the plan predates it).
	Switches []SwitchProcess
}

// SwitchProcess is one p4sim of a rack: its process name and its control port in the switch namespace.
type SwitchProcess struct {
	Name        string
	ControlPort int
}

// SwitchProcesses: the names of the rack's switches (Switched).
func (e *RackEnv) SwitchProcesses() []string {
	var names []string
	for _, s := range e.Switches {
		names = append(names, s.Name)
	}
	return names
}

// parseSwitches reads the plan's "switches" setting (process:port,...).
func parseSwitches(setting string) ([]SwitchProcess, error) {
	if setting == "" {
		return []SwitchProcess{{Name: SingleSwitchProcess, ControlPort: 9090}}, nil
	}
	var out []SwitchProcess
	for _, part := range strings.Split(setting, ",") {
		i := strings.LastIndex(part, ":")
		if i <= 0 {
			return nil, fmt.Errorf("bad switches setting %q: want process:port,...", setting)
		}
		port, err := strconv.Atoi(part[i+1:])
		if err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("bad switches setting %q: port of %q", setting, part)
		}
		out = append(out, SwitchProcess{Name: part[:i], ControlPort: port})
	}
	return out, nil
}

// Limits: what the rack's protocol cannot be held to (Limited).
func (e *RackEnv) Limits() Limits { return e.RackLimits }

// NewRackEnv reads the rack's shape from its plan.
func NewRackEnv(root, name string) (*RackEnv, error) {
	settings, _, err := readPlan(filepath.Join(root, ".cache", "rack", name, "plan.txt"))
	if err != nil {
		return nil, err
	}
	servers, err1 := strconv.Atoi(settings["servers"])
	clients, err2 := strconv.Atoi(settings["clients"])
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("rack %s: plan has no servers/clients settings", name)
	}
	switches, err := parseSwitches(settings["switches"])
	if err != nil {
		return nil, fmt.Errorf("rack %s: %v", name, err)
	}
	e := &RackEnv{Root: root, Name: name, RackLimits: limitsFromSettings(settings), Switches: switches}
	for h := 1; h <= servers; h++ {
		e.ServerList = append(e.ServerList, h)
	}
	for h := servers + 1; h <= servers+clients; h++ {
		e.ClientList = append(e.ClientList, h)
	}
	return e, nil
}

func (e *RackEnv) stateDir() string        { return filepath.Join(e.Root, ".cache", "rack", e.Name) }
func (e *RackEnv) Servers() []int          { return e.ServerList }
func (e *RackEnv) Clients() []int          { return e.ClientList }
func (e *RackEnv) Controller() int         { return 254 }
func (e *RackEnv) SwitchNamespace() string { return "innet-" + e.Name + "-sw" }

func (e *RackEnv) Namespace(h int) string {
	if h == e.Controller() {
		return e.SwitchNamespace()
	}
	return fmt.Sprintf("innet-%s-h%d", e.Name, h)
}

func (e *RackEnv) Device(h int) string {
	if h == e.Controller() {
		return "ctl0"
	}
	return "eth0"
}

func (e *RackEnv) Exec(ns, stdin string, args ...string) (string, error) {
	cmd := exec.Command("ip", append([]string{"netns", "exec", ns}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s in %s: %v: %s", strings.Join(args, " "), ns, err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

func (e *RackEnv) Process(name string) (Process, error) {
	_, procs, err := readPlan(filepath.Join(e.stateDir(), "plan.txt"))
	if err != nil {
		return Process{}, err
	}
	for _, p := range procs {
		if p.Name == name {
			return p, nil
		}
	}
	return Process{}, fmt.Errorf("rack %s records no process %q", e.Name, name)
}

func (e *RackEnv) Signal(p Process, sig syscall.Signal) error {
	if !Alive(p) {
		return fmt.Errorf("%s (pid %d) is not running", p.Name, p.PID)
	}
	return syscall.Kill(p.PID, sig)
}

func (e *RackEnv) Restart(name string) error {
	cmd := exec.Command(filepath.Join(e.Root, "innet"), "rack", "restart", "--name", e.Name, "--process", name)
	cmd.Dir = e.Root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("rack restart %s: %v: %s", name, err, lastLines(string(out), 6))
	}
	return nil
}

func (e *RackEnv) AskHost(h int, request string) (string, error) {
	conn, err := net.DialTimeout("unix", filepath.Join(e.stateDir(), "sock", fmt.Sprintf("h%d.sock", h)), 2*time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := conn.Write([]byte(request + "\n")); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "error") {
		return line, fmt.Errorf("h%d %s: %s", h, request, line)
	}
	return line, nil
}

// SwitchCommand sends command to every p4sim of the rack (a port fault applies to the whole network).
// A control port listens on the switch namespace's loopback; bash's /dev/tcp reaches it from inside
// that namespace (no client binary needed).
func (e *RackEnv) SwitchCommand(command string) (string, error) {
	var all strings.Builder
	for _, s := range e.Switches {
		out, err := e.switchCommand(s.ControlPort, command)
		all.WriteString(out)
		if err != nil {
			if len(e.Switches) > 1 {
				return all.String(), fmt.Errorf("%s: %v", s.Name, err)
			}
			return all.String(), err
		}
	}
	return all.String(), nil
}

func (e *RackEnv) switchCommand(port int, command string) (string, error) {
	script := fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d || exit 1; printf '%%s\n' "$1" >&3; `, port) +
		`while IFS= read -r -t 5 l <&3; do echo "$l"; case "$l" in ok|error*) exit 0;; esac; done; exit 1`
	out, err := e.Exec(e.SwitchNamespace(), "", "bash", "-c", script, "_", command)
	if err != nil {
		return out, fmt.Errorf("switch control port: %v", err)
	}
	if strings.Contains(out, "error") {
		return out, fmt.Errorf("switch: %s: %s", command, strings.TrimSpace(out))
	}
	return out, nil
}

func (e *RackEnv) Healthy() error {
	_, procs, err := readPlan(filepath.Join(e.stateDir(), "plan.txt"))
	if err != nil {
		return err
	}
	var bad []string
	for _, p := range procs {
		if !Alive(p) {
			bad = append(bad, p.Name+" not running")
			continue
		}
		if h := p.Host(); h != 0 {
			answer, err := e.AskHost(h, "health")
			if err != nil || !strings.Contains(answer, "ready=yes") {
				bad = append(bad, fmt.Sprintf("%s not ready (%s %v)", p.Name, answer, err))
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return nil
}

// readPlan reads plan.txt: settings, and the latest record of each process (restarts append records).
func readPlan(path string) (map[string]string, []Process, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	settings := map[string]string{}
	latest := map[string]Process{}
	order := map[string]int{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "setting":
			settings[f[1]] = strings.Join(f[2:], " ")
		case len(f) >= 4 && f[0] == "process":
			pid, err1 := strconv.Atoi(f[2])
			ticks, err2 := strconv.ParseUint(f[3], 10, 64)
			if err1 != nil || err2 != nil {
				return nil, nil, fmt.Errorf("%s: bad line %q", path, line)
			}
			if _, seen := order[f[1]]; !seen {
				order[f[1]] = len(order)
			}
			latest[f[1]] = Process{Name: f[1], PID: pid, StartTicks: ticks}
		}
	}
	procs := make([]Process, 0, len(latest))
	for _, p := range latest {
		procs = append(procs, p)
	}
	sort.Slice(procs, func(i, j int) bool { return order[procs[i].Name] < order[procs[j].Name] })
	return settings, procs, nil
}

// Alive reports whether p's pid still names the recorded process (same start time) and it is no zombie.
func Alive(p Process) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.PID))
	if err != nil {
		return false
	}
	s := string(data)
	close := strings.LastIndexByte(s, ')')
	if close < 0 || close+2 > len(s) {
		return false
	}
	rest := strings.Fields(s[close+2:])
	if len(rest) < 20 || rest[0] == "Z" {
		return false
	}
	ticks, err := strconv.ParseUint(rest[19], 10, 64)
	return err == nil && ticks == p.StartTicks
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
