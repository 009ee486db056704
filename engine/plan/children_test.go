package plan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// nodeSamples holds one value of every plan node type, its node-typed
// fields set to distinct leaves. TestNode_EveryTypeHasASample fails when a
// node type is added without one.
func nodeSamples() []Node {
	leaf := func(i int) Node { return &TableFunc{Name: fmt.Sprintf("leaf%d", i)} }
	return []Node{
		&Scan{Alias: "s"},
		&Single{},
		&Values{Rows: [][]Expr{{&Const{}}}},
		&CTERef{CTE: &CTE{Name: "c"}},
		&TableFunc{Name: "f"},
		&TableCount{},
		&Filter{Input: leaf(1), Pred: &Const{}},
		&Project{Input: leaf(1), Exprs: []Expr{&Const{}}},
		&Limit{Input: leaf(1), Limit: &Const{}},
		&Sort{Input: leaf(1), Keys: []SortKey{{Expr: &Const{}}}},
		&Aggregate{Input: leaf(1), Group: []Expr{&Const{}}},
		&Distinct{Input: leaf(1), Sorted: true},
		&Window{Input: leaf(1), Funcs: []WindowFunc{{Name: "w"}}},
		&Lateral{Left: leaf(1), Func: &TableFunc{Name: "lat"}},
		&Join{Left: leaf(1), Right: leaf(2), On: &Const{}},
		&SetOp{Op: Except, Left: leaf(1), Right: leaf(2)},
		&GraphExpand{Input: leaf(1), Edges: leaf(2), Min: 1, Max: 3},
		&GraphExpand{Input: leaf(1), Edges: leaf(2), OutLookup: leaf(3), Dir: GraphOut},
		&GraphExpand{Input: leaf(1), Edges: leaf(2), InLookup: leaf(4), Dir: GraphIn},
		&GraphExpand{Input: leaf(1), Edges: leaf(2), OutLookup: leaf(3), InLookup: leaf(4), Dir: GraphAny},
	}
}

// planNodeTypes lists the types of this package's source files that
// declare a Columns() []Column method: the plan node types.
func planNodeTypes(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir(".")
	require.NoError(t, err)
	var names []string
	fset := token.NewFileSet()
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != "Columns" {
				continue
			}
			typ := fd.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			names = append(names, typ.(*ast.Ident).Name)
		}
	}
	return names
}

func TestNode_EveryTypeHasASample(t *testing.T) {
	have := map[string]bool{}
	for _, n := range nodeSamples() {
		have[reflect.TypeOf(n).Elem().Name()] = true
	}
	types := planNodeTypes(t)
	require.NotEmpty(t, types)
	for _, name := range types {
		require.True(t, have[name], "plan node type %s has no entry in nodeSamples: add one so its Children/WithChildren are checked", name)
	}
}

// nodeFields returns the values of n's struct fields of interface type
// Node, in declaration order.
func nodeFields(n Node) []Node {
	v := reflect.ValueOf(n).Elem()
	nodeType := reflect.TypeOf((*Node)(nil)).Elem()
	var out []Node
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Type == nodeType && !v.Field(i).IsNil() {
			out = append(out, v.Field(i).Interface().(Node))
		}
	}
	return out
}

// TestNode_ChildrenRoundTrip: for every node type, Children lists exactly
// the node's input fields, WithChildren gives a node of the same type over
// the new children with every other field unchanged and the original
// untouched, and a wrong number of children is an error.
func TestNode_ChildrenRoundTrip(t *testing.T) {
	for i, n := range nodeSamples() {
		t.Run(fmt.Sprintf("%d_%s", i, reflect.TypeOf(n).Elem().Name()), func(t *testing.T) {
			kids := n.Children()
			require.Equal(t, nodeFields(n), kids, "Children must list the node's input fields in order")
			if in, ok := n.(fixedInputs); ok {
				a, b, k := in.inputs()
				require.Equal(t, kids, []Node{a, b}[:k], "inputs must return Children's nodes")
			}
			before := reflect.ValueOf(n).Elem().Interface()

			fresh := make([]Node, len(kids))
			for i := range fresh {
				fresh[i] = &Values{Cols: []Column{{Name: fmt.Sprint("new", i)}}}
			}
			m, err := n.WithChildren(fresh...)
			require.NoError(t, err)
			require.IsType(t, n, m)
			got := m.Children()
			require.Len(t, got, len(fresh))
			for i := range fresh {
				require.Same(t, fresh[i], got[i], "child %d", i)
			}
			require.Equal(t, before, reflect.ValueOf(n).Elem().Interface(), "WithChildren changed the original")
			back, err := m.WithChildren(kids...)
			require.NoError(t, err)
			require.Equal(t, before, reflect.ValueOf(back).Elem().Interface(), "WithChildren changed a field other than the children")

			_, err = n.WithChildren(append(fresh, &Single{})...)
			require.Error(t, err)
			if len(kids) > 0 {
				_, err = n.WithChildren()
				require.Error(t, err)
			}
		})
	}
}

func TestTransform_CopiesOnlyChangedPaths(t *testing.T) {
	scan := &Scan{Alias: "a"}
	other := &Values{}
	right := &Filter{Input: other}
	root := &Join{Left: &Filter{Input: scan}, Right: right}

	same := Transform(root, func(n Node) Node { return n })
	require.Same(t, root, same, "an identity rewrite copies nothing")

	repl := &Scan{Alias: "b"}
	out := Transform(root, func(n Node) Node {
		if n == scan {
			return repl
		}
		return n
	})
	j := out.(*Join)
	require.NotSame(t, root, j)
	require.Same(t, repl, j.Left.(*Filter).Input)
	require.Same(t, right, j.Right, "the unchanged side is kept")
	require.Same(t, scan, root.Left.(*Filter).Input, "the original tree is untouched")

	var order []string
	Walk(out, func(n Node) bool {
		order = append(order, fmt.Sprintf("%T", n))
		return true
	})
	require.Equal(t, []string{"*plan.Join", "*plan.Filter", "*plan.Scan", "*plan.Filter", "*plan.Values"}, order)
}
