package plan

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// bindSelect binds a full query: WITH, body, ORDER BY, LIMIT.
func (b *Binder) bindSelect(s *grammar.SelectStmt) (*Query, error) {
	if s.With != nil {
		if err := b.pushWith(s.With); err != nil {
			return nil, err
		}
		defer b.popWith()
	}
	if core, ok := s.Body.(*grammar.SelectCore); ok {
		node, cols, err := b.bindCore(core, s.OrderBy, s.Limit, s.Offset)
		if err != nil {
			return nil, err
		}
		return &Query{Root: node, Cols: cols}, nil
	}
	node, cols, err := b.bindBody(s.Body)
	if err != nil {
		return nil, err
	}
	if len(s.OrderBy) > 0 {
		keys, err := b.outputSortKeys(s.OrderBy, node.Columns())
		if err != nil {
			return nil, err
		}
		node = &Sort{Input: node, Keys: keys}
	}
	node, err = b.applyLimit(node, s.Limit, s.Offset)
	if err != nil {
		return nil, err
	}
	return &Query{Root: node, Cols: cols}, nil
}

// bindBody binds a compound operand (no ORDER BY of its own).
func (b *Binder) bindBody(body grammar.SelectBody) (Node, []ResultColumn, error) {
	switch body := body.(type) {
	case *grammar.SelectCore:
		return b.bindCore(body, nil, nil, nil)
	case *grammar.ParenSelect:
		q, err := b.bindSelect(body.Select)
		if err != nil {
			return nil, nil, err
		}
		return q.Root, q.Cols, nil
	case *grammar.ValuesClause:
		return b.bindValues(body)
	case *grammar.CompoundSelect:
		return b.bindCompound(body)
	}
	return nil, nil, notSupported("query body %T", body)
}

func (b *Binder) bindValues(v *grammar.ValuesClause) (Node, []ResultColumn, error) {
	n := &Values{}
	if err := checkColumns(len(v.Rows[0]), "in result set"); err != nil {
		return nil, nil, err
	}
	for _, row := range v.Rows {
		if len(n.Rows) > 0 && len(row) != len(n.Rows[0]) {
			return nil, nil, bindErr("all VALUES must have the same number of terms")
		}
		exprs, err := b.bindExprs(row, nil)
		if err != nil {
			return nil, nil, err
		}
		n.Rows = append(n.Rows, exprs)
	}
	var rc []ResultColumn
	for i := range n.Rows[0] {
		name := "column" + strconv.Itoa(i+1)
		n.Cols = append(n.Cols, Column{Name: name})
		rc = append(rc, ResultColumn{Name: name})
	}
	return n, rc, nil
}

// setOpKinds maps the grammar's compound operators to the plan's.
var setOpKinds = map[grammar.CompoundOp]SetOpKind{grammar.Union: Union, grammar.UnionAll: Union,
	grammar.Intersect: Intersect, grammar.Except: Except}

func (b *Binder) bindCompound(c *grammar.CompoundSelect) (Node, []ResultColumn, error) {
	l, lc, err := b.bindBody(c.Left)
	if err != nil {
		return nil, nil, err
	}
	r, rc, err := b.bindBody(c.Right)
	if err != nil {
		return nil, nil, err
	}
	op := [...]string{"UNION", "UNION ALL", "INTERSECT", "EXCEPT"}[c.Op]
	if len(lc) != len(rc) {
		return nil, nil, bindErr("SELECTs to the left and right of %s do not have the same number of result columns", op)
	}
	kind := setOpKinds[c.Op]
	s := &SetOp{Op: kind, All: c.Op == grammar.UnionAll, Left: l, Right: r}
	s.Cols = compoundColumns(s)
	return s, lc, nil
}

