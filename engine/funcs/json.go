package funcs

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ladybugsql/ladybug/engine/types"
)

// JSON values are parsed into a small tree, edited there, and written
// back minified, as SQLite's text JSON functions behave. Input may use the
// JSON5 extensions SQLite accepts (comments, trailing commas, unquoted keys,
// single quotes, hex numbers, Infinity/NaN, '+1', '.5'); output is always
// canonical RFC 8259 JSON. JSONB blobs are not supported: a BLOB where JSON
// is expected is an error.

type jkind uint8

const (
	jNull jkind = iota
	jTrue
	jFalse
	jInt
	jReal
	jString
	jArray
	jObject
)

var jkindNames = [...]string{"null", "true", "false", "integer", "real", "text", "array", "object"}

// jnode is one JSON value. For numbers text is the canonical literal; for
// strings it is the escaped body between the quotes, as it will be
// written. Arrays hold elements in kids; objects alternate key, value.
type jnode struct {
	kind jkind
	text string
	kids []*jnode
}

var errMalformedJSON = errf("malformed JSON")

// jsonParser reads one JSON text.
type jsonParser struct {
	s      string
	i      int
	strict bool // RFC 8259 only (json_valid's default)
	depth  int
}

const jsonMaxDepth = 1000

// parseJSON parses s; strict rejects the JSON5 extensions.
func parseJSON(s string, strict bool) (*jnode, error) {
	p := jsonParser{s: s, strict: strict}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil || p.i != len(p.s) {
		return nil, errMalformedJSON
	}
	return n, nil
}

// space skips white space (and, outside strict mode, comments).
func (p *jsonParser) space() error {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case p.strict:
			return nil
		case c == '\v' || c == '\f':
			p.i++
		case strings.HasPrefix(p.s[p.i:], "//"):
			if j := strings.IndexByte(p.s[p.i:], '\n'); j >= 0 {
				p.i += j + 1
			} else {
				p.i = len(p.s)
			}
		case strings.HasPrefix(p.s[p.i:], "/*"):
			j := strings.Index(p.s[p.i+2:], "*/")
			if j < 0 {
				return errMalformedJSON
			}
			p.i += j + 4
		default:
			return nil
		}
	}
	return nil
}

func (p *jsonParser) value() (*jnode, error) {
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.i >= len(p.s) {
		return nil, errMalformedJSON
	}
	switch c := p.s[p.i]; {
	case c == '{' || c == '[':
		p.depth++
		if p.depth > jsonMaxDepth {
			return nil, errMalformedJSON
		}
		defer func() { p.depth-- }()
		if c == '{' {
			return p.object()
		}
		return p.array()
	case c == '"' || (c == '\'' && !p.strict):
		body, err := p.str()
		return &jnode{kind: jString, text: body}, err
	}
	for _, lit := range [...]struct {
		word string
		kind jkind
	}{{"null", jNull}, {"true", jTrue}, {"false", jFalse}} {
		if strings.HasPrefix(p.s[p.i:], lit.word) && !identChar(p.at(p.i+len(lit.word))) {
			p.i += len(lit.word)
			return &jnode{kind: lit.kind}, nil
		}
	}
	return p.number()
}

func (p *jsonParser) at(i int) byte {
	if i < len(p.s) {
		return p.s[i]
	}
	return 0
}

func (p *jsonParser) array() (*jnode, error) {
	n := &jnode{kind: jArray}
	p.i++
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.at(p.i) == ']' && (len(n.kids) == 0 || !p.strict) {
			p.i++
			return n, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, v)
		if done, err := p.separator(']'); done || err != nil {
			return n, err
		}
	}
}

// separator consumes the ',' after a member or the closing bracket; done
// reports the close. Strict JSON forbids a comma before the close.
func (p *jsonParser) separator(close byte) (done bool, err error) {
	if err := p.space(); err != nil {
		return false, err
	}
	switch p.at(p.i) {
	case ',':
		p.i++
		if p.strict {
			if err := p.space(); err != nil || p.at(p.i) == close {
				return false, errMalformedJSON
			}
		}
		return false, nil
	case close:
		p.i++
		return true, nil
	}
	return false, errMalformedJSON
}

