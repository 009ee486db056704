package funcs

import "github.com/ladybugsql/ladybug/engine/types"

// concatAgg is group_concat(X [, SEP]) and string_agg(X, SEP): the text of
// the non-NULL X joined by the SEP given on each row (default ","; a NULL
// SEP joins with nothing); NULL when no row contributed.
type concatAgg struct {
	buf   []byte
	start int   // buf[start:] is the live text; Inverse advances it
	items []int // per live item after the first: its separator length
	first int   // index in items of the oldest live separator
	n     int   // live items
}

func (a *concatAgg) sep(args []types.Value) string {
	if len(args) < 2 {
		return ","
	}
	if args[1].IsNull() {
		return ""
	}
	return textOf(args[1])
}

func (a *concatAgg) Step(args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	if a.n > 0 {
		s := a.sep(args)
		a.buf = append(a.buf, s...)
		a.items = append(a.items, len(s))
	}
	a.buf = args[0].AppendText(a.buf)
	a.n++
	if int64(len(a.buf)-a.start) > MaxLength {
		return ErrTooBig
	}
	return nil
}

// Inverse removes the oldest value and the separator after it.
func (a *concatAgg) Inverse(args []types.Value) error {
	if args[0].IsNull() || a.n == 0 {
		return nil
	}
	drop := len(textOf(args[0]))
	a.n--
	if a.n > 0 {
		drop += a.items[a.first]
		a.first++
	}
	a.start = min(a.start+drop, len(a.buf))
	if a.n == 0 {
		a.Reset()
	} else if a.start > len(a.buf)/2 && a.start > 4096 {
		// Compact so a long sliding window does not grow without bound.
		a.buf = append(a.buf[:0], a.buf[a.start:]...)
		a.items = append(a.items[:0], a.items[a.first:]...)
		a.start, a.first = 0, 0
	}
	return nil
}

func (a *concatAgg) Final() (types.Value, error) {
	if a.n == 0 {
		return types.Null, nil
	}
	return types.NewText(string(a.buf[a.start:])), nil
}

func (a *concatAgg) Reset() {
	a.buf, a.items = a.buf[:0], a.items[:0]
	a.start, a.first, a.n = 0, 0, 0
}
