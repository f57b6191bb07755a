package lincheck

import (
	"testing"
	"time"
)

func TestLocateFindsTheReadThatCannotBeExplained(t *testing.T) {
	ops := readFixture(t, "stale_read.jsonl")
	found, ok := Locate(ops, key1, time.Second, 10)
	if !ok {
		t.Fatal("no violation located in a history that is not linearizable")
	}
	if found.By != 50 || found.Culprit.Line != 3 {
		t.Errorf("located by t=%d at line %d, want t=50 at line 3 (the stale read)", found.By, found.Culprit.Line)
	}
	if len(found.Context) != 3 || found.Context[len(found.Context)-1].Line != 3 {
		t.Errorf("context %+v: want the key's 3 operations ending with the stale read", found.Context)
	}
}

func TestLocateSkipsEarlierHarmlessHistory(t *testing.T) {
	// 30 never-completed writes and a fresh read first; the stale read is the last operation.
	ops := readString(t, pendingWritesHistory(key1, 30, true))
	found, ok := Locate(ops, key1, 5*time.Second, 2)
	if !ok || found.By != 2010 || len(found.Context) != 2 {
		t.Errorf("located %+v (ok %v), want the read returning at 2010 with 2 operations of context", found, ok)
	}
}

func TestLocateReportsNothingForALinearizableKey(t *testing.T) {
	ops := readFixture(t, "crash_linearizable.jsonl")
	if found, ok := Locate(ops, key1, time.Second, 5); ok {
		t.Errorf("located a violation %+v in a linearizable history", found)
	}
}
