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
	// binding is set while rec's terms are being bound.
	binding bool
	// recursive is set for a CTE whose body names itself (with or without
	// the RECURSIVE keyword, as SQLite).
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
		m[k] = &cteDef{ast: c, level: len(b.ctes) - 1, recursive: refersTo(c.Select, c.Name)}
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
	current := def.rec != nil && def.binding
	if def.rec == nil {
		def.binding = true
		err := b.bindRecursive(def)
		def.binding = false
		if err != nil {
			return nil, nil, err
		}
	}
	cols := make([]Column, len(def.rec.Cols))
	for i, c := range def.rec.Cols {
		c.Table = alias
		cols[i] = c
	}
	return &CTERef{CTE: def.rec, Cols: cols, Current: current}, &scope{cols: cols}, nil
}
