package lincheck

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"innet.dev/jepsen/history"
)

const (
	key1 = "6b310000000000000000000000000000"
	key2 = "6b320000000000000000000000000000"
	// "/d0/f1" and "/d0/f2", the file fixtures' paths
	fsPath1 = "2f64302f663100000000000000000000"
	fsPath2 = "2f64302f663200000000000000000000"
)

func readFixture(t *testing.T, name string) []history.Operation {
	t.Helper()
	ops, err := history.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatalf("reading fixture %s: %v", name, err)
	}
	return ops
}

func TestFixtureVerdicts(t *testing.T) {
	cases := []struct {
		fixture string
		want    Verdict
		// perKey lists the expected verdict of every key in the fixture.
		perKey map[string]Verdict
	}{
		{"linearizable.jsonl", Linearizable, map[string]Verdict{key1: Linearizable, key2: Linearizable}},
		// put v1; put v2; get -> v1 after both completed.
		{"stale_read.jsonl", NotLinearizable, map[string]Verdict{key1: NotLinearizable, key2: Linearizable}},
		// Two concurrent puts, then reads that fix their order: b first, then a.
		{"concurrent_one_order.jsonl", Linearizable, map[string]Verdict{key1: Linearizable}},
		// The same puts, with later reads that need both orders.
		{"concurrent_no_order.jsonl", NotLinearizable, map[string]Verdict{key1: NotLinearizable}},
		// A crashed put takes effect late, a timed-out delete never does, a failed put is ignored.
		{"crash_linearizable.jsonl", Linearizable, map[string]Verdict{key1: Linearizable}},
		// A crashed put is seen, then the value it overwrote is seen again.
		{"crash_not_linearizable.jsonl", NotLinearizable, map[string]Verdict{key1: NotLinearizable}},
		// A failed put did not take effect, so its value cannot be read.
		{"failed_write_read.jsonl", NotLinearizable, map[string]Verdict{key1: NotLinearizable}},
		{"deletes.jsonl", Linearizable, map[string]Verdict{key1: Linearizable}},
		// put v1; delete; get -> v1.
		{"delete_not_linearizable.jsonl", NotLinearizable, map[string]Verdict{key1: NotLinearizable}},
		// The example of docs/history-format.md §5 (TestDocumentedExampleIsTheFixture keeps them equal).
		{"doc_example.jsonl", Linearizable, map[string]Verdict{"75736572313030300000000000000000": Linearizable}},
		// Files: a create that finds the path is "exists", a write of an absent path "not_found", a stat
		// shows the last create or write; an unknown write never seen is left out.
		{"fs_linearizable.jsonl", Linearizable, map[string]Verdict{fsPath1: Linearizable, fsPath2: Linearizable}},
		// create; write w1; write w2; stat -> w1 after both completed.
		{"fs_stale_stat.jsonl", NotLinearizable, map[string]Verdict{fsPath1: NotLinearizable}},
		// A create saw the path (exists), then a later stat did not: files are never removed.
		{"fs_exists_then_absent.jsonl", NotLinearizable, map[string]Verdict{fsPath1: NotLinearizable}},
		// A write succeeded before the path was created, and the create then succeeded too.
		{"fs_write_without_create.jsonl", NotLinearizable, map[string]Verdict{fsPath1: NotLinearizable}},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			report := Check(readFixture(t, tc.fixture), Options{Timeout: 10 * time.Second})
			if report.Verdict != tc.want {
				t.Errorf("verdict %s, want %s", report.Verdict, tc.want)
			}
			if len(report.Keys) != len(tc.perKey) {
				t.Errorf("%d keys checked, want %d", len(report.Keys), len(tc.perKey))
			}
			for _, key := range report.Keys {
				if want, ok := tc.perKey[key.Key]; !ok || key.Verdict != want {
					t.Errorf("key %s: verdict %s, want %s", key.Key, key.Verdict, want)
				}
				if key.Verdict == NotLinearizable && key.LongestLinearizable >= key.Operations {
					t.Errorf("key %s: not linearizable but longest linearizable prefix %d covers all %d operations",
						key.Key, key.LongestLinearizable, key.Operations)
				}
			}
		})
	}
}

