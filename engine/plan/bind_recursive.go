package plan

import (
	"github.com/ladybugsql/ladybug/grammar"
)

// recShape is a recursive CTE's compound body split as SQLite splits it:
// the setup terms (a compound of their own) and the recursive terms after
// them, each of which reads the CTE once, directly in its FROM clause.
type recShape struct {
	setup    []grammar.SelectBody
	setupOps []grammar.CompoundOp // setupOps[i] joins setup[i+1] to setup[i]
	steps    []*grammar.SelectCore
	distinct bool // the last operator is UNION: every row is kept once
}

// flattenCompound lists a left-deep compound's terms and the operator
// before each (ops[i] joins terms[i+1] to the terms before it).
func flattenCompound(body grammar.SelectBody) ([]grammar.SelectBody, []grammar.CompoundOp) {
	c, ok := body.(*grammar.CompoundSelect)
	if !ok {
		return []grammar.SelectBody{body}, nil
	}
	terms, ops := flattenCompound(c.Left)
	return append(terms, c.Right), append(ops, c.Op)
}

// splitRecursive finds the recursive terms: reading from the right, every
// term joined by the same UNION or UNION ALL as the last one and naming
// the CTE in its FROM clause. The first term is always setup.
func splitRecursive(def *cteDef) (*recShape, error) {
	name := def.ast.Name
	terms, ops := flattenCompound(def.ast.Select.Body)
	sh := &recShape{}
	k := len(terms)
	if len(ops) > 0 {
		last := ops[len(ops)-1]
		if last == grammar.Union || last == grammar.UnionAll {
			for k > 1 && ops[k-2] == last {
				core, ok := terms[k-1].(*grammar.SelectCore)
				if !ok {
					break
				}
				n := directRefs(core.From, name)
				if n > 1 {
					return nil, bindErr("multiple references to recursive table: %s", name)
				}
				if n == 0 {
					break
				}
				sh.steps = append([]*grammar.SelectCore{core}, sh.steps...)
				k--
			}
			sh.distinct = last == grammar.Union
		}
	}
	sh.setup, sh.setupOps = terms[:k], ops[:max(k-1, 0)]
	for _, t := range sh.setup {
		if countRefs(t, name) > 0 || len(sh.steps) == 0 {
			return nil, bindErr("circular reference: %s", name)
		}
	}
	sel := def.ast.Select
	nested := countRefs(sel.Limit, name) + countRefs(sel.Offset, name)
	for _, o := range sel.OrderBy {
		nested += countRefs(o, name)
	}
	for _, st := range sh.steps {
		nested += countRefs(st, name) - 1
	}
	if nested > 0 {
		return nil, bindErr("multiple recursive references: %s", name)
	}
	for i := len(sh.steps) - 1; i >= 0; i-- {
		st := sh.steps[i]
		items := make([]selectItem, 0, len(st.Columns))
		for _, rc := range st.Columns {
			items = append(items, selectItem{expr: rc.Expr})
		}
		if needsAggregate(st, items, nil) {
			return nil, bindErr("recursive aggregate queries not supported")
		}
		if needsWindow(items, nil) {
			return nil, bindErr("cannot use window functions in recursive queries")
		}
	}
	return sh, nil
}

// directRefs counts the FROM items of te (through joins, not subqueries)
// that name table name.
func directRefs(te grammar.TableExpr, name string) int {
	switch t := te.(type) {
	case *grammar.TableName:
		if t.Schema == "" && eqFold(t.Name, name) {
			return 1
		}
	case *grammar.Join:
		return directRefs(t.Left, name) + directRefs(t.Right, name)
	}
	return 0
}

// countRefs counts every table reference to name inside n.
func countRefs(n grammar.Node, name string) int {
	count := 0
	if n == nil {
		return 0
	}
	grammar.Walk(n, func(n grammar.Node) bool {
		if t, ok := n.(*grammar.TableName); ok && t.Schema == "" && eqFold(t.Name, name) {
			count++
		}
		return true
	})
	return count
}

// bindRecursive binds a recursive CTE: the setup terms, then each
// recursive term, which reads the current row through a CTERef; ORDER BY
// orders the queue of rows waiting to be processed, LIMIT and OFFSET bound
// the rows the recursion outputs (see exec's recursiveOp).
func (b *Binder) bindRecursive(def *cteDef) error {
	sh, err := splitRecursive(def)
	if err != nil {
		return err
	}
	setup, bcols, err := b.bindSetup(sh)
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
	def.rec = &CTE{Name: def.ast.Name, Plan: setup, UnionAll: !sh.distinct, Cols: cols, ID: b.subID}
	op := "UNION ALL"
	if sh.distinct {
		op = "UNION"
	}
	for _, st := range sh.steps {
		step, scols, err := b.bindBody(st)
		if err != nil {
			return err
		}
		if len(scols) != len(cols) {
			return bindErr("SELECTs to the left and right of %s do not have the same number of result columns", op)
		}
		def.rec.Steps = append(def.rec.Steps, step)
	}
	sel := def.ast.Select
	if len(sel.OrderBy) > 0 {
		// ORDER BY names the setup's result columns, as a compound's does.
		ocols := make([]Column, len(bcols))
		for i, rc := range bcols {
			ocols[i] = Column{Name: rc.Name}
		}
		if def.rec.Order, err = b.outputSortKeys(sel.OrderBy, ocols); err != nil {
			return err
		}
	}
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

// bindSetup binds the setup terms as one compound (their own operators
// apply among them).
func (b *Binder) bindSetup(sh *recShape) (Node, []ResultColumn, error) {
	var body grammar.SelectBody = sh.setup[0]
	for i, op := range sh.setupOps {
		body = &grammar.CompoundSelect{Op: op, Left: body, Right: sh.setup[i+1]}
	}
	return b.bindBody(body)
}
