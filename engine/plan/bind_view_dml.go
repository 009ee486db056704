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
	if tn.Schema != "" && !eqFold(tn.Schema, "main") {
		return nil
	}
	v := b.cat.View(tn.Name)
	if v == nil || !b.hasInsteadOf(v.Name, event, set) {
		return nil
	}
	return v
}

// viewTarget binds the rows of view v that a write selects: the view's
// columns filtered by where, then a NULL rowid, the row layout the view's
// INSTEAD OF triggers read (see ViewTable). The scope is the view's
// columns, for WHERE and SET expressions.
func (b *Binder) viewTarget(v *catalog.View, tn *grammar.TableName, where grammar.Expr) (*catalog.Table, Node, *scope, error) {
	t, err := b.ViewTable(v)
	if err != nil {
		return nil, nil, nil, err
	}
	alias := v.Name
	if tn.Alias != "" {
		alias = tn.Alias
	}
	node, sc, err := b.bindView(v, alias)
	if err != nil {
		return nil, nil, nil, err
	}
	if where != nil {
		if containsAggregate(where) {
			return nil, nil, nil, bindErr("misuse of aggregate function in WHERE")
		}
		pred, err := b.bindExpr(where, sc)
		if err != nil {
			return nil, nil, nil, err
		}
		node = &Filter{Input: node, Pred: pred}
	}
	n := len(sc.cols)
	exprs := append(identity(n), &Const{V: types.Null})
	cols := append(append([]Column{}, sc.cols...), Column{Name: "rowid", Hidden: true})
	return t, &Project{Input: node, Exprs: exprs, Cols: cols}, sc, nil
}

// bindUpdateView binds an UPDATE of a view with an INSTEAD OF UPDATE
// trigger: each selected view row fires the trigger with OLD and NEW.
func (b *Binder) bindUpdateView(s *grammar.UpdateStmt, v *catalog.View) (Statement, error) {
	if s.From != nil || len(s.Returning) > 0 {
		return nil, notSupported("UPDATE FROM or RETURNING on a view")
	}
	t, input, sc, err := b.viewTarget(v, s.Table, s.Where)
	if err != nil {
		return nil, err
	}
	up := &Update{Table: t, Input: input, Or: s.Or, InsteadOf: true}
	up.SetCols, up.SetExprs, err = b.bindSets(t, s.Set, sc)
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
	if len(s.Returning) > 0 {
		return nil, notSupported("RETURNING on a view")
	}
	t, input, _, err := b.viewTarget(v, s.Table, s.Where)
	if err != nil {
		return nil, err
	}
	return &Delete{Table: t, Input: input, InsteadOf: true}, nil
}

// setNames lists the columns an UPDATE's SET clauses name.
func setNames(sets []*grammar.SetClause) []string {
	out := []string{}
	for _, set := range sets {
		out = append(out, set.Columns...)
	}
	return out
}
