package grammar

import "reflect"

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
// field order (which is source order for every node type).
func walkValue(v reflect.Value, fn func(Node) bool) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkValue(v.Field(i), fn)
			}
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

func isNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Ptr && v.IsNil()
}
