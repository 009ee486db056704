package conformance

import (
	"fmt"
	"slices"
)

// Baseline records, per seed of the short differential run, how many
// statements ladybug got wrong; the test fails when a seed does worse.
type Baseline map[uint64]int

const baselineHeader = `# Mismatches of the short differential run, per seed: seed<TAB>statements<TAB>mismatches.
# The test fails when a seed has more mismatches than listed. Regenerate with
#   LADYBUG_CONFORMANCE_UPDATE=1 go test -run TestDiffer ./...
`

// LoadBaseline reads the baseline; a missing file is empty.
func LoadBaseline(path string) (Baseline, error) {
	lines, err := readList(path)
	if err != nil {
		return nil, err
	}
	b := Baseline{}
	for _, line := range lines {
		var seed uint64
		var n, m int
		if _, err := fmt.Sscanf(line, "%d\t%d\t%d", &seed, &n, &m); err != nil {
			return nil, fmt.Errorf("conformance: baseline line %q: %w", line, err)
		}
		b[seed] = m
	}
	return b, nil
}

// Save writes the baseline; n is the statement count of each seed's run.
func (b Baseline) Save(path string, n int) error {
	seeds := make([]uint64, 0, len(b))
	for s := range b {
		seeds = append(seeds, s)
	}
	slices.Sort(seeds)
	lines := make([]string, len(seeds))
	for i, s := range seeds {
		lines[i] = fmt.Sprintf("%d\t%d\t%d", s, n, b[s])
	}
	return writeList(path, baselineHeader, lines)
}
