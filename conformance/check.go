package conformance

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug"
)

// Outcome is what one engine did with one record.
type Outcome struct {
	Err    error    // the statement's error; nil on success
	Values []string // query result formatted by the record's types, sorted by its mode
	Types  string   // the types used: the record's, or inferred from the result when they do not fit
}

// Run executes rec on t. Halt and hash-threshold records do nothing.
func Run(t *Target, rec *Record) Outcome {
	switch rec.Kind {
	case KindStatement:
		if isQuery(rec.SQL) {
			_, err := t.Query(rec.SQL)
			return Outcome{Err: err}
		}
		_, err := t.Exec(rec.SQL)
		return Outcome{Err: err}
	case KindQuery:
		rows, err := t.Query(rec.SQL)
		if err != nil {
			return Outcome{Err: err}
		}
		return formatRows(rec, rows)
	}
	return Outcome{}
}

func formatRows(rec *Record, rows *Rows) Outcome {
	types := rec.Types
	if len(types) != len(rows.Columns) || strings.Trim(types, "IRT") != "" {
		types = inferTypes(rows)
	}
	out := make([][]string, len(rows.Values))
	for i, row := range rows.Values {
		out[i] = make([]string, len(row))
		for j, v := range row {
			out[i][j] = FormatValue(v, types[j])
		}
	}
	if rec.Sort == RowSort {
		slices.SortStableFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	}
	var vals []string
	for _, r := range out {
		vals = append(vals, r...)
	}
	if rec.Sort == ValueSort {
		slices.Sort(vals)
	}
	return Outcome{Values: vals, Types: types}
}

// inferTypes picks a type per column from the storage classes it holds:
// I for integers only, R when reals (and integers) appear, T as soon as a
// text or blob does, so a mixed column prints every value faithfully.
func inferTypes(rows *Rows) string {
	b := []byte(strings.Repeat("T", len(rows.Columns)))
	for j := range b {
		kind := byte(0)
		for _, row := range rows.Values {
			kind = widen(kind, row[j])
		}
		if kind != 0 {
			b[j] = kind
		}
	}
	return string(b)
}

func widen(kind byte, v any) byte {
	switch v.(type) {
	case nil:
		return kind
	case int64, bool:
		if kind == 0 {
			return 'I'
		}
		return kind
	case float64:
		if kind == 0 || kind == 'I' {
			return 'R'
		}
		return kind
	}
	return 'T'
}

// HashValues is sqllogictest's result hash: md5 of every value followed by
// a newline.
func HashValues(vals []string) string {
	h := md5.New()
	for _, v := range vals {
		h.Write([]byte(v))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Check compares an outcome with the record's expectation; nil means pass.
func Check(rec *Record, o Outcome) error {
	switch rec.Kind {
	case KindStatement:
		return checkStatement(rec, o.Err)
	case KindQuery:
		return checkQuery(rec, o)
	}
	return nil
}

func checkStatement(rec *Record, err error) error {
	switch {
	case !rec.ExpectError && err != nil:
		return fmt.Errorf("statement failed: %w", err)
	case rec.ExpectError && err == nil:
		return fmt.Errorf("statement succeeded, want error %q", rec.ErrorPattern)
	case rec.ExpectError && !MatchError(err, rec.ErrorPattern):
		return fmt.Errorf("error %q does not match %q", err.Error(), rec.ErrorPattern)
	}
	return nil
}

func checkQuery(rec *Record, o Outcome) error {
	if o.Err != nil {
		return fmt.Errorf("query failed: %w", o.Err)
	}
	if o.Types != rec.Types {
		return fmt.Errorf("result has %d columns, types %q say %d", len(o.Types), rec.Types, len(rec.Types))
	}
	if rec.Hash != "" {
		if h := HashValues(o.Values); len(o.Values) != rec.HashCount || h != rec.Hash {
			return fmt.Errorf("got %d values hashing to %s, want %d values hashing to %s",
				len(o.Values), h, rec.HashCount, rec.Hash)
		}
		return nil
	}
	if !slices.Equal(o.Values, rec.Expected) {
		return fmt.Errorf("wrong result\n--- want\n%s\n--- got\n%s", excerpt(rec.Expected), excerpt(o.Values))
	}
	return nil
}

// excerpt shows at most 40 values, one per line.
func excerpt(vals []string) string {
	if len(vals) > 40 {
		return strings.Join(vals[:40], "\n") + fmt.Sprintf("\n... (%d values)", len(vals))
	}
	return strings.Join(vals, "\n")
}

// MatchError reports whether err matches a statement-error pattern: a
// number matches SQLite's extended or primary result code (ladybug's
// ExtendedCode, modernc's Code()), anything else is a case-insensitive
// substring of the message. The empty pattern matches any error.
func MatchError(err error, pattern string) bool {
	if err == nil {
		return false
	}
	if pattern == "" {
		return true
	}
	if n, perr := strconv.Atoi(pattern); perr == nil {
		code, ok := errorCode(err)
		return ok && (code == n || code&0xff == n)
	}
	return strings.Contains(strings.ToLower(err.Error()), strings.ToLower(pattern))
}

func errorCode(err error) (int, bool) {
	var le *ladybug.Error
	if errors.As(err, &le) {
		return le.ExtendedCode, true
	}
	var coder interface{ Code() int }
	if errors.As(err, &coder) {
		return coder.Code(), true
	}
	return 0, false
}

// FirstLine is the first line of an error's text, for the failure list.
func FirstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
