package grammar

import (
	"strings"
	"testing"
)

// FuzzParse checks that no input panics or hangs the parser, and that
// anything that parses prints as SQL that parses back to the same tree,
// and that the fast path, where it accepts the input, reads it exactly as
// participle does.
// The seeds are every case under testdata, so the normal test run covers
// them too.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"parse/*.sql", "corpus/*.sql", "errors.sql"} {
		for _, file := range sqlFiles(f, pattern) {
			for _, c := range readCases(f, file) {
				f.Add(c)
			}
		}
	}
	f.Fuzz(func(t *testing.T, sql string) {
		checkFastMatches(t, sql)
		stmts, err := Parse(sql)
		if err != nil {
			if strings.Contains(err.Error(), "internal parser error") {
				t.Fatalf("Parse(%q) failed inside the parser: %v", sql, err)
			}
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("Parse(%q) returned %T, want *SyntaxError", sql, err)
			}
			return
		}
		for _, st := range stmts {
			checkReparse(t, sql, st)
		}
		if e, err := ParseExpr(sql); err == nil {
			again, err := ParseExpr(e.String())
			if err != nil || Dump(again, false) != Dump(e, false) {
				t.Fatalf("expression %q printed as %q: %v", sql, e.String(), err)
			}
		}
	})
}

// checkReparse asserts that st prints as SQL that parses to an equal tree.
func checkReparse(t *testing.T, sql string, st Statement) {
	t.Helper()
	out := st.String()
	again, err := Parse(out)
	if err != nil {
		t.Fatalf("source %q printed as %q, which does not parse: %v", sql, out, err)
	}
	if len(again) != 1 {
		t.Fatalf("source %q printed as %q, %d statements", sql, out, len(again))
	}
	if a, b := Dump(st, false), Dump(again[0], false); a != b {
		t.Fatalf("source %q printed as %q changes the tree:\n%s", sql, out, firstDiff(a, b))
	}
}
