package lincheck

import (
	"sort"
	"time"

	"innet.dev/jepsen/history"
)

// Violation locates where a key's history stops being linearizable: the earliest instant such that
// the history as seen at that instant is already not linearizable. It is what a reader of a long
// campaign needs, since porcupine's longest linearizable prefix counts operations in its own
// search order, not in time.
type Violation struct {
	Key string `json:"key"`
	// By is the earliest return time at which the history cut there is not linearizable: the
	// operation that returned then (Culprit) cannot be explained together with what came before.
	By      int64             `json:"by"`
	Culprit history.Operation `json:"culprit"`
	// Context holds the key's operations whose interval overlaps the 'context' window ending at By,
	// in call order: what a reader must look at to see why.
	Context []history.Operation `json:"context"`
}

// Locate finds the first violation on key by binary search over the cut instant. Cutting a history
// at T keeps the operations called by T; one that returned after T is treated as never completed
// (a get as unobserved). A cut of a linearizable history is linearizable, so the property "the cut
// at T is not linearizable" is monotone in T and the search is exact. ok is false when the whole
// key's history is linearizable or a cut could not be decided within timeout per cut.
func Locate(ops []history.Operation, key string, timeout time.Duration, context int) (Violation, bool) {
	var keyOps []history.Operation
	var returns []int64
	for _, op := range ops {
		if op.Key != key || op.Result == history.Fail {
			continue
		}
		keyOps = append(keyOps, op)
		if op.HasReturn && op.Result != history.Unknown {
			returns = append(returns, op.Return)
		}
	}
	sort.Slice(returns, func(i, j int) bool { return returns[i] < returns[j] })
	violatedAt := func(cut int64) (bool, bool) {
		verdict := Check(cutAt(keyOps, cut), Options{Timeout: timeout, Parallelism: 1}).Verdict
		return verdict == NotLinearizable, verdict != Unknown
	}
	if len(returns) == 0 {
		return Violation{}, false
	}
	if violated, decided := violatedAt(returns[len(returns)-1]); !violated || !decided {
		return Violation{}, false
	}
	low, high := 0, len(returns)-1 // invariant: the cut at returns[high] is violated
	for low < high {
		middle := (low + high) / 2
		violated, decided := violatedAt(returns[middle])
		if !decided {
			return Violation{}, false
		}
		if violated {
			high = middle
		} else {
			low = middle + 1
		}
	}
	by := returns[high]
	found := Violation{Key: key, By: by}
	var completed []history.Operation
	for _, op := range keyOps {
		if op.HasReturn && op.Result != history.Unknown && op.Return == by {
			found.Culprit = op
		}
		if op.Call <= by {
			completed = append(completed, op)
		}
	}
	sort.SliceStable(completed, func(i, j int) bool { return completed[i].Call < completed[j].Call })
	if len(completed) > context {
		completed = completed[len(completed)-context:]
	}
	found.Context = completed
	return found, true
}

// cutAt is the history as it looked at instant cut.
func cutAt(ops []history.Operation, cut int64) []history.Operation {
	var seen []history.Operation
	for _, op := range ops {
		if op.Call > cut {
			continue
		}
		if !op.HasReturn || op.Return > cut {
			op.Result = history.Unknown
			op.HasReturn = false
			op.Return = 0
		}
		seen = append(seen, op)
	}
	return seen
}