func (p *jsonParser) object() (*jnode, error) {
	n := &jnode{kind: jObject}
	p.i++
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.at(p.i) == '}' && (len(n.kids) == 0 || !p.strict) {
			p.i++
			return n, nil
		}
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		if err := p.space(); err != nil || p.at(p.i) != ':' {
			return nil, errMalformedJSON
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, key, v)
		if done, err := p.separator('}'); done || err != nil {
			return n, err
		}
	}
}

// key reads an object key: a string, or in JSON5 an identifier.
func (p *jsonParser) key() (*jnode, error) {
	if c := p.at(p.i); c == '"' || (c == '\'' && !p.strict) {
		body, err := p.str()
		return &jnode{kind: jString, text: body}, err
	}
	if p.strict {
		return nil, errMalformedJSON
	}
	j := p.i
	for j < len(p.s) && (identChar(p.s[j]) || p.s[j] >= 0x80) {
		j++
	}
	if j == p.i || isDigit(p.s[p.i]) {
		return nil, errMalformedJSON
	}
	k := &jnode{kind: jString, text: p.s[p.i:j]}
	p.i = j
	return k, nil
}

func identChar(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// str reads a quoted string and returns its canonical escaped body.
func (p *jsonParser) str() (string, error) {
	q := p.s[p.i]
	start := p.i + 1
	canonical := q == '"'
	for j := start; j < len(p.s); j++ {
		c := p.s[j]
		switch {
		case c == q:
			p.i = j + 1
			body := p.s[start:j]
			if canonical {
				return body, nil
			}
			return canonicalString(body, p.strict)
		case c == '\\':
			if j+1 >= len(p.s) {
				p.i = len(p.s)
				return "", errMalformedJSON
			}
			j++
			switch p.s[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(p.s) || !isHex4(p.s[j+1:j+5]) {
					return "", errMalformedJSON
				}
				j += 4
			case '\'', 'v', '0', '\n', '\r':
				if p.strict {
					p.i = j
					return "", errMalformedJSON
				}
				canonical = false
			case 'x':
				if p.strict || j+2 >= len(p.s) || !isHex2(p.s[j+1:j+3]) {
					p.i = j
					return "", errMalformedJSON
				}
				canonical = false
				j += 2
			default:
				p.i = j
				return "", errMalformedJSON
			}
		case c < 0x20:
			if p.strict || c != '\t' {
				return "", errMalformedJSON
			}
			canonical = false
		case c == '\'' && q == '"':
		}
	}
	p.i = len(p.s) // unterminated: the error is at the end
	return "", errMalformedJSON
}

func isHex2(s string) bool {
	_, ok1 := hexVal(s[0])
	_, ok2 := hexVal(s[1])
	return ok1 && ok2
}

func isHex4(s string) bool {
	for i := 0; i < 4; i++ {
		if _, ok := hexVal(s[i]); !ok {
			return false
		}
	}
	return true
}

// canonicalString re-escapes a JSON5 string body as strict JSON.
func canonicalString(body string, strict bool) (string, error) {
	dec, ok := decodeJSONString(body)
	if !ok {
		return "", errMalformedJSON
	}
	return string(appendJSONStringBody(nil, dec)), nil
}

// number reads a number, canonicalising JSON5 forms.
func (p *jsonParser) number() (*jnode, error) {
	start := p.i
	j := p.i
	if c := p.at(j); c == '-' || (c == '+' && !p.strict) {
		j++
	}
	if !p.strict {
		if n, ok := p.json5Number(start, j); ok {
			return n, nil
		}
	}
	intStart := j
	for isDigit(p.at(j)) {
		j++
	}
	digits := j - intStart
	if digits > 1 && p.s[intStart] == '0' {
		p.i = intStart + 1
		return nil, errMalformedJSON
	}
	if p.strict && digits == 0 {
		return nil, errMalformedJSON
	}
	kind := jInt
	fix := p.s[start] == '+'
	if p.at(j) == '.' {
		kind = jReal
		j++
		frac := j
		for isDigit(p.at(j)) {
			j++
		}
		if j == frac {
			if p.strict || digits == 0 {
				return nil, errMalformedJSON
			}
			fix = true
		}
		if digits == 0 {
			if p.strict {
				return nil, errMalformedJSON
			}
			fix = true
		}
	} else if digits == 0 {
		return nil, errMalformedJSON
	}
	if c := p.at(j); c == 'e' || c == 'E' {
		kind = jReal
		j++
		if c := p.at(j); c == '+' || c == '-' {
			j++
		}
		e := j
		for isDigit(p.at(j)) {
			j++
		}
		if j == e {
			return nil, errMalformedJSON
		}
	}
	text := p.s[start:j]
	p.i = j
	if fix {
		text = canonicalNumber(text)
	}
	return &jnode{kind: kind, text: text}, nil
}

// json5Number handles hex integers, Infinity and NaN.
func (p *jsonParser) json5Number(start, j int) (*jnode, bool) {
	rest := p.s[j:]
	neg := p.s[start] == '-'
	switch {
	case strings.HasPrefix(rest, "Infinity"):
		p.i = j + len("Infinity")
		if neg {
			return &jnode{kind: jReal, text: "-9e999"}, true
		}
		return &jnode{kind: jReal, text: "9e999"}, true
	case strings.HasPrefix(rest, "NaN"):
		p.i = j + 3
		return &jnode{kind: jNull}, true
	case len(rest) > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X'):
		k := 2
		for k < len(rest) {
			if _, ok := hexVal(rest[k]); !ok {
				break
			}
			k++
		}
		u, err := strconv.ParseUint(rest[2:k], 16, 64)
		if k == 2 || err != nil {
			return nil, false
		}
		p.i = j + k
		text := strconv.FormatUint(u, 10)
		if neg {
			text = "-" + text
		}
		return &jnode{kind: jInt, text: text}, true
	}
	return nil, false
}

// canonicalNumber rewrites "+1", "01", ".5", "5." as strict JSON.
func canonicalNumber(s string) string {
	s = strings.TrimPrefix(s, "+")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mant, exp, hasExp = strings.Cut(s, "E")
	}
	ip, fp, hasDot := strings.Cut(mant, ".")
	ip = strings.TrimLeft(ip, "0")
	if ip == "" {
		ip = "0"
	}
	out := ip
	if hasDot {
		if fp == "" {
			fp = "0"
		}
		out += "." + fp
	}
	if hasExp {
		out += "e" + exp
	}
	if neg {
		out = "-" + out
	}
	return out
}

