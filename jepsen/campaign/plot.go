package campaign

import (
	"fmt"
	"html"
	"math"
	"os"
	"sort"
	"strings"

	"innet.dev/jepsen/history"
	"innet.dev/jepsen/nemesis"
)

// plot geometry: two panels sharing the time axis
const (
	plotWidth   = 1100
	plotLeft    = 60
	plotRight   = 20
	panelHeight = 220
	panelGap    = 50
	plotTop     = 30
	maxDots     = 6000
)

var kindColors = map[string]string{
	"partition": "#8e44ad", "loss": "#2980b9", "delay": "#16a085", "dup": "#27ae60", "reorder": "#d35400",
	"kill": "#c0392b", "pause": "#7f8c8d", "switch-crash": "#e74c3c", "skew": "#f39c12",
}

// WritePlot writes plot.html: throughput per second (by outcome) and every operation's latency over
// time, on the history's clock, with each fault's interval shaded and named. Self-contained SVG.
func WritePlot(path string, ops []history.Operation, events []nemesis.Event) error {
	if len(ops) == 0 {
		return os.WriteFile(path, []byte("<html><body>no operations</body></html>\n"), 0o644)
	}
	t0, t1 := ops[0].Call, ops[0].Call
	for _, op := range ops {
		t0 = min(t0, op.Call)
		end := op.Call
		if op.HasReturn {
			end = op.Return
		}
		t1 = max(t1, end)
	}
	for _, e := range events {
		if e.StartMono > 0 {
			t0 = min(t0, e.StartMono)
			t1 = max(t1, e.EndMono)
		}
	}
	span := float64(max(t1-t0, 1))
	innerW := float64(plotWidth - plotLeft - plotRight)
	x := func(t int64) float64 { return plotLeft + innerW*float64(t-t0)/span }
	seconds := int(math.Ceil(span / 1e9))
	type bucket struct{ ok, fail, unknown int }
	buckets := make([]bucket, seconds+1)
	var maxLat float64 = 1
	for _, op := range ops {
		if !op.HasReturn {
			buckets[int(float64(op.Call-t0)/1e9)].unknown++
			continue
		}
		b := &buckets[int(float64(op.Return-t0)/1e9)]
		switch op.Result {
		case history.OK, history.NotFound:
			b.ok++
		case history.Fail:
			b.fail++
		default:
			b.unknown++
		}
		maxLat = max(maxLat, float64(op.Return-op.Call)/1e6)
	}
	maxRate := 1
	for _, b := range buckets {
		maxRate = max(maxRate, b.ok+b.fail+b.unknown)
	}
	height := plotTop + 2*panelHeight + panelGap + 60
	var sb strings.Builder
	fmt.Fprintf(&sb, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>innet campaign</title></head><body style=\"font-family:sans-serif\">\n")
	fmt.Fprintf(&sb, "<h3>Throughput and latency over time (%d operations, %.1f s); shaded: faults</h3>\n", len(ops), span/1e9)
	fmt.Fprintf(&sb, "<svg width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"11\">\n", plotWidth, height)
	// fault intervals across both panels
	faults := make([]nemesis.Event, 0, len(events))
	for _, e := range events {
		if e.Kind != "health" && e.StartMono > 0 {
			faults = append(faults, e)
		}
	}
	sort.Slice(faults, func(i, j int) bool { return faults[i].StartMono < faults[j].StartMono })
	for i, e := range faults {
		color := kindColors[e.Kind]
		if color == "" {
			color = "#999"
		}
		x0, x1 := x(e.StartMono), x(max(e.EndMono, e.StartMono))
		fmt.Fprintf(&sb, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" fill-opacity=\"0.18\"><title>%s</title></rect>\n",
			x0, plotTop, math.Max(x1-x0, 1), 2*panelHeight+panelGap, color, html.EscapeString(e.Kind+": "+e.What+" "+e.Note+" "+e.Error))
		fmt.Fprintf(&sb, "<text x=\"%.1f\" y=\"%d\" fill=\"%s\">%s</text>\n", x0+2, plotTop-4-(i%2)*11, color, html.EscapeString(e.Kind))
	}
	// panel 1: throughput
	p1 := plotTop
	axes(&sb, p1, fmt.Sprintf("ops/s (max %d)", maxRate))
	barW := innerW / float64(len(buckets))
	for i, b := range buckets {
		y := float64(p1 + panelHeight)
		for _, part := range []struct {
			n     int
			color string
		}{{b.ok, "#2ecc71"}, {b.fail, "#e67e22"}, {b.unknown, "#e74c3c"}} {
			h := float64(panelHeight) * float64(part.n) / float64(maxRate)
			if h > 0 {
				y -= h
				fmt.Fprintf(&sb, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
					plotLeft+float64(i)*barW, y, math.Max(barW-1, 1), h, part.color)
			}
		}
	}
	// panel 2: latency, log scale from 0.1 ms
	p2 := plotTop + panelHeight + panelGap
	axes(&sb, p2, fmt.Sprintf("latency, log scale 0.1 ms .. %.0f ms", maxLat))
	lo, hi := math.Log10(0.1), math.Log10(maxLat)
	step := max(1, len(ops)/maxDots)
	for i := 0; i < len(ops); i += step {
		op := ops[i]
		if !op.HasReturn {
			continue
		}
		lat := math.Max(float64(op.Return-op.Call)/1e6, 0.1)
		y := float64(p2+panelHeight) - float64(panelHeight)*(math.Log10(lat)-lo)/math.Max(hi-lo, 1e-9)
		color := "#2ecc71"
		if op.Result == history.Fail {
			color = "#e67e22"
		} else if op.Result == history.Unknown {
			color = "#e74c3c"
		}
		fmt.Fprintf(&sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.5\" fill=\"%s\"/>\n", x(op.Call), y, color)
	}
	fmt.Fprintf(&sb, "<text x=\"%d\" y=\"%d\">time (s) 0 .. %.1f; green ok, orange fail, red unknown</text>\n",
		plotLeft, height-10, span/1e9)
	sb.WriteString("</svg>\n<p>Fault intervals (from timeline.jsonl):</p><ul>\n")
	for _, e := range faults {
		fmt.Fprintf(&sb, "<li>%.1f s .. %.1f s <b>%s</b> %s %s %s</li>\n", float64(e.StartMono-t0)/1e9, float64(e.EndMono-t0)/1e9,
			html.EscapeString(e.Kind), html.EscapeString(e.What), html.EscapeString(e.Note), html.EscapeString(e.Error))
	}
	sb.WriteString("</ul></body></html>\n")
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}

func axes(sb *strings.Builder, top int, label string) {
	fmt.Fprintf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", plotLeft, top, plotLeft, top+panelHeight)
	fmt.Fprintf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", plotLeft, top+panelHeight,
		plotWidth-plotRight, top+panelHeight)
	fmt.Fprintf(sb, "<text x=\"%d\" y=\"%d\">%s</text>\n", plotLeft+4, top+12, html.EscapeString(label))
}

// throughput: completed operations per second over the span from the first call to the last return
// (a caller leaves the final reads out).
func throughput(ops []history.Operation) float64 {
	var first, last int64 = math.MaxInt64, 0
	n := 0
	for _, op := range ops {
		if op.HasReturn {
			first = min(first, op.Call)
			last = max(last, op.Return)
			n++
		}
	}
	if n == 0 || last <= first {
		return 0
	}
	return float64(n) / (float64(last-first) / 1e9)
}
