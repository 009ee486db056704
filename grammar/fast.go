package grammar

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// The fast path: a hand-written recursive-descent reader of the common
// statements (queries, INSERT, UPDATE, DELETE) that builds the public
// tree directly. It accepts exactly the texts the participle grammar
// accepts for these forms, rule by rule, with the same ordered choice and
// the same rewinding on failure, and builds the tree the builder
// (build*.go) makes of participle's structs, positions and source texts
// included (TestFastParse_MatchesParticiple and FuzzParse check this).
// Whenever it meets text it does not accept, a form it does not cover, or
// anything the builder would report (a limit, a malformed blob, a bad
// placeholder number), Parse falls back to participle and the builder,
// which then produce the tree or the error exactly as before.

// ftok is a non-elided token: its position, the offset just past it
// (where a node ending with it ends; its text is the source between),
// its type and its code (the word or symbol it spells, cNone for names
// that are not words of the grammar, literals and placeholders). It holds
// no pointer, so that the token slice costs the garbage collector and the
// write barrier nothing.
type ftok struct {
	pos  Position
	end  int
	typ  lexer.TokenType
	code tcode
}

func (t *ftok) eof() bool { return t.typ == lexer.EOF }

// text is t's text in src.
func (t *ftok) text(src string) string { return src[t.pos.Offset:t.end] }

// tv is the text of t.
func (p *fastParser) tv(t *ftok) string { return t.text(p.src) }

// fastParser reads a token slice. off marks text the fast path does not
// cover; once set, the result is discarded.
type fastParser struct {
	src  string
	toks []ftok
	i    int
	off  bool
	lim  Limits // resolved

	// height is the tallest expression read so far inside the operand
	// being read, as the builder's (see expr). A failed alternative may
	// leave it too high, never too low: too high only sends a statement
	// near the limit to the builder, which then measures it exactly.
	height int

	// params are the placeholders read, in text order; a rewind drops
	// the ones read past its mark.
	params []*Param

	// The most common nodes come from slabs: one allocation per few of
	// them instead of one each. The slabs belong to the tree: release
	// drops them.
	cols  slab[ColumnRef]
	lits  slab[Literal]
	bins  slab[BinaryExpr]
	rcols slab[ResultColumn]
	names slab[TableName]
	joins slab[Join]
	cores slab[SelectCore]
	sels  slab[SelectStmt]
	calls slab[FuncCall]
	pars  slab[Param]

	// lists holds the backing arrays of short expression lists (see
	// popExprs).
	lists []Expr

	// Scratch stacks: lists are gathered here and copied out once, at
	// their final length.
	exprs stack[Expr]
	tails stack[ftail]
	nots  stack[Position]
}

// stack is a scratch stack whose tops are copied out as lists.
type stack[T any] struct{ s []T }

func (st *stack[T]) push(x T) { st.s = append(st.s, x) }

// pop returns the items from base up as a new slice and drops them.
func (st *stack[T]) pop(base int) []T {
	out := make([]T, len(st.s)-base)
	copy(out, st.s[base:])
	st.drop(base)
	return out
}

// drop truncates the stack to base, clearing what it drops.
func (st *stack[T]) drop(base int) {
	clear(st.s[base:])
	st.s = st.s[:base]
}

// slab hands out zeroed values of T from chunks. A value handed out to a
// failed alternative is simply never used; the chunk is freed with the
// tree.
type slab[T any] struct {
	buf  []T
	hint int // the size of the first chunk, from the tokens (sizeSlabs)
}

// The first chunk is as large as the tokens say the statement may need
// (one, when they say nothing), the next ones double from minSlabChunk up
// to maxSlabChunk.
const (
	minSlabChunk = 4
	maxSlabChunk = 32
)

