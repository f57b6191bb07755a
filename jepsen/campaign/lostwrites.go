package campaign

import (
	"fmt"
	"sort"

	"innet.dev/jepsen/history"
)

// FinalState is what the final reads say about the acknowledged writes.
type FinalState struct {
	// KeysRead is how many keys have a final read: a get that completed after every other
	// operation on its key had ended.
	KeysRead int `json:"keys_read"`
	// Unread lists keys written during the run that have no final read (the check cannot speak for them).
	Unread []string `json:"unread,omitempty"`
	// Lost describes each acknowledged write the final reads show was lost.
	Lost []string `json:"lost,omitempty"`
}

// CheckFinalReads looks for acknowledged writes that a key's final read shows were lost. A final
// read is a get with result ok or not_found whose call came after every other operation on its key
// returned (operations that never returned are not waited for). Given the final read of key k:
//   - it read the value of put P, but a write W (put or delete) acknowledged ok was invoked after P
//     returned: W came strictly later in real time and its effect is gone, so W was lost;
//   - it found no value, but a put P was acknowledged and no delete (acknowledged or unknown)
//     could have come after it: P was lost.
//
// Linearizability of a history that includes the final reads implies neither happens; this check
// names the lost write in terms a reader of the run can act on.
func CheckFinalReads(ops []history.Operation) FinalState {
	byKey := map[string][]history.Operation{}
	for _, op := range ops {
		if op.Result == history.Fail {
			continue
		}
		byKey[op.Key] = append(byKey[op.Key], op)
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var state FinalState
	for _, key := range keys {
		keyOps := byKey[key]
		final, ok := finalRead(keyOps)
		if !ok {
			if wrote(keyOps) {
				state.Unread = append(state.Unread, key)
			}
			continue
		}
		state.KeysRead++
		state.Lost = append(state.Lost, lostWrites(key, keyOps, final)...)
	}
	return state
}

func wrote(ops []history.Operation) bool {
	for _, op := range ops {
		if op.Kind != history.Get {
			return true
		}
	}
	return false
}

// finalRead is the key's get with the latest call, if it began after every other completed operation ended.
func finalRead(ops []history.Operation) (history.Operation, bool) {
	var last history.Operation
	found := false
	for _, op := range ops {
		if op.Kind == history.Get && (op.Result == history.OK || op.Result == history.NotFound) && (!found || op.Call > last.Call) {
			last, found = op, true
		}
	}
	if !found {
		return last, false
	}
	for _, op := range ops {
		if op.Line != last.Line && op.HasReturn && op.Return >= last.Call {
			return last, false
		}
	}
	return last, true
}

func lostWrites(key string, ops []history.Operation, final history.Operation) []string {
	var lost []string
	if final.Result == history.OK {
		var source *history.Operation
		for i := range ops {
			if ops[i].Kind == history.Put && ops[i].Value == final.Value {
				source = &ops[i]
				break
			}
		}
		if source == nil {
			// a value nobody wrote: linearizability reports it; there is no lost write to name
			return nil
		}
		for _, w := range ops {
			if w.Kind != history.Get && w.Result == history.OK && source.HasReturn && w.Call > source.Return {
				lost = append(lost, fmt.Sprintf("key %s: %s %s was acknowledged after %s returned, but the final read (%s) still sees %q",
					key, w.Kind, w.Describe(), source.Describe(), final.Describe(), final.Value))
			}
		}
		return lost
	}
	// not found: every acknowledged put must have a delete that may follow it
	for _, p := range ops {
		if p.Kind != history.Put || p.Result != history.OK {
			continue
		}
		deletedLater := false
		for _, d := range ops {
			if d.Kind == history.Delete && (d.Result == history.OK || d.Result == history.Unknown) && (!d.HasReturn || d.Return >= p.Call) {
				deletedLater = true
				break
			}
		}
		if !deletedLater {
			lost = append(lost, fmt.Sprintf("key %s: put %s of %q was acknowledged, no delete could follow it, but the final read (%s) found nothing",
				key, p.Describe(), p.Value, final.Describe()))
		}
	}
	return lost
}
