package funcs

import (
	"math"
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
)

var textFuncs = []*Func{
	scalar("length", 1, 1, fnLength),
	scalar("char_length", 1, 1, fnLength),
	scalar("character_length", 1, 1, fnLength),
	scalar("octet_length", 1, 1, fnOctetLength),
	scalar("lower", 1, 1, fnCase(false)),
	scalar("upper", 1, 1, fnCase(true)),
	scalar("trim", 1, 2, fnTrim(true, true)),
	scalar("ltrim", 1, 2, fnTrim(true, false)),
	scalar("rtrim", 1, 2, fnTrim(false, true)),
	scalar("substr", 2, 3, fnSubstr),
	scalar("substring", 2, 3, fnSubstr),
	scalar("replace", 3, 3, fnReplace),
	scalar("instr", 2, 2, fnInstr),
	scalar("char", 0, -1, fnChar),
	scalar("unicode", 1, 1, fnUnicode),
	scalar("concat", 1, -1, fnConcat),
	scalar("concat_ws", 2, -1, fnConcatWS),
	scalar("hex", 1, 1, fnHex),
	scalar("unhex", 1, 2, fnUnhex),
	scalar("quote", 1, 1, fnQuote),
	scalar("printf", 1, -1, fnPrintf),
	scalar("format", 1, -1, fnPrintf),
}

// textOf returns v's text form without allocating for TEXT and BLOB.
func textOf(v types.Value) string {
	if v.Kind() == types.KindText || v.Kind() == types.KindBlob {
		return v.Str()
	}
	return v.Text()
}

// asText returns v as a TEXT value (numbers rendered, blob bytes reused).
func asText(v types.Value) types.Value {
	if v.Kind() == types.KindText {
		return v
	}
	return types.NewText(textOf(v))
}

func fnLength(_ *Context, a []types.Value) (types.Value, error) {
	v := a[0]
	switch v.Kind() {
	case types.KindNull:
		return v, nil
	case types.KindBlob:
		return types.NewInt(int64(len(v.Str()))), nil
	}
	s := textOf(v)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return types.NewInt(int64(charCount(s))), nil
}

func fnOctetLength(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	return types.NewInt(int64(len(textOf(a[0])))), nil
}

// fnCase is upper/lower: ASCII letters only, as SQLite without ICU.
func fnCase(upper bool) ScalarFunc {
	from, to := byte('A'), byte('a')
	if upper {
		from, to = 'a', 'A'
	}
	return func(c *Context, a []types.Value) (types.Value, error) {
		if a[0].IsNull() {
			return types.Null, nil
		}
		s := textOf(a[0])
		i := 0
		for i < len(s) && (s[i] < from || s[i] > from+25) {
			i++
		}
		if i == len(s) {
			return asText(a[0]), nil
		}
		b := append(c.buf(len(s)), s...)
		for ; i < len(b); i++ {
			if b[i] >= from && b[i] <= from+25 {
				b[i] = b[i] - from + to
			}
		}
		return c.text(b), nil
	}
}

func fnTrim(left, right bool) ScalarFunc {
	return func(_ *Context, a []types.Value) (types.Value, error) {
		if anyNull(a) {
			return types.Null, nil
		}
		s := textOf(a[0])
		set := " "
		if len(a) == 2 {
			set = textOf(a[1])
		}
		if set == "" {
			return asText(a[0]), nil
		}
		if left {
			s = trimLeftChars(s, set)
		}
		if right {
			s = trimRightChars(s, set)
		}
		return types.NewText(s), nil
	}
}

// trimLeftChars removes leading characters (SQLite's UTF-8 units) of set.
func trimLeftChars(s, set string) string {
	for len(s) > 0 {
		n := matchSetChar(s, set, false)
		if n == 0 {
			break
		}
		s = s[n:]
	}
	return s
}

