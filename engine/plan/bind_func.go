package plan

import (
	"reflect"
	"strings"

	"github.com/ladybugsql/ladybug/grammar"
)

// aggregateNames are the functions that aggregate when called without
// OVER. min and max aggregate only with one argument.
var aggregateNames = map[string]bool{
	"count": true, "sum": true, "total": true, "avg": true, "min": true, "max": true,
	"group_concat": true, "string_agg": true, "json_group_array": true,
	"json_group_object": true, "bool_and": true, "bool_or": true, "every": true,
}

// windowOnlyNames are the functions that exist only as window functions.
var windowOnlyNames = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true,
	"cume_dist": true, "ntile": true, "lag": true, "lead": true,
	"first_value": true, "last_value": true, "nth_value": true,
}

// IsAggregateCall reports whether f is an aggregate call (not a window).
func IsAggregateCall(f *grammar.FuncCall) bool {
	if f.Over != nil || f.OverName != "" {
		return false
	}
	n := strings.ToLower(f.Name)
	if n == "min" || n == "max" {
		return len(f.Args) == 1
	}
	return aggregateNames[n]
}

// containsAggregate reports whether e holds an aggregate call outside any
// nested query.
func containsAggregate(e grammar.Node) bool {
	found := false
	if e == nil {
		return false
	}
	grammar.Walk(e, func(n grammar.Node) bool {
		switch n := n.(type) {
		case *grammar.SelectStmt:
			return false
		case *grammar.FuncCall:
			if IsAggregateCall(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// containsWindow reports whether e holds a window function call outside
// any nested query.
func containsWindow(e grammar.Node) bool {
	found := false
	if e == nil {
		return false
	}
	grammar.Walk(e, func(n grammar.Node) bool {
		switch n := n.(type) {
		case *grammar.SelectStmt:
			return false
		case *grammar.FuncCall:
			if n.Over != nil || n.OverName != "" {
				found = true
			}
		}
		return !found
	})
	return found
}

// aggState is the binding state of a query with aggregation: expressions
// above the aggregate see group keys and aggregate results only.
type aggState struct {
	input  *scope
	groups []Expr
	aggs   []AggCall
	// inArgs is set while binding against the input (aggregate arguments,
	// group-key matching).
	inArgs bool
}

// bindAggregated rewrites e for the output of an aggregation; ok=false
// means "bind e's node normally, its children will be rewritten".
func (b *Binder) bindAggregated(e grammar.Expr, sc *scope) (Expr, bool, error) {
	st := sc.agg
	if f, isF := e.(*grammar.FuncCall); isF && IsAggregateCall(f) {
		r, err := b.bindAggCall(f, st)
		return r, true, err
	}
	if containsAggregate(e) {
		return nil, false, nil
	}
	if _, isSub := e.(*grammar.SubqueryExpr); isSub {
		return nil, false, nil
	}
	st.inArgs = true
	bound, err := b.bindExpr(e, st.input)
	st.inArgs = false
	if err != nil {
		return nil, true, err
	}
	for k, g := range st.groups {
		if reflect.DeepEqual(bound, g) {
			return &ColRef{Idx: k, Affinity: ExprAffinity(g), Collate: columnCollation(g)}, true, nil
		}
	}
	if _, isCol := e.(*grammar.ColumnRef); isCol {
		if _, outer := bound.(*OuterRef); outer {
			return bound, true, nil
		}
		// A bare column: SQLite takes it from an arbitrary row of the group
		// (the last one, or the one a lone min/max picked).
		st.aggs = append(st.aggs, AggCall{Kind: AggBare, Args: []Expr{bound}})
		c := bound.(*ColRef)
		return &ColRef{Idx: len(st.groups) + len(st.aggs) - 1, Affinity: c.Affinity, Collate: c.Collate}, true, nil
	}
	if !refsInput(bound) {
		return bound, true, nil
	}
	return nil, false, nil
}

// sameAggShape compares the fields of two aggregate calls that are cheap
// to compare, before reflect.DeepEqual compares the whole calls: most
// calls of a query differ in name or argument count.
func sameAggShape(a, b *AggCall) bool {
	return a.Kind == b.Kind && a.Name == b.Name && a.Star == b.Star && a.Distinct == b.Distinct &&
		len(a.Args) == len(b.Args) && len(a.OrderBy) == len(b.OrderBy) && (a.Filter == nil) == (b.Filter == nil) && a.Twin == b.Twin
}

// refsInput reports whether a bound expression reads the current row.
func refsInput(e Expr) bool {
	found := false
	WalkExpr(e, func(x Expr) {
		switch x.(type) {
		case *ColRef, *ScalarSub, *Exists, *InSub:
			found = true
		}
	})
	return found
}

func (b *Binder) bindAggCall(f *grammar.FuncCall, st *aggState) (Expr, error) {
	st.inArgs = true
	defer func() { st.inArgs = false }()
	for _, a := range f.Args {
		if containsAggregate(a) {
			return nil, bindErr("misuse of aggregate function %s()", f.Name)
		}
	}
	call := AggCall{Name: strings.ToLower(f.Name), Star: f.Star, Distinct: f.Distinct}
	var err error
	if call.Args, err = b.bindExprs(f.Args, st.input); err != nil {
		return nil, err
	}
	if call.Name == "count" && len(call.Args) == 0 {
		call.Star = true
	}
	if f.Filter != nil {
		if call.Filter, err = b.bindExpr(f.Filter, st.input); err != nil {
			return nil, err
		}
	}
	for _, o := range f.OrderBy {
		k, err := b.bindSortKey(o, st.input)
		if err != nil {
			return nil, err
		}
		call.OrderBy = append(call.OrderBy, k)
	}
	if err := checkAggArgs(call, f.Name); err != nil {
		return nil, err
	}
	for i, a := range st.aggs {
		if sameAggShape(&a, &call) && reflect.DeepEqual(a, call) {
			return &ColRef{Idx: len(st.groups) + i}, nil
		}
	}
	st.aggs = append(st.aggs, call)
	return &ColRef{Idx: len(st.groups) + len(st.aggs) - 1}, nil
}

func checkAggArgs(c AggCall, name string) error {
	n := len(c.Args)
	ok := true
	switch c.Name {
	case "count":
		ok = n <= 1
	case "sum", "total", "avg", "min", "max", "json_group_array", "bool_and", "bool_or", "every":
		ok = n == 1
	case "group_concat":
		ok = n == 1 || n == 2
	case "string_agg", "json_group_object":
		ok = n == 2
	}
	if !ok {
		return bindErr("wrong number of arguments to function %s()", name)
	}
	if c.Distinct && n != 1 {
		return bindErr("DISTINCT aggregates must have exactly one argument")
	}
	return nil
}

func (b *Binder) bindSortKey(o *grammar.OrderingTerm, sc *scope) (SortKey, error) {
	x, err := b.bindExpr(o.Expr, sc)
	if err != nil {
		return SortKey{}, err
	}
	return makeSortKey(x, o), nil
}

func makeSortKey(x Expr, o *grammar.OrderingTerm) SortKey {
	k := SortKey{Expr: x, Desc: o.Order == grammar.SortDesc, Collate: columnCollation(x)}
	switch o.Nulls {
	case grammar.NullsFirst:
		k.NullsFirst = true
	case grammar.NullsLast:
		k.NullsFirst = false
	default:
		k.NullsFirst = !k.Desc
	}
	return k
}

// bindFunc binds a scalar or window function call.
func (b *Binder) bindFunc(f *grammar.FuncCall, sc *scope) (Expr, error) {
	name := strings.ToLower(f.Name)
	if f.Over != nil || f.OverName != "" {
		return b.bindWindowCall(f, sc)
	}
	if IsAggregateCall(f) {
		return nil, bindErr("misuse of aggregate function %s()", f.Name)
	}
	if windowOnlyNames[name] {
		return nil, bindErr("misuse of window function %s()", f.Name)
	}
	if f.Distinct || f.Filter != nil || len(f.OrderBy) > 0 {
		return nil, bindErr("%s() is not an aggregate function", f.Name)
	}
	args, err := b.bindExprs(f.Args, sc)
	if err != nil {
		return nil, err
	}
	if f.Star {
		return nil, bindErr("wrong number of arguments to function %s()", f.Name)
	}
	return &Func{Name: name, Args: args}, nil
}

// WalkExpr calls fn for e and every expression below it (not descending
// into subquery plans).
func WalkExpr(e Expr, fn func(Expr)) {
	if e == nil || (reflect.ValueOf(e).Kind() == reflect.Ptr && reflect.ValueOf(e).IsNil()) {
		return
	}
	fn(e)
	switch x := e.(type) { // the common nodes without a closure
	case *Binary:
		WalkExpr(x.L, fn)
		WalkExpr(x.R, fn)
		return
	case *Unary:
		WalkExpr(x.X, fn)
		return
	case *Affinity:
		WalkExpr(x.X, fn)
		return
	case *ColRef, *Const, *Param:
		return
	}
	eachChild(e, func(c Expr) bool { WalkExpr(c, fn); return true })
}

// eachChild calls fn for each operand of e (not entering subquery plans),
// in order, until fn returns false, and reports whether every call
// returned true. Operands may be nil (a CASE without an operand or ELSE, a
// LIKE without ESCAPE). It builds no slice: walks and folds visit every
// expression node of every plan.
func eachChild(e Expr, fn func(Expr) bool) bool {
	switch e := e.(type) {
	case *Unary:
		return fn(e.X)
	case *Binary:
		return fn(e.L) && fn(e.R)
	case *Collate:
		return fn(e.X)
	case *Affinity:
		return fn(e.X)
	case *Func:
		return eachOf(e.Args, fn)
	case *Case:
		if !fn(e.Operand) || !fn(e.Else) {
			return false
		}
		for _, w := range e.Whens {
			if !fn(w.Cond) || !fn(w.Then) {
				return false
			}
		}
		return true
	case *Cast:
		return fn(e.X)
	case *Like:
		return fn(e.X) && fn(e.Pat) && fn(e.Escape)
	case *Between:
		return fn(e.X) && fn(e.Lo) && fn(e.Hi)
	case *IsNull:
		return fn(e.X)
	case *InList:
		return fn(e.X) && eachOf(e.List, fn)
	case *InSub:
		return eachOf(e.X, fn)
	case *CheckedSum:
		return fn(e.Sum) && fn(e.Overflowed)
	}
	return true
}

// eachOf calls fn for each of es until it returns false, and reports
// whether every call returned true.
func eachOf(es []Expr, fn func(Expr) bool) bool {
	for _, x := range es {
		if !fn(x) {
			return false
		}
	}
	return true
}
