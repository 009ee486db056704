package funcs

import "github.com/ladybugsql/ladybug/engine/types"

// concatAgg is group_concat(X [, SEP]) and string_agg(X, SEP): the text of
// the non-NULL X joined by the SEP given on each row (default ","; a NULL
// SEP joins with nothing); NULL when no row contributed.
//
// Its state mirrors SQLite's GroupConcatCtx so that window frames, which
// remove the oldest value with Inverse, produce SQLite's exact text: the
// separator lengths are tracked only once they vary, and a frame whose
// text becomes empty starts over as if no value had been seen.
type concatAgg struct {
	buf        []byte
	start      int   // buf[start:] is the live text
	nAccum     int   // values accumulated and not removed
	firstSep   int   // length of the separator used so far, while uniform
	sepLens    []int // per-value separator lengths once they vary, oldest first
	tracking   bool  // sepLens is in use
	fresh      bool  // no text yet: the next value takes no separator
	allocated  bool  // some text was ever appended since fresh
	notInitial bool  // fresh is meaningful (false: zero value, also fresh)
}

func (a *concatAgg) isFresh() bool { return !a.notInitial || a.fresh }

func (a *concatAgg) Step(args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	first := a.isFresh()
	a.fresh, a.notInitial = false, true
	switch {
	case len(args) == 1 && !first:
		a.appendBytes(",")
	case len(args) == 1:
		a.firstSep = 1
	case !first:
		sep := ""
		if !args[1].IsNull() {
			sep = textOf(args[1])
		}
		a.appendBytes(sep)
		a.trackSep(len(sep))
	default:
		a.firstSep = 0
		if !args[1].IsNull() {
			a.firstSep = len(textOf(args[1]))
		}
	}
	a.nAccum++
	a.appendBytes(textOf(args[0]))
	return checkAggLen(a.buf[a.start:])
}

// Size is the bytes the text and its separator lengths hold.
func (a *concatAgg) Size() int64 { return int64(cap(a.buf)) + 8*int64(cap(a.sepLens)) }

func (a *concatAgg) appendBytes(s string) {
	if s != "" {
		a.buf = append(a.buf, s...)
		a.allocated = true
	}
}

// trackSep records the separator before the newest value once lengths
// differ from the first one.
func (a *concatAgg) trackSep(n int) {
	if n == a.firstSep && !a.tracking {
		return
	}
	if !a.tracking {
		a.sepLens = a.sepLens[:0]
		for i := 0; i < a.nAccum-1; i++ {
			a.sepLens = append(a.sepLens, a.firstSep)
		}
		a.tracking = true
	}
	for len(a.sepLens) < a.nAccum {
		a.sepLens = append(a.sepLens, 0)
	}
	a.sepLens[a.nAccum-1] = n
}

// Inverse removes the oldest value and the separator after it.
func (a *concatAgg) Inverse(args []types.Value) error {
	if args[0].IsNull() {
		return nil
	}
	drop := len(textOf(args[0]))
	a.nAccum--
	if a.tracking {
		if a.nAccum > 0 && len(a.sepLens) > 0 {
			drop += a.sepLens[0]
			a.sepLens = a.sepLens[1:]
		}
	} else {
		drop += a.firstSep
	}
	a.start = min(a.start+drop, len(a.buf))
	if a.start == len(a.buf) {
		a.buf, a.start = a.buf[:0], 0
		a.fresh, a.allocated = true, false
		a.sepLens, a.tracking = a.sepLens[:0], false
	} else if a.start > len(a.buf)/2 && a.start > 4096 {
		a.buf = append(a.buf[:0], a.buf[a.start:]...)
		a.start = 0
	}
	return nil
}

func (a *concatAgg) Final() (types.Value, error) {
	live := a.buf[a.start:]
	switch {
	case a.nAccum > 0 && len(live) == 0:
		return types.NewText(""), nil
	case !a.allocated:
		return types.Null, nil
	}
	return types.NewText(string(live)), nil
}

func (a *concatAgg) Reset() {
	buf, seps := a.buf[:0], a.sepLens[:0]
	*a = concatAgg{buf: buf, sepLens: seps}
}
