package grammar

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestParse_Golden parses every case of testdata/parse/*.sql and compares
// the printed SQL and the tree dump with the .golden file beside it. Every
// case must also survive the print/parse round trip.
func TestParse_Golden(t *testing.T) {
	for _, file := range sqlFiles(t, "parse/*.sql") {
		name := strings.TrimSuffix(filepath.Base(file), ".sql")
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			for _, sql := range readCases(t, file) {
				out.WriteString("-- " + strings.ReplaceAll(sql, "\n", "\n-- ") + "\n")
				printed := roundTrip(t, sql)
				stmts, err := Parse(sql)
				if err != nil {
					out.WriteString("ERROR: " + err.Error() + "\n\n")
					continue
				}
				for i, st := range stmts {
					out.WriteString(printed[i] + "\n")
					out.WriteString(Dump(st, true) + "\n")
				}
			}
			checkGolden(t, strings.TrimSuffix(file, ".sql")+".golden", out.String())
		})
	}
}

// TestParse_Errors checks that every case of testdata/errors.sql fails and
// pins the messages, positions included.
func TestParse_Errors(t *testing.T) {
	file := filepath.Join("testdata", "errors.sql")
	var out strings.Builder
	for _, sql := range readCases(t, file) {
		out.WriteString("-- " + strings.ReplaceAll(sql, "\n", "\n-- ") + "\n")
		_, err := Parse(sql)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", sql)
			out.WriteString("no error\n\n")
			continue
		}
		if _, ok := err.(*SyntaxError); !ok {
			t.Errorf("Parse(%q) returned %T, want *SyntaxError", sql, err)
		}
		out.WriteString(err.Error() + "\n\n")
	}
	checkGolden(t, filepath.Join("testdata", "errors.golden"), out.String())
}

// TestParse_Corpus round-trips the real-world statements of
// testdata/corpus and pins their printed form.
func TestParse_Corpus(t *testing.T) {
	for _, file := range sqlFiles(t, "corpus/*.sql") {
		name := strings.TrimSuffix(filepath.Base(file), ".sql")
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			for _, sql := range readCases(t, file) {
				for _, p := range roundTrip(t, sql) {
					out.WriteString(p + "\n")
				}
			}
			checkGolden(t, strings.TrimSuffix(file, ".sql")+".golden", out.String())
		})
	}
}

// TestEBNF_Golden pins the grammar, so any change to it shows in review.
func TestEBNF_Golden(t *testing.T) {
	checkGolden(t, filepath.Join("testdata", "grammar.ebnf"), EBNF()+"\n")
}
