// Package history reads and validates innet operation histories: JSON Lines files, one client
// operation per line, written by the Java simulator and by fault campaigns. The format is specified
// in docs/history-format.md; this package is its reference reader.
//
// Validation is strict on purpose: a history that the checker silently misreads would turn a
// protocol bug into a "linearizable" verdict, so anything the format does not allow is rejected with
// the line number of the offending operation.
package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"unicode/utf8"
)

// OpKind is the client operation of a history line ("op").
type OpKind uint8

const (
	Get OpKind = iota + 1
	Put
	Delete
	// Create, Write and Stat are the file operations (docs/history-format.md §3.2): a key is a path.
	Create
	Write
	Stat
)

// IsFile says whether the operation is one of a file (create, write, stat) rather than of a
// register (get, put, delete). A key's operations are all of one family.
func (k OpKind) IsFile() bool { return k == Create || k == Write || k == Stat }

// ReadsState says whether the operation observes the state and changes nothing (get, stat).
func (k OpKind) ReadsState() bool { return k == Get || k == Stat }

func (k OpKind) String() string {
	switch k {
	case Get:
		return "get"
	case Put:
		return "put"
	case Delete:
		return "delete"
	case Create:
		return "create"
	case Write:
		return "write"
	case Stat:
		return "stat"
	}
	return fmt.Sprintf("OpKind(%d)", uint8(k))
}

// Result is the outcome the client observed ("result").
type Result uint8

const (
	// OK: the operation completed; a get found Value.
	OK Result = iota + 1
	// NotFound: a get completed and the key had no value.
	NotFound
	// Fail: the operation definitely did not take effect (e.g. an error reply).
	Fail
	// Unknown: the client timed out or crashed; the operation may or may not have taken effect.
	Unknown
	// Exists: a create completed and found the path already there (it changed nothing).
	Exists
)

func (r Result) String() string {
	switch r {
	case OK:
		return "ok"
	case NotFound:
		return "not_found"
	case Fail:
		return "fail"
	case Unknown:
		return "unknown"
	case Exists:
		return "exists"
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}

// Operation is one validated history line.
type Operation struct {
	Line     int // 1-based line number in the input, for messages
	Client   int
	Kind     OpKind
	Key      string
	Value    string // written value (put, create, write) or value read (get or stat with result ok)
	HasValue bool
	Call     int64
	Return   int64 // meaningful only if HasReturn
	// HasReturn is false when the operation never completed ("return" null or absent). Only
	// operations with result Unknown may lack a return.
	HasReturn bool
	Result    Result
	ID        int64 // meaningful only if HasID
	HasID     bool
}

// Describe names the operation in messages: its line, and its id when the history gives one.
func (op Operation) Describe() string {
	if op.HasID {
		return fmt.Sprintf("line %d (id %d)", op.Line, op.ID)
	}
	return fmt.Sprintf("line %d", op.Line)
}

// LineError is a rejected history: the first problem found, with the line it is on.
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func lineErrorf(line int, format string, args ...any) error {
	return &LineError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// ReadFile reads and validates the history in the named file.
func ReadFile(path string) ([]Operation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f)
}

// Read reads and validates a history. It returns the operations sorted by invocation time (ties
// by line), since the format does not require any line order. The error, if any, is a *LineError
// for problems in the history and a plain error for I/O failures.
func Read(r io.Reader) ([]Operation, error) {
	reader := bufio.NewReader(r)
	var ops []Operation
	for lineNumber := 1; ; lineNumber++ {
		// ReadBytes rather than a Scanner: a Scanner has a maximum token size and values may be long.
		line, readErr := reader.ReadBytes('\n')
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return nil, readErr
		}
		if lineNumber == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark is not content
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			op, err := parseLine(lineNumber, trimmed)
			if err != nil {
				return nil, err
			}
			ops = append(ops, op)
		}
		if readErr != nil { // io.EOF, after the last (possibly unterminated) line
			break
		}
	}
	if err := validateAcrossLines(ops); err != nil {
		return nil, err
	}
	sort.SliceStable(ops, func(i, j int) bool {
		if ops[i].Call != ops[j].Call {
			return ops[i].Call < ops[j].Call
		}
		return ops[i].Line < ops[j].Line
	})
	return ops, nil
}

