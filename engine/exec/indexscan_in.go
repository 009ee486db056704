package exec

import (
	"bytes"
	"slices"
	"strings"

	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// inSeeks visits several key prefixes after an index scan's equality
// prefix in turn, in key order, one seek each: the encoded values of an IN
// list (plan.IndexRange.In) or subquery (InSub), or the byte prefixes a LIKE/GLOB pattern
// allows (plan.IndexRange.Like).
type inSeeks struct {
	items []evaluator // the IN list
	sub   *inValues   // the IN subquery
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
	text := append([]byte{keycodec.TagText}, p...)
	if glob {
		return [][]byte{text, append([]byte{keycodec.TagBlob}, p...)}
	}
	for i, c := range text[1:] {
		if c >= 'A' && c <= 'Z' {
			text[i+1] = c + 'a' - 'A'
		}
	}
	return [][]byte{text, {keycodec.TagBlob}}
}

func (cp *compiler) newInSeeks(list []plan.Expr, sub *plan.InSub) (*inSeeks, error) {
	in := &inSeeks{}
	if sub != nil {
		var err error
		if in.sub, err = cp.newInValues(sub); err != nil {
			return nil, err
		}
	}
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
	if in.sub != nil {
		err := in.sub.each(c, func(v types.Value) {
			in.keys = append(in.keys, types.AppendKey(nil, v, ic.Desc, collOf(ic.Collate)))
		})
		if err != nil {
			return false, err
		}
	}
	if len(in.keys) == 0 {
		return false, nil
	}
	slices.SortFunc(in.keys, bytes.Compare)
	in.keys = slices.CompactFunc(in.keys, bytes.Equal)
	if s.r.Reverse {
		slices.Reverse(in.keys) // a backward read visits the last key first
	}
	in.base = len(s.prefix)
	s.prefix = append(s.prefix, in.keys[0]...)
	in.next = 1
	return true, nil
}

// nextIn moves the scan to the next IN value's entries (the next smaller
// one in a backward read); false when the list is exhausted or no entry
// follows.
func (s *indexScanOp) nextIn() (bool, error) {
	in := s.in
	if in == nil || in.next >= len(in.keys) {
		return false, nil
	}
	s.prefix = append(s.prefix[:in.base], in.keys[in.next]...)
	in.next++
	if s.r.Reverse {
		return s.prevIn()
	}
	if k := s.cur.Key(); k != nil && bytes.Compare(k, s.prefix) >= 0 {
		return true, nil // already there: the previous value ended past it
	}
	if !s.cur.SeekAhead(s.prefix) {
		return false, s.cur.Err()
	}
	return true, nil
}

// prevIn positions a backward read on the last entry of the new, smaller
// prefix. The cursor sits on the entry just below the previous prefix's:
// already inside the new prefix, or below it (no entry has this value:
// inRange moves on to the next one), or else between, where a seek finds
// the prefix's last entry. The lower bound inRange checks is the prefix.
func (s *indexScanOp) prevIn() (bool, error) {
	s.seek = append(s.seek[:0], s.prefix...)
	if k := s.cur.Key(); k != nil && (bytes.HasPrefix(k, s.prefix) || bytes.Compare(k, s.prefix) < 0) {
		return true, nil
	}
	if !s.seekLast() {
		return false, s.cur.Err()
	}
	return true, nil
}

// inValues yields the non-NULL values of an uncorrelated IN subquery's
// column under the IN's comparison affinity, for the seeks of an index or
// rowid scan (plan.IndexRange.InSub, plan.RowidRange.InSub). The
// subquery runs once per statement execution; its values are cached in
// Ctx.subs (under their own key) like an IN expression's set, so a scan restarted per outer row
// does not re-run it.
type inValues struct {
	sub *plan.Subquery
	op  Operator
	aff types.Affinity
}

func (cp *compiler) newInValues(in *plan.InSub) (*inValues, error) {
	op, err := cp.b.build(in.Sub.Plan)
	if err != nil {
		return nil, err
	}
	aff := types.CompareAffinity(plan.ExprAffinity(in.X[0]), in.Sub.Plan.Columns()[0].Affinity)
	return &inValues{sub: in.Sub, op: op, aff: aff}, nil
}

// each calls fn for every non-NULL value of the subquery (NULL matches no
// key), in the subquery's order, duplicates included.
func (iv *inValues) each(c *Ctx, fn func(types.Value)) error {
	r, ok := c.subs[iv.key()]
	if !ok || !r.listed {
		var err error
		if r, err = iv.run(c); err != nil {
			return err
		}
	}
	for _, v := range r.vals {
		fn(v)
	}
	return nil
}

// run executes the subquery and caches its converted values.
func (iv *inValues) run(c *Ctx) (*subResult, error) {
	defer iv.op.Close()
	r := &subResult{listed: true}
	for {
		b, err := iv.op.Next(c)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		for k, n := 0, b.Len(); k < n; k++ {
			if v := iv.aff.ApplyCompare(b.Cols[0][b.Phys(k)]); !v.IsNull() {
				r.vals = append(r.vals, v.Clone())
			}
		}
	}
	if c.subs == nil {
		c.subs = map[int]*subResult{}
	}
	c.subs[iv.key()] = r
	return r, nil
}

// key is the values' Ctx.subs entry: apart from the subquery's own ID,
// whose entry an IN expression over the same subquery keeps as a set.
func (iv *inValues) key() int { return ^iv.sub.ID }
