package plan

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDoc_ListsEveryRuleInOrder keeps the package comment's rule list
// true: every rule of optimize.go is named there, in the order Optimize
// runs them, and the comment names no rule that does not exist.
func TestDoc_ListsEveryRuleInOrder(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	for _, line := range strings.Split(string(src), "\n") {
		doc.WriteString(strings.TrimPrefix(line, "//"))
		doc.WriteByte('\n')
	}
	text := doc.String()
	at := strings.Index(text, "The rules (")
	if at < 0 {
		t.Fatal(`doc.go has no "The rules (" paragraph`)
	}
	text = text[at:]
	names := map[string]bool{}
	pos := 0
	for _, r := range rules {
		names[r.name] = true
		i := indexWord(text[pos:], r.name)
		if i < 0 {
			t.Fatalf("doc.go does not name rule %q after the rules before it", r.name)
		}
		pos += i + len(r.name)
	}
	// Every hyphenated name in the list, outside its parenthesised
	// explanations, is a rule.
	list := stripParens(text[:strings.Index(text, "EstimateRows")])
	for _, w := range regexp.MustCompile(`\b[a-z]+(?:-[a-z]+)+\b`).FindAllString(list, -1) {
		if !names[w] {
			t.Errorf("doc.go names %q, which is not a rule of optimize.go", w)
		}
	}
}

// indexWord finds name in s as a whole hyphenated word.
func indexWord(s, name string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(name)
		before := i == 0 || !isNameByte(s[i-1])
		after := end == len(s) || !isNameByte(s[end])
		if before && after {
			return i
		}
		off = end
	}
}

func isNameByte(c byte) bool { return c == '-' || c >= 'a' && c <= 'z' }

// stripParens drops the parenthesised parts of s (nesting allowed).
func stripParens(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '(':
			depth++
		case s[i] == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
