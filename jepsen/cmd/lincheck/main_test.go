package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fixture(name string) string { return filepath.Join("..", "..", "testdata", name) }

func runCommand(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestExitStatusAndOutput(t *testing.T) {
	cases := []struct {
		args       []string
		wantCode   int
		wantStdout []string // substrings
		wantStderr []string
	}{
		{[]string{fixture("linearizable.jsonl")}, 0, []string{"9 operations", "2 keys", ": LINEARIZABLE"}, nil},
		{[]string{fixture("stale_read.jsonl")}, 1,
			[]string{"key 6b310000000000000000000000000000: NOT LINEARIZABLE", ": NOT LINEARIZABLE"}, nil},
		{[]string{fixture("crash_not_linearizable.jsonl")}, 1, []string{"1 never completed", "NOT LINEARIZABLE"}, nil},
		{[]string{"-timeout", "1ns", fixture("linearizable.jsonl")}, 2,
			[]string{"key 6b310000000000000000000000000000: UNKNOWN", "UNKNOWN (inconclusive"}, nil},
		{[]string{fixture("bad_return_before_call.jsonl")}, 3, nil, []string{"line 2:", `"return" 15 is before "call" 20`}},
		{[]string{fixture("no_such_file.jsonl")}, 3, nil, []string{"no_such_file.jsonl"}},
		{[]string{}, 3, nil, []string{"usage:"}},
		{[]string{"-bogus", fixture("linearizable.jsonl")}, 3, nil, []string{"-bogus"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCommand(tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, stdout, stderr)
			}
			for _, want := range tc.wantStdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout does not contain %q:\n%s", want, stdout)
				}
			}
			for _, want := range tc.wantStderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr does not contain %q:\n%s", want, stderr)
				}
			}
		})
	}
}

func TestLinearizableKeysAreNotListed(t *testing.T) {
	_, stdout, _ := runCommand(fixture("stale_read.jsonl"))
	if strings.Contains(stdout, "6b320000000000000000000000000000") {
		t.Errorf("the linearizable key is listed:\n%s", stdout)
	}
}

func TestJSONOutput(t *testing.T) {
	code, stdout, _ := runCommand("-json", fixture("stale_read.jsonl"))
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	var report struct {
		File         string `json:"file"`
		Verdict      string `json:"verdict"`
		Operations   int    `json:"operations"`
		DistinctKeys int    `json:"distinct_keys"`
		Keys         []struct {
			Key     string `json:"key"`
			Verdict string `json:"verdict"`
		} `json:"keys"`
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	if report.Verdict != "not_linearizable" || report.Operations != 5 || report.DistinctKeys != 2 || len(report.Keys) != 2 {
		t.Errorf("report %+v", report)
	}
	if report.Keys[0].Verdict != "not_linearizable" || report.Keys[1].Verdict != "linearizable" {
		t.Errorf("per-key verdicts %+v", report.Keys)
	}
}

func TestHTMLFileWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vis.html")
	code, _, stderr := runCommand("-html", path, fixture("crash_linearizable.jsonl"))
	if code != 0 {
		t.Fatalf("exit status %d, want 0; stderr:\n%s", code, stderr)
	}
	html, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("HTML file not written: %v", err)
	}
	if !bytes.Contains(html, []byte("never completed")) {
		t.Errorf("HTML does not show the never-completed operations")
	}
}

func TestHTMLWriteFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing-dir", "vis.html")
	if code, _, _ := runCommand("-html", path, fixture("linearizable.jsonl")); code != 4 {
		t.Errorf("exit status %d, want 4", code)
	}
}
