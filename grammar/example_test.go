package grammar_test

import (
	"errors"
	"fmt"

	"github.com/ladybugsql/ladybug/grammar"
)

func ExampleParse() {
	stmts, err := grammar.Parse("select id, name from users where id = ? and status <> 'gone'; commit")
	if err != nil {
		panic(err)
	}
	for _, st := range stmts {
		fmt.Printf("%T: %s\n", st, st)
	}
	// Output:
	// *grammar.SelectStmt: SELECT id, name FROM users WHERE id = ? AND status != 'gone'
	// *grammar.CommitStmt: COMMIT
}

func ExampleSyntaxError() {
	_, err := grammar.Parse("SELECT id\nFROM users\nWHERE order = 1")
	var se *grammar.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Line, se.Column, se.Near)
		fmt.Println(err)
	}
	// Output:
	// 3 7 order
	// near "order" at line 3, column 7: syntax error (ORDER is a reserved keyword; to use it as a name, quote it: "order")
}

func ExampleWalk() {
	e, _ := grammar.ParseExpr("a + b * coalesce(c, 0)")
	grammar.Walk(e, func(n grammar.Node) bool {
		if c, ok := n.(*grammar.ColumnRef); ok {
			fmt.Print(c.Column, " ")
		}
		return true
	})
	fmt.Println()
	// Output: a b c
}
