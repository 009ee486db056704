package shell

import (
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// gridWriter: table, box and markdown. It holds the rows until the end to
// size the columns, then fits them to the terminal by narrowing the widest
// columns and cutting their cells with "…".
type gridWriter struct {
	w      io.Writer
	f      format
	cols   []string
	rows   [][]string
	number []bool // column holds only numbers (right-aligned)
}

type gridStyle struct {
	top, mid, bottom [3]string // left, cross, right of a rule
	hline, vline     string
}

var (
	boxStyle   = gridStyle{top: [3]string{"┌", "┬", "┐"}, mid: [3]string{"├", "┼", "┤"}, bottom: [3]string{"└", "┴", "┘"}, hline: "─", vline: "│"}
	tableStyle = gridStyle{top: [3]string{"+", "+", "+"}, mid: [3]string{"+", "+", "+"}, bottom: [3]string{"+", "+", "+"}, hline: "-", vline: "|"}
)

func (g *gridWriter) begin(cols []string) {
	g.cols, g.rows = cols, nil
	g.number = make([]bool, len(cols))
	for i := range g.number {
		g.number[i] = true
	}
}

func (g *gridWriter) row(vals []any) {
	r := make([]string, len(vals))
	for i, v := range vals {
		switch v.(type) {
		case int64, float64, nil:
		default:
			g.number[i] = false
		}
		r[i] = visible(text(v, g.f.null))
		if g.f.mode == "markdown" {
			r[i] = strings.ReplaceAll(r[i], "|", `\|`)
		}
	}
	g.rows = append(g.rows, r)
}

func (g *gridWriter) end() {
	widths := g.widths()
	var b strings.Builder
	if g.f.mode == "markdown" {
		g.line(&b, visibleAll(g.cols), widths, "|", false)
		for i, w := range widths {
			b.WriteString("|")
			b.WriteString(strings.Repeat("-", w+2))
			if i == len(widths)-1 {
				b.WriteString("|\n")
			}
		}
		for _, r := range g.rows {
			g.line(&b, r, widths, "|", true)
		}
		io.WriteString(g.w, b.String())
		return
	}
	st := tableStyle
	if g.f.mode == "box" {
		st = boxStyle
	}
	rule(&b, st, st.top, widths)
	g.line(&b, visibleAll(g.cols), widths, st.vline, false)
	rule(&b, st, st.mid, widths)
	for _, r := range g.rows {
		g.line(&b, r, widths, st.vline, true)
	}
	rule(&b, st, st.bottom, widths)
	io.WriteString(g.w, b.String())
}

// widths sizes each column to its widest cell (or its .width), then
// narrows the widest ones until the grid fits the terminal.
func (g *gridWriter) widths() []int {
	w := make([]int, len(g.cols))
	for i, c := range g.cols {
		if i < len(g.f.widths) && g.f.widths[i] != 0 {
			w[i] = abs(g.f.widths[i])
			continue
		}
		w[i] = runewidth.StringWidth(visible(c))
		for _, r := range g.rows {
			w[i] = max(w[i], runewidth.StringWidth(r[i]))
		}
	}
	if g.f.termWidth <= 0 {
		return w
	}
	const minWidth = 3
	for total(w) > g.f.termWidth {
		widest := 0
		for i := range w {
			if w[i] > w[widest] {
				widest = i
			}
		}
		if w[widest] <= minWidth {
			break
		}
		w[widest]--
	}
	return w
}

// total is the printed width of a grid with these column widths.
func total(w []int) int {
	n := 1
	for _, x := range w {
		n += x + 3
	}
	return n
}

func rule(b *strings.Builder, st gridStyle, ends [3]string, widths []int) {
	b.WriteString(ends[0])
	for i, w := range widths {
		if i > 0 {
			b.WriteString(ends[1])
		}
		b.WriteString(strings.Repeat(st.hline, w+2))
	}
	b.WriteString(ends[2])
	b.WriteByte('\n')
}

func (g *gridWriter) line(b *strings.Builder, cells []string, widths []int, vline string, body bool) {
	b.WriteString(vline)
	for i, c := range cells {
		c = fit(c, widths[i])
		pad := strings.Repeat(" ", widths[i]-runewidth.StringWidth(c))
		right := body && g.number[i] || i < len(g.f.widths) && g.f.widths[i] < 0
		b.WriteByte(' ')
		if right {
			b.WriteString(pad)
			b.WriteString(c)
		} else {
			b.WriteString(c)
			b.WriteString(pad)
		}
		b.WriteString(" ")
		b.WriteString(vline)
	}
	b.WriteByte('\n')
}

// fit cuts s to at most w terminal cells, ending it with "…" when cut.
func fit(s string, w int) string {
	if runewidth.StringWidth(s) <= w {
		return s
	}
	return runewidth.Truncate(s, w, "…")
}

func visibleAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = visible(s)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
