package grammar

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// regexLexer is the regular-expression statement of sqlLexer's rules;
// the hand-written scanner must produce the same tokens.
var regexLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Whitespace", Pattern: `[ \t\r\n\f]+`},
	{Name: "Comment", Pattern: `--[^\n]*|/\*(?s:.*?)(?:\*/|$)`},
	{Name: "Blob", Pattern: `[xX]'[^']*'`},
	{Name: "String", Pattern: `'(?:[^']|'')*'`},
	{Name: "QIdent", Pattern: `"(?:[^"]|"")*"|` + "`(?:[^`]|``)*`" + `|\[[^\]]*\]`},
	{Name: "Number", Pattern: `0[xX][0-9a-fA-F]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?`},
	{Name: "Param", Pattern: `\?[0-9]*|[:@$][A-Za-z_0-9]+`},
	{Name: "Ident", Pattern: `[A-Za-z_\x{80}-\x{10FFFF}][A-Za-z0-9_$\x{80}-\x{10FFFF}]*`},
	{Name: "BinOp", Pattern: `\|\||->>|->|<<|>>|<=|>=|==|!=|<>|[-+*/%&|<>=]`},
	{Name: "Punct", Pattern: `::|[~(),.;]`},
})

// tokenNames gives each token type of a definition its rule name.
func tokenNames(d lexer.Definition) map[lexer.TokenType]string {
	out := map[lexer.TokenType]string{}
	for name, tt := range d.Symbols() {
		out[tt] = name
	}
	return out
}

// lexAll reads every token of sql, returning the tokens as "Type:Value@Pos"
// and the position of a lexer error, if any.
func lexAll(t testing.TB, d lexer.Definition, sql string, keywords bool) ([]string, *lexer.Position) {
	names := tokenNames(d)
	l, err := d.Lex("", stringsReader(sql))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		tok, err := l.Next()
		if err != nil {
			p := err.(*lexer.Error).Pos
			return out, &p
		}
		name := names[tok.Type]
		if keywords && name == "Ident" && len(tok.Value) <= maxKeywordLen && IsReserved(tok.Value) {
			name = "Keyword"
		}
		out = append(out, name+":"+tok.Value+"@"+tok.Pos.String())
		if tok.EOF() {
			return out, nil
		}
	}
}

// checkSameTokens asserts that sqlLexer and regexLexer agree on sql.
func checkSameTokens(t testing.TB, sql string) {
	t.Helper()
	want, wantErr := lexAll(t, graphRegexLexer, sql, true)
	got, gotErr := lexAll(t, sqlLexer, sql, false)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && *wantErr != *gotErr {
		t.Fatalf("lexing %q: error at %v, want %v", sql, gotErr, wantErr)
	}
	if len(want) != len(got) {
		t.Fatalf("lexing %q: %d tokens %q, want %d %q", sql, len(got), got, len(want), want)
	}
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("lexing %q: token %d is %q, want %q", sql, i, got[i], want[i])
		}
	}
}

func TestSQLLexer_Next_MatchesRegexRules(t *testing.T) {
	cases := []string{
		"", " ", "x'", "x'AB'", "X'ab", "'a''b'", "'a''", "'a''b", "'ab", "'", `"a""b"`, `"a""`, `"a`,
		"`a``b`", "`a``", "[a b]", "[a", "0x", "0x1F", "0X1g", "0e5", "1e", "1e+", "1e+5", "1.5e-3", ".5", "5.",
		"5..5", "..", "?", "?12", ":a", ":", "::", "::a", "@x", "@", "$1", "$", "$a$b", "a$b", "_x", "é", "\xff",
		"ſelect", "ın", "a--b\nc", "/* x", "/* x */y", "/*/", "-->", "->>", "->", "<<=", "<>", "!=", "!", "||", "|",
		"a\tb\r\nc\fd", "~(),.;", "#", "\x00", "select SELECT sElEcT selectx current_timestamp",
		"SELECT 1 -- c\n; /* d */ SELECT 2",
		"graph_table([a]{!x!=y}) [b]{", "GRAPH_TABLE /* c */ ( ( [ ) ] ) ]",
	}
	for _, c := range cases {
		checkSameTokens(t, c)
	}
	for _, pattern := range []string{"parse/*.sql", "corpus/*.sql", "errors.sql"} {
		for _, file := range sqlFiles(t, pattern) {
			for _, c := range readCases(t, file) {
				checkSameTokens(t, c)
			}
		}
	}
}

func FuzzSQLLexer(f *testing.F) {
	for _, pattern := range []string{"parse/*.sql", "corpus/*.sql", "errors.sql"} {
		for _, file := range sqlFiles(f, pattern) {
			for _, c := range readCases(f, file) {
				f.Add(c)
			}
		}
	}
	f.Fuzz(func(t *testing.T, sql string) { checkSameTokens(t, sql) })
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
