package grammar

import (
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2/lexer"
)

// The fast path: a hand-written recursive-descent reader of the common
// statements (queries, INSERT, UPDATE, DELETE) that fills the same
// participle structs (syntax_*.go) the participle parser would. It mirrors
// the grammar's tags rule by rule, with the same ordered choice and the
// same rewinding on failure, so for any text it accepts it builds the same
// structs (TestFastParse_MatchesParticiple and FuzzParse check this).
// Whenever it meets text it does not accept, or a form it does not cover,
// Parse falls back to participle, which then produces the tree or the
// syntax error exactly as before.

// ftok is a non-elided token and the position just past it, which is
// what participle records as EndPos of a node ending with the token (the
// file name is always empty, so it is not stored).
type ftok struct {
	lexer.Token
	endOffset, endLine, endColumn int
}

// fastParser reads a token slice. off marks text the fast path does not
// cover; once set, the result is discarded.
type fastParser struct {
	toks []ftok
	i    int
	off  bool

	// The three structs of every operand, and literals, come from slabs:
	// one allocation per few dozen instead of one per struct.
	exprs     slab[sExpr]
	operands  slab[sOperand]
	primaries slab[sPrimary]
	literals  slab[sLiteral]
	names     []string // backing store of the short name lists
}

// nameSlice returns parts as a slice of a shared backing store, capped
// at its length so that nothing appends over a neighbour.
func (p *fastParser) nameSlice(parts ...string) []string {
	if len(p.names)+len(parts) > cap(p.names) {
		p.names = make([]string, 0, max(len(p.toks)/3+4, len(parts)))
	}
	n := len(p.names)
	p.names = append(p.names, parts...)
	return p.names[n : n+len(parts) : n+len(parts)]
}

// slab hands out zeroed values of T from chunks. A value handed out by a
// failed alternative is simply never used; the chunk is freed with the
// tree.
type slab[T any] struct{ buf []T }

// Chunks start small, so a short statement zeroes little, and double
// up to maxSlabChunk.
const (
	minSlabChunk = 4
	maxSlabChunk = 64
)

func (s *slab[T]) alloc() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, min(max(2*cap(s.buf), minSlabChunk), maxSlabChunk))
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// fastLex tokenises sql into non-elided tokens ending with EOF. It
// returns nil on a lexer error (the participle path reports it), and an
// error when the depth guard stops the statement: nesting beyond
// maxDepth or an expression taller than MaxExprDepth, found before the
// rest of the text is even read.
func fastLex(sql string) ([]ftok, error) {
	s := sqlScanner{src: sql, pos: lexer.Position{Line: 1, Column: 1}}
	// One token per three bytes is enough for typical SQL, placeholder
	// lists included, and keeps the slice to a single allocation, or none
	// when a pooled one is large enough.
	want := min(len(sql)/3+2, maxPrealloc)
	var toks []ftok
	if p, _ := tokPool.Get().(*[]ftok); p != nil && cap(*p) >= want {
		toks = (*p)[:0]
	} else {
		toks = make([]ftok, 0, want)
	}
	// A text with more tokens fills chunks that double in size and are
	// joined once at the end: append's growth by a quarter for large
	// slices copied a million-literal list's tokens about five times.
	var full [][]ftok
	var g depthGuard
	for {
		t, err := s.Next()
		if err != nil {
			return nil, nil
		}
		if t.Type == tokWhitespace || t.Type == tokComment {
			continue
		}
		if len(toks) == cap(toks) {
			full = append(full, toks)
			toks = make([]ftok, 0, 2*cap(toks))
		}
		toks = append(toks, ftok{Token: t, endOffset: s.pos.Offset, endLine: s.pos.Line, endColumn: s.pos.Column})
		if t.EOF() {
			return joinChunks(full, toks), nil
		}
		if r := g.step(&t); r != guardOK {
			return nil, guardError(sql, t.Pos, r, &g)
		}
	}
}

