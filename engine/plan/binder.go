package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
)

// Binder binds the statements of one script against one catalog snapshot.
// It is not safe for concurrent use; make one per Prepare.
type Binder struct {
	cat *catalog.Catalog
	// eval folds constants when a query or write is optimized; a binder
	// made without one binds only what needs no optimizing (schema
	// objects, index keys, DEFAULT and view columns) and refuses the rest
	// (errNoEvaluator), so folding never silently turns off.
	eval Evaluator
	// scopes is the stack of enclosing query scopes, innermost last, for
	// correlated references.
	scopes []*scope
	// ctes is the stack of visible WITH clauses, innermost last.
	ctes []cteLayer
	// cteNest counts the plain CTE bodies being bound.
	cteNest int
	subID   int
	// views are the views being bound, innermost last: one met again
	// is circularly defined.
	views []*catalog.View
	// touched is set once any table, view or table function is bound.
	touched bool
	// inTrigger is set while binding a trigger's WHEN and body.
	inTrigger bool
	// fixedMain is set while binding the body of a view or trigger of
	// main, whose names resolve in main only (see withMain).
	fixedMain bool
	// opensTemp is set when the statement reads the temp schema itself
	// (sqlite_temp_master, PRAGMA temp.x), which SQLite opens then.
	opensTemp bool
	// graphSegs holds the quantified graph pattern parts of the GRAPH_TABLEs
	// bound so far, by the FROM item name their lowering reads them under.
	graphSegs *gShared
	// sizer sizes the tables ANALYZE has not measured, sizes records the
	// classes it gave (see SizeTables).
	sizer TableSizer
	sizes []TableSize
	// sizedScans counts the scans stamped with a size class, and joins is
	// set once a FROM clause joins two items (see Sizes).
	sizedScans int
	joins      bool
}

// NewBinder returns a binder over cat that optimizes the queries and
// writes it binds, folding constants with eval (nil: it binds no query or
// write; see Binder.eval).
func NewBinder(cat *catalog.Catalog, eval Evaluator) *Binder {
	return &Binder{cat: cat, eval: eval}
}

// Catalog returns the snapshot the binder resolves names in.
func (b *Binder) Catalog() *catalog.Catalog { return b.cat }

// scope is the set of columns an expression can reference: the output of
// the FROM clause (or of an aggregate) being bound.
type scope struct {
	cols []Column
	// agg, when set, rewrites references for expressions above an
	// aggregation.
	agg *aggState
	// win, when set, collects window functions.
	win *winState
	// correlated is set when a nested query referenced this scope.
	correlated bool
}

// notSupported is the error of a feature the engine cannot run yet.
func notSupported(feature string, args ...any) error {
	return errs.New(errs.CodeNotSupported, "not supported: "+feature, args...)
}

func bindErr(format string, args ...any) error {
	return errs.New(errs.CodeGeneric, format, args...)
}

// resolve finds column (table, name) in sc; it returns -1 when absent and
// an error when ambiguous.
func (sc *scope) resolve(table, name string) (int, error) {
	found := -1
	for i, c := range sc.cols {
		if !eqFold(c.Name, name) {
			continue
		}
		if table != "" && !eqFold(c.Table, table) {
			continue
		}
		if table == "" && c.Hidden {
			continue
		}
		if found >= 0 {
			return -1, bindErr("ambiguous column name: %s", qualified(table, name))
		}
		found = i
	}
	if found < 0 && table == "" {
		// A hidden column (a USING duplicate, a rowid) is still reachable.
		for i, c := range sc.cols {
			if c.Hidden && eqFold(c.Name, name) {
				return i, nil
			}
		}
	}
	return found, nil
}

// resolveRowid finds the rowid column (RowidKey) of table in sc, or of
// the first table that has one when table is "", as resolve finds a
// hidden column.
func (sc *scope) resolveRowid(table string) (int, error) {
	found := -1
	for i, c := range sc.cols {
		if c.RowKey != RowidKey {
			continue
		}
		if table == "" {
			return i, nil
		}
		if !eqFold(c.Table, table) {
			continue
		}
		if found >= 0 {
			return -1, bindErr("ambiguous column name: %s", qualified(table, rowidColName))
		}
		found = i
	}
	return found, nil
}

// hasTable reports whether any column of sc has qualifier table.
func (sc *scope) hasTable(table string) bool {
	for _, c := range sc.cols {
		if eqFold(c.Table, table) {
			return true
		}
	}
	return false
}

func qualified(table, name string) string {
	if table == "" {
		return name
	}
	return table + "." + name
}

func eqFold(a, b string) bool { return catalog.Lower(a) == catalog.Lower(b) }
