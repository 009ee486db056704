package plan

import (
	"iter"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// bindFrom binds a FROM clause; nil means a single row of no columns.
func (b *Binder) bindFrom(te grammar.TableExpr) (Node, *scope, error) {
	switch te := te.(type) {
	case nil:
		return &Single{}, &scope{}, nil
	case *grammar.TableName:
		return b.bindTableName(te)
	case *grammar.SubqueryTable:
		q, err := b.bindSelect(te.Select)
		if err != nil {
			return nil, nil, err
		}
		return derived(q, te.Alias)
	case *grammar.Join:
		if te.Paren && te.Alias != "" {
			return b.bindNestedJoin(te)
		}
		// A parenthesised join first in FROM, without alias, is the same
		// join unparenthesised (SQLite flattens it too).
		return b.bindJoin(te)
	case *grammar.TableFunc:
		return b.bindTableFunc(te)
	case *grammar.GraphTable:
		return b.bindGraphTable(te)
	}
	return nil, nil, notSupported("FROM item %T", te)
}

// MaxJoinTables is the most FROM items one SELECT may join, as in SQLite
// (its planner keeps table sets in 64-bit masks; so does joinOrder).
const MaxJoinTables = 64

// fromItems counts the items of a FROM clause: tables, subqueries and
// table functions; a parenthesised join with an alias is one item (a
// subquery), one without is flattened, as SQLite does.
func fromItems(te grammar.TableExpr) int {
	switch te := te.(type) {
	case nil:
		return 0
	case *grammar.Join:
		if te.Paren && te.Alias != "" {
			return 1
		}
		return fromItems(te.Left) + fromItems(te.Right)
	}
	return 1
}

// derived wraps a bound query as a FROM item named alias.
func derived(q *Query, alias string) (Node, *scope, error) {
	src := q.Root.Columns()
	cols := make([]Column, len(q.Cols))
	for i, rc := range q.Cols {
		cols[i] = Column{Name: rc.Name, Table: alias, DeclType: rc.DeclType, NotNull: rc.NotNull}
		if i < len(src) {
			cols[i].Affinity, cols[i].Collate = src[i].Affinity, src[i].Collate
		}
	}
	exprs := identity(len(cols))
	if isCompound(q.Root) {
		for i, c := range cols {
			if c.Affinity == types.AffinityReal {
				// SQLite reads a REAL column of a compound subquery
				// through OP_RealAffinity: another arm's integers
				// arrive as reals.
				exprs[i] = &Affinity{X: exprs[i], Aff: c.Affinity, Read: true}
			}
		}
	}
	return &Project{Input: q.Root, Exprs: exprs, Cols: cols, Plain: true}, &scope{cols: cols}, nil
}

func identity(n int) []Expr {
	refs := make([]ColRef, n) // one allocation for all the references
	out := make([]Expr, n)
	for i := range out {
		refs[i].Idx = i
		out[i] = &refs[i]
	}
	return out
}

// refsTo returns a reference per column of cols, to column to(i) (i when
// to is nil) with the column's affinity and collation, the references
// allocated together.
func refsTo(cols []Column, to func(int) int) []Expr {
	refs := make([]ColRef, len(cols))
	out := make([]Expr, len(cols))
	for i, c := range cols {
		idx := i
		if to != nil {
			idx = to(i)
		}
		refs[i] = ColRef{Idx: idx, Affinity: c.Affinity, Collate: c.Collate}
		out[i] = &refs[i]
	}
	return out
}

func (b *Binder) bindTableName(tn *grammar.TableName) (Node, *scope, error) {
	b.touched = true
	cat := b.cat
	if !eqFold(tn.Schema, "information_schema") {
		var err error
		if cat, err = b.tableCat(tn); err != nil {
			return nil, nil, err
		}
	}
	alias := tn.Alias
	if alias == "" {
		alias = tn.Name
	}
	if tn.Schema == "" && b.graphSegs != nil && b.graphSegs.segs[tn.Name] != nil {
		return b.bindGraphSeg(b.graphSegs.segs[tn.Name], alias)
	}
	if tn.Schema == "" {
		if def := b.lookupCTE(tn.Name); def != nil {
			return b.bindCTERef(def, alias)
		}
	}
	if v := cat.View(tn.Name); v != nil {
		return b.bindView(v, alias)
	}
	t := cat.Table(tn.Name)
	if t == nil {
		t = virtualIn(tn.Schema, tn.Name)
		b.opensTemp = b.opensTemp || t == TempMasterTable
	}
	if t == nil && tn.Schema == "" {
		if _, ok := tableFuncColumns(strings.ToLower(tn.Name)); ok {
			return b.bindTableFunc(&grammar.TableFunc{Name: tn.Name, Alias: tn.Alias})
		}
	}
	if t == nil {
		if strings.EqualFold(tn.Schema, "information_schema") {
			name := "information_schema." + strings.ToLower(tn.Name)
			if _, ok := tableFuncColumns(name); !ok {
				return nil, nil, bindErr("no such table: %s.%s", tn.Schema, tn.Name)
			}
			alias := tn.Alias
			if alias == "" {
				alias = tn.Name
			}
			return b.bindTableFunc(&grammar.TableFunc{Name: name, Alias: alias})
		}
		schema := tn.Schema
		if schema == "" && b.fixedMain {
			schema = "main"
		}
		return nil, nil, bindErr("no such table: %s", qualified(schema, tn.Name))
	}
	// The scan and the scope naming its columns are allocated together.
	both := &struct {
		s  Scan
		sc scope
	}{s: Scan{Table: t, Alias: alias, Cols: scanColumns(t, alias)}}
	b.stampSize(&both.s)
	both.sc.cols = both.s.Cols
	return &both.s, &both.sc, nil
}

// NewScan returns a full scan of t whose columns are qualified by alias:
// the table's columns then the hidden rowid.
func NewScan(t *catalog.Table, alias string) *Scan {
	return &Scan{Table: t, Alias: alias, Cols: scanColumns(t, alias)}
}

// scanColumns are the columns of a scan of t qualified by alias.
func scanColumns(t *catalog.Table, alias string) []Column {
	cols := make([]Column, 0, len(t.Columns)+1)
	for _, c := range t.Columns {
		cols = append(cols, Column{Name: c.Name, Table: alias, DeclType: c.DeclType,
			Affinity: c.Affinity, Collate: c.Collate, NotNull: c.NotNull, Hidden: c.Hidden})
	}
	rid, key := rowidColName, RowidKey
	if t.WithoutRowid {
		rid, key = noRowidColName, NoRowidKey
	}
	return append(cols, Column{Name: rid, Table: alias, Affinity: types.AffinityInteger, Hidden: true, NotNull: true, RowKey: key})
}

func (b *Binder) bindView(v *catalog.View, alias string) (Node, *scope, error) {
	for _, w := range b.views {
		if w == v {
			return nil, nil, bindErr("view %s is circularly defined", v.Name)
		}
	}
	if err := b.nestDeeper(); err != nil {
		return nil, nil, err
	}
	stmts, err := grammar.Parse(v.SQL)
	if err != nil {
		return nil, nil, err
	}
	cv, ok := stmts[0].(*grammar.CreateViewStmt)
	if !ok || len(stmts) != 1 {
		return nil, nil, bindErr("malformed view definition: %s", v.Name)
	}
	b.views = append(b.views, v)
	saved := b.scopes
	b.scopes = nil
	var q *Query
	bind := func() (err error) {
		q, err = b.bindSelect(cv.Select)
		return err
	}
	if v.Temp {
		err = bind()
	} else {
		err = b.withMain(bind)
	}
	b.scopes = saved
	b.views = b.views[:len(b.views)-1]
	if err != nil {
		return nil, nil, err
	}
	if err := renameColumns(q, cv.Columns, v.Name); err != nil {
		return nil, nil, err
	}
	return derived(q, alias)
}

// renameColumns applies an explicit column list to a query's result.
func renameColumns(q *Query, names []string, what string) error {
	if len(names) == 0 {
		return nil
	}
	if len(names) != len(q.Cols) {
		return bindErr("%s has %d values for %d columns", what, len(q.Cols), len(names))
	}
	for i, n := range names {
		q.Cols[i].Name = n
	}
	return nil
}

// joinKinds maps the grammar's join kinds to the plan's.
var joinKinds = map[grammar.JoinKind]JoinKind{grammar.JoinInner: JoinInner, grammar.JoinLeft: JoinLeft,
	grammar.JoinRight: JoinRight, grammar.JoinFull: JoinFull, grammar.JoinCross: JoinCross}

func (b *Binder) bindJoin(j *grammar.Join) (Node, *scope, error) {
	b.joins = true
	ln, lsc, err := b.bindFrom(j.Left)
	if err != nil {
		return nil, nil, err
	}
	if tf, ok := j.Right.(*grammar.TableFunc); ok && readsScope(b, tf, lsc) {
		return b.bindLateral(j, ln, lsc, tf)
	}
	var rn Node
	var rsc *scope
	var err2 error
	if isNestedJoin(j.Right) {
		rn, rsc, err2 = b.bindNestedJoin(j.Right.(*grammar.Join))
	} else {
		rn, rsc, err2 = b.bindFrom(j.Right)
	}
	if err2 != nil {
		return nil, nil, err2
	}
	kind := joinKinds[j.Kind]
	nl := len(lsc.cols)
	cols := append(append(make([]Column, 0, len(lsc.cols)+len(rsc.cols)), lsc.cols...), rsc.cols...)
	using := j.Using
	if j.Natural {
		using = naturalColumns(lsc, rsc)
	}
	var on Expr
	for _, name := range using {
		li, err := lsc.resolve("", name)
		if err != nil {
			return nil, nil, err
		}
		ri, err := rsc.resolve("", name)
		if err != nil {
			return nil, nil, err
		}
		if li < 0 || ri < 0 {
			return nil, nil, bindErr("cannot join using column %s - column not present in both tables", name)
		}
		lc, rc := cols[li], cols[nl+ri]
		eq := comparison("=", &ColRef{Idx: li, Affinity: lc.Affinity, Collate: lc.Collate},
			&ColRef{Idx: nl + ri, Affinity: rc.Affinity, Collate: rc.Collate})
		on = andExpr(on, eq)
		cols[nl+ri].Hidden = true
	}
	if kind == JoinLeft {
		for i := nl; i < len(cols); i++ {
			cols[i].NotNull = false
		}
	}
	sc := &scope{cols: cols}
	if j.On != nil {
		x, err := b.bindExpr(j.On, sc)
		if err != nil {
			return nil, nil, err
		}
		on = andExpr(on, x)
	}
	if kind == JoinCross && on != nil {
		kind = JoinInner
	}
	join := &Join{Kind: kind, Left: ln, Right: rn, On: on, Cols: cols}
	splitEquiKeys(join, nl)
	if (kind == JoinRight || kind == JoinFull) && len(using) > 0 {
		return coalesceUsing(join, lsc, rsc, using)
	}
	return join, sc, nil
}

// coalesceUsing makes the USING columns of a RIGHT or FULL join read
// COALESCE(left, right), as SQLite does, keeping the left column reachable
// under its qualifier.
func coalesceUsing(j *Join, lsc, rsc *scope, using []string) (Node, *scope, error) {
	nl := len(lsc.cols)
	cols := append([]Column{}, j.Cols...)
	exprs := identity(len(cols))
	for _, name := range using {
		li, _ := lsc.resolve("", name)
		ri, _ := rsc.resolve("", name)
		raw := cols[li]
		exprs[li] = &Func{Name: "coalesce", Args: []Expr{&ColRef{Idx: li, Affinity: raw.Affinity, Collate: raw.Collate},
			&ColRef{Idx: nl + ri, Affinity: cols[nl+ri].Affinity, Collate: cols[nl+ri].Collate}}}
		cols[li] = Column{Name: raw.Name, DeclType: raw.DeclType, Affinity: raw.Affinity, Collate: raw.Collate}
		raw.Hidden = true
		cols = append(cols, raw)
		exprs = append(exprs, &ColRef{Idx: li, Affinity: raw.Affinity, Collate: raw.Collate})
	}
	return &Project{Input: j, Exprs: exprs, Cols: cols}, &scope{cols: cols}, nil
}

func naturalColumns(l, r *scope) []string {
	var out []string
	for _, c := range l.cols {
		if c.Hidden {
			continue
		}
		if i, err := r.resolve("", c.Name); err == nil && i >= 0 {
			out = append(out, c.Name)
		}
	}
	return out
}

func andExpr(a, b Expr) Expr {
	if a == nil {
		return b
	}
	return &Binary{Op: "AND", L: a, R: b}
}

// andAll is the AND of es built left-deep, as andExpr one by one builds
// it; nil for none.
func andAll(es []Expr) Expr {
	var out Expr
	for _, e := range es {
		out = andExpr(out, e)
	}
	return out
}

// Conjuncts splits e on AND, into one new slice.
func Conjuncts(e Expr) []Expr {
	if e == nil {
		return nil
	}
	return appendConjuncts(make([]Expr, 0, countConjuncts(e)), e)
}

// conjunctsOf is Conjuncts as an iterator, for loops that only read the
// conjuncts: it builds no slice.
func conjunctsOf(e Expr) iter.Seq[Expr] {
	return func(yield func(Expr) bool) { yieldConjuncts(e, yield) }
}

func yieldConjuncts(e Expr, yield func(Expr) bool) bool {
	if bin, ok := e.(*Binary); ok && bin.Op == "AND" {
		return yieldConjuncts(bin.L, yield) && yieldConjuncts(bin.R, yield)
	}
	return e == nil || yield(e)
}

func countConjuncts(e Expr) int {
	if bin, ok := e.(*Binary); ok && bin.Op == "AND" {
		return countConjuncts(bin.L) + countConjuncts(bin.R)
	}
	return 1
}

func appendConjuncts(dst []Expr, e Expr) []Expr {
	if bin, ok := e.(*Binary); ok && bin.Op == "AND" {
		return appendConjuncts(appendConjuncts(dst, bin.L), bin.R)
	}
	if e == nil { // an AND's nil operand, dropped as before
		return dst
	}
	return append(dst, e)
}

// splitEquiKeys moves equality conjuncts of ON that compare a left-only
// expression with a right-only one into hash-join keys.
func splitEquiKeys(j *Join, nl int) {
	var rest Expr
	for c := range conjunctsOf(j.On) {
		bin, ok := c.(*Binary)
		if ok && bin.Op == "=" && bin.Coll == "" && !bin.TextAff {
			ls, rs := sideOf(bin.L, nl), sideOf(bin.R, nl)
			if ls == 1 && rs == 2 {
				j.LeftKeys = append(j.LeftKeys, bin.L)
				j.RightKeys = append(j.RightKeys, shiftCols(bin.R, -nl))
				continue
			}
			if ls == 2 && rs == 1 {
				j.LeftKeys = append(j.LeftKeys, bin.R)
				j.RightKeys = append(j.RightKeys, shiftCols(bin.L, -nl))
				continue
			}
		}
		rest = andExpr(rest, c)
	}
	if len(j.LeftKeys) > 0 {
		j.On = rest
	}
}

// sideOf returns 1 when e reads only left columns (idx < nl), 2 when only
// right ones, 0 for both, none, or anything not safe to hash.
func sideOf(e Expr, nl int) int {
	side := 0
	ok := true
	WalkExpr(e, func(x Expr) {
		switch x := x.(type) {
		case *ColRef:
			s := 1
			if x.Idx >= nl {
				s = 2
			}
			if side != 0 && side != s {
				ok = false
			}
			side = s
		case *Const, *Unary, *Binary, *Affinity, *Collate, *Cast:
		default:
			ok = false
		}
	})
	if !ok {
		return 0
	}
	return side
}

// shiftCols returns e with every ColRef index moved by d.
func shiftCols(e Expr, d int) Expr {
	if d == 0 {
		return e
	}
	return MapExpr(e, func(x Expr) Expr {
		if c, ok := x.(*ColRef); ok {
			n := *c
			n.Idx += d
			return &n
		}
		return x
	})
}

// MapExpr rebuilds e bottom-up, replacing each node by fn(node). A node
// whose operands all map to themselves is passed to fn as it is, not
// copied: fn returns its node or a new one and never changes it, so an
// unchanged subtree is shared rather than rebuilt.
func MapExpr(e Expr, fn func(Expr) Expr) Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *Unary:
		if y := MapExpr(x.X, fn); y != x.X {
			return fn(&Unary{Op: x.Op, X: y})
		}
	case *Binary:
		l, r := MapExpr(x.L, fn), MapExpr(x.R, fn)
		if l != x.L || r != x.R {
			return fn(&Binary{Op: x.Op, L: l, R: r, Coll: x.Coll, TextAff: x.TextAff})
		}
	case *Affinity:
		if y := MapExpr(x.X, fn); y != x.X {
			return fn(&Affinity{X: y, Aff: x.Aff, Read: x.Read})
		}
	case *Collate:
		if y := MapExpr(x.X, fn); y != x.X {
			return fn(&Collate{X: y, Name: x.Name})
		}
	case *Cast:
		if y := MapExpr(x.X, fn); y != x.X {
			return fn(&Cast{X: y, Type: x.Type, Affinity: x.Affinity})
		}
	case *IsNull:
		if y := MapExpr(x.X, fn); y != x.X {
			return fn(&IsNull{X: y, Not: x.Not})
		}
	case *Func:
		if args, changed := mapList(x.Args, func(a Expr) Expr { return MapExpr(a, fn) }); changed {
			return fn(&Func{Name: x.Name, Args: args})
		}
	case *CheckedSum:
		s, o := MapExpr(x.Sum, fn), MapExpr(x.Overflowed, fn)
		if s != x.Sum || o != x.Overflowed {
			return fn(&CheckedSum{Sum: s, Overflowed: o})
		}
	case *Between:
		v, lo, hi := MapExpr(x.X, fn), MapExpr(x.Lo, fn), MapExpr(x.Hi, fn)
		if v != x.X || lo != x.Lo || hi != x.Hi {
			return fn(&Between{X: v, Lo: lo, Hi: hi, Not: x.Not})
		}
	case *InList:
		v := MapExpr(x.X, fn)
		if list, changed := mapList(x.List, func(a Expr) Expr { return MapExpr(a, fn) }); changed || v != x.X {
			return fn(&InList{X: v, List: list, Not: x.Not})
		}
	case *Like:
		v, pat, esc := MapExpr(x.X, fn), MapExpr(x.Pat, fn), MapExpr(x.Escape, fn)
		if v != x.X || pat != x.Pat || esc != x.Escape {
			return fn(&Like{Op: x.Op, X: v, Pat: pat, Escape: esc, Not: x.Not})
		}
	}
	return fn(e)
}

