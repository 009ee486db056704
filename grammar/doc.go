// Package grammar turns SQL text into a typed syntax tree.
//
// The dialect is SQLite's language plus the PostgreSQL spellings that do not
// conflict with it (placeholders $1 and @name, "::" casts, ILIKE, SERIAL,
// GENERATED ... AS IDENTITY, ALTER COLUMN ... TYPE, OFFSET ... FETCH FIRST).
//
// Parse reads a script of statements separated by semicolons; ParseExpr reads
// one expression. Both are built on github.com/alecthomas/participle/v2: one
// lexer (lexer.go), an internal participle grammar of tagged structs
// (syntax_*.go, printed by EBNF) and a conversion step (build_*.go) that
// turns the participle structs into the public tree declared in ast_*.go.
// Expressions are read flat (operand, operator, operand, ...) and the
// conversion applies SQLite's operator precedence by precedence climbing
// (build_expr.go); participle's structs never leave the package. A
// hand-written parser (fast*.go) reads queries, INSERT, UPDATE and DELETE
// straight into the public tree, the same tree participle and the
// conversion build; it gives every other text, and every error, to them.
//
// Invariants:
//   - Every node records the position of its first token (Pos).
//   - Every node prints as SQL (String) and the printed text parses back to a
//     tree equal to the original, positions and ResultColumn.Text aside.
//     Parentheses are not kept as nodes: the printer adds them where operator
//     precedence needs them.
//   - Numbers are lexed unsigned: "-1" is a UnaryExpr (Neg) over a Literal, so
//     "a-1" is a subtraction.
//   - Parse never panics and never loops: a recover is kept as a last line of
//     defence and turns an internal failure into a *SyntaxError.
//
// Caveats:
//   - participle tries alternatives in order and backtracks; the grammar is
//     written so that no two alternatives read the same nested form (that
//     would cost 2^depth), and a guard over the tokens (limits.go)
//     rejects nesting deeper than maxDepth (ErrTooDeep) and operator
//     chains taller than MaxExprDepth (ErrExprTooDeep) before anything
//     recursive runs; the conversion then checks the exact expression
//     height, so every tree walk downstream is bounded.
//   - Inside an expression, "(" starts a query only when SELECT, VALUES or
//     WITH follows it; "((SELECT 1) UNION (SELECT 2))" as a scalar
//     subquery is therefore not accepted (SQLite rejects it too).
//   - Inside GRAPH_TABLE ( … ) (SQL/PGQ, syntax_graph.go) the lexer reads
//     "[", "]", "{", "}" and "!" as tokens of graph patterns
//     (lexer_graph.go), so a name there cannot be quoted with brackets;
//     double quotes work everywhere.
//   - The grammar knows nothing of tables or types; a name that is a reserved
//     keyword must be quoted ("order"), and the error for that case says so.
//   - Keywords that SQLite lets stand for names (key, action, status, ...)
//     are names wherever a name is expected.
//   - The engine caches prepared statements by SQL text, but programs that
//     build SQL dynamically parse every time, hence the fast path.
package grammar
