package grammar

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// readCases splits a .sql file into cases separated by blank lines. Lines
// starting with "#" are notes, not SQL.
func readCases(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, chunk := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n\n") {
		var lines []string
		for _, l := range strings.Split(chunk, "\n") {
			if !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
		if c := strings.TrimSpace(strings.Join(lines, "\n")); c != "" {
			cases = append(cases, c)
		}
	}
	return cases
}

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./grammar -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the output; run go test ./grammar -update and review the diff\n%s", path, firstDiff(string(want), got))
	}
}

// firstDiff shows the first differing line.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return ""
}

// sqlFiles lists testdata files matching a pattern.
func sqlFiles(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s: %v", pattern, err)
	}
	return files
}

// roundTrip checks that sql parses, that every statement prints as SQL
// that parses to an equal tree, and that printing is stable. It returns
// the printed statements.
func roundTrip(t testing.TB, sql string) []string {
	t.Helper()
	stmts, err := Parse(sql)
	if err != nil {
		t.Errorf("Parse(%q): %v", sql, err)
		return nil
	}
	var printed []string
	for _, st := range stmts {
		out := st.String()
		printed = append(printed, out)
		again, err := Parse(out)
		if err != nil {
			t.Errorf("printed SQL does not parse\n  source:  %s\n  printed: %s\n  error:   %v", sql, out, err)
			continue
		}
		if len(again) != 1 {
			t.Errorf("printed SQL %q parses to %d statements", out, len(again))
			continue
		}
		if a, b := Dump(st, false), Dump(again[0], false); a != b {
			t.Errorf("round trip changed the tree\n  source:  %s\n  printed: %s\n%s", sql, out, firstDiff(a, b))
		}
		if out2 := again[0].String(); out2 != out {
			t.Errorf("printing is not stable:\n  %s\n  %s", out, out2)
		}
	}
	return printed
}