func TestDocumentedExampleIsTheFixture(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "history-format.md"))
	if err != nil {
		t.Fatalf("reading the format document: %v", err)
	}
	_, afterFence, found := strings.Cut(string(doc), "```jsonl\n")
	example, _, closed := strings.Cut(afterFence, "```")
	if !found || !closed {
		t.Fatal("docs/history-format.md has no ```jsonl example block")
	}
	fixture, err := os.ReadFile(filepath.Join("..", "testdata", "doc_example.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if example != string(fixture) {
		t.Errorf("the example in docs/history-format.md differs from testdata/doc_example.jsonl")
	}
}

func TestCountsOfDroppedAndUnfinishedOperations(t *testing.T) {
	report := Check(readFixture(t, "crash_linearizable.jsonl"), Options{})
	want := Counts{Operations: 9, Checked: 7, Failed: 1, NeverCompleted: 3, UnobservedReads: 1, DistinctKeys: 1}
	if report.Counts != want {
		t.Errorf("counts %+v, want %+v", report.Counts, want)
	}
}

func TestEmptyHistoryIsLinearizable(t *testing.T) {
	report := Check(nil, Options{Timeout: time.Second})
	if report.Verdict != Linearizable || len(report.Keys) != 0 {
		t.Errorf("empty history: verdict %s with %d keys", report.Verdict, len(report.Keys))
	}
}