// decodeJSONString resolves the escapes of a string body (JSON and JSON5).
func decodeJSONString(body string) (string, bool) {
	if strings.IndexByte(body, '\\') < 0 {
		return body, true
	}
	b := make([]byte, 0, len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		i++
		if i >= len(body) {
			return "", false
		}
		var ok bool
		b, i, ok = decodeEscape(b, body, i)
		if !ok {
			return "", false
		}
	}
	return string(b), true
}

// decodeEscape decodes the escape whose letter is at body[i]; it returns
// the index of the escape's last byte.
func decodeEscape(b []byte, body string, i int) ([]byte, int, bool) {
	switch c := body[i]; c {
	case '"', '\\', '/', '\'':
		return append(b, c), i, true
	case 'b':
		return append(b, '\b'), i, true
	case 'f':
		return append(b, '\f'), i, true
	case 'n':
		return append(b, '\n'), i, true
	case 'r':
		return append(b, '\r'), i, true
	case 't':
		return append(b, '\t'), i, true
	case 'v':
		return append(b, '\v'), i, true
	case '0':
		return append(b, 0), i, true
	case '\n':
		return b, i, true
	case '\r':
		if i+1 < len(body) && body[i+1] == '\n' {
			i++
		}
		return b, i, true
	case 'x':
		if i+2 >= len(body) {
			return b, i, false
		}
		v, err := strconv.ParseUint(body[i+1:i+3], 16, 8)
		if err != nil {
			return b, i, false
		}
		return appendRune(b, rune(v)), i + 2, true
	case 'u':
		return decodeU(b, body, i)
	}
	return b, i, false
}

