package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"
)

type cellKey struct{ c, mode, d string }

// results holds every finished cell and renders the tables.
type results struct {
	o           options
	cases       []*Case
	cells       map[cellKey]cellOutcome
	stats       map[cellKey]cellStats
	elapsed     time.Duration
	started     time.Time
	loadStart   string
	interrupted bool // an interrupt stopped the run: some cells are empty
}

func newResults(o options, cases []*Case) *results {
	return &results{o: o, cases: cases, started: time.Now(), loadStart: loadAverage(),
		cells: map[cellKey]cellOutcome{}, stats: map[cellKey]cellStats{}}
}

func (r *results) put(c, mode, d string, oc cellOutcome) {
	k := cellKey{c, mode, d}
	r.cells[k] = oc
	if oc.Status == statusOK {
		r.stats[k] = summarize(oc.Runs)
	}
}

// best is the smallest median of the row's correct cells, or 0.
func (r *results) best(c, mode string) float64 {
	var b float64
	for _, d := range r.o.drivers {
		if s, ok := r.stats[cellKey{c, mode, d}]; ok && (b == 0 || s.nsPerOp < b) {
			b = s.nsPerOp
		}
	}
	return b
}

// failText is a failed cell's text, clipped to width (0: no clipping).
func failText(oc cellOutcome, width int) string {
	var s string
	switch oc.Status {
	case statusWrong:
		s = "WRONG"
	case statusTimeout:
		s = "timeout"
	case statusNA:
		s = "n/a"
	default:
		s = "unsupported: " + oc.Msg
	}
	if width > 0 {
		s = clip(s, width)
	}
	return s
}

// cellText is the time cell: median per op, ratio to the row's best, and
// tolerated errors of concurrent cases.
func (r *results) cellText(c *Case, mode, d string, width int) string {
	k := cellKey{c.Name, mode, d}
	oc, ok := r.cells[k]
	if !ok {
		return ""
	}
	if oc.Status != statusOK {
		return failText(oc, width)
	}
	s := r.stats[k]
	out := fmtDur(s.nsPerOp)
	if b := r.best(c.Name, mode); b > 0 {
		out += fmt.Sprintf(" ×%.2f", s.nsPerOp/b)
	}
	if s.spread >= 0.005 {
		out += fmt.Sprintf(" ±%.0f%%", 100*s.spread)
	}
	if s.errors > 0 {
		out += fmt.Sprintf(" errs=%d", s.errors)
	}
	if s.note != "" {
		out += " " + s.note
	}
	if oc.Short != "" {
		out += " [" + oc.Short + "]"
	}
	return out
}

// progressText is a finished cell for the progress log: no ratio yet, as
// the row's other drivers may not have run.
func (r *results) progressText(c *Case, mode, d string) string {
	k := cellKey{c.Name, mode, d}
	oc := r.cells[k]
	if oc.Status != statusOK {
		return failText(oc, 100)
	}
	s := r.stats[k]
	return fmt.Sprintf("%s ±%.0f%% (cpu %s), %s allocs, %s per op %s", fmtDur(s.nsPerOp), 100*s.spread, fmtDur(s.cpuPerOp),
		fmtCount(s.allocsPerOp), fmtBytes(s.bytesPerOp), s.note+" "+oc.Short)
}

// finished returns a side table's cell (allocations, CPU, heap): the
// cell's outcome and stats when it ran correctly (ok), else the text it
// shows instead ("" for a cell that did not run, or why it failed).
func (r *results) finished(c *Case, mode, d string, width int) (oc cellOutcome, s cellStats, text string, ok bool) {
	k := cellKey{c.Name, mode, d}
	oc, ran := r.cells[k]
	if !ran {
		return oc, s, "", false
	}
	if oc.Status != statusOK {
		return oc, s, failText(oc, min(width, 12)), false
	}
	return oc, r.stats[k], "", true
}

func (r *results) allocText(c *Case, mode, d string, width int) string {
	_, s, text, ok := r.finished(c, mode, d, width)
	if !ok {
		return text
	}
	return fmtCount(s.allocsPerOp) + " / " + fmtBytes(s.bytesPerOp)
}

// cpuText is the CPU time cell: median CPU per op and its share of the
// wall time per op (above 100% where goroutines ran in parallel or the
// runtime's own threads worked beside them).
func (r *results) cpuText(c *Case, mode, d string, width int) string {
	_, s, text, ok := r.finished(c, mode, d, width)
	if !ok {
		return text
	}
	if s.cpuPerOp <= 0 {
		return "—"
	}
	return fmt.Sprintf("%s (%.0f%% of wall)", fmtDur(s.cpuPerOp), 100*s.cpuPerOp/s.nsPerOp)
}

func (r *results) heapText(c *Case, mode, d string, width int) string {
	oc, s, text, ok := r.finished(c, mode, d, width)
	if !ok {
		return text
	}
	return fmtBytes(float64(s.peakHeap)) + " / " + fmtBytes(float64(oc.MaxRSS))
}

// table is a header plus rows of cells.
type table struct {
	title string
	head  []string
	rows  [][]string
}

