package conformance

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// FormatValue renders one result value the way sqllogictest does for a
// column of type typ ('I', 'R' or 'T'): NULL as "NULL", I as an integer
// (a real is truncated, a text converted by its numeric prefix), R with three
// decimals, T as text with "(empty)" for the empty string and control
// characters as '@'. Blobs print as text, bytes outside printable ASCII as
// '@'; time.Time (ladybug's DATE/DATETIME columns, modernc's too) prints in
// SQLite's text form and bool as 1 or 0.
func FormatValue(v any, typ byte) string {
	if v == nil {
		return "NULL"
	}
	switch typ {
	case 'I':
		return formatInt(v)
	case 'R':
		return strconv.FormatFloat(toFloat(v), 'f', 3, 64)
	default:
		return formatText(v)
	}
}

func formatInt(v any) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		if x {
			return "1"
		}
		return "0"
	case float64:
		return strconv.FormatInt(floatToInt(x), 10)
	default:
		return strconv.FormatInt(floatToInt(numericPrefix(textOf(v))), 10)
	}
}

// floatToInt converts like sqlite3_column_int64: truncation, saturating.
func floatToInt(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	case bool:
		if x {
			return 1
		}
		return 0
	default:
		return numericPrefix(textOf(v))
	}
}

// numericPrefix parses the longest numeric prefix of s, as SQLite does when
// it reads a text as a number; no prefix gives 0.
func numericPrefix(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\r")
	for end := len(s); end > 0; end-- {
		if f, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return f
		}
	}
	return 0
}

func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return FormatReal(x)
	case bool:
		return formatInt(x)
	case time.Time:
		return formatTime(x)
	default:
		return fmt.Sprint(x)
	}
}

func formatText(v any) string {
	s := textOf(v)
	if s == "" {
		return "(empty)"
	}
	_, blob := v.([]byte)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c == 0x7f || blob && c > 0x7f {
			c = '@'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// formatTime prints t as SQLite's datetime text, with fractional seconds
// only when present.
func formatTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond() != 0 {
		return t.Format("2006-01-02 15:04:05.999999999")
	}
	return t.Format("2006-01-02 15:04:05")
}

// FormatReal renders f as SQLite's CAST(f AS TEXT) does: the shortest
// digits that read back as f, always with a decimal point, exponent form
// below 1e-4 and from 1e17 on, Inf/-Inf for infinities.
func FormatReal(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case math.IsNaN(f):
		return "NaN"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	n, _ := strconv.Atoi(exp)
	if f != 0 && (n < -4 || n >= 17) {
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		sign := "+"
		if n < 0 {
			sign, n = "-", -n
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, n)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