// joinChunks is the tokens of full and then last, in one slice.
func joinChunks(full [][]ftok, last []ftok) []ftok {
	if full == nil {
		return last
	}
	n := len(last)
	for _, c := range full {
		n += len(c)
	}
	out := make([]ftok, 0, n)
	for _, c := range full {
		out = append(out, c...)
	}
	return append(out, last...)
}

// maxPrealloc caps the token slice allocated up front, so that a huge
// text the guard stops early does not pay for all of its tokens.
const maxPrealloc = 1 << 16

// tokPool keeps token slices between parses: the tokens are read only
// while their text is parsed (the tree copies the values and positions it
// keeps), so parseScript and parseExprRoot hand the slice back
// (releaseToks) and the next statement lexes into it.
var tokPool sync.Pool // *[]ftok

// maxPooledToks bounds the slices kept, so one huge script does not pin
// its tokens.
const maxPooledToks = 4096

// releaseToks returns toks to tokPool, cleared so the pool keeps no text
// alive (the room past len(toks) is clear already: each release clears
// what its parse used).
func releaseToks(toks []ftok) {
	if toks == nil || cap(toks) > maxPooledToks {
		return
	}
	clear(toks)
	toks = toks[:0]
	tokPool.Put(&toks)
}

// nesting is one step of tooDeep's count.
func nesting(v string, depth, prefix int) (int, int) {
	switch {
	case v == "(" || strings.EqualFold(v, "CASE"):
		return depth + 1, 0
	case v == ")" || strings.EqualFold(v, "END"):
		return depth - 1, 0
	case v == "-" || v == "+" || v == "~" || strings.EqualFold(v, "NOT") || strings.EqualFold(v, "EXPLAIN"):
		return depth, prefix + 1
	}
	return depth, 0
}

// fastScript reads a whole script, or reports false.
func fastScript(sql string) (*sScript, bool) {
	toks, err := fastLex(sql)
	if toks == nil || err != nil {
		return nil, false
	}
	return fastScriptToks(toks)
}

// fastScriptToks is fastScript over tokens already read.
func fastScriptToks(toks []ftok) (*sScript, bool) {
	p := &fastParser{toks: toks}
	s := &sScript{}
	for p.accept(";") {
	}
	for !p.atEOF() {
		st := p.statement()
		if st == nil || p.off {
			return nil, false
		}
		s.Stmts = append(s.Stmts, st)
		if !p.accept(";") {
			break
		}
		for p.accept(";") {
		}
	}
	if !p.atEOF() || p.off {
		return nil, false
	}
	return s, true
}

// fastExprRoot reads a whole expression, or reports false.
func fastExprRoot(sql string) (*sExprRoot, bool) {
	toks, err := fastLex(sql)
	if toks == nil || err != nil {
		return nil, false
	}
	return fastExprToks(toks)
}

// fastExprToks is fastExprRoot over tokens already read.
func fastExprToks(toks []ftok) (*sExprRoot, bool) {
	p := &fastParser{toks: toks}
	e := p.expr()
	if e == nil || p.off || !p.atEOF() {
		return nil, false
	}
	return &sExprRoot{Expr: e}, true
}

// cur is the next token (EOF at the end).
func (p *fastParser) cur() *ftok { return &p.toks[p.i] }

// peekAt is the token n places ahead, EOF past the end.
func (p *fastParser) peekAt(n int) *ftok {
	if p.i+n >= len(p.toks) {
		return &p.toks[len(p.toks)-1]
	}
	return &p.toks[p.i+n]
}

func (p *fastParser) atEOF() bool { return p.cur().EOF() }

// pos is the position of the next token, participle's Pos of a node
// starting there.
func (p *fastParser) pos() lexer.Position { return p.cur().Pos }

// endPos is the position just past the last token read.
func (p *fastParser) endPos() lexer.Position {
	if p.i == 0 {
		return p.toks[0].Pos
	}
	t := &p.toks[p.i-1]
	return lexer.Position{Offset: t.endOffset, Line: t.endLine, Column: t.endColumn}
}

