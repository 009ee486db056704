package grammar

import (
	"reflect"
	"sync"
)

// Position is where a node starts in the source text. Offset is a byte
// offset from the start of the script; Line and Column count from 1, and
// Column counts characters, not bytes.
type Position struct {
	Offset int
	Line   int
	Column int
}

// Pos returns the position itself, so that every node embedding Position
// satisfies Node.
func (p Position) Pos() Position { return p }

// Node is any element of the syntax tree.
type Node interface {
	// Pos is the position of the node's first token.
	Pos() Position
	// String prints the node as SQL that parses back to an equal tree.
	String() string
}

// Statement is one SQL statement of a script.
type Statement interface {
	Node
	// Text is the statement's exact source text (without the trailing
	// semicolon), or "" for a statement that was built, not parsed.
	Text() string
	statementNode()
}

// Expr is a value expression.
type Expr interface {
	Node
	exprNode()
}

// SelectBody is the part of a SELECT that produces rows before ORDER BY and
// LIMIT apply: *SelectCore, *ValuesClause, *CompoundSelect or *ParenSelect.
type SelectBody interface {
	Node
	selectBodyNode()
}

// TableExpr is a FROM-clause item: *TableName, *TableFunc, *SubqueryTable or
// *Join.
type TableExpr interface {
	Node
	tableExprNode()
}

// source holds a statement's source text; embedded by every statement.
type source struct{ text string }

// Text returns the statement's exact source text.
func (s source) Text() string { return s.text }

func (s *source) setText(t string) { s.text = t }

// Walk calls fn for n and then, depth first and in source order, for every
// node below it, as long as fn returns true. When fn returns false for a
// node, the nodes below that node are skipped. Nil nodes are not visited.
func Walk(n Node, fn func(Node) bool) {
	if isNil(n) || !fn(n) {
		return
	}
	walkValue(reflect.ValueOf(n).Elem(), fn)
}

var nodeType = reflect.TypeOf((*Node)(nil)).Elem()

// walkValue visits the child nodes held in the fields of a node struct, in
// field order (which is source order for every node type). Only the
// fields whose type can hold a node are read (walkFields), so a walk over
// a statement's tree skips its strings, numbers and positions.
func walkValue(v reflect.Value, fn func(Node) bool) {
	switch v.Kind() {
	case reflect.Struct:
		for _, i := range walkFields(v.Type()) {
			walkValue(v.Field(i), fn)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkValue(v.Index(i), fn)
		}
	case reflect.Ptr, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Type().Implements(nodeType) {
			Walk(v.Interface().(Node), fn)
			return
		}
		walkValue(v.Elem(), fn)
	}
}

// nodeFields caches walkFields per struct type.
var nodeFields sync.Map // reflect.Type -> []int

// walkFields lists the exported fields of struct type t whose type can
// hold a node: an interface, a pointer to a node or to a struct with such
// a field, or a slice or struct of those.
func walkFields(t reflect.Type) []int {
	if f, ok := nodeFields.Load(t); ok {
		return f.([]int)
	}
	var out []int
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && mayHoldNode(f.Type, map[reflect.Type]bool{t: true}) {
			out = append(out, i)
		}
	}
	nodeFields.Store(t, out)
	return out
}

// mayHoldNode reports whether a value of type t can hold a node; seen
// holds the struct types being looked at (a struct that refers to itself
// holds a node only through its other fields).
func mayHoldNode(t reflect.Type, seen map[reflect.Type]bool) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Ptr:
		return t.Implements(nodeType) || mayHoldNode(t.Elem(), seen)
	case reflect.Slice, reflect.Array:
		return mayHoldNode(t.Elem(), seen)
	case reflect.Struct:
		if seen[t] {
			return false
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() && mayHoldNode(f.Type, seen) {
				return true
			}
		}
	}
	return false
}

func isNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Ptr && v.IsNil()
}