// mapList is fn of each of es: es itself when fn returns every element
// unchanged, else a new slice (changed true).
func mapList(es []Expr, fn func(Expr) Expr) ([]Expr, bool) {
	var out []Expr
	for i, a := range es {
		y := fn(a)
		if y != a && out == nil {
			out = make([]Expr, len(es))
			copy(out, es[:i])
		}
		if out != nil {
			out[i] = y
		}
	}
	if out == nil {
		return es, false
	}
	return out, true
}

func (b *Binder) bindTableFunc(tf *grammar.TableFunc) (Node, *scope, error) {
	b.touched = true
	name := strings.ToLower(tf.Name)
	args, err := b.bindExprs(tf.Args, nil)
	if err != nil {
		return nil, nil, err
	}
	cols, ok := tableFuncColumns(name)
	if !ok {
		return nil, nil, bindErr("no such table-valued function: %s", tf.Name)
	}
	alias := tf.Alias
	if alias == "" {
		alias = tf.Name
	}
	out := make([]Column, len(cols))
	for i, c := range cols {
		out[i] = Column{Name: c, Table: alias}
	}
	if name == "json_each" || name == "json_tree" {
		// json and root hold the arguments and are hidden, as in SQLite.
		out[len(out)-1].Hidden, out[len(out)-2].Hidden = true, true
	}
	n := &TableFunc{Name: name, Args: args, Cols: out}
	return n, &scope{cols: out}, nil
}

