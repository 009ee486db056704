package grammar

// SQLite's limits that the grammar enforces (see docs/LIMITS.md).
const (
	// MaxExprDepth is the largest expression tree height accepted
	// (SQLITE_MAX_EXPR_DEPTH): a leaf is 1, an operator one more than its
	// deepest operand, so "1+1+…+1" of n terms has height n.
	MaxExprDepth = 1000
	// MaxSQLLength is the longest SQL text accepted (SQLITE_MAX_SQL_LENGTH).
	MaxSQLLength = 1_000_000_000
	// MaxVariableNumber is the largest placeholder number
	// (SQLITE_MAX_VARIABLE_NUMBER).
	MaxVariableNumber = 32766
	// MaxCompoundSelect is the most terms of one compound SELECT
	// (SQLITE_MAX_COMPOUND_SELECT).
	MaxCompoundSelect = 500
	// MaxJoinTables is the most tables one FROM clause joins (SQLite's
	// bitmask width, 64).
	MaxJoinTables = 64
	// MaxFunctionArg is the most arguments of a function call
	// (SQLITE_MAX_FUNCTION_ARG).
	MaxFunctionArg = 1000
	// MaxColumn is the most columns of a table (SQLITE_MAX_COLUMN); the
	// guard counts the column definitions of CREATE TABLE so that a
	// million of them fail before they are parsed.
	MaxColumn = 2000
)

// Limits lowers the grammar's limits for one parse (sqlite3_limit): a
// zero or larger field keeps the default above. Only the builder's exact
// checks read it; the token guards stay at the defaults, which bound the
// parser itself.
type Limits struct {
	SQLLength, ExprDepth, CompoundSelect, FunctionArg, VariableNumber int
}

// lower returns v when it lowers def, else def.
func lower(v, def int) int {
	if v > 0 && v < def {
		return v
	}
	return def
}

// resolved is l with every field set: the lowered value or the default.
func (l *Limits) resolved() Limits {
	if l == nil {
		l = &Limits{}
	}
	return Limits{
		SQLLength:      lower(l.SQLLength, MaxSQLLength),
		ExprDepth:      lower(l.ExprDepth, MaxExprDepth),
		CompoundSelect: lower(l.CompoundSelect, MaxCompoundSelect),
		FunctionArg:    lower(l.FunctionArg, MaxFunctionArg),
		VariableNumber: lower(l.VariableNumber, MaxVariableNumber),
	}
}

// errExprTooDeep is SQLite's message for an expression over MaxExprDepth.
const errExprTooDeep = "Expression tree is too large (maximum depth 1000)"

// depthGuard runs over the token stream before anything recursive
// reads it and stops a statement whose nesting or expression height
// would make the parser and every later tree walk recurse too deeply.
//
// Nesting is open parentheses plus open CASEs plus the current run of
// prefix operators (-, +, ~, NOT, EXPLAIN), each of which recurses once.
//
// Height is bounded from below by the chains of binary operators between
// simple operands (names, literals, placeholders, dotted names, calls
// and parenthesised groups) at one nesting level: their parse by
// precedence climbing is a subtree of the real one, because whether one
// operator is an ancestor of another depends only on the operators
// between them. The bound only counts reductions, so the one operator
// that may sit above such a chain without being an expression operator
// (the "=" of UPDATE … SET col = chain, PRAGMA x = chain) is covered by
// allowing one level of slack; the builder then checks the exact height.
// The guard keeps the check linear and its memory constant per level:
// a million-term chain stops at its thousandth term.
type depthGuard struct {
	src           string // the text the tokens are of
	depth, prefix int
	table         createTable
	// The chain state of each open parenthesis or CASE, outermost first:
	// the first levels in place (no allocation for ordinary statements),
	// deeper ones in more.
	n    int
	near [8]chainRun
	more []chainRun
}

// level returns the state of nesting level i.
func (g *depthGuard) level(i int) *chainRun {
	if i < len(g.near) {
		return &g.near[i]
	}
	return &g.more[i-len(g.near)]
}

// push opens a nesting level.
func (g *depthGuard) push() {
	g.n++
	if g.n > len(g.near) && g.n-len(g.near) > len(g.more) {
		g.more = append(g.more, chainRun{})
	}
	*g.level(g.n - 1) = chainRun{}
}

// chainRun is the precedence-climbing state of one nesting level: the
// pending operators with the heights of their left operands, and the
// height of the operand just read.
type chainRun struct {
	phase uint8 // runExpect, runOperand or runDot
	cur   int
	// pending rise strictly in precedence, so there are at most as many
	// as precedence levels.
	np      int
	pending [maxPrecLevels]pendingOp
}

// maxPrecLevels bounds the binary precedence levels (Precedence's values).
const maxPrecLevels = 16

type pendingOp struct{ prec, left int }

const (
	runExpect  uint8 = iota // an operand may start here
	runOperand              // an operand was just read
	runDot                  // a "." after a name: a name follows
)

// guardResult says why depthGuard stopped a statement.
type guardResult uint8

const (
	guardOK guardResult = iota
	guardNested
	guardExpr
	guardColumns
)

// createTable counts the column definitions of a CREATE TABLE: the items
// of its first parenthesised list that do not start a table constraint.
type createTable struct {
	state   uint8 // ctStart .. ctDone
	name    string
	columns int
}