// hardHistory is a history porcupine cannot decide quickly: n concurrent puts of distinct values,
// then a read of a value nobody wrote. Showing that read impossible means trying every order of
// the puts, and porcupine's memoization still leaves about n * 2^n states.
func hardHistory(key string, firstClient, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"client":%d,"op":"put","key":%q,"value":"v%d","call":0,"return":1000,"result":"ok"}`+"\n", firstClient+i, key, i)
	}
	fmt.Fprintf(&b, `{"client":%d,"op":"get","key":%q,"call":2000,"return":2001,"result":"ok","value":"never written"}`+"\n", firstClient, key)
	return b.String()
}

func readString(t *testing.T, text string) []history.Operation {
	t.Helper()
	ops, err := history.Read(strings.NewReader(text))
	if err != nil {
		t.Fatalf("history.Read: %v", err)
	}
	return ops
}

func TestTimeoutIsUnknownNotPass(t *testing.T) {
	ops := readString(t, hardHistory(key2, 0, 40))
	start := time.Now()
	report := Check(ops, Options{Timeout: 300 * time.Millisecond})
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("check took %v despite a 300ms timeout", elapsed)
	}
	if report.Verdict != Unknown {
		t.Fatalf("verdict %s, want %s", report.Verdict, Unknown)
	}
	if len(report.Keys) != 1 || report.Keys[0].Verdict != Unknown {
		t.Errorf("per-key results %+v, want the one key unknown", report.Keys)
	}
}

func TestViolationOutranksUnknownKeys(t *testing.T) {
	staleRead := fmt.Sprintf(`{"client":100,"op":"put","key":%q,"value":"v1","call":0,"return":10,"result":"ok"}
{"client":100,"op":"put","key":%q,"value":"v2","call":20,"return":30,"result":"ok"}
{"client":101,"op":"get","key":%q,"call":40,"return":50,"result":"ok","value":"v1"}
`, key1, key1, key1)
	ops := readString(t, staleRead+hardHistory(key2, 0, 40))
	report := Check(ops, Options{Timeout: 300 * time.Millisecond})
	if report.Verdict != NotLinearizable {
		t.Fatalf("verdict %s, want %s", report.Verdict, NotLinearizable)
	}
	got := map[string]Verdict{}
	for _, key := range report.Keys {
		got[key.Key] = key.Verdict
	}
	if got[key1] != NotLinearizable || got[key2] != Unknown {
		t.Errorf("per-key verdicts %v, want %s not linearizable and %s unknown", got, key1, key2)
	}
}

func TestExpiredDeadlineLeavesKeysUnknown(t *testing.T) {
	// A deadline that has passed before any key is checked must not be read as "no limit".
	report := Check(readFixture(t, "linearizable.jsonl"), Options{Timeout: time.Nanosecond})
	if report.Verdict != Unknown {
		t.Errorf("verdict %s, want %s", report.Verdict, Unknown)
	}
}

func TestWriteHTML(t *testing.T) {
	for _, fixture := range []string{"linearizable.jsonl", "stale_read.jsonl"} {
		t.Run(fixture, func(t *testing.T) {
			report := Check(readFixture(t, fixture), Options{Timeout: 10 * time.Second})
			path := filepath.Join(t.TempDir(), "out.html")
			shown, err := report.WriteHTML(path)
			if err != nil {
				t.Fatalf("WriteHTML: %v", err)
			}
			if !shown.Complete || len(shown.OmittedKeys) != 0 {
				t.Errorf("visualization %+v, want complete with no omitted keys", shown)
			}
			html, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(html)
			for _, want := range []string{"<html", "put(", key1, "line 1"} {
				if !strings.Contains(text, want) {
					t.Errorf("HTML does not contain %q", want)
				}
			}
		})
	}
}

func TestWriteHTMLEscapesMarkupFromTheHistory(t *testing.T) {
	ops := readString(t, `{"client":0,"op":"put","key":"<b>k</b>","value":"<script>x</script>","call":0,"return":1,"result":"ok"}`)
	report := Check(ops, Options{Timeout: 10 * time.Second})
	path := filepath.Join(t.TempDir(), "out.html")
	if _, err := report.WriteHTML(path); err != nil {
		t.Fatalf("WriteHTML: %v", err)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The data is embedded as JSON, where encoding/json writes < as \u003c; after escaping, the
	// metadata and state must carry &lt; instead.
	for _, want := range []string{`key \u0026lt;b\u0026gt;k`, `\u0026lt;script\u0026gt;`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page does not contain %s", want)
		}
	}
}

func TestWriteHTMLOmitsUndecidedKeys(t *testing.T) {
	ops := readString(t, hardHistory(key2, 0, 40))
	report := Check(ops, Options{Timeout: 200 * time.Millisecond})
	shown, err := report.WriteHTML(filepath.Join(t.TempDir(), "out.html"))
	if err != nil {
		t.Fatalf("WriteHTML: %v", err)
	}
	if len(shown.OmittedKeys) != 1 || shown.OmittedKeys[0] != key2 {
		t.Errorf("omitted keys %v, want [%s]", shown.OmittedKeys, key2)
	}
}

// pendingWritesHistory has n puts that never completed, each of a value no read returns, among
// completed operations on the same key; stale says whether the last read returns an overwritten
// value (not linearizable) or the latest one.
func pendingWritesHistory(key string, n int, stale bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"client":0,"op":"put","key":%q,"value":"a","call":0,"return":10,"result":"ok"}`+"\n", key)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"client":%d,"op":"put","key":%q,"value":"lost%d","call":%d,"result":"unknown"}`+"\n", 100+i, key, i, 20+i)
	}
	fmt.Fprintf(&b, `{"client":1,"op":"put","key":%q,"value":"b","call":1000,"return":1010,"result":"ok"}`+"\n", key)
	last := "b"
	if stale {
		last = "a"
	}
	fmt.Fprintf(&b, `{"client":2,"op":"get","key":%q,"call":2000,"return":2010,"result":"ok","value":%q}`+"\n", key, last)
	return b.String()
}

func TestUnobservedPendingWritesAreLeftOutWithoutChangingTheVerdict(t *testing.T) {
	for _, stale := range []bool{false, true} {
		ops := readString(t, pendingWritesHistory(key1, 30, stale))
		report := Check(ops, Options{Timeout: 5 * time.Second})
		if report.UnobservedWrites != 30 || report.Checked != 3 {
			t.Errorf("stale=%v: %d unobserved writes, %d checked; want 30 and 3", stale, report.UnobservedWrites, report.Checked)
		}
		want := Linearizable
		if stale {
			want = NotLinearizable
		}
		if report.Verdict != want {
			t.Errorf("stale=%v: verdict %s, want %s", stale, report.Verdict, want)
		}
	}
}

func TestPendingWriteWhoseValueWasReadIsKept(t *testing.T) {
	// crash_linearizable.jsonl's unknown put of v2 is read later: only that put explains the read.
	report := Check(readFixture(t, "crash_linearizable.jsonl"), Options{})
	if report.UnobservedWrites != 0 || report.Verdict != Linearizable {
		t.Errorf("unobserved writes %d, verdict %s; want 0 and linearizable", report.UnobservedWrites, report.Verdict)
	}
}

// TestLeavingOutUnobservedWritesAgreesWithTheFullSearch compares the two checks on many small random
// histories of one key: the reduction must never change a verdict.
func TestLeavingOutUnobservedWritesAgreesWithTheFullSearch(t *testing.T) {
	agreeWithTheFullSearch(t, rand.New(rand.NewPCG(7, 11)), randomSmallHistory)
}

// agreeWithTheFullSearch checks 2,000 random histories of one key with and without leaving out
// unobserved writes: the verdicts must agree, and both reductions and violations must have happened.
func agreeWithTheFullSearch(t *testing.T, rng *rand.Rand, generate func(*rand.Rand, string) []history.Operation) {
	t.Helper()
	differing, dropped, illegal := 0, 0, 0
	for trial := 0; trial < 2000; trial++ {
		ops := generate(rng, key1)
		reduced := Check(ops, Options{})
		full := Check(ops, Options{KeepUnobservedWrites: true})
		if reduced.Verdict != full.Verdict {
			differing++
			if differing <= 3 {
				t.Errorf("trial %d: reduced %s, full %s; history %+v", trial, reduced.Verdict, full.Verdict, ops)
			}
		}
		dropped += reduced.UnobservedWrites
		if full.Verdict == NotLinearizable {
			illegal++
		}
	}
	// The comparison means something only if both reductions and violations happened.
	if dropped == 0 || illegal == 0 || illegal == 2000 {
		t.Errorf("random histories too uniform: %d writes left out, %d of 2000 not linearizable", dropped, illegal)
	}
}

// randomOperations draws 2 to 7 operations on one key with random overlapping intervals; draw
// fills in each one's kind, value and result (ok unless it says otherwise); a third of the writes
// (anything but a get or stat) then become unknown, never completed.
func randomOperations(rng *rand.Rand, key string, draw func(i, n int, op *history.Operation)) []history.Operation {
	n := 2 + rng.IntN(6)
	ops := make([]history.Operation, 0, n)
	for i := 0; i < n; i++ {
		call := int64(rng.IntN(40))
		op := history.Operation{Client: i, Key: key, Call: call, Return: call + 1 + int64(rng.IntN(15)), HasReturn: true, Result: history.OK}
		draw(i, n, &op)
		if !op.Kind.ReadsState() && rng.IntN(3) == 0 {
			op.Result = history.Unknown
			op.HasReturn = false
			op.Return = 0
		}
		ops = append(ops, op)
	}
	return ops
}

// randomSmallHistory draws register operations; reads return one of the values written, the initial
// absence, or a value nobody wrote.
func randomSmallHistory(rng *rand.Rand, key string) []history.Operation {
	return randomOperations(rng, key, func(i, n int, op *history.Operation) {
		switch rng.IntN(3) {
		case 0:
			op.Kind = history.Put
			op.Value, op.HasValue = fmt.Sprintf("v%d", i), true
		case 1:
			op.Kind = history.Delete
		default:
			op.Kind = history.Get
			switch pick := rng.IntN(n + 2); {
			case pick < n:
				op.Value, op.HasValue = fmt.Sprintf("v%d", pick), true
			case pick == n:
				op.Result = history.NotFound
			default:
				op.Value, op.HasValue = "nobody", true
			}
		}
	})
}

// TestFileModel steps the file model through each rule of docs/history-format.md §3.2 directly.
func TestFileModel(t *testing.T) {
	absent, file := registerState{}, registerState{present: true, value: "0:c"}
	cases := []struct {
		name      string
		state     registerState
		kind      history.OpKind
		result    history.Result
		value     string
		legal     bool
		wantState registerState
	}{
		{"create of an absent path", absent, history.Create, history.OK, "0:c", true, file},
		{"create of an existing path cannot succeed", file, history.Create, history.OK, "0:d", false, file},
		{"create finds the path", file, history.Create, history.Exists, "0:d", true, file},
		{"create cannot find an absent path", absent, history.Create, history.Exists, "0:d", false, absent},
		{"unknown create of an absent path creates", absent, history.Create, history.Unknown, "0:c", true, file},
		{"unknown create of an existing path changes nothing", file, history.Create, history.Unknown, "0:d", true, file},
		{"write of a file", file, history.Write, history.OK, "5:w", true, registerState{true, "5:w"}},
		{"write of an absent path cannot succeed", absent, history.Write, history.OK, "5:w", false, absent},
		{"write of an absent path is not_found", absent, history.Write, history.NotFound, "5:w", true, absent},
		{"write of a file cannot be not_found", file, history.Write, history.NotFound, "5:w", false, file},
		{"unknown write of an absent path changes nothing", absent, history.Write, history.Unknown, "5:w", true, absent},
		{"stat shows the state", file, history.Stat, history.OK, "0:c", true, file},
		{"stat cannot show another state", file, history.Stat, history.OK, "5:w", false, file},
		{"stat of an absent path", absent, history.Stat, history.NotFound, "", true, absent},
		{"stat of a file cannot be not_found", file, history.Stat, history.NotFound, "", false, file},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := registerInput{kind: tc.kind, key: fsPath1, value: tc.value}
			out := registerOutput{result: tc.result, value: tc.value}
			legal, next := step(tc.state, in, out)
			if legal != tc.legal {
				t.Fatalf("legal %v, want %v", legal, tc.legal)
			}
			if legal && next.(registerState) != tc.wantState {
				t.Errorf("state %+v, want %+v", next, tc.wantState)
			}
		})
	}
}

// TestLeavingOutUnobservedFileWritesAgreesWithTheFullSearch is the comparison above for files:
// random small histories of creates, writes and stats of one path.
func TestLeavingOutUnobservedFileWritesAgreesWithTheFullSearch(t *testing.T) {
	agreeWithTheFullSearch(t, rand.New(rand.NewPCG(3, 5)), randomSmallFileHistory)
}

// randomSmallFileHistory draws creates (half of them finding the path), writes (a quarter finding
// none) and stats that show one of the states written or nothing.
func randomSmallFileHistory(rng *rand.Rand, key string) []history.Operation {
	return randomOperations(rng, key, func(i, n int, op *history.Operation) {
		switch rng.IntN(3) {
		case 0:
			op.Kind = history.Create
			op.Value, op.HasValue = fmt.Sprintf("0:c%d", i), true
			if rng.IntN(2) == 0 {
				op.Result = history.Exists
			}
		case 1:
			op.Kind = history.Write
			op.Value, op.HasValue = fmt.Sprintf("%d:w%d", i, i), true
			if rng.IntN(4) == 0 {
				op.Result = history.NotFound
			}
		default:
			op.Kind = history.Stat
			switch pick := rng.IntN(n + 1); {
			case pick < n && rng.IntN(2) == 0:
				op.Value, op.HasValue = fmt.Sprintf("0:c%d", pick), true
			case pick < n:
				op.Value, op.HasValue = fmt.Sprintf("%d:w%d", pick, pick), true
			default:
				op.Result = history.NotFound
			}
		}
	})
}
