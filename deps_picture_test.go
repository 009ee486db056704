package ladybug_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestDeps_ArchitecturePictureMatches reads the drawing under "## Import
// graph" in docs/ARCHITECTURE.md as a graph and checks it against
// allowedImports (the graph as built, which TestDeps_ImportsFlowOneWay
// holds to go list): every package of the core module is drawn, and every
// arrow between two packages is an import the code has. The drawing shows
// the main edges only; the package table below it lists all of them
// (TestDeps_ArchitectureTableMatches).
//
// How the drawing is read: an arrow ▶ points at the name after it, or at
// a vertical line │ (right after it or one space on) that rises to a name; its source is the name (or
// comma-separated names) left of its run of ─, or, from a junction ├ or └,
// the name the junction's vertical line rises to. A ▼ points at the name
// below it; its source is the name its vertical line rises to. "ladybug
// (root)" is the root package; names that are not packages are the
// application's side of the picture and are ignored.
func TestDeps_ArchitecturePictureMatches(t *testing.T) {
	doc, err := os.ReadFile("docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "## Import graph\n")
	if !ok {
		t.Fatal(`docs/ARCHITECTURE.md has no "## Import graph" section`)
	}
	_, after, ok = strings.Cut(after, "```\n")
	picture, _, ok2 := strings.Cut(after, "```\n")
	if !ok || !ok2 {
		t.Fatal("the import graph section has no fenced drawing")
	}
	edges, names, err := readPicture(picture)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]bool{}
	for rel := range allowedImports {
		pkgs[rel] = true
		if !names[rel] {
			t.Errorf("the drawing in docs/ARCHITECTURE.md does not name %s", displayPkg(rel))
		}
	}
	n := 0
	for _, e := range edges {
		if !pkgs[e[0]] || !pkgs[e[1]] {
			continue
		}
		n++
		if !slices.Contains(allowedImports[e[0]], e[1]) {
			t.Errorf("the drawing in docs/ARCHITECTURE.md has %s → %s, an import the code does not have", displayPkg(e[0]), displayPkg(e[1]))
		}
	}
	if n < len(allowedImports)-1 {
		t.Errorf("read only %d edges between packages from the drawing: the reading is broken", n)
	}
}

// readPicture returns the drawing's edges (from, to) and every name in it,
// with "ladybug (root)" read as "" and third-party paths after their
// package (grammar (participle)) dropped.
func readPicture(picture string) ([][2]string, map[string]bool, error) {
	var grid [][]rune
	for _, line := range strings.Split(picture, "\n") {
		grid = append(grid, []rune(line))
	}
	at := func(r, c int) rune {
		if r < 0 || r >= len(grid) || c < 0 || c >= len(grid[r]) {
			return ' '
		}
		return grid[r][c]
	}
	isName := func(x rune) bool {
		return unicode.IsLetter(x) || unicode.IsDigit(x) || x == '/' || x == '_' || x == '.' || x == '-'
	}
	// nameAt is the name covering (r, c), or "".
	nameAt := func(r, c int) string {
		if !isName(at(r, c)) {
			return ""
		}
		s, e := c, c
		for isName(at(r, s-1)) {
			s--
		}
		for isName(at(r, e+1)) {
			e++
		}
		name := string(grid[r][s : e+1])
		if name == "ladybug" && strings.HasPrefix(string(grid[r][e+1:]), " (root)") {
			return ""
		}
		return name
	}
	// rise follows the vertical line through (r, c) up to its name.
	rise := func(r, c int) (string, error) {
		for r--; r >= 0; r-- {
			switch x := at(r, c); {
			case x == '│' || x == '├' || x == '┬' || x == '▼':
			case isName(x):
				return nameAt(r, c), nil
			default:
				return "", fmt.Errorf("line %d column %d: a vertical line ends at %q, not at a name", r+1, c+1, x)
			}
		}
		return "", fmt.Errorf("column %d: a vertical line rises to the top", c+1)
	}
	names := map[string]bool{}
	var edges [][2]string
	for r, row := range grid {
		for c := 0; c < len(row); c++ {
			if isName(row[c]) && (c == 0 || !isName(row[c-1])) {
				names[nameAt(r, c)] = true
			}
			switch row[c] {
			case '▶':
				to, tc := "", c+1
				if at(r, tc) == ' ' {
					tc++
				}
				switch x := at(r, tc); {
				case isName(x):
					to = nameAt(r, tc)
				case x == '│':
					var err error
					if to, err = rise(r, tc); err != nil {
						return nil, nil, err
					}
				default:
					return nil, nil, fmt.Errorf("line %d: an arrow points at %q", r+1, x)
				}
				k := c - 1
				for at(r, k) == '─' {
					k--
				}
				var from []string
				switch x := at(r, k); {
				case x == '├' || x == '└':
					f, err := rise(r, k)
					if err != nil {
						return nil, nil, err
					}
					from = []string{f}
				case x == ' ':
					// name[, name]... ──▶
					for k--; ; {
						e := k
						for isName(at(r, k)) {
							k--
						}
						if e == k {
							return nil, nil, fmt.Errorf("line %d: an arrow without a source", r+1)
						}
						from = append(from, nameAt(r, e))
						if at(r, k) != ' ' || at(r, k-1) != ',' {
							break
						}
						k -= 2
					}
				default:
					return nil, nil, fmt.Errorf("line %d: an arrow starts at %q", r+1, x)
				}
				for _, f := range from {
					edges = append(edges, [2]string{f, to})
				}
			case '▼':
				from, err := rise(r, c)
				if err != nil {
					return nil, nil, err
				}
				to := nameAt(r+1, c)
				if to == "" && !isName(at(r+1, c)) {
					return nil, nil, fmt.Errorf("line %d: a ▼ points at no name", r+1)
				}
				edges = append(edges, [2]string{from, to})
			}
		}
	}
	return edges, names, nil
}
