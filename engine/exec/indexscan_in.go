package exec

import (
	"bytes"
	"slices"
	"strings"

	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// inSeeks visits several key prefixes after an index scan's equality
// prefix in turn, in key order, one seek each: the encoded values of an IN
// list (plan.IndexRange.In), or the byte prefixes a LIKE/GLOB pattern
// allows (plan.IndexRange.Like).
type inSeeks struct {
	items []evaluator // the IN list
	pat   evaluator   // the LIKE/GLOB pattern
	glob  bool
	keys  [][]byte // the prefixes, sorted and distinct
	next  int      // the next key to visit
	base  int      // length of the equality prefix before the value
}

func (cp *compiler) newLikeSeeks(l *plan.LikePrefix) (*inSeeks, error) {
	pat, err := cp.compile(l.Pat)
	if err != nil {
		return nil, err
	}
	return &inSeeks{pat: pat, glob: l.Glob}, nil
}

// likeKeys are the key prefixes holding every value that can match a
// pattern with literal prefix p: text keys starting with p (folded as a
// NOCASE key folds it, for LIKE), and for blobs, which LIKE and GLOB read
// as text, the blob keys starting with p (GLOB) or every blob key (LIKE,
// whose case folding a BINARY blob key does not have). A prefix the key
// encoding would escape, or none, allows every key.
func likeKeys(p string, glob bool) [][]byte {
	if p == "" || strings.IndexByte(p, 0) >= 0 {
		return [][]byte{{}}
	}
	text := append([]byte{types.KeyTagText}, p...)
	if glob {
		return [][]byte{text, append([]byte{types.KeyTagBlob}, p...)}
	}
	for i, c := range text[1:] {
		if c >= 'A' && c <= 'Z' {
			text[i+1] = c + 'a' - 'A'
		}
	}
	return [][]byte{text, {types.KeyTagBlob}}
}

func (cp *compiler) newInSeeks(list []plan.Expr) (*inSeeks, error) {
	in := &inSeeks{}
	for _, e := range list {
		ev, err := cp.compile(e)
		if err != nil {
			return nil, err
		}
		in.items = append(in.items, ev)
	}
	return in, nil
}

// startIn evaluates the list and extends the scan's prefix with its first
// value; false means the list holds no non-NULL value.
func (s *indexScanOp) startIn(c *Ctx) (bool, error) {
	in := s.in
	ic := s.ix.Columns[len(s.eq)]
	in.keys = in.keys[:0]
	if in.pat != nil {
		v, err := s.once.eval(c, in.pat)
		if err != nil {
			return false, err
		}
		in.keys = likeKeys(plan.LiteralPrefix(v, in.glob), in.glob)
	}
	for _, ev := range in.items {
		v, err := s.once.eval(c, ev)
		if err != nil {
			return false, err
		}
		if !v.IsNull() { // NULL matches nothing
			in.keys = append(in.keys, types.AppendKey(nil, v, ic.Desc, collOf(ic.Collate)))
		}
	}
	if len(in.keys) == 0 {
		return false, nil
	}
	slices.SortFunc(in.keys, bytes.Compare)
	in.keys = slices.CompactFunc(in.keys, bytes.Equal)
	in.base = len(s.prefix)
	s.prefix = append(s.prefix, in.keys[0]...)
	in.next = 1
	return true, nil
}

// nextIn moves the scan to the next IN value's entries; false when the
// list is exhausted or no entry follows.
func (s *indexScanOp) nextIn() (bool, error) {
	in := s.in
	if in == nil || in.next >= len(in.keys) {
		return false, nil
	}
	s.prefix = append(s.prefix[:in.base], in.keys[in.next]...)
	in.next++
	if k := s.cur.Key(); k != nil && bytes.Compare(k, s.prefix) >= 0 {
		return true, nil // already there: the previous value ended past it
	}
	if !s.cur.SeekAhead(s.prefix) {
		return false, s.cur.Err()
	}
	return true, nil
}
