package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// insteadOfView returns the view tn names when it has an INSTEAD OF
// trigger for event that fires for an UPDATE of the set columns (nil for
// DELETE), else nil: a write to a view no trigger takes stays an error
// (writableTable reports it), as in SQLite.
func (b *Binder) insteadOfView(tn *grammar.TableName, event grammar.TriggerEvent, set []string) *catalog.View {
	cat, err := b.tableCat(tn)
	if err != nil {
		return nil
	}
	v := cat.View(tn.Name)
	if v == nil || !b.hasInsteadOf(v.Name, event, set) {
		return nil
	}
	return v
}

// viewTarget binds the rows of view v that a write selects: the view's
// columns, then a NULL rowid (the row layout the view's INSTEAD OF
// triggers read, see ViewTable), then the columns of from when an UPDATE
// has a FROM clause, filtered by where. The scope, for WHERE and SET
// expressions, is the view's columns and from's.
func (b *Binder) viewTarget(v *catalog.View, tn *grammar.TableName, from grammar.TableExpr, where grammar.Expr) (*catalog.Table, Node, *scope, error) {
	t, err := b.ViewTable(v)
	if err != nil {
		return nil, nil, nil, err
	}
	node, sc, err := b.bindView(v, viewAlias(v, tn))
	if err != nil {
		return nil, nil, nil, err
	}
	n := len(sc.cols)
	// The rowid slot has no name, so it resolves no column reference.
	cols := append(append([]Column{}, sc.cols...), Column{Hidden: true})
	node = &Project{Input: node, Exprs: append(identity(n), &Const{V: types.Null}), Cols: cols}
	var join *Join
	if from != nil {
		fnode, fsc, err := b.bindFrom(from)
		if err != nil {
			return nil, nil, nil, err
		}
		cols = append(cols, fsc.cols...)
		join = &Join{Kind: JoinCross, Left: node, Right: fnode, Cols: cols}
		node = join
	}
	sc = &scope{cols: cols}
	if where == nil {
		return t, node, sc, nil
	}
	if containsAggregate(where) {
		return nil, nil, nil, bindErr("misuse of aggregate function in WHERE")
	}
	pred, err := b.bindExpr(where, sc)
	if err != nil {
		return nil, nil, nil, err
	}
	if join != nil {
		join.Kind, join.On = JoinInner, pred
		splitEquiKeys(join, n+1)
		return t, node, sc, nil
	}
	return t, &Filter{Input: node, Pred: pred}, sc, nil
}

// viewAlias is the name a write's statement calls view v by.
func viewAlias(v *catalog.View, tn *grammar.TableName) string {
	if tn.Alias != "" {
		return tn.Alias
	}
	return v.Name
}

// viewReturning binds the RETURNING clause of a write to view t (from
// ViewTable): it reads the view's columns of the NEW row (OLD for a
// DELETE); a view has no rowid.
func (b *Binder) viewReturning(t *catalog.Table, alias string, rcs []*grammar.ResultColumn) ([]Expr, []ResultColumn, error) {
	cols := NewScan(t, alias).Cols[:len(t.Columns)]
	return b.bindReturning(rcs, &scope{cols: cols})
}

// bindUpdateView binds an UPDATE of a view with an INSTEAD OF UPDATE
// trigger: each selected view row fires the trigger with OLD and NEW. As
// in SQLite, with a FROM clause a view row that matches several FROM rows
// fires the trigger once per match, and RETURNING yields the NEW row of
// each firing the trigger did not RAISE(IGNORE).
func (b *Binder) bindUpdateView(s *grammar.UpdateStmt, v *catalog.View) (Statement, error) {
	t, input, sc, err := b.viewTarget(v, s.Table, s.From, s.Where)
	if err != nil {
		return nil, err
	}
	up := &Update{Table: t, Input: input, Or: conflictOf(s.Or), InsteadOf: true}
	if up.SetCols, up.SetExprs, err = b.bindSets(t, s.Set, sc); err != nil {
		return nil, err
	}
	up.Returning, up.RetCols, err = b.viewReturning(t, viewAlias(v, s.Table), s.Returning)
	return up, err
}

// bindSets binds the SET clauses of an UPDATE of t against sc.
func (b *Binder) bindSets(t *catalog.Table, sets []*grammar.SetClause, sc *scope) ([]int, []Expr, error) {
	var cols []int
	var exprs []Expr
	for _, set := range sets {
		c, x, err := b.bindSet(t, set, sc)
		if err != nil {
			return nil, nil, err
		}
		cols, exprs = append(cols, c...), append(exprs, x...)
	}
	return cols, exprs, nil
}

// bindDeleteView binds a DELETE from a view with an INSTEAD OF DELETE
// trigger: each selected view row fires the trigger with OLD.
func (b *Binder) bindDeleteView(s *grammar.DeleteStmt, v *catalog.View) (Statement, error) {
	t, input, _, err := b.viewTarget(v, s.Table, nil, s.Where)
	if err != nil {
		return nil, err
	}
	d := &Delete{Table: t, Input: input, InsteadOf: true}
	d.Returning, d.RetCols, err = b.viewReturning(t, viewAlias(v, s.Table), s.Returning)
	return d, err
}

// setNames lists the columns an UPDATE's SET clauses name.
func setNames(sets []*grammar.SetClause) []string {
	out := []string{}
	for _, set := range sets {
		out = append(out, set.Columns...)
	}
	return out
}