func trimRightChars(s, set string) string {
	for len(s) > 0 {
		n := matchSetChar(s, set, true)
		if n == 0 {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// matchSetChar returns the byte length of the first (or last) character
// of set that s starts (or ends) with, 0 if none.
func matchSetChar(s, set string, atEnd bool) int {
	for i := 0; i < len(set); {
		j := nextChar(set, i)
		ch := set[i:j]
		if (!atEnd && strings.HasPrefix(s, ch)) || (atEnd && strings.HasSuffix(s, ch)) {
			return len(ch)
		}
		i = j
	}
	return 0
}

// fnSubstr is substr(X, Y [, Z]) as SQLite's substrFunc: characters for
// text (which ends at a NUL), bytes for blobs, with its arithmetic for
// zero and negative positions and lengths; an empty blob gives NULL.
func fnSubstr(_ *Context, a []types.Value) (types.Value, error) {
	if anyNull(a) {
		return types.Null, nil
	}
	x := a[0]
	if x.Kind() == types.KindBlob && len(x.Str()) == 0 {
		return types.Null, nil
	}
	s := textOf(x)
	isBlob := x.Kind() == types.KindBlob
	if !isBlob {
		s = cString(s)
	}
	p1 := a[1].AsInt()
	p2 := int64(math.MaxInt64)
	if len(a) == 3 {
		p2 = a[2].AsInt()
	}
	n := int64(len(s))
	if !isBlob && p1 < 0 {
		n = int64(charCount(s))
	}
	p1, p2 = substrBounds(p1, p2, n)
	if isBlob {
		if p1 >= n {
			p1, p2 = 0, 0
		} else if p2 > n-p1 {
			p2 = n - p1
		}
		return types.NewBlob(x.Bytes()[p1 : p1+p2]), nil
	}
	i := skipChars(s, 0, p1)
	return types.NewText(s[i:skipChars(s, i, p2)]), nil
}

// skipChars advances n characters from i the way substr walks text: any
// byte ≥ 0x80 starts a character that swallows continuation bytes.
func skipChars(s string, i int, n int64) int {
	for ; n > 0 && i < len(s); n-- {
		c := s[i]
		i++
		if c >= 0x80 {
			for i < len(s) && s[i]&0xc0 == 0x80 {
				i++
			}
		}
	}
	return i
}

// substrBounds turns SQLite's 1-based, possibly negative start p1 and
// signed length p2 into a 0-based start and a count, for a value of n
// characters (bytes for blobs).
func substrBounds(p1, p2, n int64) (int64, int64) {
	switch {
	case p1 < 0:
		p1 += n
		if p1 < 0 {
			if p2 < 0 {
				p2 = 0
			} else {
				p2 += p1
			}
			p1 = 0
		}
	case p1 > 0:
		p1--
	case p2 > 0:
		p2--
	}
	if p2 < 0 {
		if p2 < -p1 {
			p2 = p1
		} else {
			p2 = -p2
		}
		p1 -= p2
	}
	return p1, max(p2, 0)
}

func fnReplace(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() || a[1].IsNull() {
		return types.Null, nil
	}
	s, from := textOf(a[0]), textOf(a[1])
	if from == "" || from[0] == 0 { // SQLite tests the pattern's first byte
		return types.NewText(s), nil // as text, without a JSON subtype
	}
	if a[2].IsNull() {
		return types.Null, nil
	}
	if !strings.Contains(s, from) {
		// SQLite copies the text even when nothing is replaced: the
		// result has no JSON subtype.
		return types.NewText(s), nil
	}
	to := textOf(a[2])
	n := strings.Count(s, from)
	size := int64(len(s)) + int64(n)*(int64(len(to))-int64(len(from)))
	if err := c.checkLen(size); err != nil {
		return types.Null, err
	}
	b := c.buf(int(size))
	for {
		i := strings.Index(s, from)
		if i < 0 {
			break
		}
		b = append(append(b, s[:i]...), to...)
		s = s[i+len(from):]
	}
	return c.text(append(b, s...)), nil
}

func fnInstr(_ *Context, a []types.Value) (types.Value, error) {
	if anyNull(a) {
		return types.Null, nil
	}
	h, n := textOf(a[0]), textOf(a[1])
	i := strings.Index(h, n)
	if i < 0 {
		return types.NewInt(0), nil
	}
	if a[0].Kind() == types.KindBlob && a[1].Kind() == types.KindBlob {
		return types.NewInt(int64(i) + 1), nil
	}
	return types.NewInt(int64(charCount(h[:i])) + 1), nil
}

func fnChar(c *Context, a []types.Value) (types.Value, error) {
	b := c.buf(4 * len(a))
	for _, v := range a {
		r := v.AsInt()
		if r < 0 || r > 0x10ffff {
			r = 0xfffd
		}
		b = appendRune(b, rune(r))
	}
	return c.text(b), nil
}

func fnUnicode(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	s := cString(textOf(a[0]))
	if s == "" {
		return types.Null, nil
	}
	r, _ := decodeChar(s, 0)
	return types.NewInt(int64(r)), nil
}

func fnConcat(c *Context, a []types.Value) (types.Value, error) {
	return concatWith(c, "", a)
}

func fnConcatWS(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	return concatWith(c, textOf(a[0]), a[1:])
}

// concatWith joins the non-NULL arguments' text with sep.
func concatWith(c *Context, sep string, a []types.Value) (types.Value, error) {
	var size int64
	for _, v := range a {
		if !v.IsNull() {
			size += int64(len(textOf(v)) + len(sep))
		}
	}
	if err := c.checkLen(size); err != nil {
		return types.Null, err
	}
	b := c.buf(int(size))
	first := true
	for _, v := range a {
		if v.IsNull() {
			continue
		}
		if !first {
			b = append(b, sep...)
		}
		first = false
		b = v.AppendText(b)
	}
	return c.text(b), nil
}

const hexDigits = "0123456789ABCDEF"

func fnHex(c *Context, a []types.Value) (types.Value, error) {
	s := textOf(a[0])
	if err := c.checkLen(2 * int64(len(s))); err != nil {
		return types.Null, err
	}
	b := c.buf(2 * len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, hexDigits[s[i]>>4], hexDigits[s[i]&15])
	}
	return c.text(b), nil
}

func hexVal(ch byte) (byte, bool) {
	switch {
	case ch >= '0' && ch <= '9':
		return ch - '0', true
	case ch >= 'a' && ch <= 'f':
		return ch - 'a' + 10, true
	case ch >= 'A' && ch <= 'F':
		return ch - 'A' + 10, true
	}
	return 0, false
}

// fnUnhex decodes hex digit pairs; characters of the optional second
// argument may stand between pairs; anything else gives NULL.
func fnUnhex(c *Context, a []types.Value) (types.Value, error) {
	if anyNull(a) {
		return types.Null, nil
	}
	s, ignore := cString(textOf(a[0])), ""
	if len(a) == 2 {
		ignore = cString(textOf(a[1]))
	}
	b := c.buf(len(s) / 2)
	for i := 0; i < len(s); {
		hi, ok := hexVal(s[i])
		if !ok {
			j := nextChar(s, i)
			if !strings.Contains(ignore, s[i:j]) {
				return types.Null, nil
			}
			i = j
			continue
		}
		if i+1 >= len(s) {
			return types.Null, nil
		}
		lo, ok := hexVal(s[i+1])
		if !ok {
			return types.Null, nil
		}
		b = append(b, hi<<4|lo)
		i += 2
	}
	return c.blob(b), nil
}
