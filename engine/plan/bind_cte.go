package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/grammar"
)

// cteDef is one visible common table expression.
type cteDef struct {
	ast *grammar.CTE
	// level is the index of the WITH clause that defined it, and with
	// that clause's CTEs, which its body sees (outer clauses too).
	level int
	with  map[string]*cteDef
	// rec is the bound recursive CTE, set once binding of its base began.
	rec *CTE
	// binding is set while rec's terms are being bound, nest then being
	// the binder's cteNest.
	binding bool
	nest    int
	// inProgress is set while a plain CTE's body is being bound.
	inProgress bool
	// recursive is set for a CTE whose body names itself (with or without
	// the RECURSIVE keyword, as SQLite).
	recursive bool
}

// cteLayer is one WITH clause's CTEs as seen from a place: hide, when
// set, is the plain CTE whose own body is being bound, which does not
// see itself (the name then resolves further out).
type cteLayer struct {
	defs map[string]*cteDef
	hide *cteDef
}

func (b *Binder) pushWith(w *grammar.With) error {
	m := map[string]*cteDef{}
	b.ctes = append(b.ctes, cteLayer{defs: m})
	for _, c := range w.CTEs {
		k := strings.ToLower(c.Name)
		if _, dup := m[k]; dup {
			return bindErr("duplicate WITH table name: %s", c.Name)
		}
		m[k] = &cteDef{ast: c, level: len(b.ctes) - 1, with: m, recursive: refersTo(c.Select, c.Name)}
	}
	return nil
}

func (b *Binder) popWith() { b.ctes = b.ctes[:len(b.ctes)-1] }

func (b *Binder) lookupCTE(name string) *cteDef {
	k := strings.ToLower(name)
	for i := len(b.ctes) - 1; i >= 0; i-- {
		if d, ok := b.ctes[i].defs[k]; ok && d != b.ctes[i].hide {
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
	// clauses of its definition visible (all of its own WITH clause, as in
	// SQLite, which reports a cycle among them).
	if def.inProgress {
		return nil, nil, bindErr("circular reference: %s", def.ast.Name)
	}
	if err := b.nestDeeper(); err != nil {
		return nil, nil, err
	}
	def.inProgress = true
	b.cteNest++
	restore := b.enterCTE(def, false)
	q, err := b.bindSelect(def.ast.Select)
	restore()
	b.cteNest--
	def.inProgress = false
	if err != nil {
		return nil, nil, err
	}
	if err := renameColumns(q, def.ast.Columns, "table "+def.ast.Name); err != nil {
		return nil, nil, err
	}
	return derived(q, alias)
}

// enterCTE makes the WITH clauses seen from def's definition the visible
// ones: those up to its own, less def itself unless self (a recursive CTE
// reads itself); the returned func restores.
func (b *Binder) enterCTE(def *cteDef, self bool) func() {
	saved := b.ctes
	visible := cteLayer{defs: def.with}
	if !self {
		visible.hide = def
	}
	b.ctes = append(append([]cteLayer{}, b.ctes[:def.level]...), visible)
	return func() { b.ctes = saved }
}

// bindRecursiveRef binds a reference to a recursive CTE: the first one
// outside it binds the CTE; one inside its recursive terms reads the
// current row. A reference reached while binding its setup is a cycle,
// one reached through another CTE its terms read a second reference.
func (b *Binder) bindRecursiveRef(def *cteDef, alias string) (Node, *scope, error) {
	current := false
	switch {
	case def.binding && def.rec == nil:
		return nil, nil, bindErr("circular reference: %s", def.ast.Name)
	case def.binding && b.cteNest != def.nest:
		return nil, nil, bindErr("multiple recursive references: %s", def.ast.Name)
	case def.binding:
		current = true
	case def.rec == nil:
		def.binding, def.nest = true, b.cteNest
		restore := b.enterCTE(def, true)
		err := b.bindRecursive(def)
		restore()
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
