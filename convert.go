package ladybug

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/ladybugsql/ladybug/engine"
)

// timeFormat is how a time.Time argument is stored: SQLite's text form,
// in UTC, which sorts in time order and which SQLite's date functions read.
const timeFormat = "2006-01-02 15:04:05.999999999-07:00"

// convertArg normalises a Go argument to one of the driver.Value types the
// engine stores: int64, float64, bool, string, []byte, time.Time or nil.
// driver.ErrSkip hands anything else (pointers, named types, Valuers that
// return those) to database/sql's default converter.
func convertArg(v any) (any, error) {
	switch x := v.(type) {
	case nil, int64, float64, bool, string, []byte, time.Time:
		return v, nil
	case json.RawMessage:
		return string(x), nil
	case int:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case uint:
		return uintArg(uint64(x))
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		return uintArg(x)
	case float32:
		return float64(x), nil
	case driver.Valuer:
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return nil, nil
		}
		dv, err := x.Value()
		if err != nil {
			return nil, err
		}
		return convertArg(dv)
	}
	return nil, driver.ErrSkip
}

func uintArg(u uint64) (any, error) {
	if u > math.MaxInt64 {
		return nil, fmt.Errorf("uint64 value %d is larger than the largest INTEGER (%d)", u, int64(math.MaxInt64))
	}
	return int64(u), nil
}

// engineArgsInto turns database/sql arguments into engine arguments,
// writing into buf when it has room, so a statement with a few arguments
// converts them without allocating. With borrow, a []byte argument is
// used in place rather than copied: only for a call that is complete when
// it returns (Exec), so nothing reads the caller's bytes afterwards; a
// 100 MB blob written by Exec is then not copied once more.
func engineArgsInto(buf []engine.Arg, args []driver.NamedValue, borrow bool) ([]engine.Arg, error) {
	if len(args) == 0 {
		return nil, nil
	}
	var out []engine.Arg
	if len(args) <= cap(buf) {
		out = buf[:len(args)]
	} else {
		out = make([]engine.Arg, len(args))
	}
	for i := range args {
		if b, ok := args[i].Value.([]byte); ok && borrow && b != nil {
			out[i] = engine.Arg{Ordinal: args[i].Ordinal, Name: args[i].Name, Value: engine.NewBlob(b)}
			continue
		}
		v, err := toValue(args[i].Value)
		if err != nil {
			return nil, fmt.Errorf("ladybug: argument %s: %w", argName(&args[i]), err)
		}
		out[i] = engine.Arg{Ordinal: args[i].Ordinal, Name: args[i].Name, Value: v}
	}
	return out, nil
}

// toValue converts one normalised argument to an engine value. []byte is
// copied: the caller may reuse its buffer once the call returns.
func toValue(a any) (engine.Value, error) {
	switch x := a.(type) {
	case nil:
		return engine.Null, nil
	case int64:
		return engine.NewInt(x), nil
	case int:
		return engine.NewInt(int64(x)), nil
	case float64:
		return engine.NewReal(x), nil
	case bool:
		return engine.NewBool(x), nil
	case string:
		return engine.NewText(x), nil
	case []byte:
		if x == nil {
			return engine.Null, nil
		}
		return engine.NewBlob(append([]byte{}, x...)), nil
	case time.Time:
		return engine.NewText(x.UTC().Format(timeFormat)), nil
	}
	v, err := convertArg(a)
	if err != nil {
		return engine.Null, err
	}
	if v == nil || reflect.TypeOf(v) != reflect.TypeOf(a) {
		return toValue(v)
	}
	return engine.Null, fmt.Errorf("unsupported type %T", a)
}

// fromValue converts an engine value to what database/sql receives, by the
// column's declared type: BOOLEAN columns give bool, DATE/DATETIME/TIMESTAMP
// columns give time.Time when the stored value reads as a time. Text and
// blob bytes are copied so the caller may keep them.
func fromValue(v engine.Value, kind declKind, loc *time.Location) driver.Value {
	switch v.Kind() {
	case engine.KindNull:
		return nil
	case engine.KindInt:
		switch kind {
		case declBool:
			return v.Int() != 0
		case declTime:
			return inLoc(time.Unix(v.Int(), 0), loc)
		}
		return v.Int()
	case engine.KindReal:
		if kind == declTime {
			return inLoc(julianToTime(v.Real()), loc)
		}
		return v.Real()
	case engine.KindText:
		if kind == declTime {
			if t, ok := parseTime(v.Str()); ok {
				return inLoc(t, loc)
			}
		}
		return strings.Clone(v.Str())
	case engine.KindBlob:
		return append([]byte{}, v.Bytes()...)
	}
	return nil
}

func inLoc(t time.Time, loc *time.Location) time.Time {
	if loc == nil {
		return t.UTC()
	}
	return t.In(loc)
}

// julianToTime converts a Julian day number, SQLite's REAL time form.
func julianToTime(jd float64) time.Time {
	ms := int64(math.Round((jd - 2440587.5) * 86400000))
	return time.UnixMilli(ms)
}

// timeLayouts are the text forms SQLite programs store, most common first.
var timeLayouts = []string{
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999 -0700 MST",
}

// parseTime reads a stored time; text without a zone is UTC.
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t, true
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(n, 0), true
	}
	return time.Time{}, false
}
