package funcs

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
)

// printf / format follow SQLite's printf.c in its SQL-function mode:
// arguments are read as int64, double or text as each conversion asks,
// missing ones read as 0, 0.0 or NULL, and an unknown conversion ends the
// output. Conversions: d i u x X o c s z q Q w j J f e E g G p r n %, flags
// - + space # ! 0 and ',', widths and precisions (also as *).

// fmtSpec is one parsed conversion.
type fmtSpec struct {
	left, zeroPad, alt, alt2 bool
	prefix                   byte // '+', ' ' or 0
	thousand                 bool
	width                    int64
	precision                int64 // -1: none
	verb                     byte
	scratch                  [80]byte // small bodies are built here, not on the heap
}

// printfArgs hands out printf's arguments in order.
type printfArgs struct {
	a []types.Value
}

func (p *printfArgs) next() (types.Value, bool) {
	if len(p.a) == 0 {
		return types.Null, false
	}
	v := p.a[0]
	p.a = p.a[1:]
	return v, true
}

func (p *printfArgs) int() int64 { v, _ := p.next(); return v.AsInt() }

func (p *printfArgs) real() float64 { v, _ := p.next(); return v.AsReal() }

// text returns the argument's text up to any NUL (C string semantics);
// ok is false for NULL or a missing argument.
func (p *printfArgs) text() (string, bool) {
	v, _ := p.next()
	if v.IsNull() {
		return "", false
	}
	s := textOf(v)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return s, true
}

// printfMaxPrecision is SQLite's SQLITE_FP_PRECISION_LIMIT.
const printfMaxPrecision = 100000000

func fnPrintf(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	out, err := c.sprintf(c.buf(64), textOf(a[0]), a[1:])
	if err != nil {
		return types.Null, err
	}
	return c.text(out), nil
}

// Sprintf appends SQLite's printf(format, args…) to dst.
func Sprintf(dst []byte, format string, args []types.Value) ([]byte, error) {
	return (*Context)(nil).sprintf(dst, format, args)
}

// sprintf is Sprintf under c's length and memory limits.
func (c *Context) sprintf(dst []byte, format string, args []types.Value) ([]byte, error) {
	p := &printfArgs{a: args}
	for len(format) > 0 {
		i := strings.IndexByte(format, '%')
		if i < 0 {
			return append(dst, format...), nil
		}
		dst = append(dst, format[:i]...)
		format = format[i+1:]
		if format == "" {
			return append(dst, '%'), nil
		}
		var spec fmtSpec
		format = spec.parse(format, p)
		// SQLite's accumulator needs room for a terminating NUL too, so a
		// result of MaxLength bytes is already too big.
		if err := c.checkLen(int64(len(dst)) + spec.width + max(spec.precision, 0) + 1); err != nil {
			return nil, err
		}
		var stop bool
		dst, stop = spec.render(dst, p)
		if err := c.checkLen(int64(len(dst)) + 1); err != nil {
			return nil, err
		}
		if stop {
			return dst, nil
		}
	}
	return dst, nil
}

// parse reads flags, width, precision, length modifiers and the verb.
func (s *fmtSpec) parse(f string, p *printfArgs) string {
	s.precision = -1
	i := 0
	for ; i < len(f); i++ {
		switch f[i] {
		case '-':
			s.left = true
		case '+':
			s.prefix = '+'
		case ' ':
			s.prefix = ' '
		case '#':
			s.alt = true
		case '!':
			s.alt2 = true
		case '0':
			s.zeroPad = true
		case ',':
			s.thousand = true
		default:
			goto width
		}
	}
width:
	if i < len(f) && f[i] == '*' {
		// SQLite takes the argument as a C int: the low 32 bits, and a
		// negative width left-justifies (INT_MIN gives width 0).
		w := int64(int32(p.int()))
		if w < 0 {
			s.left = true
			w = -w
			if w > 0x7fffffff {
				w = 0
			}
		}
		s.width = w
		i++
	} else {
		i = readNum(f, i, &s.width)
	}
	if i < len(f) && f[i] == '.' {
		i++
		if i < len(f) && f[i] == '*' {
			// As for the width: a C int; a negative one counts as
			// positive, INT_MIN as no precision.
			pr := int64(int32(p.int()))
			if pr < 0 {
				pr = -pr
				if pr > 0x7fffffff {
					pr = -1
				}
			}
			s.precision = pr
			i++
		} else {
			s.precision = 0
			i = readNum(f, i, &s.precision)
		}
	}
	for i < len(f) && f[i] == 'l' {
		i++
	}
	if i < len(f) {
		s.verb = f[i]
		i++
	}
	return f[i:]
}