// readsScope reports whether a table function's arguments name columns of
// sc (a lateral call).
func readsScope(b *Binder, tf *grammar.TableFunc, sc *scope) bool {
	found := false
	for _, a := range tf.Args {
		grammar.Walk(a, func(n grammar.Node) bool {
			if cr, ok := n.(*grammar.ColumnRef); ok {
				if r, _ := resolveIn(sc, cr); r != nil {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

func (b *Binder) bindLateral(j *grammar.Join, ln Node, lsc *scope, tf *grammar.TableFunc) (Node, *scope, error) {
	kind := map[grammar.JoinKind]JoinKind{grammar.JoinInner: JoinInner, grammar.JoinLeft: JoinLeft,
		grammar.JoinCross: JoinCross}
	k, ok := kind[j.Kind]
	if !ok || j.Natural || j.Using != nil {
		return nil, nil, notSupported("this join with a table-valued function")
	}
	args, err := b.bindExprs(tf.Args, lsc)
	if err != nil {
		return nil, nil, err
	}
	fn, fsc, err := b.bindTableFunc(&grammar.TableFunc{Name: tf.Name, Alias: tf.Alias})
	if err != nil {
		return nil, nil, err
	}
	f := fn.(*TableFunc)
	f.Args = args
	cols := append(append([]Column{}, lsc.cols...), fsc.cols...)
	sc := &scope{cols: cols}
	l := &Lateral{Left: ln, Func: f, Kind: k, Cols: cols}
	if j.On != nil {
		if l.On, err = b.bindExpr(j.On, sc); err != nil {
			return nil, nil, err
		}
	}
	return l, sc, nil
}
