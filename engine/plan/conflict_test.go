package plan

import (
	"testing"

	"github.com/ladybugsql/ladybug/grammar"
)

// An OR clause and a constraint's ON CONFLICT clause with the same
// spelling resolve the same way, for every action the grammar knows.
func TestConflict_OrClauseMatchesCatalogName(t *testing.T) {
	want := map[grammar.ConflictAction]Conflict{
		grammar.ConflictDefault: ConflictDefault, grammar.ConflictRollback: ConflictRollback,
		grammar.ConflictAbort: ConflictAbort, grammar.ConflictFail: ConflictFail,
		grammar.ConflictIgnore: ConflictIgnore, grammar.ConflictReplace: ConflictReplace,
	}
	for a, w := range want {
		if got := conflictOf(a); got != w {
			t.Errorf("conflictOf(%v) = %v, want %v", a, got, w)
		}
		if got := ConflictNamed(conflictName(a)); got != w {
			t.Errorf("ConflictNamed(%q) = %v, want %v", conflictName(a), got, w)
		}
	}
}
