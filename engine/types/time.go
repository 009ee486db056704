package types

import (
	"strings"
	"time"
)

// TimeLayout is the text form ladybug stores a time.Time in: UTC,
// nanoseconds without trailing zeros, explicit "+00:00". SQLite's date
// functions read it, and because every stored time is UTC, byte order is
// time order ('+' sorts before '.', so "…:05+00:00" < "…:05.5+00:00").
const TimeLayout = "2006-01-02 15:04:05.999999999-07:00"

// timeLayouts are the forms ParseTime accepts, the ones SQLite's date
// functions and common SQLite programs write.
var timeLayouts = []string{
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04-07:00",
	"2006-01-02T15:04-07:00",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
}

// FormatTime renders t in TimeLayout, converted to UTC.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// AppendTime appends FormatTime(t) to dst.
func AppendTime(dst []byte, t time.Time) []byte { return t.UTC().AppendFormat(dst, TimeLayout) }

// ParseTime parses the text forms of a time SQLite programs store
// ("YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS[.fff]]" with a space or 'T', an
// optional "Z" or ±HH:MM zone), returning it in UTC.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") {
		s = s[:len(s)-1] + "+00:00"
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, ErrBadTime
}

// TimeOf converts a stored value to a time by SQLite's conventions for
// dates: text by ParseTime, an INTEGER as Unix seconds, a REAL as a Julian
// day number (what julianday() returns). ok is false for NULL, blobs, text
// in no known form and reals outside the Julian range SQLite accepts.
func TimeOf(v Value) (t time.Time, ok bool) {
	switch v.k {
	case KindText:
		t, err := ParseTime(v.s)
		return t, err == nil
	case KindInt:
		return time.Unix(v.i, 0).UTC(), true
	case KindReal:
		jd := v.Real()
		if !(jd >= 0 && jd < 5373484.5) {
			return time.Time{}, false
		}
		ms := int64(jd*86400000+0.5) - unixEpochJulianMs
		return time.UnixMilli(ms).UTC(), true
	}
	return time.Time{}, false
}

// unixEpochJulianMs is 1970-01-01 00:00 UTC as a Julian day in ms.
const unixEpochJulianMs = 210866760000000

// NewTime returns t as the TEXT value a ClassTime column stores.
func NewTime(t time.Time) Value { return NewText(FormatTime(t)) }
