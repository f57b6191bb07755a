// Package lincheck checks innet operation histories for per-key register (or file) linearizability with
// porcupine, and renders porcupine's HTML visualization of the result.
//
// A verdict is one of three: linearizable, not linearizable, or unknown. Checking is NP-complete,
// so every check runs under a deadline, and a key whose search does not finish in time is unknown:
// inconclusive, never counted as a pass.
package lincheck

import (
	"math"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"

	"innet.dev/jepsen/history"
)

// Verdict is the outcome of a check, for one key or for a whole history.
type Verdict string

const (
	Linearizable    Verdict = "linearizable"
	NotLinearizable Verdict = "not_linearizable"
	// Unknown means the search did not finish before the deadline: nothing is known.
	Unknown Verdict = "unknown"
)

// Options tune a check.
type Options struct {
	// Timeout bounds the whole check (all keys together); 0 means no limit.
	Timeout time.Duration
	// Parallelism is how many keys are checked at once; 0 means GOMAXPROCS.
	Parallelism int
	// KeepUnobservedWrites gives porcupine the never-completed puts whose value nobody read too
	// (see Counts.UnobservedWrites): the verdict is the same, the search slower. For tests that
	// show the two agree, and for comparing.
	KeepUnobservedWrites bool
}

// KeyResult is the verdict for one key.
type KeyResult struct {
	Key     string  `json:"key"`
	Verdict Verdict `json:"verdict"`
	// Operations is the number of this key's operations given to the checker.
	Operations int `json:"operations"`
	// LongestLinearizable is, for a key that is not linearizable, the length of the longest
	// linearizable prefix porcupine found: operations beyond it could not be ordered. 0 otherwise.
	LongestLinearizable int `json:"longest_linearizable"`
}

// Counts describe what the checker did with the history's operations.
type Counts struct {
	// Operations is the number of operations in the history.
	Operations int `json:"operations"`
	// Checked is the number given to the linearizability checker.
	Checked int `json:"checked"`
	// Failed operations (result "fail") did not take effect and are left out of the check.
	Failed int `json:"failed"`
	// NeverCompleted operations (result "unknown") may or may not have taken effect; they are
	// checked with an infinite return time.
	NeverCompleted int `json:"never_completed"`
	// UnobservedReads are gets with result "unknown": their output is unconstrained and a read does
	// not change the state, so they are left out of the check (they always linearize). They are
	// included in NeverCompleted.
	UnobservedReads int `json:"unobserved_reads"`
	// UnobservedWrites are puts (and file writes) with result "unknown" whose value no completed get
	// (stat) returned. A file write qualifies for the same reason: it needs the file to exist and
	// leaves it existing, so without it no create or write would end differently either. They
	// are left out of the check, which is exact, not an approximation: if the rest of the history
	// is linearizable, such a put can take effect after everything else; and in any linearization
	// with it, no read sits between it and the next put or delete of its key (such a read would
	// have returned its value), so removing it changes no read's state. Each of them would
	// otherwise be tried at every point after its call, which is what makes long, faulty
	// histories undecidable within a timeout. They are included in NeverCompleted.
	UnobservedWrites int `json:"unobserved_writes"`
	// DistinctKeys is the number of keys among the checked operations.
	DistinctKeys int `json:"distinct_keys"`
}

// Report is the result of a check.
type Report struct {
	Verdict Verdict `json:"verdict"`
	Counts
	// Keys holds every checked key, sorted by key.
	Keys []KeyResult `json:"keys"`
	// Elapsed is how long the check took.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Timeout is the bound the check ran under (0: none).
	Timeout time.Duration `json:"timeout_ns"`

	opsByKey map[string][]porcupine.Operation
}