func readNum(f string, i int, dst *int64) int {
	var n int64
	for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
		n = n*10 + int64(f[i]-'0')
		if n > 0x7fffffff {
			n = 0x7fffffff
		}
	}
	*dst = max(*dst, n)
	return i
}

// render appends one conversion; stop reports an unknown verb, which ends
// the output as in SQLite.
func (s *fmtSpec) render(dst []byte, p *printfArgs) ([]byte, bool) {
	switch s.verb {
	case 'd', 'i':
		return s.pad(dst, s.integer(s.scratch[:0], p.int(), true, 10, hexUpper, "")), false
	case 'u':
		return s.pad(dst, s.integer(s.scratch[:0], p.int(), false, 10, hexUpper, "")), false
	case 'x':
		return s.pad(dst, s.integer(s.scratch[:0], p.int(), false, 16, hexLower, "")), false
	case 'X', 'p':
		return s.pad(dst, s.integer(s.scratch[:0], p.int(), false, 16, hexUpper, "")), false
	case 'o':
		return s.pad(dst, s.integer(s.scratch[:0], p.int(), false, 8, hexUpper, "")), false
	case 'r':
		v := p.int()
		return s.pad(dst, s.integer(s.scratch[:0], v, true, 10, hexUpper, ordinalSuffix(v))), false
	case 'f', 'e', 'E', 'g', 'G':
		return s.float(dst, p.real()), false
	case 's', 'z':
		t, _ := p.text()
		return s.padChars(dst, []byte(s.clip(t))), false
	case 'c':
		return s.char(dst, p), false
	case 'q', 'Q', 'w':
		t, ok := p.text()
		return s.padChars(dst, s.escape(t, ok)), false
	case 'j', 'J':
		t, ok := p.text()
		return s.padChars(dst, s.jsonEscape(t, ok)), false
	case '%':
		return s.pad(dst, []byte{'%'}), false
	case 'n':
		return dst, false
	}
	return dst, true
}

const (
	hexUpper = "0123456789ABCDEF"
	hexLower = "0123456789abcdef"
)

// integer renders %d %u %x %X %o %p and %r (whose suffix counts toward
// the precision, as in SQLite, and which takes no ',' grouping).
func (s *fmtSpec) integer(b []byte, v int64, signed bool, base uint64, digits, suffix string) []byte {
	u := uint64(v)
	var sign byte
	if signed {
		if v < 0 {
			u, sign = uint64(-v), '-'
		} else {
			sign = s.prefix
		}
	}
	alt := s.alt && u != 0
	prec := s.precision
	if s.zeroPad && prec < s.width-boolInt(sign != 0) {
		prec = s.width - boolInt(sign != 0)
	}
	var tmp [24]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = digits[u%base]
		u /= base
		if u == 0 {
			break
		}
	}
	var bodyBuf [32]byte
	body := append(append(bodyBuf[:0], tmp[i:]...), suffix...)
	if sign != 0 {
		b = append(b, sign)
	}
	if alt {
		switch {
		case base == 16 && digits[10] == 'a':
			b = append(b, '0', 'x')
		case base == 16:
			b = append(b, '0', 'X')
		case base == 8:
			b = append(b, '0')
		}
	}
	var digitBuf [64]byte
	all := digitBuf[:0] // zero padding beyond 64 digits moves to the heap
	for n := int64(len(body)); n < prec; n++ {
		all = append(all, '0')
	}
	all = append(all, body...)
	if s.thousand && base == 10 && suffix == "" {
		return appendThousands(b, all)
	}
	return append(b, all...)
}

