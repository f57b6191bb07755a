// Command lincheck checks an innet history file (docs/history-format.md) for per-key register
// linearizability and optionally writes porcupine's HTML visualization. See docs/lincheck.md.
//
//	go run ./cmd/lincheck [-timeout 30s] [-html out.html] [-json] history.jsonl
//
// Exit status: 0 linearizable, 1 not linearizable, 2 unknown (timed out; inconclusive),
// 3 bad input or usage, 4 the HTML file could not be written.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"innet.dev/jepsen/history"
	"innet.dev/jepsen/lincheck"
)

const (
	exitLinearizable    = 0
	exitNotLinearizable = 1
	exitUnknown         = 2
	exitBadInput        = 3
	exitOutputFailed    = 4
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: tests call it to check output and exit status.
func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("lincheck", flag.ContinueOnError)
	flags.SetOutput(stderr)
	timeout := flags.Duration("timeout", 30*time.Second, "bound on the whole check; keys not decided by then are unknown (0: no bound)")
	htmlPath := flags.String("html", "", "write porcupine's HTML visualization to this file")
	jsonOutput := flags.Bool("json", false, "print the report as one JSON object instead of text")
	parallelism := flags.Int("parallel", 0, "keys checked at once (0: one per CPU)")
	locate := flags.Int("locate", 0, "for each key not linearizable, find the earliest instant its history stops being linearizable and print the last N operations called by then (0: off)")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: lincheck [-timeout 30s] [-html out.html] [-json] [-parallel n] [-locate n] history.jsonl")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitLinearizable
		}
		return exitBadInput
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return exitBadInput
	}
	if *timeout < 0 {
		fmt.Fprintln(stderr, "lincheck: -timeout must not be negative")
		return exitBadInput
	}
	path := flags.Arg(0)

	ops, err := history.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "lincheck: %s: %v\n", path, err)
		return exitBadInput
	}
	report := lincheck.Check(ops, lincheck.Options{Timeout: *timeout, Parallelism: *parallelism})

	if *jsonOutput {
		encoder := json.NewEncoder(stdout)
		encoder.SetIndent("", "  ")
		if err := encoder.Encode(jsonReport{File: path, Report: report}); err != nil {
			fmt.Fprintf(stderr, "lincheck: %v\n", err)
			return exitOutputFailed
		}
	} else {
		printText(stdout, path, report)
	}
	if *locate > 0 {
		printViolations(stdout, ops, report, *timeout, *locate)
	}

	if *htmlPath != "" {
		shown, err := report.WriteHTML(*htmlPath)
		if err != nil {
			fmt.Fprintf(stderr, "lincheck: writing %s: %v\n", *htmlPath, err)
			return exitOutputFailed
		}
		if len(shown.OmittedKeys) > 0 {
			fmt.Fprintf(stderr, "lincheck: %s: %d undecided key(s) left out of the visualization: %s\n",
				*htmlPath, len(shown.OmittedKeys), strings.Join(shown.OmittedKeys, ", "))
		}
		if !shown.Complete {
			fmt.Fprintf(stderr, "lincheck: %s: the check repeated for the visualization timed out; it may show partial linearizations only\n", *htmlPath)
		}
	}

	switch report.Verdict {
	case lincheck.Linearizable:
		return exitLinearizable
	case lincheck.NotLinearizable:
		return exitNotLinearizable
	default:
		return exitUnknown
	}
}

type jsonReport struct {
	File string `json:"file"`
	*lincheck.Report
}

func printText(out io.Writer, path string, report *lincheck.Report) {
	for _, key := range report.Keys {
		switch key.Verdict {
		case lincheck.NotLinearizable:
			fmt.Fprintf(out, "key %s: NOT LINEARIZABLE (%d operations; longest linearizable prefix %d)\n",
				key.Key, key.Operations, key.LongestLinearizable)
		case lincheck.Unknown:
			fmt.Fprintf(out, "key %s: UNKNOWN, check did not finish within %v (%d operations)\n",
				key.Key, report.Timeout, key.Operations)
		}
	}
	var verdict string
	switch report.Verdict {
	case lincheck.Linearizable:
		verdict = "LINEARIZABLE"
	case lincheck.NotLinearizable:
		verdict = "NOT LINEARIZABLE"
	default:
		verdict = "UNKNOWN (inconclusive: the check timed out, this is not a pass)"
	}
	fmt.Fprintf(out, "%s: %s (%d checked, %d failed, %d never completed, of which %d unobserved reads and %d unobserved writes left out), %s, %v: %s\n",
		path, plural(report.Operations, "operation"), report.Checked, report.Failed, report.NeverCompleted,
		report.UnobservedReads, report.UnobservedWrites,
		plural(report.DistinctKeys, "key"), report.Elapsed.Round(time.Millisecond), verdict)
}

// printViolations prints, per key found not linearizable, where its history first stops being
// linearizable (lincheck.Locate), with the operations leading up to it.
func printViolations(out io.Writer, ops []history.Operation, report *lincheck.Report, timeout time.Duration, context int) {
	for _, key := range report.Keys {
		if key.Verdict != lincheck.NotLinearizable {
			continue
		}
		found, ok := lincheck.Locate(ops, key.Key, timeout, context)
		if !ok {
			fmt.Fprintf(out, "key %s: could not locate the first violation (a cut was undecided within %v)\n", key.Key, timeout)
			continue
		}
		fmt.Fprintf(out, "key %s: first violation by t=%d, when %s returned; the last %d operations called by then:\n",
			key.Key, found.By, describe(found.Culprit), len(found.Context))
		for _, op := range found.Context {
			fmt.Fprintf(out, "  %s\n", describe(op))
		}
	}
}

func describe(op history.Operation) string {
	text := fmt.Sprintf("%s client %d %s", op.Describe(), op.Client, op.Kind)
	if op.Kind == history.Put || (op.Kind == history.Get && op.Result == history.OK) {
		text += fmt.Sprintf(" %q", op.Value)
	}
	text += fmt.Sprintf(" call %d", op.Call)
	if op.HasReturn {
		text += fmt.Sprintf(" return %d", op.Return)
	}
	return text + " -> " + op.Result.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