// decodeU decodes \uXXXX, joining surrogate pairs.
func decodeU(b []byte, body string, i int) ([]byte, int, bool) {
	if i+4 >= len(body) || !isHex4(body[i+1:i+5]) {
		return b, i, false
	}
	v, _ := strconv.ParseUint(body[i+1:i+5], 16, 32)
	i += 4
	r := rune(v)
	if r >= 0xd800 && r < 0xdc00 && i+6 < len(body) && body[i+1] == '\\' && body[i+2] == 'u' && isHex4(body[i+3:i+7]) {
		lo, _ := strconv.ParseUint(body[i+3:i+7], 16, 32)
		if lo >= 0xdc00 && lo < 0xe000 {
			r = 0x10000 + (r-0xd800)<<10 + (rune(lo) - 0xdc00)
			i += 6
		}
	}
	if !utf8.ValidRune(r) && r < 0xd800 {
		r = utf8.RuneError
	}
	return appendRune(b, r), i, true
}

// write appends n minified.
func (n *jnode) write(b []byte) []byte {
	switch n.kind {
	case jNull:
		return append(b, "null"...)
	case jTrue:
		return append(b, "true"...)
	case jFalse:
		return append(b, "false"...)
	case jInt, jReal:
		return append(b, n.text...)
	case jString:
		b = append(b, '"')
		return append(append(b, n.text...), '"')
	case jArray:
		b = append(b, '[')
		for i, k := range n.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = k.write(b)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i := 0; i+1 < len(n.kids); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = n.kids[i].write(b)
		b = append(b, ':')
		b = n.kids[i+1].write(b)
	}
	return append(b, '}')
}

// sqlValue converts n to the SQL value json_extract and ->> return.
func (n *jnode) sqlValue() types.Value {
	switch n.kind {
	case jNull:
		return types.Null
	case jTrue:
		return types.NewInt(1)
	case jFalse:
		return types.NewInt(0)
	case jInt:
		if i, err := strconv.ParseInt(n.text, 10, 64); err == nil {
			return types.NewInt(i)
		}
		return types.NewReal(types.NewText(n.text).AsReal())
	case jReal:
		return types.NewReal(types.NewText(n.text).AsReal())
	case jString:
		s, _ := decodeJSONString(n.text)
		return types.NewText(s)
	}
	return types.NewJSON(string(n.write(nil)))
}

// nodeFromValue converts an SQL argument to JSON: text with the JSON
// subtype is parsed, other text becomes a string, numbers stay numbers.
func nodeFromValue(v types.Value) (*jnode, error) {
	switch v.Kind() {
	case types.KindNull:
		return &jnode{kind: jNull}, nil
	case types.KindInt:
		return &jnode{kind: jInt, text: v.Text()}, nil
	case types.KindReal:
		return &jnode{kind: jReal, text: string(AppendQuote(nil, v))}, nil
	case types.KindBlob:
		return nil, errf("JSON cannot hold BLOB values")
	}
	if v.IsJSON() {
		return parseJSON(v.Str(), false)
	}
	return &jnode{kind: jString, text: string(appendJSONStringBody(nil, v.Str()))}, nil
}

// jsonArg parses a JSON function's JSON-text argument.
func jsonArg(v types.Value) (*jnode, error) {
	if v.Kind() == types.KindInt || v.Kind() == types.KindReal {
		return nodeFromValue(v)
	}
	return parseJSON(v.Str(), false)
}

// jsonResult returns n written as TEXT with the JSON subtype.
func jsonResult(c *Context, n *jnode) types.Value {
	b := n.write(c.buf(64))
	c.commit(b)
	return types.NewJSON(unsafeString(b))
}
