package shell

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// text is how a value reads in the list-like modes, as sqlite3 prints it:
// a REAL with SQLite's %!.15g, a BLOB as its bytes, NULL as nullvalue.
func text(v any, null string) string {
	switch x := v.(type) {
	case nil:
		return null
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return types.FormatReal(x)
	case string:
		return x
	case []byte:
		return string(x)
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return ""
}

// sqlLiteral writes v as an SQL literal that reads back as the same value
// in ladybug and in SQLite: a REAL keeps every bit and always looks like
// a REAL, a BLOB is X'…'.
func sqlLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return realLiteral(x)
	case string:
		return quoteString(x)
	case []byte:
		return "X'" + hexUpper(x) + "'"
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return "NULL"
}

// realLiteral is the shortest text that parses back to exactly f as a
// REAL: "1.0" rather than "1", "1e999" for infinity, NULL for NaN (which
// SQLite stores as NULL too).
func realLiteral(f float64) string {
	switch {
	case f != f:
		return "NULL"
	case f > 1.7976931348623157e308:
		return "1e999"
	case f < -1.7976931348623157e308:
		return "-1e999"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// quoteIdent quotes a name for SQL when it needs quotes.
func quoteIdent(name string) string { return grammar.QuoteIdent(name) }

const hexDigits = "0123456789ABCDEF"

func hexUpper(b []byte) string {
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = hexDigits[c>>4], hexDigits[c&15]
	}
	return string(out)
}

// visible replaces the characters that would break a table cell (line
// breaks, tabs, other control characters and invalid UTF-8) with visible
// escapes.
func visible(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f || s[i] >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + fmt.Sprintf("%02x", s[i]))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x` + fmt.Sprintf("%02x", r))
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}