// appendThousands writes digits with ',' every three from the right.
func appendThousands(b, digits []byte) []byte {
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, d)
	}
	return b
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// ordinalSuffix is %r's English suffix: 1st 2nd 3rd 4th 11th 21st.
func ordinalSuffix(v int64) string {
	u := uint64(v)
	if v < 0 {
		u = uint64(-v)
	}
	x := u % 10
	if x >= 4 || (u/10)%10 == 1 {
		x = 0
	}
	return "thstndrd"[2*x : 2*x+2]
}

// pad applies the field width in bytes.
func (s *fmtSpec) pad(dst, body []byte) []byte {
	n := s.width - int64(len(body))
	if n <= 0 {
		return append(dst, body...)
	}
	if s.left {
		return appendSpaces(append(dst, body...), n)
	}
	return append(appendSpaces(dst, n), body...)
}

// padChars is pad where '!' makes the width count characters.
func (s *fmtSpec) padChars(dst, body []byte) []byte {
	if s.alt2 && s.width > 0 {
		w := s.width
		for _, c := range body {
			if c&0xc0 == 0x80 {
				w++
			}
		}
		t := *s
		t.width = w
		return t.pad(dst, body)
	}
	return s.pad(dst, body)
}

func appendSpaces(b []byte, n int64) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// clip applies %s's precision: bytes, or characters with '!'.
func (s *fmtSpec) clip(t string) string {
	if s.precision < 0 {
		return t
	}
	if !s.alt2 {
		return t[:min(int64(len(t)), s.precision)]
	}
	i := 0
	for n := s.precision; n > 0 && i < len(t); n-- {
		i = nextChar(t, i)
	}
	return t[:i]
}

func (s *fmtSpec) char(dst []byte, p *printfArgs) []byte {
	t, ok := p.text()
	ch := "\x00"
	if ok && t != "" {
		ch = t[:nextCharMax4(t)]
	}
	n := max(s.precision, 1)
	body := make([]byte, 0, int64(len(ch))*n)
	for ; n > 0; n-- {
		body = append(body, ch...)
	}
	t2 := *s
	t2.alt2 = true
	return t2.padChars(dst, body)
}

// nextCharMax4 is the byte length of t's first character, at most 4.
func nextCharMax4(t string) int {
	n := 1
	if t[0]&0xc0 == 0xc0 {
		for n < len(t) && n < 4 && t[n]&0xc0 == 0x80 {
			n++
		}
	}
	return n
}

// escape renders %q, %Q and %w; precision limits the input taken.
func (s *fmtSpec) escape(t string, ok bool) []byte {
	q := byte('\'')
	if s.verb == 'w' {
		q = '"'
	}
	if !ok {
		if s.verb == 'Q' {
			t = "NULL"
		} else {
			t = "(NULL)"
		}
	}
	in := t
	if s.precision >= 0 {
		in = s.clip(t)
	}
	b := make([]byte, 0, len(in)+2)
	quote := ok && s.verb == 'Q'
	if quote {
		b = append(b, q)
	}
	for i := 0; i < len(in); i++ {
		b = append(b, in[i])
		if in[i] == q {
			b = append(b, q)
		}
	}
	if quote {
		b = append(b, q)
	}
	return b
}

// jsonEscape renders %j (JSON string body) and %J (with quotes).
func (s *fmtSpec) jsonEscape(t string, ok bool) []byte {
	if !ok {
		if s.verb == 'J' {
			return []byte("null")
		}
		return nil
	}
	var b []byte
	if s.verb == 'J' {
		b = append(b, '"')
	}
	b = appendJSONStringBody(b, s.clip(t))
	if s.verb == 'J' {
		b = append(b, '"')
	}
	return b
}
