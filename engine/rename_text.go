package engine

import (
	"sort"
	"strings"

	"github.com/ladybugsql/ladybug/grammar"
)

// textEdit collects the identifier tokens a rename changes in one stored
// CREATE statement, so that the stored text keeps everything else (spacing,
// comments, quoting) as written, as SQLite's renames do. The rename logic
// edits the parsed statement too and marks each identifier it changes
// here, by the source offset of its node; when a mark cannot be matched
// to the text's tokens, the edit is marked failed and the caller stores
// the re-printed statement instead.
type textEdit struct {
	sql  string
	toks []grammar.Token
	// quote forces the new names in double quotes, as SQLite does for a
	// table rename and for a column renamed to a quoted name.
	quote  bool
	edits  map[int]string // token index -> replacement text
	failed bool
}

func newTextEdit(sql string, quote bool) *textEdit {
	return &textEdit{sql: sql, toks: grammar.Tokens(sql), quote: quote, edits: map[int]string{}}
}

// at returns the index of the token that starts at byte off, or -1.
func (e *textEdit) at(off int) int {
	i := sort.Search(len(e.toks), func(i int) bool { return e.toks[i].Start >= off })
	if i < len(e.toks) && e.toks[i].Start == off {
		return i
	}
	return -1
}

// after returns the index of the first token at or after byte off.
func (e *textEdit) after(off int) int {
	return sort.Search(len(e.toks), func(i int) bool { return e.toks[i].Start >= off })
}

// name returns the unquoted name of token i, or false when it is no name.
func (e *textEdit) name(i int) (string, bool) {
	if i < 0 || i >= len(e.toks) || e.toks[i].Kind == grammar.TokenOther {
		return "", false
	}
	t := e.toks[i]
	_, v, ok := scanIdent(e.sql, t.Start)
	return v, ok
}

// is reports whether token i is the bare word w (any case).
func (e *textEdit) is(i int, w string) bool {
	if i < 0 || i >= len(e.toks) {
		return false
	}
	t := e.toks[i]
	return t.Kind != grammar.TokenQuoted && strings.EqualFold(e.sql[t.Start:t.End], w)
}

// find returns the index of the first token at or after i that is the
// word or punctuation w, or -1.
func (e *textEdit) find(i int, w string) int {
	for ; i >= 0 && i < len(e.toks); i++ {
		if e.is(i, w) {
			return i
		}
	}
	return -1
}

// chain returns the token indexes of the dotted name a[.b[.c]] whose first
// token is i.
func (e *textEdit) chain(i int) []int {
	if _, ok := e.name(i); !ok {
		return nil
	}
	out := []int{i}
	for e.is(i+1, ".") {
		if _, ok := e.name(i + 2); !ok {
			break
		}
		i += 2
		out = append(out, i)
	}
	return out
}

// set replaces token i, which must be the name from, with to. The new
// name is quoted when the edit forces quotes or the old token was quoted.
func (e *textEdit) set(i int, from, to string) {
	if e == nil {
		return
	}
	if v, ok := e.name(i); !ok || !strings.EqualFold(v, from) {
		e.failed = true
		return
	}
	if e.quote || e.toks[i].Kind == grammar.TokenQuoted {
		e.edits[i] = quoted(to)
	} else {
		e.edits[i] = to
	}
}

// part marks the name from in the dotted name whose first token is at
// byte off: fromEnd 0 is its last part (a column, or a table in FROM), 1
// the one before (a column's table qualifier).
func (e *textEdit) part(off, fromEnd int, from, to string) {
	if e != nil {
		e.partTok(e.at(off), fromEnd, from, to)
	}
}

// partTok is part for the dotted name whose first token is token i.
func (e *textEdit) partTok(i, fromEnd int, from, to string) {
	if e == nil {
		return
	}
	ch := e.chain(i)
	if len(ch) <= fromEnd {
		e.failed = true
		return
	}
	e.set(ch[len(ch)-1-fromEnd], from, to)
}

// names marks every token in [i, end) that is the name from; it returns
// whether it found one.
func (e *textEdit) names(i, end int, from, to string) bool {
	found := false
	for ; i >= 0 && i < end && i < len(e.toks); i++ {
		if v, ok := e.name(i); ok && strings.EqualFold(v, from) {
			e.set(i, from, to)
			found = true
		}
	}
	return found
}

// list marks the name from in the parenthesised name list that opens at
// the first "(" at or after token i.
func (e *textEdit) list(i int, from, to string) {
	if e == nil {
		return
	}
	open := e.find(i, "(")
	if open < 0 || !e.names(open+1, e.find(open, ")"), from, to) {
		e.failed = true
	}
}

// String returns the edited text.
func (e *textEdit) String() string {
	idx := make([]int, 0, len(e.edits))
	for i := range e.edits {
		idx = append(idx, i)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(idx)))
	sql := e.sql
	for _, i := range idx {
		t := e.toks[i]
		sql = sql[:t.Start] + e.edits[i] + sql[t.End:]
	}
	return sql
}

// result returns the edited text, or the re-printed statement when a
// mark failed.
func (e *textEdit) result(st grammar.Statement) string {
	if e.failed {
		return st.String()
	}
	return e.String()
}

// quotedNewName reports whether the new name of a RENAME statement was
// written in quotes: its last name token.
func quotedNewName(alter string) bool {
	toks := grammar.Tokens(alter)
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i].Kind != grammar.TokenOther {
			return toks[i].Kind == grammar.TokenQuoted
		}
	}
	return false
}