// opKinds and results are the names a history spells its "op" and "result" with.
var (
	opKinds = map[string]OpKind{"get": Get, "put": Put, "delete": Delete, "create": Create, "write": Write, "stat": Stat}
	results = map[string]Result{"ok": OK, "not_found": NotFound, "fail": Fail, "unknown": Unknown, "exists": Exists}
)

// requiredFields must be present and non-null on every line. Fields this reader does not know are
// ignored, so that writers can add optional information (node names, notes) without breaking it.
var requiredFields = []string{"client", "op", "key", "call", "result"}

func parseLine(line int, text []byte) (Operation, error) {
	op := Operation{Line: line}
	if !utf8.Valid(text) {
		return op, lineErrorf(line, "not valid UTF-8")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(text, &fields); err != nil {
		return op, lineErrorf(line, "malformed JSON (each non-blank line must be one JSON object): %v", err)
	}
	if fields == nil { // the line was the JSON literal null
		return op, lineErrorf(line, "malformed JSON: expected an object, got null")
	}
	for _, name := range requiredFields {
		if raw, ok := fields[name]; !ok || isNull(raw) {
			return op, lineErrorf(line, "missing field %q", name)
		}
	}

	var err error
	var client int64
	if client, err = integerField(line, fields, "client"); err != nil {
		return op, err
	}
	if client < math.MinInt32 || client > math.MaxInt32 {
		return op, lineErrorf(line, "\"client\" %d is out of range (32-bit integer)", client)
	}
	op.Client = int(client)

	var opName string
	if opName, err = stringField(line, fields, "op"); err != nil {
		return op, err
	}
	var known bool
	if op.Kind, known = opKinds[opName]; !known {
		return op, lineErrorf(line, "unknown op %q (expected \"get\", \"put\", \"delete\", \"create\", \"write\" or \"stat\")", opName)
	}

	if op.Key, err = stringField(line, fields, "key"); err != nil {
		return op, err
	}

	if op.Call, err = integerField(line, fields, "call"); err != nil {
		return op, err
	}
	if raw, ok := fields["return"]; ok && !isNull(raw) {
		if op.Return, err = integerField(line, fields, "return"); err != nil {
			return op, err
		}
		op.HasReturn = true
		if op.Return < op.Call {
			return op, lineErrorf(line, "\"return\" %d is before \"call\" %d", op.Return, op.Call)
		}
	}

	var resultName string
	if resultName, err = stringField(line, fields, "result"); err != nil {
		return op, err
	}
	if op.Result, known = results[resultName]; !known {
		return op, lineErrorf(line, "unknown result %q (expected \"ok\", \"not_found\", \"exists\", \"fail\" or \"unknown\")", resultName)
	}
	if op.Result != Unknown && !op.HasReturn {
		return op, lineErrorf(line, "result %q needs a \"return\" time (only result \"unknown\" may lack one)", resultName)
	}
	if op.Result == NotFound && op.Kind != Get && op.Kind != Stat && op.Kind != Write {
		return op, lineErrorf(line, "result \"not_found\" is only valid for get, stat and write, not %s", op.Kind)
	}
	if op.Result == Exists && op.Kind != Create {
		return op, lineErrorf(line, "result \"exists\" is only valid for create, not %s", op.Kind)
	}

	if raw, ok := fields["value"]; ok && !isNull(raw) {
		if op.Value, err = stringField(line, fields, "value"); err != nil {
			return op, err
		}
		op.HasValue = true
	}
	// The value is the only output a get has, so its presence must match the result exactly: a
	// missing value on a successful get, or a value on a failed one, is a writer bug.
	// A file operation's written value is the state a stat of the path shows after it (§3.2).
	writesValue := op.Kind == Put || op.Kind == Create || op.Kind == Write
	valueWanted := writesValue || (op.Kind.ReadsState() && op.Result == OK)
	switch {
	case valueWanted && !op.HasValue && writesValue:
		return op, lineErrorf(line, "%s without \"value\"", op.Kind)
	case valueWanted && !op.HasValue:
		return op, lineErrorf(line, "%s with result \"ok\" without \"value\" (one that found nothing has result \"not_found\")", op.Kind)
	case !valueWanted && op.HasValue:
		return op, lineErrorf(line, "%s with result %q must not have a \"value\"", op.Kind, op.Result)
	}

	if raw, ok := fields["id"]; ok && !isNull(raw) {
		if op.ID, err = integerField(line, fields, "id"); err != nil {
			return op, err
		}
		op.HasID = true
	}
	return op, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func integerField(line int, fields map[string]json.RawMessage, name string) (int64, error) {
	text := string(bytes.TrimSpace(fields[name]))
	value, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		// ParseInt rejects fractions, exponents, strings and numbers beyond int64; all are errors here.
		return 0, lineErrorf(line, "%q must be an integer (64-bit), got %s", name, text)
	}
	return value, nil
}

func stringField(line int, fields map[string]json.RawMessage, name string) (string, error) {
	var value string
	if err := json.Unmarshal(fields[name], &value); err != nil {
		return "", lineErrorf(line, "%q must be a string, got %s", name, bytes.TrimSpace(fields[name]))
	}
	return value, nil
}

// validateAcrossLines checks the rules that involve several lines: unique ids, one family of
// operations per key (register or file), and at most one outstanding operation per client.
func validateAcrossLines(ops []Operation) error {
	firstOfKey := map[string]Operation{}
	for _, op := range ops {
		first, seen := firstOfKey[op.Key]
		if !seen {
			firstOfKey[op.Key] = op
			continue
		}
		if first.Kind.IsFile() != op.Kind.IsFile() {
			return lineErrorf(op.Line, "%s on key %q, which %s used for a %s: a key is a register (get, put, delete) "+
				"or a file (create, write, stat), not both", op.Kind, op.Key, first.Describe(), first.Kind)
		}
	}

	lineOfID := map[int64]int{}
	for _, op := range ops {
		if !op.HasID {
			continue
		}
		if first, seen := lineOfID[op.ID]; seen {
			return lineErrorf(op.Line, "\"id\" %d already used on line %d", op.ID, first)
		}
		lineOfID[op.ID] = op.Line
	}

	byClient := map[int][]Operation{}
	for _, op := range ops {
		byClient[op.Client] = append(byClient[op.Client], op)
	}
	clients := make([]int, 0, len(byClient))
	for client := range byClient {
		clients = append(clients, client)
	}
	sort.Ints(clients)
	var firstErr *LineError
	for _, client := range clients {
		clientOps := byClient[client]
		// Among operations invoked at the same time, the one that ends first goes first: [5,5]
		// then [5,7] is a valid sequence whatever the line order.
		sort.SliceStable(clientOps, func(i, j int) bool {
			if clientOps[i].Call != clientOps[j].Call {
				return clientOps[i].Call < clientOps[j].Call
			}
			if endI, endJ := clientEnd(clientOps[i]), clientEnd(clientOps[j]); endI != endJ {
				return endI < endJ
			}
			return clientOps[i].Line < clientOps[j].Line
		})
		for i := 1; i < len(clientOps); i++ {
			previous, next := clientOps[i-1], clientOps[i]
			var msg string
			switch {
			case !previous.HasReturn:
				msg = fmt.Sprintf("client %d invokes an operation at %d after its operation on %s, which never completed "+
					"(no \"return\"): a crashed client issues no further operations; give its successor a new client id",
					client, next.Call, previous.Describe())
			case previous.Return > next.Call:
				msg = fmt.Sprintf("client %d invokes an operation at %d while its operation on %s (call %d, return %d) "+
					"is outstanding: a client has at most one outstanding operation",
					client, next.Call, previous.Describe(), previous.Call, previous.Return)
			default:
				continue
			}
			// Report the earliest offending line over all clients, so the message does not depend on
			// map iteration order.
			if firstErr == nil || next.Line < firstErr.Line {
				firstErr = &LineError{Line: next.Line, Msg: msg}
			}
			break
		}
	}
	if firstErr != nil {
		return firstErr
	}
	return nil
}

// clientEnd is when an operation stops occupying its client: its return, or never for an
// operation that never returned (the client crashed).
func clientEnd(op Operation) int64 {
	if op.HasReturn {
		return op.Return
	}
	return math.MaxInt64
}
