package types

import (
	"strings"
	"time"
)

// Class is the Go-facing class of a column, beside its affinity: it says
// how the driver hands values back (bool, time.Time) and what extra
// conversion storing applies. It never changes how SQL compares values.
type Class uint8

// The classes.
const (
	// ClassPlain columns map values by storage class.
	ClassPlain Class = iota
	// ClassBool columns (declared BOOLEAN or BOOL) store 0/1 and read back
	// as bool.
	ClassBool
	// ClassTime columns (declared DATE, DATETIME, TIMESTAMP, TIMESTAMPTZ)
	// store text in FormatTime's form and read back as time.Time in UTC.
	ClassTime
)

// ColumnType is what a declared type name means for storage.
type ColumnType struct {
	Affinity Affinity
	Class    Class
	DateOnly bool // declared DATE: midnight times are stored as YYYY-MM-DD
}

// ParseColumnType derives affinity and class from a declared type name
// ("VARCHAR(20)", "BOOLEAN", "TIMESTAMP WITH TIME ZONE", "").
func ParseColumnType(decl string) ColumnType {
	return ColumnType{Affinity: AffinityOf(decl), Class: ClassOf(decl), DateOnly: firstWord(decl) == "DATE"}
}

// StoreTime returns the TEXT a time.Time argument is stored as in this
// column: "YYYY-MM-DD" in a DATE column when the time is a UTC midnight
// (what SQLite's date() writes), otherwise FormatTime's full form.
func (ct ColumnType) StoreTime(t time.Time) Value {
	u := t.UTC()
	if ct.DateOnly && u.Hour() == 0 && u.Minute() == 0 && u.Second() == 0 && u.Nanosecond() == 0 {
		return NewText(u.Format("2006-01-02"))
	}
	return NewTime(t)
}

func firstWord(decl string) string {
	w := strings.ToUpper(strings.TrimSpace(decl))
	if i := strings.IndexAny(w, " (\t\n"); i >= 0 {
		w = w[:i]
	}
	return w
}

// ClassOf returns the Go-facing class of a declared type name, judged by
// its first word.
func ClassOf(decl string) Class {
	switch firstWord(decl) {
	case "BOOLEAN", "BOOL":
		return ClassBool
	case "DATE", "DATETIME", "TIMESTAMP", "TIMESTAMPTZ":
		return ClassTime
	}
	return ClassPlain
}

// Store converts v for storing in a column of type ct: the affinity first,
// then, for a BOOLEAN column, the texts 'true'/'false' (any case, as
// PostgreSQL spells them) become 1/0. Other values keep SQLite's behaviour
// so data written by SQLite programs reads back the same.
func (ct ColumnType) Store(v Value) Value {
	if ct.Class == ClassBool && v.k == KindText {
		switch {
		case strings.EqualFold(v.s, "true"):
			return NewInt(1)
		case strings.EqualFold(v.s, "false"):
			return NewInt(0)
		}
	}
	return ct.Affinity.Apply(v)
}