// Check checks ops (as returned by history.Read) for per-key linearizability.
func Check(ops []history.Operation, opts Options) *Report {
	start := time.Now()
	report := &Report{Timeout: opts.Timeout, opsByKey: map[string][]porcupine.Operation{}}
	report.Operations = len(ops)
	clientIndex := denseClientIndex(ops)
	observed := observedValues(ops)
	for _, op := range ops {
		if op.Result == history.Unknown {
			report.NeverCompleted++
		}
		switch {
		case op.Result == history.Fail:
			report.Failed++
			continue
		case op.Result == history.Unknown && op.Kind.ReadsState():
			report.UnobservedReads++
			continue
		case op.Result == history.Unknown && (op.Kind == history.Put || op.Kind == history.Write) && !opts.KeepUnobservedWrites &&
			!observed[keyValue{op.Key, op.Value}]:
			report.UnobservedWrites++
			continue
		}
		report.Checked++
		report.opsByKey[op.Key] = append(report.opsByKey[op.Key], toPorcupine(op, clientIndex[op.Client]))
	}
	keys := make([]string, 0, len(report.opsByKey))
	for key := range report.opsByKey {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	report.DistinctKeys = len(keys)
	report.Keys = make([]KeyResult, len(keys))

	// Keys are checked one porcupine call each, rather than in a single partitioned call, because
	// a partitioned call reports one verdict for the whole history: with a timeout it cannot say
	// which keys were shown not linearizable and which were merely not finished.
	var deadline time.Time
	if opts.Timeout > 0 {
		deadline = start.Add(opts.Timeout)
	}
	workers := opts.Parallelism
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				report.Keys[i] = checkKey(keys[i], report.opsByKey[keys[i]], deadline)
			}
		})
	}
	for i := range keys {
		next <- i
	}
	close(next)
	wg.Wait()

	report.Verdict = Linearizable
	for _, key := range report.Keys {
		switch key.Verdict {
		case NotLinearizable:
			report.Verdict = NotLinearizable // a definite violation outranks keys left undecided
		case Unknown:
			if report.Verdict == Linearizable {
				report.Verdict = Unknown
			}
		}
	}
	report.Elapsed = time.Since(start)
	return report
}

func checkKey(key string, ops []porcupine.Operation, deadline time.Time) KeyResult {
	result := KeyResult{Key: key, Operations: len(ops), Verdict: Unknown}
	var timeout time.Duration // porcupine reads 0 as "no limit"
	if !deadline.IsZero() {
		timeout = time.Until(deadline)
		if timeout <= 0 {
			return result // out of time before this key's turn came
		}
	}
	outcome, info := porcupine.CheckOperationsVerbose(registerModel, ops, timeout)
	switch outcome {
	case porcupine.Ok:
		result.Verdict = Linearizable
	case porcupine.Illegal:
		result.Verdict = NotLinearizable
		for _, partition := range info.PartialLinearizations() {
			for _, linearization := range partition {
				result.LongestLinearizable = max(result.LongestLinearizable, len(linearization))
			}
		}
	default:
		result.Verdict = Unknown
	}
	return result
}

// keyValue names one value of one key.
type keyValue struct{ key, value string }

// observedValues is the set of (key, value) pairs that some completed get or stat returned.
func observedValues(ops []history.Operation) map[keyValue]bool {
	observed := map[keyValue]bool{}
	for _, op := range ops {
		if op.Kind.ReadsState() && op.Result == history.OK {
			observed[keyValue{op.Key, op.Value}] = true
		}
	}
	return observed
}

// denseClientIndex maps client ids to 0, 1, 2, ... in increasing order: porcupine's visualization
// draws one row per index from 0 to the largest, so sparse or large ids would draw empty rows.
func denseClientIndex(ops []history.Operation) map[int]int {
	index := map[int]int{}
	for _, op := range ops {
		index[op.Client] = 0
	}
	clients := make([]int, 0, len(index))
	for client := range index {
		clients = append(clients, client)
	}
	sort.Ints(clients)
	for i, client := range clients {
		index[client] = i
	}
	return index
}

func toPorcupine(op history.Operation, clientIndex int) porcupine.Operation {
	returnTime := op.Return
	if op.Result == history.Unknown {
		// The operation may take effect at any time after its invocation, including never: an
		// infinite return time lets the checker place it anywhere after the call, or after
		// everything else (which is the same as not at all).
		returnTime = math.MaxInt64
	}
	return porcupine.Operation{
		ClientId: clientIndex,
		Input:    registerInput{kind: op.Kind, key: op.Key, value: op.Value},
		Call:     op.Call,
		Output:   registerOutput{result: op.Result, value: op.Value},
		Return:   returnTime,
		Metadata: describeMetadata(op),
	}
}

func describeMetadata(op history.Operation) string {
	text := op.Describe() + ", client " + itoa(int64(op.Client)) + ", key " + op.Key
	if op.Result == history.Unknown {
		if op.HasReturn {
			text += ", result unknown (client gave up at " + itoa(op.Return) + ")"
		} else {
			text += ", result unknown (never returned)"
		}
	}
	return text
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
