package history

import (
	"errors"
	"strings"
	"testing"
)

// goodLine is a valid operation that the bad-input cases put before the bad line, so that each
// case also checks that the reported line number counts blank and earlier lines.
const goodLine = `{"client":9,"op":"put","key":"k","value":"v","call":0,"return":1,"result":"ok"}`

func TestReadRejectsBadInput(t *testing.T) {
	cases := []struct {
		name    string
		badLine string
		want    string // substring of the error message after "line 3: "
	}{
		{"malformed JSON", `{"client":0,"op":"get"`, "malformed JSON"},
		{"not an object", `[1,2,3]`, "malformed JSON"},
		{"JSON null", `null`, "malformed JSON"},
		{"trailing garbage", `{"client":0} x`, "malformed JSON"},
		{"unknown op", `{"client":0,"op":"cas","key":"k","call":5,"return":6,"result":"ok"}`, `unknown op "cas"`},
		{"missing client", `{"op":"get","key":"k","call":5,"return":6,"result":"not_found"}`, `missing field "client"`},
		{"missing op", `{"client":0,"key":"k","call":5,"return":6,"result":"not_found"}`, `missing field "op"`},
		{"missing key", `{"client":0,"op":"get","call":5,"return":6,"result":"not_found"}`, `missing field "key"`},
		{"missing call", `{"client":0,"op":"get","key":"k","return":6,"result":"not_found"}`, `missing field "call"`},
		{"null call", `{"client":0,"op":"get","key":"k","call":null,"return":6,"result":"not_found"}`, `missing field "call"`},
		{"missing result", `{"client":0,"op":"get","key":"k","call":5,"return":6}`, `missing field "result"`},
		{"unknown result", `{"client":0,"op":"get","key":"k","call":5,"return":6,"result":"timeout"}`, `unknown result "timeout"`},
		{"return before call", `{"client":0,"op":"get","key":"k","call":5,"return":4,"result":"not_found"}`, `"return" 4 is before "call" 5`},
		{"completed without return", `{"client":0,"op":"get","key":"k","call":5,"result":"not_found"}`, `needs a "return"`},
		{"failed without return", `{"client":0,"op":"delete","key":"k","call":5,"return":null,"result":"fail"}`, `needs a "return"`},
		{"get ok without value", `{"client":0,"op":"get","key":"k","call":5,"return":6,"result":"ok"}`, `get with result "ok" without "value"`},
		{"put without value", `{"client":0,"op":"put","key":"k","call":5,"return":6,"result":"ok"}`, `put without "value"`},
		{"delete with value", `{"client":0,"op":"delete","key":"k","value":"v","call":5,"return":6,"result":"ok"}`, `delete with result "ok" must not have a "value"`},
		{"get not_found with value", `{"client":0,"op":"get","key":"k","value":"v","call":5,"return":6,"result":"not_found"}`, `must not have a "value"`},
		{"unknown get with value", `{"client":0,"op":"get","key":"k","value":"v","call":5,"result":"unknown"}`, `must not have a "value"`},
		{"not_found on put", `{"client":0,"op":"put","key":"k","value":"v","call":5,"return":6,"result":"not_found"}`, `only valid for get`},
		{"fractional time", `{"client":0,"op":"get","key":"k","call":5.5,"return":6,"result":"not_found"}`, `"call" must be an integer`},
		{"time beyond int64", `{"client":0,"op":"get","key":"k","call":5,"return":9223372036854775808,"result":"not_found"}`, `"return" must be an integer`},
		{"client as string", `{"client":"0","op":"get","key":"k","call":5,"return":6,"result":"not_found"}`, `"client" must be an integer`},
		{"key as number", `{"client":0,"op":"get","key":7,"call":5,"return":6,"result":"not_found"}`, `"key" must be a string`},
		{"value as number", `{"client":0,"op":"put","key":"k","value":7,"call":5,"return":6,"result":"ok"}`, `"value" must be a string`},
		{"id as string", `{"client":0,"op":"get","key":"k","call":5,"return":6,"result":"not_found","id":"x"}`, `"id" must be an integer`},
		{"invalid UTF-8", "{\"client\":0,\"op\":\"put\",\"key\":\"k\",\"value\":\"\xff\",\"call\":5,\"return\":6,\"result\":\"ok\"}", "not valid UTF-8"},
		{"duplicate id", `{"client":0,"op":"get","key":"k","call":5,"return":6,"result":"not_found","id":1}`, `"id" 1 already used on line 1`},
		{"overlapping ops of one client", `{"client":9,"op":"get","key":"k","call":0,"return":6,"result":"not_found"}`, "at most one outstanding operation"},
		{"exists on a write", `{"client":0,"op":"write","key":"f","value":"v","call":5,"return":6,"result":"exists"}`, `only valid for create`},
		{"not_found on a create", `{"client":0,"op":"create","key":"f","value":"v","call":5,"return":6,"result":"not_found"}`, `only valid for get, stat and write`},
		{"create without value", `{"client":0,"op":"create","key":"f","call":5,"return":6,"result":"ok"}`, `create without "value"`},
		{"stat ok without value", `{"client":0,"op":"stat","key":"f","call":5,"return":6,"result":"ok"}`, `stat with result "ok" without "value"`},
		{"stat not_found with value", `{"client":0,"op":"stat","key":"f","value":"v","call":5,"return":6,"result":"not_found"}`, `must not have a "value"`},
		{"file op on a register key", `{"client":0,"op":"stat","key":"k","call":5,"return":6,"result":"not_found"}`, `a key is a register`},
		{"op after a crash", `{"client":9,"op":"get","key":"k","call":5,"return":6,"result":"not_found"}`, "never completed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			first := strings.Replace(goodLine, `"result":"ok"}`, `"result":"ok","id":1}`, 1)
			if tc.name == "op after a crash" {
				first = `{"client":9,"op":"put","key":"k","value":"v","call":0,"result":"unknown"}`
			}
			input := first + "\n\n" + tc.badLine + "\n"
			_, err := Read(strings.NewReader(input))
			var lineErr *LineError
			if !errors.As(err, &lineErr) {
				t.Fatalf("Read accepted or failed without a line: err = %v", err)
			}
			if lineErr.Line != 3 {
				t.Errorf("error names line %d, want 3: %v", lineErr.Line, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestReadAcceptsValidHistory(t *testing.T) {
	// Out of time order, CRLF line ends, blank lines, an unknown extra field, a null value and
	// a client that moves on after giving up on a timed-out operation.
	input := "\ufeff" +
		`{"client":1,"op":"get","key":"k","call":30,"return":40,"result":"ok","value":"","node":"s1"}` + "\r\n" +
		"\r\n" +
		`{"client":1,"op":"put","key":"k","value":"","call":10,"return":20,"result":"unknown"}` + "\n" +
		`{"client":2,"op":"delete","key":"k","value":null,"call":0,"return":50,"result":"ok","id":-7}` + "\n" +
		`{"client":3,"op":"get","key":"k","call":15,"result":"unknown"}`
	ops, err := Read(strings.NewReader(input))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if len(ops) != 4 {
		t.Fatalf("got %d operations, want 4", len(ops))
	}
	wantLines := []int{4, 3, 5, 1} // sorted by call time: 0, 10, 15, 30
	for i, op := range ops {
		if op.Line != wantLines[i] {
			t.Errorf("operation %d is line %d, want line %d", i, op.Line, wantLines[i])
		}
	}
	get := ops[3]
	if get.Kind != Get || get.Result != OK || !get.HasValue || get.Value != "" || get.Client != 1 {
		t.Errorf("get parsed as %+v", get)
	}
	if ops[0].HasValue || !ops[0].HasID || ops[0].ID != -7 {
		t.Errorf("delete parsed as %+v", ops[0])
	}
	if ops[2].HasReturn || ops[2].Result != Unknown {
		t.Errorf("crashed get parsed as %+v", ops[2])
	}
	if !ops[1].HasReturn || ops[1].Return != 20 {
		t.Errorf("timed-out put parsed as %+v", ops[1])
	}
}

func TestClientOperationsAtTheSameInstant(t *testing.T) {
	// A zero-length operation and a longer one invoked at the same time are sequential in the
	// order zero-length first, whatever their line order.
	input := `{"client":1,"op":"get","key":"k","call":5,"return":7,"result":"not_found"}
{"client":1,"op":"get","key":"k","call":5,"return":5,"result":"not_found"}`
	if _, err := Read(strings.NewReader(input)); err != nil {
		t.Errorf("Read: %v", err)
	}
}

func TestReadEmptyHistory(t *testing.T) {
	ops, err := Read(strings.NewReader("\n  \n"))
	if err != nil || len(ops) != 0 {
		t.Fatalf("Read(blank) = %v, %v; want no operations and no error", ops, err)
	}
}