const (
	ctStart  uint8 = iota // at a statement's first token
	ctCreate              // after CREATE (TEMP / TEMPORARY may follow)
	ctTable               // after CREATE … TABLE: the name, then "("
	ctItem                // at depth 1, the next token starts an item
	ctInItem              // inside an item
	ctDone                // not a CREATE TABLE, or its list ended
)

// step advances the count over token t at nesting depth (before t);
// true once the columns pass MaxColumn.
func (ct *createTable) step(t *ftok, depth int, src string) bool {
	c := t.code
	if c == cSemi {
		*ct = createTable{}
		return false
	}
	switch ct.state {
	case ctStart:
		ct.state = ctDone
		if c == cCREATE {
			ct.state = ctCreate
		}
	case ctCreate:
		switch {
		case c == cTABLE:
			ct.state = ctTable
		case c != cTEMP && c != cTEMPORARY:
			ct.state = ctDone
		}
	case ctTable:
		if c == cLParen {
			ct.state = ctItem
		} else if c == cAS {
			ct.state = ctDone // CREATE TABLE … AS SELECT
		} else if c != cDot && c != cIF && c != cNOT && c != cEXISTS {
			ct.name = unquote(t.text(src))
		}
	case ctItem:
		ct.state = ctInItem
		switch c {
		case cCONSTRAINT, cPRIMARY, cUNIQUE, cCHECK, cFOREIGN:
			return false
		}
		ct.columns++
		return ct.columns > MaxColumn
	case ctInItem:
		switch {
		case c == cComma && depth == 1:
			ct.state = ctItem
		case c == cRParen && depth == 1:
			ct.state = ctDone
		}
	}
	return false
}

// stepAll feeds tokens the guard cannot stop at (see fastLex).
func (g *depthGuard) stepAll(toks []ftok) {
	for i := range toks {
		g.step(&toks[i])
	}
}

// step feeds one non-elided token.
func (g *depthGuard) step(t *ftok) guardResult {
	if g.table.state != ctDone || t.code == cSemi {
		if g.table.step(t, g.depth, g.src) {
			return guardColumns
		}
	}
	g.depth, g.prefix = nesting(t.code, g.depth, g.prefix)
	if g.depth+g.prefix > maxDepth {
		return guardNested
	}
	if g.chain(t) {
		return guardExpr
	}
	return guardOK
}

// chain advances the chain state; true when the height bound passes
// MaxExprDepth plus the slack.
func (g *depthGuard) chain(t *ftok) bool {
	if g.n == 0 {
		g.push()
	}
	r := g.level(g.n - 1)
	switch {
	case t.code == cLParen || t.code == cCASE:
		if r.phase == runDot {
			r.reset()
		}
		g.push()
		return false
	case t.code == cRParen || t.code == cEND:
		if g.n > 1 {
			g.n--
			r = g.level(g.n - 1)
			if r.phase != runOperand {
				r.operand() // a group or CASE is an operand; a call's arguments end it
			}
			return false
		}
		r.reset()
		return false
	}
	switch r.phase {
	case runExpect:
		if isSimpleOperand(t) {
			r.operand()
			return false
		}
	case runDot:
		if isName(t) {
			r.phase = runOperand
			return false
		}
	case runOperand:
		if t.code == cDot {
			r.phase = runDot
			return false
		}
		if p, ok := tokenPrec(t); ok {
			return r.binary(p) > MaxExprDepth+1
		}
	}
	r.reset()
	if isSimpleOperand(t) {
		r.operand()
	}
	return false
}

func (r *chainRun) reset() {
	r.phase, r.cur, r.np = runExpect, 0, 0
}

func (r *chainRun) operand() { r.phase, r.cur = runOperand, 1 }

// binary reduces the pending operators that bind at least as tightly as
// one of precedence p (all operators are left-associative), pushes it and
// returns the largest height reduced.
func (r *chainRun) binary(p int) int {
	top := 0
	for ; r.np > 0 && r.pending[r.np-1].prec >= p; r.np-- {
		r.cur = 1 + max(r.pending[r.np-1].left, r.cur)
		top = max(top, r.cur)
	}
	r.pending[r.np] = pendingOp{prec: p, left: r.cur}
	r.np++
	r.phase = runExpect
	return top
}

// isSimpleOperand reports a token that is a whole operand by itself, or
// the name that starts a dotted name or a call.
func isSimpleOperand(t *ftok) bool {
	switch t.typ {
	case tokIdent, tokQIdent, tokNumber, tokString, tokBlob, tokParam:
		return true
	}
	return false
}

// tokenPrec is the precedence of a binary operator token.
func tokenPrec(t *ftok) (int, bool) {
	switch {
	case t.typ == tokBinOp && t.code != cNone:
		return opOf[t.code].Precedence(), true
	case t.typ == tokKeyword && (t.code == cAND || t.code == cOR):
		return opOf[t.code].Precedence(), true
	}
	return 0, false
}

// nesting is one step of the guard's count of nesting.
func nesting(c tcode, depth, prefix int) (int, int) {
	switch c {
	case cLParen, cCASE:
		return depth + 1, 0
	case cRParen, cEND:
		return depth - 1, 0
	case cMinus, cPlus, cTilde, cNOT, cEXPLAIN:
		return depth, prefix + 1
	}
	return depth, 0
}
