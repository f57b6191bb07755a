package campaign

import (
	"strings"
	"testing"

	"innet.dev/jepsen/history"
)

func op(line int, kind history.OpKind, value string, call, ret int64, result history.Result) history.Operation {
	return history.Operation{Line: line, Client: line, Kind: kind, Key: "k", Value: value, HasValue: value != "",
		Call: call, Return: ret, HasReturn: ret >= 0, Result: result}
}

func TestFinalReadOfTheLastWriteLosesNothing(t *testing.T) {
	s := CheckFinalReads([]history.Operation{
		op(1, history.Put, "v1", 0, 10, history.OK),
		op(2, history.Put, "v2", 20, 30, history.OK),
		op(3, history.Get, "v2", 40, 50, history.OK),
	})
	if s.KeysRead != 1 || len(s.Lost) != 0 || len(s.Unread) != 0 {
		t.Fatalf("got %+v, want one key read and nothing lost", s)
	}
}

func TestAnOverwrittenValueReadAtTheEndNamesTheLostWrite(t *testing.T) {
	s := CheckFinalReads([]history.Operation{
		op(1, history.Put, "v1", 0, 10, history.OK),
		op(2, history.Put, "v2", 20, 30, history.OK),
		op(3, history.Get, "v1", 40, 50, history.OK),
	})
	if len(s.Lost) != 1 || !strings.Contains(s.Lost[0], "put line 2") {
		t.Fatalf("got %+v, want the put on line 2 reported lost", s)
	}
}

func TestAnAcknowledgedPutMissingAtTheEndIsLost(t *testing.T) {
	s := CheckFinalReads([]history.Operation{
		op(1, history.Delete, "", 0, 5, history.OK),
		op(2, history.Put, "v1", 10, 20, history.OK),
		op(3, history.Get, "", 30, 40, history.NotFound),
	})
	if len(s.Lost) != 1 || !strings.Contains(s.Lost[0], "line 2") {
		t.Fatalf("got %+v, want the put on line 2 reported lost", s)
	}
}

func TestADeleteThatMayHaveHappenedExplainsAMissingValue(t *testing.T) {
	s := CheckFinalReads([]history.Operation{
		op(1, history.Put, "v1", 0, 10, history.OK),
		op(2, history.Delete, "", 15, -1, history.Unknown),
		op(3, history.Get, "", 30, 40, history.NotFound),
	})
	if s.KeysRead != 1 || len(s.Lost) != 0 {
		t.Fatalf("got %+v, want nothing lost: the unknown delete may have taken effect", s)
	}
}

func TestAWriteWithoutAFinalReadIsUnread(t *testing.T) {
	s := CheckFinalReads([]history.Operation{
		op(1, history.Put, "v1", 0, 10, history.OK),
		// concurrent with the put: not a final read
		op(2, history.Get, "", 5, 8, history.NotFound),
	})
	if s.KeysRead != 0 || len(s.Unread) != 1 || s.Unread[0] != "k" {
		t.Fatalf("got %+v, want key k unread", s)
	}
}
