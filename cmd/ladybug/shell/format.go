package shell

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// Modes lists the output modes .mode accepts.
var Modes = []string{"list", "csv", "tsv", "json", "jsonl", "markdown", "table", "box", "line", "insert"}

// format is what a result writer needs of the shell's settings.
type format struct {
	mode      string
	headers   bool
	null      string
	sep       string // column separator of list mode
	widths    []int  // .width: fixed column widths of table/box/markdown
	table     string // target table of insert mode
	termWidth int    // 0: no limit
}

// resultWriter prints one result set in one mode.
type resultWriter interface {
	begin(cols []string)
	row(vals []any)
	end()
}

func newResultWriter(w io.Writer, f format) resultWriter {
	switch f.mode {
	case "csv":
		return &sepWriter{w: w, f: f, sep: ",", quote: true}
	case "tsv":
		return &sepWriter{w: w, f: f, sep: "\t", quote: true}
	case "json":
		return &jsonWriter{w: w, array: true}
	case "jsonl":
		return &jsonWriter{w: w}
	case "markdown", "table", "box":
		return &gridWriter{w: w, f: f}
	case "line":
		return &lineWriter{w: w, f: f}
	case "insert":
		return &insertWriter{w: w, f: f}
	}
	return &sepWriter{w: w, f: f, sep: f.sep}
}

// sepWriter: list, csv and tsv.
type sepWriter struct {
	w     io.Writer
	f     format
	sep   string
	quote bool
	buf   []byte
}

func (s *sepWriter) begin(cols []string) {
	if !s.f.headers {
		return
	}
	vals := make([]any, len(cols))
	for i, c := range cols {
		vals[i] = c
	}
	s.row(vals)
}

func (s *sepWriter) row(vals []any) {
	s.buf = s.buf[:0]
	for i, v := range vals {
		if i > 0 {
			s.buf = append(s.buf, s.sep...)
		}
		t := text(v, s.f.null)
		if s.quote && v != nil && needsCSVQuote(t, s.sep) {
			t = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
		}
		s.buf = append(s.buf, t...)
	}
	s.buf = append(s.buf, '\n')
	s.w.Write(s.buf)
}

func (s *sepWriter) end() {}

func needsCSVQuote(t, sep string) bool {
	return t == "" || strings.ContainsAny(t, "\"\n\r") || strings.Contains(t, sep) ||
		t[0] == ' ' || t[len(t)-1] == ' '
}

// jsonWriter: json (one array) and jsonl (one object a line).
type jsonWriter struct {
	w     io.Writer
	array bool
	cols  []string
	n     int
	buf   bytes.Buffer
}

func (j *jsonWriter) begin(cols []string) { j.cols, j.n = cols, 0 }

func (j *jsonWriter) row(vals []any) {
	j.buf.Reset()
	switch {
	case j.array && j.n == 0:
		j.buf.WriteByte('[')
	case j.array:
		j.buf.WriteString(",\n")
	}
	j.n++
	j.buf.WriteByte('{')
	for i, v := range vals {
		if i > 0 {
			j.buf.WriteByte(',')
		}
		writeJSONString(&j.buf, j.cols[i])
		j.buf.WriteByte(':')
		writeJSONValue(&j.buf, v)
	}
	j.buf.WriteByte('}')
	if !j.array {
		j.buf.WriteByte('\n')
	}
	j.w.Write(j.buf.Bytes())
}

func (j *jsonWriter) end() {
	if j.array && j.n > 0 {
		io.WriteString(j.w, "]\n")
	}
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode's newline
}

func writeJSONValue(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case int64, bool:
		fmt.Fprint(b, x)
	case float64:
		if x != x || x > 1.7976931348623157e308 || x < -1.7976931348623157e308 {
			b.WriteString("null")
			return
		}
		b.WriteString(realLiteral(x))
	case string:
		writeJSONString(b, x)
	case []byte:
		writeJSONString(b, `\x`+hexUpper(x))
	}
}

// lineWriter: one "name = value" line per column, a blank line between rows.
type lineWriter struct {
	w     io.Writer
	f     format
	cols  []string
	width int
	n     int
}

func (l *lineWriter) begin(cols []string) {
	l.cols, l.n, l.width = cols, 0, 0
	for _, c := range cols {
		l.width = max(l.width, runewidth.StringWidth(c))
	}
}

func (l *lineWriter) row(vals []any) {
	var b strings.Builder
	if l.n > 0 {
		b.WriteByte('\n')
	}
	l.n++
	for i, v := range vals {
		b.WriteString(strings.Repeat(" ", l.width-runewidth.StringWidth(l.cols[i])))
		b.WriteString(l.cols[i])
		b.WriteString(" = ")
		b.WriteString(text(v, l.f.null))
		b.WriteByte('\n')
	}
	io.WriteString(l.w, b.String())
}

func (l *lineWriter) end() {}

// insertWriter: INSERT statements into the table named by .mode insert.
type insertWriter struct {
	w    io.Writer
	f    format
	head string
}

func (iw *insertWriter) begin(cols []string) {
	table := iw.f.table
	if table == "" {
		table = "table"
	}
	iw.head = "INSERT INTO " + quoteIdent(table)
	if iw.f.headers {
		q := make([]string, len(cols))
		for i, c := range cols {
			q[i] = quoteIdent(c)
		}
		iw.head += "(" + strings.Join(q, ",") + ")"
	}
	iw.head += " VALUES("
}

func (iw *insertWriter) row(vals []any) {
	var b strings.Builder
	b.WriteString(iw.head)
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(sqlLiteral(v))
	}
	b.WriteString(");\n")
	io.WriteString(iw.w, b.String())
}

func (iw *insertWriter) end() {}
