package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/grammar"
)

// cteDef is one visible common table expression.
type cteDef struct {
	ast *grammar.CTE
	// level is the index of the WITH clause that defined it, so its body
	// sees only the CTEs before it.
	level int
	// rec is the bound recursive CTE, set once binding of its base began.
	rec *CTE
	// recursive is set for a CTE of WITH RECURSIVE whose body names itself.
	recursive bool
}

func (b *Binder) pushWith(w *grammar.With) error {
	m := map[string]*cteDef{}
	b.ctes = append(b.ctes, m)
	for _, c := range w.CTEs {
		k := strings.ToLower(c.Name)
		if _, dup := m[k]; dup {
			return bindErr("duplicate WITH table name: %s", c.Name)
		}
		m[k] = &cteDef{ast: c, level: len(b.ctes) - 1, recursive: w.Recursive && refersTo(c.Select, c.Name)}
	}
	return nil
}

func (b *Binder) popWith() { b.ctes = b.ctes[:len(b.ctes)-1] }

func (b *Binder) lookupCTE(name string) *cteDef {
	k := strings.ToLower(name)
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if d, ok := b.ctes[i][k]; ok {
			return d
		}
	}
	return nil
}

// refersTo reports whether sel names table name anywhere.
func refersTo(sel *grammar.SelectStmt, name string) bool {
	found := false
	grammar.Walk(sel, func(n grammar.Node) bool {
		if t, ok := n.(*grammar.TableName); ok && t.Schema == "" && eqFold(t.Name, name) {
			found = true
		}
		return !found
	})
	return found
}

func (b *Binder) bindCTERef(def *cteDef, alias string) (Node, *scope, error) {
	if def.recursive {
		return b.bindRecursiveRef(def, alias)
	}
	// A plain CTE is bound where it is used, like a view, with the WITH
	// clauses visible at its definition.
	saved := b.ctes
	b.ctes = b.ctes[:def.level+1]
	// Hide the CTE itself and those after it at its own level.
	visible := map[string]*cteDef{}
	for k, d := range b.ctes[def.level] {
		if d != def && d.ast.Pos().Offset < def.ast.Pos().Offset {
			visible[k] = d
		}
	}
	b.ctes = append(append([]map[string]*cteDef{}, b.ctes[:def.level]...), visible)
	q, err := b.bindSelect(def.ast.Select)
	b.ctes = saved
	if err != nil {
		return nil, nil, err
	}
	if err := renameColumns(q, def.ast.Columns, "table "+def.ast.Name); err != nil {
		return nil, nil, err
	}
	return derived(q, alias)
}

func (b *Binder) bindRecursiveRef(def *cteDef, alias string) (Node, *scope, error) {
	if def.rec == nil {
		if err := b.bindRecursive(def); err != nil {
			return nil, nil, err
		}
	}
	cols := make([]Column, len(def.rec.Cols))
	for i, c := range def.rec.Cols {
		c.Table = alias
		cols[i] = c
	}
	return &CTERef{CTE: def.rec, Cols: cols}, &scope{cols: cols}, nil
}

// bindRecursive binds base UNION [ALL] step, where step reads the working
// table through CTERef nodes.
func (b *Binder) bindRecursive(def *cteDef) error {
	sel := def.ast.Select
	comp, ok := sel.Body.(*grammar.CompoundSelect)
	if !ok || (comp.Op != grammar.Union && comp.Op != grammar.UnionAll) || len(sel.OrderBy) > 0 {
		return notSupported("recursive CTE %s that is not base UNION [ALL] step", def.ast.Name)
	}
	base, bcols, err := b.bindBody(comp.Left)
	if err != nil {
		return err
	}
	names := def.ast.Columns
	if len(names) > 0 && len(names) != len(bcols) {
		return bindErr("table %s has %d values for %d columns", def.ast.Name, len(bcols), len(names))
	}
	cols := make([]Column, len(bcols))
	for i, rc := range bcols {
		cols[i] = Column{Name: rc.Name}
		if len(names) > 0 {
			cols[i].Name = names[i]
		}
	}
	b.subID++
	def.rec = &CTE{Name: def.ast.Name, Plan: base, UnionAll: comp.Op == grammar.UnionAll, Cols: cols, ID: b.subID}
	step, scols, err := b.bindBody(comp.Right)
	if err != nil {
		return err
	}
	if len(scols) != len(cols) {
		return bindErr("SELECTs to the left and right of UNION do not have the same number of result columns")
	}
	def.rec.Step = step
	// LIMIT and OFFSET bound the rows the recursion produces.
	if sel.Limit != nil {
		if def.rec.Limit, err = b.bindExpr(sel.Limit, nil); err != nil {
			return err
		}
	}
	if sel.Offset != nil {
		if def.rec.Offset, err = b.bindExpr(sel.Offset, nil); err != nil {
			return err
		}
	}
	return nil
}
