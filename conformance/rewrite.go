package conformance

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// DefaultHashThreshold is the number of values above which -update writes
// a hash instead of the values, unless the file sets hash-threshold.
const DefaultHashThreshold = 120

// edit replaces lines [start, end) of a file.
type edit struct {
	start, end int
	lines      []string
}

// Rewriter collects new expected results for a file and writes them back.
type Rewriter struct {
	file  *File
	edits []edit
}

// NewRewriter starts an update of f.
func NewRewriter(f *File) *Rewriter { return &Rewriter{file: f} }

// SetResult records o as the expected result of the query record rec:
// the types (when inferred) and the "----" section, hashed above threshold
// values (threshold <= 0 never hashes).
func (w *Rewriter) SetResult(rec *Record, o Outcome, threshold int) {
	if o.Types != rec.Types {
		hdr := "query " + o.Types
		if rec.Sort != NoSort || strings.Contains(w.file.Lines[rec.headerIdx], "nosort") {
			hdr += " " + rec.Sort.String()
		}
		w.edits = append(w.edits, edit{rec.headerIdx, rec.headerIdx + 1, []string{hdr}})
	}
	res := []string{"----"}
	if threshold > 0 && len(o.Values) > threshold {
		res = append(res, fmt.Sprintf("%d values hashing to %s", len(o.Values), HashValues(o.Values)))
	} else {
		res = append(res, o.Values...)
	}
	w.edits = append(w.edits, edit{rec.resultIdx, rec.resultEnd, res})
}

// Write saves the file if anything changed.
func (w *Rewriter) Write() error {
	if len(w.edits) == 0 {
		return nil
	}
	lines := slices.Clone(w.file.Lines)
	slices.SortFunc(w.edits, func(a, b edit) int { return b.start - a.start })
	for _, e := range w.edits {
		lines = slices.Replace(lines, e.start, e.end, e.lines...)
	}
	text := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(w.file.Path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("conformance: write %s: %w", w.file.Path, err)
	}
	return nil
}
