package conformance

import "strings"

// Engine names used by skipif/onlyif and in reports.
const (
	EngineLadybug = "ladybug"
	EngineSQLite  = "sqlite"
)

// Kind is the kind of a sqllogictest record.
type Kind int

// Record kinds.
const (
	KindStatement     Kind = iota + 1 // statement ok / statement error
	KindQuery                         // query <types> [sort]
	KindHalt                          // halt: stop reading the file
	KindHashThreshold                 // hash-threshold N
)

// SortMode says how result values are ordered before comparison.
type SortMode int

// Sort modes of a query record.
const (
	NoSort    SortMode = iota // compare in the order returned
	RowSort                   // sort rows, then compare
	ValueSort                 // sort every value on its own, then compare
)

// String returns the mode's keyword as written in a .test file.
func (m SortMode) String() string {
	switch m {
	case RowSort:
		return "rowsort"
	case ValueSort:
		return "valuesort"
	default:
		return "nosort"
	}
}

// Condition is one skipif/onlyif line before a record.
type Condition struct {
	Only   bool   // onlyif when true, skipif when false
	Engine string // engine name, lower case
}

// Record is one sqllogictest record with its position in the file.
type Record struct {
	File       string // base name of the .test file
	Line       int    // 1-based line of the record's header
	Kind       Kind
	Conditions []Condition
	SQL        string

	// statement
	ExpectError  bool
	ErrorPattern string // substring (case-insensitive) or SQLite result code; "" is any error

	// query
	Types     string // one letter per column: I, R or T
	Sort      SortMode
	HasResult bool     // the record has a ---- section
	Expected  []string // expected values, row-major, when not hashed
	HashCount int      // number of values when the result is hashed
	Hash      string   // md5 of the values, "" when not hashed
	Threshold int      // hash-threshold N value for KindHashThreshold
	headerIdx int      // 0-based index of the header line
	resultIdx int      // 0-based index of the "----" line, or where it goes
	resultEnd int      // 0-based index one past the last result line
}

// Key is the record's identity in the known-failures list: "file:line".
func (r *Record) Key() string { return r.File + ":" + itoa(r.Line) }

// AppliesTo reports whether the record runs on engine, after its
// skipif/onlyif conditions.
func (r *Record) AppliesTo(engine string) bool {
	for _, c := range r.Conditions {
		match := strings.EqualFold(c.Engine, engine)
		if c.Only && !match || !c.Only && match {
			return false
		}
	}
	return true
}
