package gen

import (
	"database/sql"
	"encoding/hex"
	"strconv"
	"strings"
)

// Bound parameters. With Gen.Params set, a random third of the literals a
// statement is built from (in every clause: select lists, WHERE, ON,
// HAVING, CASE, function arguments, VALUES rows, SET, upserts) become
// placeholders, and Stmt.Args holds the typed values to bind. The
// statement is built out of text order (a WITH clause is hoisted in
// front, a join's ON is written after its sources were chosen), so
// literals are first marked, then numbered left to right as SQLite
// numbers placeholders: a bare ? takes the largest number so far plus
// one, ?NNN sets it (sometimes reusing an earlier number of an equal
// value, sometimes leaving a gap), and :name, @name and $name take the
// next number at their first appearance and share it after.

// paramMark delimits a marked literal: mark, index into Gen.pvals, mark.
const paramMark = "\x00"

// lit returns literal (SQL text) as it is, or, with Params, marked to
// become a placeholder bound to its value.
func (g *Gen) lit(literal string) string {
	if !g.Params || g.r.IntN(3) > 0 {
		return literal
	}
	g.pvals = append(g.pvals, literalValue(literal))
	return paramMark + strconv.Itoa(len(g.pvals)-1) + paramMark
}

// literalValue is the Go value of a generated SQL literal.
func literalValue(s string) any {
	switch {
	case s == "NULL":
		return nil
	case strings.HasPrefix(s, "'"):
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	case strings.HasPrefix(s, "x'"):
		b, _ := hex.DecodeString(s[2 : len(s)-1])
		return b
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// binding numbers the placeholders of one statement.
type binding struct {
	vals  map[int]any    // by number
	names map[int]string // by number: the name of a named placeholder
	keys  map[string]int // prefix and name → number
	order []string       // the keys in order of appearance
	max   int
}

// bindParams replaces st's marks by placeholders numbered in text order
// and sets st.Args: one argument per number, sql.Named for a named one.
func (g *Gen) bindParams(st *Stmt) {
	defer func() { g.pvals = g.pvals[:0] }()
	if !strings.Contains(st.SQL, paramMark) {
		return
	}
	b := &binding{vals: map[int]any{}, names: map[int]string{}, keys: map[string]int{}}
	parts := strings.Split(st.SQL, paramMark)
	var out strings.Builder
	for i, p := range parts {
		if i%2 == 0 {
			out.WriteString(p)
			continue
		}
		k, _ := strconv.Atoi(p)
		out.WriteString(g.placeholder(b, g.pvals[k]))
	}
	st.SQL = out.String()
	st.Args = make([]any, b.max)
	for n := 1; n <= b.max; n++ {
		if name, ok := b.names[n]; ok {
			st.Args[n-1] = sql.Named(name, b.vals[n])
		} else {
			st.Args[n-1] = b.vals[n]
		}
	}
}

// placeholder writes one placeholder for v, in a random spelling.
func (g *Gen) placeholder(b *binding, v any) string {
	switch g.r.IntN(6) {
	case 0, 1:
		b.max++
		b.vals[b.max] = v
		return "?"
	case 2:
		n := b.same(v)
		if n == 0 || g.r.IntN(2) == 0 {
			n = b.max + 1 + g.r.IntN(2)
			b.max = n
			b.vals[n] = v
		}
		return "?" + strconv.Itoa(n)
	}
	prefix := pick(g, []string{":", "@", "$"})
	name := ""
	for _, key := range b.order {
		if equalValue(b.vals[b.keys[key]], v) && g.r.IntN(2) == 0 {
			name = key[1:]
			break
		}
	}
	if name == "" {
		name = "p" + strconv.Itoa(len(b.order)+1)
	}
	if _, ok := b.keys[prefix+name]; ok {
		return prefix + name
	}
	b.max++
	b.keys[prefix+name] = b.max
	b.order = append(b.order, prefix+name)
	b.vals[b.max], b.names[b.max] = v, name
	return prefix + name
}

// same returns a number already bound to a value equal to v, or 0.
func (b *binding) same(v any) int {
	for n := 1; n <= b.max; n++ {
		if val, ok := b.vals[n]; ok && equalValue(val, v) {
			return n
		}
	}
	return 0
}

// equalValue reports whether two argument values are the same value of
// the same type.
func equalValue(a, b any) bool {
	switch x := a.(type) {
	case []byte:
		y, ok := b.([]byte)
		return ok && string(x) == string(y)
	case nil:
		return b == nil
	}
	return a == b
}