// outputSortKeys binds ORDER BY of a compound or VALUES query: terms must
// name an output column (by alias or ordinal) or match one.
func (b *Binder) outputSortKeys(terms []*grammar.OrderingTerm, cols []Column) ([]SortKey, error) {
	if err := checkTerms(len(terms), "ORDER"); err != nil {
		return nil, err
	}
	sc := &scope{cols: cols}
	var keys []SortKey
	for i, o := range terms {
		x, coll := o.Expr, ""
		if ce, ok := x.(*grammar.CollateExpr); ok {
			x, coll = ce.X, strings.ToUpper(ce.Collation)
		}
		idx := -1
		if k, ok := ordinalOf(x); ok {
			if k < 1 || k > int64(len(cols)) {
				return nil, bindErr("%s ORDER BY term out of range - should be between 1 and %d", ordinal(i+1), len(cols))
			}
			idx = int(k - 1)
		} else if cr, ok := x.(*grammar.ColumnRef); ok {
			j, err := sc.resolve("", cr.Column)
			if err != nil {
				return nil, err
			}
			idx = j
		}
		if idx < 0 {
			return nil, bindErr("%s ORDER BY term does not match any column in the result set", ordinal(i+1))
		}
		k := makeSortKey(&ColRef{Idx: idx}, o)
		if coll != "" {
			k.Collate = coll
		}
		keys = append(keys, k)
	}
	return keys, nil
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

func (b *Binder) applyLimit(node Node, limit, offset grammar.Expr) (Node, error) {
	if limit == nil && offset == nil {
		return node, nil
	}
	l := &Limit{Input: node}
	var err error
	if limit != nil {
		if l.Limit, err = b.bindExpr(limit, nil); err != nil {
			return nil, err
		}
	}
	if offset != nil {
		if l.Offset, err = b.bindExpr(offset, nil); err != nil {
			return nil, err
		}
	}
	if s, ok := node.(*Sort); ok {
		s.Limit, s.Offset = l.Limit, l.Offset
	}
	return l, nil
}

// selectItem is one expanded result column before binding.
type selectItem struct {
	expr  grammar.Expr
	bound Expr // set for * expansions
	name  string
	col   *Column
}

// bindCore binds one SELECT core with the statement's ORDER BY and LIMIT.
func (b *Binder) bindCore(core *grammar.SelectCore, orderBy []*grammar.OrderingTerm, limit, offset grammar.Expr) (Node, []ResultColumn, error) {
	if fromItems(core.From) > MaxJoinTables {
		return nil, nil, bindErr("at most %d tables in a join", MaxJoinTables)
	}
	node, fsc, err := b.bindFrom(core.From)
	if err != nil {
		return nil, nil, err
	}
	if core.Where != nil {
		if containsAggregate(core.Where) {
			return nil, nil, bindErr("misuse of aggregate function in WHERE")
		}
		pred, err := b.bindExpr(core.Where, fsc)
		if err != nil {
			return nil, nil, err
		}
		node = &Filter{Input: node, Pred: pred}
	}
	items, err := expandColumns(core.Columns, fsc)
	if err != nil {
		return nil, nil, err
	}
	if err := checkColumns(len(items), "in result set"); err != nil {
		return nil, nil, err
	}
	if err := checkTerms(len(orderBy), "ORDER"); err != nil {
		return nil, nil, err
	}
	if err := checkTerms(len(core.GroupBy), "GROUP"); err != nil {
		return nil, nil, err
	}
	psc := fsc
	var agg *aggState
	if needsAggregate(core, items, orderBy) {
		if agg, psc, err = b.setupAggregate(core, items, fsc); err != nil {
			return nil, nil, err
		}
	}
	var win *winState
	if needsWindow(items, orderBy) {
		// Window results are referenced from winBase up; they are renumbered
		// once the window's input width (groups plus aggregates) is known.
		win = &winState{base: winBase, named: map[string]*grammar.WindowSpec{}}
		for _, nw := range core.Windows {
			win.named[strings.ToLower(nw.Name)] = nw.Spec
		}
		psc = &scope{cols: psc.cols, agg: psc.agg, win: win}
	}
	exprs := make([]Expr, len(items))
	rcols := make([]ResultColumn, len(items))
	pcols := make([]Column, len(items))
	for i, it := range items {
		x := it.bound
		if x == nil || agg != nil {
			e := it.expr
			if e == nil {
				e = &grammar.ColumnRef{Table: it.col.Table, Column: it.col.Name}
			}
			if x, err = b.bindExpr(e, psc); err != nil {
				return nil, nil, err
			}
		}
		exprs[i] = x
		rcols[i] = ResultColumn{Name: it.name}
		pcols[i] = Column{Name: it.name, Affinity: ExprAffinity(x), Collate: columnCollation(x)}
		if it.col != nil {
			rcols[i].DeclType, rcols[i].NotNull = it.col.DeclType, it.col.NotNull
			pcols[i].DeclType = it.col.DeclType
		}
	}
	var having Expr
	if core.Having != nil {
		if agg == nil {
			return nil, nil, bindErr("a GROUP BY clause is required before HAVING")
		}
		if having, err = b.bindExpr(core.Having, psc); err != nil {
			return nil, nil, err
		}
	}
	keys, extra, err := b.coreSortKeys(orderBy, items, exprs, psc)
	if err != nil {
		return nil, nil, err
	}
	if agg != nil {
		node = makeAggregate(node, agg)
		if having != nil {
			node = &Filter{Input: node, Pred: having}
		}
	}
	if win != nil {
		nin := len(node.Columns())
		renumberWindowRefs(nin, exprs)
		renumberWindowRefs(nin, extra)
		for i := range win.funcs {
			f := &win.funcs[i]
			renumberWindowRefs(nin, f.Args)
			renumberWindowRefs(nin, f.Partition)
		}
		node = makeWindow(node, win)
	}
	// Without extra sort columns the projection owns exprs and pcols;
	// with them it gets copies, as the trimming projection above reads
	// pcols.
	all, allCols := exprs, pcols
	if len(extra) > 0 {
		all = append(append(make([]Expr, 0, len(exprs)+len(extra)), exprs...), extra...)
		allCols = append(make([]Column, 0, len(pcols)+len(extra)), pcols...)
		for range extra {
			allCols = append(allCols, Column{Name: "", Hidden: true})
		}
	}
	node = &Project{Input: node, Exprs: all, Cols: allCols}
	if core.Distinct {
		node = &Distinct{Input: node}
	}
	if len(keys) > 0 {
		node = &Sort{Input: node, Keys: keys}
	}
	if node, err = b.applyLimit(node, limit, offset); err != nil {
		return nil, nil, err
	}
	if len(extra) > 0 {
		node = &Project{Input: node, Exprs: identity(len(exprs)), Cols: pcols}
	}
	return node, rcols, nil
}

func needsAggregate(core *grammar.SelectCore, items []selectItem, orderBy []*grammar.OrderingTerm) bool {
	if len(core.GroupBy) > 0 || containsAggregate(core.Having) {
		return true
	}
	for _, it := range items {
		if it.expr != nil && containsAggregate(it.expr) {
			return true
		}
	}
	for _, o := range orderBy {
		if containsAggregate(o.Expr) {
			return true
		}
	}
	return false
}

func needsWindow(items []selectItem, orderBy []*grammar.OrderingTerm) bool {
	for _, it := range items {
		if it.expr != nil && containsWindow(it.expr) {
			return true
		}
	}
	for _, o := range orderBy {
		if containsWindow(o.Expr) {
			return true
		}
	}
	return false
}

// setupAggregate binds GROUP BY and returns the aggregate state and the
// scope expressions above the aggregation are bound in.
func (b *Binder) setupAggregate(core *grammar.SelectCore, items []selectItem, fsc *scope) (*aggState, *scope, error) {
	st := &aggState{input: fsc}
	var cols []Column
	if n := len(core.GroupBy); n > 0 {
		st.groups, cols = make([]Expr, 0, n), make([]Column, 0, n)
	}
	for i, g := range core.GroupBy {
		if k, ok := ordinalOf(g); ok && (k < 1 || k > int64(len(items))) {
			return nil, nil, bindErr("%s GROUP BY term out of range - should be between 1 and %d", ordinal(i+1), len(items))
		}
		g = groupByAlias(g, items, fsc)
		if containsAggregate(g) {
			return nil, nil, bindErr("aggregate functions are not allowed in the GROUP BY clause")
		}
		x, err := b.bindExpr(g, fsc)
		if err != nil {
			return nil, nil, err
		}
		st.groups = append(st.groups, x)
		col := Column{Affinity: ExprAffinity(x), Collate: columnCollation(x)}
		if cr, ok := x.(*ColRef); ok {
			src := fsc.cols[cr.Idx]
			col.Name, col.Table, col.DeclType = src.Name, src.Table, src.DeclType
		}
		cols = append(cols, col)
	}
	return st, &scope{cols: cols, agg: st}, nil
}

// groupByAlias resolves "GROUP BY alias" and "GROUP BY 2" to the result
// column's expression, as SQLite does when no input column has the name.
func groupByAlias(g grammar.Expr, items []selectItem, fsc *scope) grammar.Expr {
	if k, ok := ordinalOf(g); ok {
		if k >= 1 && k <= int64(len(items)) && items[k-1].expr != nil {
			return items[k-1].expr
		}
		return g
	}
	switch x := g.(type) {
	case *grammar.ColumnRef:
		if x.Table != "" {
			return g
		}
		if i, _ := fsc.resolve("", x.Column); i >= 0 {
			return g
		}
		for _, it := range items {
			if it.expr != nil && eqFold(it.name, x.Column) {
				return it.expr
			}
		}
	}
	return g
}

func makeAggregate(input Node, st *aggState) Node {
	cols := make([]Column, 0, len(st.groups)+len(st.aggs))
	for _, g := range st.groups {
		cols = append(cols, Column{Affinity: ExprAffinity(g)})
	}
	for range st.aggs {
		cols = append(cols, Column{})
	}
	return &Aggregate{Input: input, Group: st.groups, Aggs: st.aggs, Cols: cols}
}

func makeWindow(input Node, st *winState) Node {
	cols := append([]Column{}, input.Columns()...)
	for range st.funcs {
		cols = append(cols, Column{})
	}
	return &Window{Input: input, Funcs: st.funcs, Cols: cols}
}

// coreSortKeys binds ORDER BY of a SELECT core: an ordinal or a result
// alias names an output column; any other term is bound like a result
// expression and, unless it equals one, projected as a hidden extra column.
func (b *Binder) coreSortKeys(terms []*grammar.OrderingTerm, items []selectItem, exprs []Expr, psc *scope) ([]SortKey, []Expr, error) {
	var keys []SortKey
	var extra []Expr
	for i, o := range terms {
		x, coll := o.Expr, ""
		if ce, ok := x.(*grammar.CollateExpr); ok {
			x, coll = ce.X, strings.ToUpper(ce.Collation)
		}
		idx := outputIndex(x, items, psc)
		if idx == -2 {
			return nil, nil, bindErr("%s ORDER BY term out of range - should be between 1 and %d", ordinal(i+1), len(items))
		}
		if idx < 0 {
			bound, err := b.bindExpr(x, psc)
			if err != nil {
				return nil, nil, err
			}
			for j, e := range exprs {
				if reflect.DeepEqual(e, bound) {
					idx = j
					break
				}
			}
			if idx < 0 {
				extra = append(extra, bound)
				idx = len(exprs) + len(extra) - 1
			}
			if coll == "" {
				coll = columnCollation(bound)
			}
		} else if coll == "" && idx < len(exprs) {
			coll = columnCollation(exprs[idx])
		}
		k := makeSortKey(&ColRef{Idx: idx}, o)
		k.Collate = coll
		keys = append(keys, k)
	}
	return keys, extra, nil
}

// outputIndex returns the result column an ORDER BY term names: by
// ordinal, or by alias when no input column has that name; -1 when the
// term is an expression, -2 for an ordinal out of range.
func outputIndex(x grammar.Expr, items []selectItem, psc *scope) int {
	if k, ok := ordinalOf(x); ok {
		if k < 1 || k > int64(len(items)) {
			return -2
		}
		return int(k - 1)
	}
	switch t := x.(type) {
	case *grammar.ColumnRef:
		if t.Table != "" {
			return -1
		}
		for j, it := range items {
			if it.expr != nil && it.name != "" && eqFold(it.name, t.Column) {
				if _, isCol := it.expr.(*grammar.ColumnRef); !isCol || eqFold(it.name, t.Column) {
					return j
				}
			}
		}
	}
	return -1
}

// expandColumns expands * and t.* and names every result column.
func expandColumns(rcs []*grammar.ResultColumn, sc *scope) ([]selectItem, error) {
	items := make([]selectItem, 0, len(rcs))
	for _, rc := range rcs {
		switch {
		case rc.Star:
			n := 0
			for i, c := range sc.cols {
				if !c.Hidden {
					items = append(items, starItem(sc, i))
					n++
				}
			}
			if n == 0 {
				return nil, bindErr("no tables specified")
			}
		case rc.TableStar != "":
			if !sc.hasTable(rc.TableStar) {
				return nil, bindErr("no such table: %s", rc.TableStar)
			}
			for i, c := range sc.cols {
				if eqFold(c.Table, rc.TableStar) && c.RowKey != RowidKey && (!c.Hidden || c.Nested) {
					items = append(items, starItem(sc, i))
				}
			}
		default:
			items = append(items, exprItem(rc, sc))
		}
	}
	return items, nil
}

func starItem(sc *scope, i int) selectItem {
	c := sc.cols[i]
	return selectItem{bound: &ColRef{Idx: i, Affinity: c.Affinity, Collate: c.Collate}, name: c.Name, col: &sc.cols[i]}
}

func exprItem(rc *grammar.ResultColumn, sc *scope) selectItem {
	it := selectItem{expr: rc.Expr, name: rc.Alias}
	if cr, ok := rc.Expr.(*grammar.ColumnRef); ok {
		if i, err := sc.resolve(cr.Table, cr.Column); err == nil && i >= 0 {
			it.col = &sc.cols[i]
		}
		if it.name == "" {
			it.name = cr.Column
		}
	}
	if it.name == "" {
		it.name = rc.Text
		if it.name == "" {
			it.name = rc.Expr.String()
		}
	}
	return it
}

// constInt returns the integer value of a constant expression, for LIMIT.
func constInt(e Expr) (int64, bool) {
	c, ok := e.(*Const)
	if !ok || c.V.Kind() != types.KindInt {
		return 0, false
	}
	return c.V.Int(), true
}

// winBase is the provisional index of the first window function result.
const winBase = 1 << 24

// renumberWindowRefs moves provisional window references to the window
// node's real output positions, after its nin input columns.
func renumberWindowRefs(nin int, exprs []Expr) {
	for _, e := range exprs {
		WalkExpr(e, func(x Expr) {
			if c, ok := x.(*ColRef); ok && c.Idx >= winBase {
				c.Idx = c.Idx - winBase + nin
			}
		})
	}
}
