package grammar

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTokens_SkipsBlanksAndComments_KindsAndSpans(t *testing.T) {
	sql := "CREATE TABLE \"a b\"( x /* c */ INT, [y] -- z\n)"
	var got []string
	var kinds []TokenKind
	for _, tk := range Tokens(sql) {
		got = append(got, sql[tk.Start:tk.End])
		kinds = append(kinds, tk.Kind)
	}
	assert.Equal(t, []string{"CREATE", "TABLE", `"a b"`, "(", "x", "INT", ",", "[y]", ")"}, got)
	assert.Equal(t, []TokenKind{TokenWord, TokenWord, TokenQuoted, TokenOther, TokenWord, TokenWord, TokenOther, TokenQuoted, TokenOther}, kinds)
}

func TestTokens_BadByte_StopsThere(t *testing.T) {
	toks := Tokens("a \x01 b")
	assert.Len(t, toks, 1)
}
