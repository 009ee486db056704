package funcs

import (
	"math"
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
)

// AppendQuote appends v as an SQL literal, as quote() renders it: NULL,
// integers, reals (±Inf as ±9.0e+999 so they read back), 'text' with
// quotes doubled and cut at a NUL, X'HEX' blobs.
func AppendQuote(b []byte, v types.Value) []byte {
	switch v.Kind() {
	case types.KindNull:
		return append(b, "NULL"...)
	case types.KindInt:
		return v.AppendText(b)
	case types.KindReal:
		switch f := v.Real(); {
		case math.IsInf(f, 1):
			return append(b, "9.0e+999"...)
		case math.IsInf(f, -1):
			return append(b, "-9.0e+999"...)
		}
		return v.AppendText(b)
	case types.KindText:
		s := v.Str()
		if i := strings.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		b = append(b, '\'')
		for i := 0; i < len(s); i++ {
			b = append(b, s[i])
			if s[i] == '\'' {
				b = append(b, '\'')
			}
		}
		return append(b, '\'')
	}
	b = append(b, 'X', '\'')
	s := v.Str()
	for i := 0; i < len(s); i++ {
		b = append(b, hexDigits[s[i]>>4], hexDigits[s[i]&15])
	}
	return append(b, '\'')
}

func fnQuote(c *Context, a []types.Value) (types.Value, error) {
	n := len(a[0].Str())*2 + 24
	if err := c.checkLen(int64(n)); err != nil {
		return types.Null, err
	}
	return c.text(AppendQuote(c.buf(n), a[0])), nil
}
