package lincheck

import (
	"fmt"
	"hash/fnv"
	"html"
	"sort"
	"strconv"

	"github.com/anishathalye/porcupine"

	"innet.dev/jepsen/history"
)

// registerInput is what a client asked for. The key is carried so that the model can partition a
// multi-key history; the per-key state itself does not need it.
type registerInput struct {
	kind  history.OpKind
	key   string
	value string // the value a put writes
}

// registerOutput is what the client observed.
type registerOutput struct {
	result history.Result // OK, NotFound or Unknown: Fail operations never reach the checker
	value  string         // the value a get read, when result is OK
}

// registerState is one key's register: absent, or holding a value. It is a comparable struct so
// porcupine's default == equality applies.
type registerState struct {
	present bool
	value   string
}

// registerModel is a per-key read/write/delete register, or, for a key whose operations are file
// operations, a file (docs/history-format.md §3.2): absent until a create, which fails with
// "exists" once the file is there; a write needs the file and replaces its state; a stat shows the
// state of the last write or create. Both are the same state (absent, or a value), which is why one
// model serves both families; the history reader keeps a key to one family. Linearizability is local
// (Herlihy and Wing): a history is linearizable iff each key's sub-history is, so partitioning by key
// is exact, not an approximation, and keeps the NP-complete search small.
var registerModel = porcupine.Model{
	Partition: partitionByKey,
	Init:      func() any { return registerState{} },
	Step:      step,
	Hash: func(state any) uint64 {
		s := state.(registerState)
		h := fnv.New64a()
		if s.present {
			h.Write([]byte{1})
			h.Write([]byte(s.value))
		}
		return h.Sum64()
	},
	DescribeOperation: describeOperation,
	// porcupine's page inserts state and metadata descriptions as HTML (operation descriptions as
	// text), so those two are escaped: keys and values come from the history and may hold markup.
	DescribeState: func(state any) string {
		s := state.(registerState)
		if !s.present {
			return "absent"
		}
		return html.EscapeString(quoteShort(s.value))
	},
	DescribeOperationMetadata: func(metadata any) string {
		if metadata == nil {
			return ""
		}
		return html.EscapeString(metadata.(string))
	},
}

func step(state, input, output any) (bool, any) {
	current := state.(registerState)
	in := input.(registerInput)
	out := output.(registerOutput)
	switch in.kind {
	case history.Put:
		// A put succeeds whatever it returned; with an unknown result its effect is placed
		// wherever (if anywhere) a linearization needs it, since its return time is infinite.
		return true, registerState{present: true, value: in.value}
	case history.Delete:
		return true, registerState{}
	case history.Create:
		// An unknown create, where a linearization places it, does what the file's state makes it do.
		switch out.result {
		case history.OK:
			return !current.present, registerState{present: true, value: in.value}
		case history.Exists:
			return current.present, current
		case history.Unknown:
			if current.present {
				return true, current
			}
			return true, registerState{present: true, value: in.value}
		}
	case history.Write:
		switch out.result {
		case history.OK:
			return current.present, registerState{present: true, value: in.value}
		case history.NotFound:
			return !current.present, current
		case history.Unknown:
			if current.present {
				return true, registerState{present: true, value: in.value}
			}
			return true, current
		}
	case history.Get, history.Stat:
		switch out.result {
		case history.OK:
			return current.present && current.value == out.value, current
		case history.NotFound:
			return !current.present, current
		case history.Unknown:
			return true, current // an unobserved read constrains nothing
		}
	}
	return false, current
}

func partitionByKey(ops []porcupine.Operation) [][]porcupine.Operation {
	byKey := map[string][]porcupine.Operation{}
	for _, op := range ops {
		key := op.Input.(registerInput).key
		byKey[key] = append(byKey[key], op)
	}
	keys := make([]string, 0, len(byKey))
	for key := range byKey {
		keys = append(keys, key)
	}
	sort.Strings(keys) // a stable partition order makes the visualization reproducible
	partitions := make([][]porcupine.Operation, len(keys))
	for i, key := range keys {
		partitions[i] = byKey[key]
	}
	return partitions
}

func describeOperation(input, output any) string {
	in := input.(registerInput)
	out := output.(registerOutput)
	var call string
	switch in.kind {
	case history.Put, history.Create, history.Write:
		call = in.kind.String() + "(" + quoteShort(in.value) + ")"
	default:
		call = in.kind.String() + "()"
	}
	switch {
	case out.result == history.Unknown:
		return call + " -> ? (never completed)"
	case out.result != history.OK:
		return call + " -> " + out.result.String()
	case in.kind.ReadsState():
		return call + " -> " + quoteShort(out.value)
	default:
		return call + " -> ok"
	}
}

// quoteShort quotes a value for display, cutting long ones: values may be up to 1376 bytes and the
// visualization shows them in small boxes.
func quoteShort(value string) string {
	const limit = 40
	if len(value) > limit {
		return strconv.Quote(value[:limit]) + fmt.Sprintf("...(%d bytes)", len(value))
	}
	return strconv.Quote(value)
}
