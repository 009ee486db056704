package conformance

import (
	"slices"
	"strconv"
	"strings"
)

// KnownFailures is the checked-in list of records ladybug is known to fail:
// key "file:line" to the first line of the failure. A failing record on the
// list is expected; one not on it is a regression.
type KnownFailures map[string]string

const knownHeader = `# Records of testdata/*.test that ladybug currently fails: file:line<TAB>first line of the failure.
# A failure not listed here fails the test (a regression). Regenerate after engine changes with
#   LADYBUG_CONFORMANCE_UPDATE=1 go test -run TestSLT ./...
# and review the diff: the list should only shrink.
`

// LoadKnownFailures reads the list; a missing file is an empty list.
func LoadKnownFailures(path string) (KnownFailures, error) {
	lines, err := readList(path)
	if err != nil {
		return nil, err
	}
	k := KnownFailures{}
	for _, line := range lines {
		key, msg, _ := strings.Cut(line, "\t")
		k[strings.TrimSpace(key)] = msg
	}
	return k, nil
}

// Save writes the list sorted by file, then line number.
func (k KnownFailures) Save(path string) error {
	keys := make([]string, 0, len(k))
	for key := range k {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, compareKeys)
	lines := make([]string, len(keys))
	for i, key := range keys {
		msg := strings.ReplaceAll(k[key], "\t", " ")
		if len(msg) > 200 {
			msg = strings.ToValidUTF8(msg[:200], "")
		}
		lines[i] = key + "\t" + msg
	}
	return writeList(path, knownHeader, lines)
}

func compareKeys(a, b string) int {
	fa, la := splitKey(a)
	fb, lb := splitKey(b)
	if c := strings.Compare(fa, fb); c != 0 {
		return c
	}
	return la - lb
}

func splitKey(k string) (string, int) {
	i := strings.LastIndexByte(k, ':')
	if i < 0 {
		return k, 0
	}
	n, _ := strconv.Atoi(k[i+1:])
	return k[:i], n
}
