package nemesis

import (
	"strings"
	"testing"
)

// withUnsupported runs f with the table set to t, restoring the real one after.
func withUnsupported(t map[string]map[string]string, f func()) {
	saved := unsupported
	unsupported = t
	defer func() { unsupported = saved }()
	f()
}

func TestAProtocolWithoutEntriesSupportsEveryKind(t *testing.T) {
	withUnsupported(map[string]map[string]string{}, func() {
		kept, left, err := ForProtocol("farreach", Kinds, true)
		if err != nil || len(left) != 0 || strings.Join(kept, ",") != strings.Join(Kinds, ",") {
			t.Fatalf("kept %v, left out %v, err %v", kept, left, err)
		}
	})
}

func TestAnUnsupportedKindIsRefusedWithItsReason(t *testing.T) {
	withUnsupported(map[string]map[string]string{"p": {"skew": "no clocks to skew"}}, func() {
		_, _, err := ForProtocol("p", []string{"kill", "skew"}, false)
		if err == nil || !strings.Contains(err.Error(), `"skew" is not supported for p: no clocks to skew`) ||
			!strings.Contains(err.Error(), "supported: partition") {
			t.Fatalf("err = %v", err)
		}
		if _, _, err := ForProtocol("other", []string{"skew"}, false); err != nil {
			t.Fatalf("another protocol is not affected: %v", err)
		}
	})
}

func TestAllLeavesUnsupportedKindsOutAndSaysWhy(t *testing.T) {
	withUnsupported(map[string]map[string]string{"p": {"skew": "no clocks", "dup": "applies twice"}}, func() {
		kept, left, err := ForProtocol("p", Kinds, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range kept {
			if k == "skew" || k == "dup" {
				t.Fatalf("kept %v", kept)
			}
		}
		if len(kept) != len(Kinds)-2 || len(left) != 2 || !strings.Contains(strings.Join(left, ";"), "dup: applies twice") {
			t.Fatalf("kept %v, left out %v", kept, left)
		}
		if got := Unsupported("p"); len(got) != 2 || got[0] != "dup: applies twice" {
			t.Fatalf("Unsupported = %v", got)
		}
	})
}

func TestNothingLeftIsAnError(t *testing.T) {
	withUnsupported(map[string]map[string]string{"p": {"kill": "x"}}, func() {
		if _, _, err := ForProtocol("p", []string{"kill"}, true); err == nil {
			t.Fatal("a schedule with no kind left must be refused")
		}
	})
}
