package grammar

// Token is one token of SQL text, by its byte span, for edits that change
// a few tokens and keep the rest of the text (spacing, comments, quoting)
// as written.
type Token struct {
	Kind       TokenKind
	Start, End int // sql[Start:End] is the token's text
}

// TokenKind classifies a Token.
type TokenKind int

// Token kinds. A name is TokenWord (bare, reserved or not) or TokenQuoted
// ("x", `x` or [x]); every other token is TokenOther.
const (
	TokenWord TokenKind = iota
	TokenQuoted
	TokenOther
)

// Tokens splits sql into its tokens, leaving out blanks and comments, as
// the parser's lexer reads them. It stops at the first byte no token rule
// matches.
func Tokens(sql string) []Token {
	var out []Token
	for i := 0; i < len(sql); {
		n, tt := scanToken(sql[i:])
		if n == 0 {
			break
		}
		switch tt {
		case tokWhitespace, tokComment:
		case tokIdent:
			out = append(out, Token{Kind: TokenWord, Start: i, End: i + n})
		case tokQIdent:
			out = append(out, Token{Kind: TokenQuoted, Start: i, End: i + n})
		default:
			out = append(out, Token{Kind: TokenOther, Start: i, End: i + n})
		}
		i += n
	}
	return out
}
