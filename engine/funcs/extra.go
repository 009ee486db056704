package funcs

import (
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
)

// Functions beyond the core list that SQLite builds commonly include.
var extraFuncs = []*Func{
	scalar("unistr", 1, 1, fnUnistr),
	scalar("soundex", 1, 1, fnSoundex),
	scalar("json_pretty", 1, 2, fnJSONPretty),
	scalar("json_error_position", 1, 1, fnJSONErrorPosition),
	scalar("subtype", 1, 1, fnSubtype),
}

// fnUnistr is unistr(X): \XXXX, \uXXXX, \+XXXXXX and \UXXXXXXXX escapes
// become characters, "\\" a backslash; anything else after '\' is an error.
func fnUnistr(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	s := textOf(a[0])
	if !strings.Contains(s, `\`) {
		return asText(a[0]), nil
	}
	b := c.buf(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b = append(b, s[i])
			continue
		}
		r, n := unistrEscape(s[i+1:])
		if n < 0 {
			return types.Null, errf("invalid Unicode escape")
		}
		if r < 0 {
			b = append(b, '\\')
		} else {
			b = appendRune(b, r)
		}
		i += n
	}
	return c.text(b), nil
}

// unistrEscape decodes the escape after a backslash: the code point (-1
// for a literal backslash) and the bytes consumed, or n < 0 if malformed.
func unistrEscape(s string) (rune, int) {
	if strings.HasPrefix(s, `\`) {
		return -1, 1
	}
	var digits, skip int
	switch {
	case strings.HasPrefix(s, "u"):
		digits, skip = 4, 1
	case strings.HasPrefix(s, "+"):
		digits, skip = 6, 1
	case strings.HasPrefix(s, "U"):
		digits, skip = 8, 1
	default:
		digits = 4
	}
	if len(s) < skip+digits {
		return 0, -1
	}
	v, err := strconv.ParseUint(s[skip:skip+digits], 16, 32)
	if err != nil || v > 0x10ffff {
		return 0, -1
	}
	return rune(v), skip + digits
}

// soundexCode maps a letter (either case) to its Soundex digit, 0 for vowels.
var soundexCode = [26]byte{0, 1, 2, 3, 0, 1, 2, 0, 0, 2, 2, 4, 5, 5, 0, 1, 2, 6, 2, 3, 0, 1, 0, 2, 0, 2}

func soundexOf(c byte) byte {
	c &= 0x7f
	if c >= 'a' && c <= 'z' {
		return soundexCode[c-'a']
	}
	if c >= 'A' && c <= 'Z' {
		return soundexCode[c-'A']
	}
	return 0
}

// fnSoundex is SQLite's soundex(X): "?000" without an ASCII letter.
func fnSoundex(_ *Context, a []types.Value) (types.Value, error) {
	s := cString(textOf(a[0]))
	i := 0
	for i < len(s) && !isAlpha(s[i]) {
		i++
	}
	if i == len(s) {
		return types.NewText("?000"), nil
	}
	out := []byte{s[i] &^ 0x20, '0', '0', '0'}
	prev := soundexOf(s[i])
	for j := 1; j < 4 && i < len(s); i++ {
		code := soundexOf(s[i])
		switch {
		case code == 0:
			prev = 0
		case code != prev:
			prev = code
			out[j] = '0' + code
			j++
		}
	}
	return types.NewText(string(out)), nil
}

func fnJSONPretty(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	n, err := jsonArg(a[0])
	if err != nil {
		return types.Null, err
	}
	indent := "    "
	if len(a) == 2 && !a[1].IsNull() {
		indent = textOf(a[1])
	}
	b := n.writePretty(c.buf(64), indent, 0)
	c.commit(b)
	return types.NewJSON(unsafeString(b)), nil
}

// writePretty writes n with one member per line, nested by indent.
func (n *jnode) writePretty(b []byte, indent string, depth int) []byte {
	if (n.kind != jArray && n.kind != jObject) || len(n.kids) == 0 {
		return n.write(b)
	}
	open, close, step := byte('['), byte(']'), 1
	if n.kind == jObject {
		open, close, step = '{', '}', 2
	}
	b = append(b, open)
	for i := 0; i < len(n.kids); i += step {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIndent(append(b, '\n'), indent, depth+1)
		if step == 2 {
			b = append(n.kids[i].write(b), ':', ' ')
			b = n.kids[i+1].writePretty(b, indent, depth+1)
		} else {
			b = n.kids[i].writePretty(b, indent, depth+1)
		}
	}
	b = appendIndent(append(b, '\n'), indent, depth)
	return append(b, close)
}

func appendIndent(b []byte, indent string, depth int) []byte {
	for ; depth > 0; depth-- {
		b = append(b, indent...)
	}
	return b
}

// fnJSONErrorPosition is json_error_position(X): 0 for well-formed JSON
// (JSON5 allowed), else the 1-based character where parsing failed.
func fnJSONErrorPosition(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	s := textOf(a[0])
	p := jsonParser{s: s}
	_, err := p.value()
	if err == nil {
		if err = p.space(); err == nil && p.i != len(s) {
			return types.NewInt(1), nil // SQLite reports trailing text at 1
		}
	}
	if err == nil {
		return types.NewInt(0), nil
	}
	return types.NewInt(int64(charCount(s[:min(p.i, len(s))])) + 1), nil
}

// fnSubtype is subtype(X): 74 ('J') for JSON text, else 0.
func fnSubtype(_ *Context, a []types.Value) (types.Value, error) {
	if a[0].IsJSON() {
		return types.NewInt('J'), nil
	}
	return types.NewInt(0), nil
}
