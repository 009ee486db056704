package funcs

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
)

// Kind says how the executor drives a function.
type Kind uint8

// The kinds of function.
const (
	// KindScalar functions map one row's arguments to a value (Func.Scalar).
	KindScalar Kind = iota
	// KindAggregate functions fold rows (Func.NewAggregate); they also run
	// as window aggregates over frames.
	KindAggregate
	// KindWindow functions exist only with OVER (row_number, lag…); the
	// executor computes them with the helpers in window.go.
	KindWindow
)

// ScalarFunc evaluates a scalar function. args has a length the Func
// accepts; the result may alias args or c's arena (see Context).
type ScalarFunc func(c *Context, args []types.Value) (types.Value, error)

// Func describes one function overload: a name and an argument-count range.
// min and max, for example, have a scalar overload (2+ arguments) and an
// aggregate one (1 argument).
type Func struct {
	Name    string
	Kind    Kind
	MinArgs int
	MaxArgs int // -1: no upper bound
	// Deterministic functions return the same result for the same
	// arguments within a statement; the planner may fold or cache them.
	// random(), changes(), date('now')… are not.
	Deterministic bool
	Scalar        ScalarFunc       // KindScalar
	NewAggregate  func() Aggregate // KindAggregate
}

// accepts reports whether f takes n arguments.
func (f *Func) accepts(n int) bool {
	return n >= f.MinArgs && (f.MaxArgs < 0 || n <= f.MaxArgs)
}

var registry = map[string][]*Func{}

func init() {
	for _, group := range [][]*Func{
		coreFuncs, textFuncs, mathFuncs, dateFuncs, jsonFuncs, matchFuncs,
		aggregateFuncs, windowFuncs, extraFuncs,
	} {
		for _, f := range group {
			registry[f.Name] = append(registry[f.Name], f)
		}
	}
}

// Lookup returns the overload of name (any case) taking nargs arguments.
func Lookup(name string, nargs int) (*Func, bool) {
	for _, f := range registry[strings.ToLower(name)] {
		if f.accepts(nargs) {
			return f, true
		}
	}
	return nil, false
}

// Resolve is Lookup with SQLite's errors: "no such function: X" for an
// unknown name, "wrong number of arguments to function X()" for a known
// name called with a bad count.
func Resolve(name string, nargs int) (*Func, error) {
	if f, ok := Lookup(name, nargs); ok {
		return f, nil
	}
	if _, known := registry[strings.ToLower(name)]; known {
		return nil, errWrongArgs(name)
	}
	return nil, errNoSuchFunc(name)
}

// Exists reports whether any overload of name exists.
func Exists(name string) bool {
	_, ok := registry[strings.ToLower(name)]
	return ok
}

// scalar builds a deterministic scalar overload.
func scalar(name string, minArgs, maxArgs int, fn ScalarFunc) *Func {
	return &Func{Name: name, Kind: KindScalar, MinArgs: minArgs, MaxArgs: maxArgs, Deterministic: true, Scalar: fn}
}

// volatile builds a non-deterministic scalar overload.
func volatile(name string, minArgs, maxArgs int, fn ScalarFunc) *Func {
	f := scalar(name, minArgs, maxArgs, fn)
	f.Deterministic = false
	return f
}

// anyNull reports whether any argument is NULL, the common early return.
func anyNull(args []types.Value) bool {
	for _, a := range args {
		if a.IsNull() {
			return true
		}
	}
	return false
}
