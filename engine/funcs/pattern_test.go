package funcs

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
)

func randomText(rng *rand.Rand, alphabet []string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(alphabet[rng.Intn(len(alphabet))])
	}
	return b.String()
}

// TestPattern_MatchesSQLitesAlgorithm holds the two-pointer matcher to
// SQLite's recursive one on random LIKE and GLOB patterns.
func TestPattern_MatchesSQLitesAlgorithm(t *testing.T) {
	seed := rand.Int63()
	rng := rand.New(rand.NewSource(seed))
	patAlpha := []string{"a", "b", "A", "é", "%", "_", "\\", "*", "?", "[", "]", "^", "-", "x"}
	strAlpha := []string{"a", "b", "A", "é", "%", "_", "]", "-", "x", "\x00"}
	for i := 0; i < 200_000; i++ {
		pat := randomText(rng, patAlpha, rng.Intn(8))
		s := randomText(rng, strAlpha, rng.Intn(8))
		for _, esc := range []rune{0, '\\', '_', '%'} {
			want := patternCompare(cString(pat), cString(s), matchInfo{all: '%', one: '_', other: esc, noCase: true}) == matchYes
			p, err := CompileLike(pat, esc)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := p.Match(s, nil); got != want {
				t.Fatalf("seed %d: %q LIKE %q ESCAPE %q = %v, SQLite's algorithm says %v", seed, s, pat, esc, got, want)
			}
		}
		want := patternCompare(cString(pat), cString(s), matchInfo{all: '*', one: '?', other: '[', sets: true}) == matchYes
		if got, _ := Glob(pat, s); got != want {
			t.Fatalf("seed %d: %q GLOB %q = %v, SQLite's algorithm says %v", seed, s, pat, got, want)
		}
	}
}

// TestPattern_WildcardHeavyPatternsTakeLinearSteps is the hang:
// '%a%a%a%b' against 1000 'a's took over 100 s by recursion. The matcher
// takes at most len(pattern)·len(s) steps, far below one poll interval.
func TestPattern_WildcardHeavyPatternsTakeLinearSteps(t *testing.T) {
	s := strings.Repeat("a", 1000)
	for _, pat := range []string{"%a%a%a%b", "%a%a%a%a%a%a%a%a%a%a%b", strings.Repeat("%a", 200) + "b", strings.Repeat("%_", 300) + "b"} {
		p, err := CompileLike(pat, 0)
		if err != nil {
			t.Fatal(err)
		}
		polls := 0
		m, err := p.Match(s, func() error { polls++; return nil })
		if err != nil || m {
			t.Fatalf("%q: %v %v", pat, m, err)
		}
		if limit := (len(pat)*len(s))/matchCheckEvery + 1; polls > limit {
			t.Errorf("%q: %d polls, more than len(pattern)·len(s) steps allow (%d)", pat, polls, limit)
		}
	}
}

func TestPattern_CheckStopsALongMatch(t *testing.T) {
	p, err := CompileGlob("*" + strings.Repeat("a", 40000) + "b")
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("deadline")
	_, err = p.Match(strings.Repeat("a", 1_000_000), func() error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("got %v, want the check's error", err)
	}
}

func TestPattern_LengthLimit(t *testing.T) {
	if _, err := CompileLike(strings.Repeat("a", MaxPatternLength), 0); err != nil {
		t.Fatal(err)
	}
	for _, compile := range []func(string) (*Pattern, error){
		func(p string) (*Pattern, error) { return CompileLike(p, 0) },
		CompileGlob,
	} {
		if _, err := compile(strings.Repeat("a", MaxPatternLength+1)); err == nil || !strings.Contains(err.Error(), "LIKE or GLOB pattern too complex") {
			t.Fatalf("got %v", err)
		}
	}
}

func BenchmarkPattern_Match(b *testing.B) {
	p, _ := CompileLike("%world%", 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_, _ = p.Match("hello world, hello", nil)
	}
}