func (s *slab[T]) alloc() *T {
	if len(s.buf) == cap(s.buf) {
		n := min(max(2*cap(s.buf), minSlabChunk), maxSlabChunk)
		if s.buf == nil {
			n = min(max(s.hint, 1), maxSlabChunk)
		}
		s.buf = make([]T, 0, n)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// newNode is a node from s set to v.
func newNode[T any](s *slab[T], v T) *T {
	x := s.alloc()
	*x = v
	return x
}

// maxListChunk is the size of the chunks short expression lists share.
const maxListChunk = 64

// popExprs returns the expressions of p.exprs from base up as a list
// and drops them from the stack. A short list shares a chunk with its
// neighbours, capped at its length so that an append to it copies
// instead of writing over the next one.
func (p *fastParser) popExprs(base int) []Expr {
	n := len(p.exprs.s) - base
	if n > maxListChunk/4 {
		return p.exprs.pop(base)
	}
	if len(p.lists)+n > cap(p.lists) {
		p.lists = make([]Expr, 0, min(max(2*cap(p.lists), 8), maxListChunk))
	}
	at := len(p.lists)
	p.lists = append(p.lists, p.exprs.s[base:]...)
	p.exprs.drop(base)
	return p.lists[at : at+n : at+n]
}

// mark is a place to rewind to.
type mark struct{ i, params int }

func (p *fastParser) mark() mark { return mark{p.i, len(p.params)} }

// reset rewinds to m, forgetting the placeholders read since.
func (p *fastParser) reset(m mark) {
	p.i = m.i
	if len(p.params) > m.params {
		clear(p.params[m.params:])
		p.params = p.params[:m.params]
	}
}

// fastLex tokenises sql into non-elided tokens ending with EOF. It
// returns nil when the fast path should not read the text (a lexer error,
// which participle reports, or a non-ASCII word that folds to a word of
// the grammar), and an error when the depth guard stops the statement:
// nesting beyond maxDepth or an expression taller than MaxExprDepth,
// found before the rest of the text is even read.
// The tokens go into buf when it is large enough.
func fastLex(sql string, buf []ftok) ([]ftok, error) {
	// One token per three bytes is enough for typical SQL, placeholder
	// lists included, and keeps the slice to a single allocation, or none
	// when a pooled one is large enough.
	want := min(len(sql)/3+2, maxPrealloc)
	toks := buf[:0]
	if cap(buf) < want {
		toks = make([]ftok, 0, want)
	}
	// A text with more tokens fills chunks that double in size and are
	// joined once at the end: append's growth by a quarter for large
	// slices copied a million-literal list's tokens about five times.
	var full [][]ftok
	g := depthGuard{src: sql}
	ntoks := 0
	var graph graphLexState
	pos := Position{Line: 1, Column: 1}
	for {
		rest := sql[pos.Offset:]
		if rest == "" {
			if len(toks) == cap(toks) {
				full = append(full, toks)
				toks = make([]ftok, 0, 1)
			}
			toks = append(toks, ftok{pos: pos, end: pos.Offset, typ: lexer.EOF})
			return joinChunks(full, toks), nil
		}
		n, tt := scanToken(rest)
		if graph.depth > 0 {
			n, tt = graphToken(rest, n, tt)
		}
		if n == 0 {
			return nil, nil
		}
		v := rest[:n]
		var code tcode
		switch tt {
		case tokIdent:
			var reserved, foreign bool
			code, reserved, foreign = lookupWord(v)
			if foreign {
				return nil, nil
			}
			if reserved {
				tt = tokKeyword
			}
		case tokBinOp, tokPunct:
			code = symbolCode(v)
		}
		if tt == tokWhitespace && n == 1 && v[0] == ' ' {
			pos.Offset++
			pos.Column++
			continue
		}
		if graph.armed || graph.depth > 0 || tt == tokIdent && n == len("GRAPH_TABLE") {
			graph.see(tt, v)
		}
		start := pos
		switch tt {
		case tokNumber, tokParam, tokBinOp, tokPunct:
			// One line of ASCII characters.
			pos.Offset += n
			pos.Column += n
		default:
			advance(&pos, v)
		}
		if tt == tokWhitespace || tt == tokComment {
			continue
		}
		if len(toks) == cap(toks) {
			full = append(full, toks)
			toks = make([]ftok, 0, 2*cap(toks))
		}
		toks = append(toks, ftok{pos: start, end: pos.Offset, typ: tt, code: code})
		// The guard cannot stop a statement in its first maxDepth
		// tokens (each token adds at most one level of nesting, and a
		// chain or a column list needs far more), so it starts there,
		// going over the tokens before first: most statements are
		// shorter and never pay for it.
		if ntoks++; ntoks < maxDepth {
			continue
		}
		if ntoks == maxDepth {
			for _, c := range full {
				g.stepAll(c)
			}
			g.stepAll(toks[:len(toks)-1])
		}
		if r := g.step(&toks[len(toks)-1]); r != guardOK {
			return nil, guardError(sql, lexer.Position{Offset: start.Offset, Line: start.Line, Column: start.Column}, r, &g)
		}
	}
}

// advance moves p past span, as participle's lexer.Position.Advance.
func advance(p *Position, span string) {
	i := 0
	for i < len(span) && span[i] != '\n' && span[i] < utf8.RuneSelf {
		i++
	}
	if i == len(span) {
		p.Offset += len(span)
		p.Column += len(span)
		return
	}
	p.Offset += len(span)
	lines := strings.Count(span, "\n")
	p.Line += lines
	if lines == 0 {
		p.Column += utf8.RuneCountInString(span)
	} else {
		p.Column = utf8.RuneCountInString(span[strings.LastIndex(span, "\n"):])
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

// parserPool keeps fastParsers between parses, with their token slices
// and scratch stacks: the tokens are read only while their text is
// parsed (the tree copies the values and positions it keeps), so the next
// statement lexes into them.
var parserPool = sync.Pool{New: func() any { return new(fastParser) }}

// maxPooledToks bounds the token slices kept, so one huge script does not
// pin its tokens.
const maxPooledToks = 4096

// lexFast returns a pooled parser holding the tokens of sql (see
// fastLex), nil when the fast path declines the text, or the error of the
// depth guard. The caller releases the parser.
func lexFast(sql string) (*fastParser, error) {
	p := parserPool.Get().(*fastParser)
	toks, err := fastLex(sql, p.toks)
	if toks == nil {
		p.release()
		return nil, err
	}
	p.src, p.toks = sql, toks
	p.sizeSlabs()
	return p, nil
}

// sizeSlabs sizes the first chunk of each slab by counting the tokens
// that can start its node: literals, placeholders, operators, SELECT and
// VALUES, JOIN, names before "(", names not before "(" or after "."
// (columns, but also tables and aliases), commas (result columns, and
// other lists).
func (p *fastParser) sizeSlabs() {
	var names, lits, ops, sels, values, joins, calls, dots, commas, params int
	for i := range p.toks {
		t := &p.toks[i]
		switch t.typ {
		case tokIdent, tokQIdent:
			names++
		case tokNumber, tokString, tokBlob:
			lits++
		case tokBinOp:
			ops++
		case tokParam:
			params++
		}
		switch t.code {
		case cNULL, cTRUE, cFALSE, cCURRENT_TIMESTAMP, cCURRENT_TIME, cCURRENT_DATE:
			lits++
		case cAND, cOR, cIS:
			ops++
		case cSELECT:
			sels++
		case cVALUES:
			values++
		case cJOIN:
			joins++
		case cLParen:
			if i > 0 && isName(&p.toks[i-1]) {
				calls++
			}
		case cDot:
			dots++
		case cComma:
			commas++
		}
	}
	cols, rcols := names-calls-dots, sels+commas
	if sels == 0 {
		// INSERT, UPDATE, DELETE (or VALUES): names are mostly the
		// written columns, and result columns only RETURNING's.
		cols, rcols = cols/2, 1
	}
	p.cols.hint, p.lits.hint, p.bins.hint = cols, lits, ops
	p.rcols.hint, p.cores.hint, p.sels.hint = rcols, sels, sels+values
	p.names.hint, p.joins.hint, p.calls.hint = sels+joins, sels+joins, calls
	p.pars.hint = params
}

// release hands p back to parserPool, cleared so that the pool keeps no
// text and no part of a tree alive (tokens hold no pointer).
func (p *fastParser) release() {
	toks := p.toks
	if cap(toks) > maxPooledToks {
		toks = nil
	}
	p.exprs.drop(0)
	p.tails.drop(0)
	p.nots.drop(0)
	clear(p.params)
	*p = fastParser{toks: toks[:0], params: p.params[:0], exprs: p.exprs, tails: p.tails, nots: p.nots}
	parserPool.Put(p)
}

// script reads the whole script under the resolved limits lim, or
// reports false.
func (p *fastParser) script(lim *Limits) ([]Statement, bool) {
	p.lim = *lim
	var out []Statement
	for p.accept(cSemi) {
	}
	for !p.atEOF() {
		st := p.statement()
		if st == nil || p.off {
			return nil, false
		}
		out = append(out, st)
		if !p.accept(cSemi) {
			break
		}
		for p.accept(cSemi) {
		}
	}
	if !p.atEOF() || p.off {
		return nil, false
	}
	return out, true
}

// exprRoot reads the whole text as one expression under the resolved
// limits lim, or reports false.
func (p *fastParser) exprRoot(lim *Limits) (Expr, bool) {
	p.lim = *lim
	e := p.expr()
	if e == nil || p.off || !p.atEOF() {
		return nil, false
	}
	p.numberParams()
	return e, true
}

// numberParams numbers the placeholders read since the last call, in
// text order, as ParamNumbering does for a built statement.
func (p *fastParser) numberParams() {
	if len(p.params) == 0 {
		return
	}
	var pn ParamNumbering
	for _, x := range p.params {
		pn.assign(x)
	}
	clear(p.params)
	p.params = p.params[:0]
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

func (p *fastParser) atEOF() bool { return p.cur().eof() }

// pos is the position of the next token.
func (p *fastParser) pos() Position { return p.cur().pos }

// endOffset is the offset just past the last token read.
func (p *fastParser) endOffset() int {
	if p.i == 0 {
		return p.toks[0].pos.Offset
	}
	return p.toks[p.i-1].end
}

// text is the source from offset start to the end of the last token read,
// as the builder's text.
func (p *fastParser) text(start int) string {
	end := p.endOffset()
	if start < 0 || end > len(p.src) || start > end {
		return ""
	}
	return strings.TrimRight(p.src[start:end], " \t\r\n\f")
}

// is reports whether the next token is c.
func (p *fastParser) is(c tcode) bool { return p.toks[p.i].code == c }

// peekIs reports whether the token n places ahead is c.
func (p *fastParser) peekIs(n int, c tcode) bool { return p.peekAt(n).code == c }

// accept consumes the next token if it is c.
func (p *fastParser) accept(c tcode) bool {
	if p.toks[p.i].code == c {
		p.i++
		return true
	}
	return false
}

// isName reports whether t is an Ident or a QIdent.
func isName(t *ftok) bool { return t.typ == tokIdent || t.typ == tokQIdent }

// name reads @( Ident | QIdent ).
func (p *fastParser) name() (string, bool) {
	t := p.cur()
	if isName(t) {
		p.i++
		return p.tv(t), true
	}
	return "", false
}

// nameList reads '(' name ( ',' name )* ')' and returns the names
// unquoted, rewinding on failure.
func (p *fastParser) nameList() ([]string, bool) {
	start := p.i
	if !p.accept(cLParen) {
		return nil, false
	}
	if !isName(p.cur()) {
		p.i = start
		return nil, false
	}
	first := p.i
	n := 1
	p.i++
	for p.is(cComma) && isName(p.peekAt(1)) {
		p.i += 2
		n++
	}
	if !p.accept(cRParen) {
		p.i = start
		return nil, false
	}
	out := make([]string, n)
	for k := range out {
		out[k] = unquote(p.tv(&p.toks[first+2*k]))
	}
	return out, true
}

// exprList reads e ( ',' e )*. As in participle, a "," not followed by an
// expression ends the list and is left unread; nil when the first
// expression is missing.
func (p *fastParser) exprList() []Expr {
	x := p.expr()
	if x == nil {
		return nil
	}
	return p.exprListFrom(x)
}

// commaList reads item ( ',' item )*. As in participle, a "," not
// followed by an item ends the list and is left unread; nil when the
// first item is missing.
func commaList[T any](p *fastParser, item func() *T) []*T {
	x := item()
	if x == nil {
		return nil
	}
	var buf [8]*T
	items := append(buf[:0], x)
	for p.is(cComma) {
		save := p.mark()
		p.i++
		if x = item(); x == nil {
			p.reset(save)
			break
		}
		items = append(items, x)
	}
	return append([]*T(nil), items...)
}

// statement reads one statement of the covered kinds. A leading WITH
// clause is read once and handed to the statement it starts; participle
// would read it again for each alternative it tries, to the same result.
func (p *fastParser) statement() Statement {
	pos := p.pos()
	var w *With
	if p.is(cWITH) {
		if w = p.with(); w == nil {
			return nil
		}
	}
	var st Statement
	switch p.cur().code {
	case cSELECT, cVALUES, cLParen:
		s := p.selectFrom(pos, w)
		if s == nil {
			return nil
		}
		s.text = p.text(pos.Offset)
		st = s
	case cINSERT, cREPLACE:
		s := p.insert(pos, w)
		if s == nil {
			return nil
		}
		s.text = p.text(pos.Offset)
		st = s
	case cUPDATE:
		s := p.update(pos, w)
		if s == nil {
			return nil
		}
		s.text = p.text(pos.Offset)
		st = s
	case cDELETE:
		s := p.delete(pos, w)
		if s == nil {
			return nil
		}
		s.text = p.text(pos.Offset)
		st = s
	default:
		p.off = true
		return nil
	}
	// Each statement is numbered alone, as SQLite compiles it.
	p.numberParams()
	return st
}

// decline gives the text to participle and the builder.
func (p *fastParser) decline() { p.off = true }
