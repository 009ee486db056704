// Package oracle holds what the generators share: operands in the
// notation the test tables use, conversions to ladybug values, rendering
// as SQLite's typeof||' '||quote, and a deterministic Env.
package oracle

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/types"
	_ "modernc.org/sqlite" // the oracle
)

// Operand is a test value: Code is its table notation (n, i:1, r:2.5,
// t:abc, b:hex) and V what database/sql binds.
type Operand struct {
	Code string
	V    any
}

// Null is the NULL operand.
var Null = Operand{Code: "n"}

// I, R, T and B build integer, real, text and blob operands.
func I(x int64) Operand   { return Operand{Code: "i:" + strconv.FormatInt(x, 10), V: x} }
func R(x float64) Operand { return Operand{Code: "r:" + strconv.FormatFloat(x, 'g', -1, 64), V: x} }
func T(x string) Operand  { return Operand{Code: "t:" + x, V: x} }
func B(x string) Operand  { return Operand{Code: "b:" + hex.EncodeToString([]byte(x)), V: []byte(x)} }

// Code is the table notation of a bound Go value.
func Code(a any) string {
	switch x := a.(type) {
	case nil:
		return "n"
	case int64:
		return I(x).Code
	case float64:
		return R(x).Code
	case string:
		return T(x).Code
	case []byte:
		return B(string(x)).Code
	}
	panic("oracle: unsupported value")
}

// Value converts a bound Go value to a ladybug value.
func Value(a any) types.Value {
	switch x := a.(type) {
	case nil:
		return types.Null
	case int64:
		return types.NewInt(x)
	case float64:
		return types.NewReal(x)
	case string:
		return types.NewText(x)
	case []byte:
		return types.NewBlob(x)
	}
	panic("oracle: unsupported value")
}

// Render prints v as SQLite's typeof(v)||' '||quote(v).
func Render(v types.Value) string { return v.Kind().String() + " " + string(funcs.AppendQuote(nil, v)) }

// Env is a session for ladybug's functions with the wall clock.
type Env struct{}

func (Env) Changes() int64         { return 0 }
func (Env) TotalChanges() int64    { return 0 }
func (Env) LastInsertRowid() int64 { return 0 }
func (Env) Now() time.Time         { return time.Now() }

// CreateOut creates the file named by $OUT, where a generator writes its
// recorded answers, or ends the program with the reason.
func CreateOut() *os.File {
	out, err := os.Create(os.Getenv("OUT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "oraclegen: $OUT:", err)
		os.Exit(2)
	}
	return out
}

// Open returns a one-connection in-memory SQLite.
func Open() *sql.DB {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// DigestOver is the result length above which Row records a result as
// Digest(result) instead of its text: engine/funcs' replay hashes its own
// result the same way, so a megabyte of printf padding costs one short line.
const DigestOver = 1024

// Digest is "digest <bytes> <sha256 hex>" of a rendered result.
func Digest(result string) string {
	return fmt.Sprintf("digest %d %x", len(result), sha256.Sum256([]byte(result)))
}

// Row formats one table line: name, Go-quoted operand codes, result
// (Go-quoted when it holds a newline or tab; Digest when longer than
// DigestOver).
func Row(name string, codes []string, result string) string {
	if len(result) > DigestOver {
		result = Digest(result)
	}
	cols := []string{name}
	for _, c := range codes {
		cols = append(cols, strconv.Quote(c))
	}
	if strings.ContainsAny(result, "\n\t\r") {
		result = strconv.Quote(result)
	}
	return strings.Join(append(cols, result), "\t")
}

// Codes maps bound Go values to their codes.
func Codes(args []any) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = Code(a)
	}
	return out
}

// Mismatches counts a generator's disagreements with SQLite and prints the
// first 30.
type Mismatches int

// Check counts and reports name(args) when got differs from SQLite's want.
func (m *Mismatches) Check(name string, args []any, got, want string) {
	if got == want {
		return
	}
	*m++
	if *m < 30 {
		fmt.Printf("%s(%q) = %s; sqlite %s\n", name, args, got, want)
	}
}