// tokIs reports whether t matches the grammar literal lit the way
// participle does: case-insensitively for names and keywords, exactly
// for every other token type.
func tokIs(t *ftok, lit string) bool {
	if t.Type == tokIdent || t.Type == tokKeyword {
		return strings.EqualFold(t.Value, lit)
	}
	return t.Value == lit && !t.EOF()
}

func (p *fastParser) is(lit string) bool { return tokIs(p.cur(), lit) }

// isAny reports whether the next token matches one of lits.
func (p *fastParser) isAny(lits ...string) bool {
	for _, l := range lits {
		if p.is(l) {
			return true
		}
	}
	return false
}

// accept consumes the next token if it matches lit.
func (p *fastParser) accept(lit string) bool {
	if p.is(lit) {
		p.i++
		return true
	}
	return false
}

// take consumes the next token if it matches one of lits and returns
// its text.
func (p *fastParser) take(lits ...string) (string, bool) {
	for _, l := range lits {
		if p.is(l) {
			v := p.cur().Value
			p.i++
			return v, true
		}
	}
	return "", false
}

// takeType consumes the next token if it has one of the types.
func (p *fastParser) takeType(types ...lexer.TokenType) (string, bool) {
	t := p.cur()
	for _, tt := range types {
		if t.Type == tt {
			p.i++
			return t.Value, true
		}
	}
	return "", false
}

// name reads @( Ident | QIdent ).
func (p *fastParser) name() (string, bool) { return p.takeType(tokIdent, tokQIdent) }

// nameList reads '(' name ( ',' name )* ')', rewinding on failure.
func (p *fastParser) nameList() ([]string, bool) {
	start := p.i
	if !p.accept("(") {
		return nil, false
	}
	n, ok := p.name()
	if !ok {
		p.i = start
		return nil, false
	}
	out := []string{n}
	for p.is(",") {
		next := p.peekAt(1)
		if next.Type != tokIdent && next.Type != tokQIdent {
			break
		}
		p.i += 2
		out = append(out, next.Value)
	}
	if !p.accept(")") {
		p.i = start
		return nil, false
	}
	return out, true
}

// commaList reads item ( ',' item )*. As in participle, a "," not
// followed by an item ends the list and is left unread; nil when the
// first item is missing.
func commaList[T any](p *fastParser, item func() *T) []*T {
	x := item()
	if x == nil {
		return nil
	}
	out := []*T{x}
	for {
		save := p.i
		if !p.accept(",") {
			return out
		}
		if x = item(); x == nil {
			p.i = save
			return out
		}
		out = append(out, x)
	}
}

// exprList reads e ( ',' e )*. As in participle, a "," not followed by an
// expression ends the list and is left unread.
func (p *fastParser) exprList() ([]*sExpr, bool) {
	out := commaList(p, p.expr)
	return out, out != nil
}

// statement reads one statement of the covered kinds. A leading WITH
// clause is read once and handed to the statement it starts; participle
// would read it again for each alternative it tries, to the same result.
func (p *fastParser) statement() *sStatement {
	s := &sStatement{Pos: p.pos()}
	var w *sWith
	if p.is("WITH") {
		if w = p.with(); w == nil {
			return nil
		}
	}
	switch {
	case p.isAny("SELECT", "VALUES", "("):
		s.Select = p.selectFrom(s.Pos, w)
		if s.Select == nil {
			return nil
		}
	case p.isAny("INSERT", "REPLACE"):
		s.Insert = p.insert(s.Pos, w)
		if s.Insert == nil {
			return nil
		}
	case p.is("UPDATE"):
		s.Update = p.update(s.Pos, w)
		if s.Update == nil {
			return nil
		}
	case p.is("DELETE"):
		s.Delete = p.delete(s.Pos, w)
		if s.Delete == nil {
			return nil
		}
	default:
		p.off = true
		return nil
	}
	s.EndPos = p.endPos()
	return s
}
