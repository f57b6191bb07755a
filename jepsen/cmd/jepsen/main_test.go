package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestBadArgumentsAreOneLineAndExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-root", "/nonexistent", "-protocol", "farreach"}, "no innet script there"},
		{[]string{"-root", "../../..", "-protocol", "farreach", "-nemesis", "kill,meteor"}, `unknown nemesis "meteor"`},
		{[]string{"-root", "../../..", "-protocol", "farreach", "-nemesis", "kill"}, "a nemesis needs -time"},
		{[]string{"-root", "../../..", "-protocol", "farreach", "-time", "soon"}, "-time \"soon\""},
		{[]string{"-root", "", "-protocol", "farreach"}, "-root is required"},
		{[]string{"-root", "../../..", "-protocol", "farreach", "-ops", "0"}, "-ops must be at least one per client"},
		{[]string{"-root", "../../..", "extra"}, "unexpected argument"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		if !strings.Contains(stderr.String(), tc.want) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: stderr %q, want one line with %q", tc.args, stderr.String(), tc.want)
		}
	}
}
