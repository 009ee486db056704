package plan

import "github.com/ladybugsql/ladybug/grammar"

// Conflict is a write's conflict resolution, resolved from the statement's
// OR clause (INSERT OR …, UPDATE OR …, REPLACE INTO) when it is bound, or
// from a constraint's ON CONFLICT clause as the catalog records it.
type Conflict uint8

// Conflict resolutions. ConflictDefault is "none given": a constraint's
// own ON CONFLICT clause decides, and ABORT when it has none.
const (
	ConflictDefault Conflict = iota
	ConflictRollback
	ConflictAbort
	ConflictFail
	ConflictIgnore
	ConflictReplace
)

// conflictOf is the resolution of a parsed OR clause.
func conflictOf(a grammar.ConflictAction) Conflict {
	switch a {
	case grammar.ConflictRollback:
		return ConflictRollback
	case grammar.ConflictAbort:
		return ConflictAbort
	case grammar.ConflictFail:
		return ConflictFail
	case grammar.ConflictIgnore:
		return ConflictIgnore
	case grammar.ConflictReplace:
		return ConflictReplace
	}
	return ConflictDefault
}

// ConflictNamed is the resolution a constraint's ON CONFLICT clause names
// as the catalog stores it ("REPLACE", "IGNORE"…; ConflictDefault for "").
func ConflictNamed(name string) Conflict {
	switch name {
	case "REPLACE":
		return ConflictReplace
	case "IGNORE":
		return ConflictIgnore
	case "FAIL":
		return ConflictFail
	case "ROLLBACK":
		return ConflictRollback
	case "ABORT":
		return ConflictAbort
	}
	return ConflictDefault
}