// build makes a table with one row per case and mode, one column per driver.
func (r *results) build(title string, heapOnly bool, cell func(*Case, string, string, int) string, width int) table {
	t := table{title: title, head: append([]string{"case", "mode", "per"}, r.o.drivers...)}
	for _, c := range r.cases {
		if heapOnly && !c.Heap {
			continue
		}
		for _, mode := range r.o.modes {
			if c.FileOnly && mode != "file" {
				continue
			}
			row := []string{c.Name, mode, c.Unit}
			for _, d := range r.o.drivers {
				row = append(row, cell(c, mode, d, width))
			}
			t.rows = append(t.rows, row)
		}
	}
	return t
}

func (r *results) tables(width int) []table {
	return []table{
		r.build("Median time per op, ×ratio to the row's best correct driver, ±half the run-to-run range", false, r.cellText, width),
		r.build("CPU time per op (the worker process's user+system time, median; a loaded machine disturbs it less than wall time; concurrent cases add up all their goroutines)", false, r.cpuText, width),
		r.build("Allocations per op / bytes allocated per op (Go heap only)", false, r.allocText, width),
		r.build("Peak Go heap growth during the measured region / max RSS of the worker process", true, r.heapText, width),
	}
}

func (r *results) header() []string {
	cache := "each engine's default"
	if r.o.cache > 0 {
		cache = fmtBytes(float64(r.o.cache))
	}
	h := []string{
		fmt.Sprintf("date: %s", r.started.UTC().Format("2006-01-02 15:04 MST")),
		fmt.Sprintf("machine: %s, %d CPUs, %s/%s, %s; load average at start %s, at end %s",
			cpuModel(), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), r.loadStart, loadAverage()),
		fmt.Sprintf("command: go run . %s", strings.Join(os.Args[1:], " ")),
		fmt.Sprintf("settings: scale %g, %d runs (+%d warm-up) per cell, sync=%s (SQLite: WAL, synchronous=%s), busy timeout %d ms, timeout %v per cell; took %v",
			r.o.scale, r.o.runs, r.o.warmup, r.o.sync, sqliteSync(r.o.sync), busyTimeoutMS, r.o.timeout, r.elapsed.Round(time.Second)),
		"page cache: " + cache + " (big_db bounds every driver to 8 MiB × scale, at least 256 KiB)",
	}
	if r.interrupted {
		h = append(h, "INTERRUPTED: empty cells did not run")
	}
	for _, d := range exampleDSNs(r.o.drivers, r.o.sync, r.o.cache) {
		h = append(h, "dsn "+d)
	}
	return h
}

func (r *results) printText(w io.Writer) {
	for _, h := range r.header() {
		fmt.Fprintln(w, h)
	}
	for _, t := range r.tables(40) {
		if len(t.rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", t.title)
		widths := make([]int, len(t.head))
		for _, row := range append([][]string{t.head}, t.rows...) {
			for i, c := range row {
				widths[i] = max(widths[i], len([]rune(c)))
			}
		}
		for _, row := range append([][]string{t.head}, t.rows...) {
			var b strings.Builder
			for i, c := range row {
				fmt.Fprintf(&b, "%-*s  ", widths[i], c)
			}
			fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		}
	}
	r.printNotes(w, "")
}

func (r *results) printMarkdown(w io.Writer) {
	for _, h := range r.header() {
		fmt.Fprintf(w, "- %s\n", h)
	}
	for _, t := range r.tables(70) {
		if len(t.rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n**%s**\n\n", t.title)
		fmt.Fprintf(w, "| %s |\n", strings.Join(t.head, " | "))
		fmt.Fprintf(w, "|%s\n", strings.Repeat(" --- |", len(t.head)))
		for _, row := range t.rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
	r.printNotes(w, "- ")
}

// notesTitle introduces the notes in each output format.
func notesTitle(bullet string) string {
	if bullet == "" {
		return "\nnotes:\n"
	}
	return "\n**Notes**\n\n"
}

// printNotes lists each distinct failure message once with the cells it
// hit, plus the first tolerated error of concurrent cells.
func (r *results) printNotes(w io.Writer, bullet string) {
	byMsg := map[string][]string{}
	for k, oc := range r.cells {
		where := k.d + " " + k.c + " " + k.mode
		switch {
		case oc.Status == statusOK:
			s := r.stats[k]
			if s.errors > 0 {
				byMsg[fmt.Sprintf("%d tolerated errors, first: %s", s.errors, s.firstErr)] = []string{where}
			}
		case oc.Status != statusNA:
			msg := failText(oc, 0)
			if oc.Status == statusWrong {
				msg += ": " + oc.Msg
			}
			byMsg[msg] = append(byMsg[msg], where)
		}
	}
	if len(byMsg) == 0 {
		return
	}
	msgs := make([]string, 0, len(byMsg))
	for m := range byMsg {
		sort.Strings(byMsg[m])
		msgs = append(msgs, m)
	}
	sort.Strings(msgs)
	fmt.Fprint(w, notesTitle(bullet))
	for _, m := range msgs {
		cells := byMsg[m]
		list := strings.Join(cells, ", ")
		if len(cells) > 4 {
			list = fmt.Sprintf("%s and %d more cells", strings.Join(cells[:3], ", "), len(cells)-3)
		}
		fmt.Fprintf(w, "%s%s — %s\n", bullet, m, list)
	}
}

// cpuModel reads the processor name on Linux.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
		}
	}
	return "unknown CPU"
}

// loadAverage is the one-minute load average on Linux: other work on the
// machine shows up in the spread of every cell.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return f[0]
}
