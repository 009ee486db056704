package exec

import (
	"bytes"
	"strings"
	"time"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// graphIndexLookup reads the edges of one vertex in one direction straight
// from an index on (from, to, …) of the edge table: it seeks the vertex's
// key once and decodes the other end of each edge from the index cells
// that share the key, with no operator, batch or row in between. One
// cursor serves every vertex of an execution. It stands in for a lookup
// plan that is exactly that index probe (newGraphIndexLookup); anything
// else (a filter on the edges, a wider key, the edge identities of path
// lists) goes through the lookup operator.
type graphIndexLookup struct {
	ix       *catalog.Index
	fromDesc bool // the index's first column (the looked-up end) is DESC
	toDesc   bool
	toAff    types.Affinity // the other end's column affinity
	cur, old *txn.Cursor    // old: cur after Close, reopened next time
	prefix   []byte         // the looked-up vertex's key encoding
	ends     []types.Value  // the other ends of the last lookup's edges
	keep     bool           // false: an end's value is not in its key
	st       *OpStats       // EXPLAIN ANALYZE: the lookup plan's stats, or nil
}

// graphLookupRun is how many index cells a lookup reads in place at once.
const graphLookupRun = 16

// newGraphIndexLookup returns the direct index reader for lookup plan l of
// GraphExpand n (from and to: the looked-up and the other end's key
// columns), or nil when l is not a plain probe of one full index whose
// first two columns are those ends, compared BINARY.
func newGraphIndexLookup(n *plan.GraphExpand, l plan.Node, from, to []int) *graphIndexLookup {
	s, ok := l.(*plan.Scan)
	if !ok || n.PathEdges || len(from) != 1 || s.Index == nil || s.Lookup != nil || s.RowLimit != nil || s.Reverse {
		return nil
	}
	r, t := s.Index, s.Table
	if len(r.Eq) != 1 || len(r.EqNull) > 0 || r.Lo != nil || r.Hi != nil || r.NotNull || r.Reverse ||
		r.In != nil || r.InSub != nil || r.Like != nil || t.Virtual || t.WithoutRowid {
		return nil
	}
	if o, ok := r.Eq[0].(*plan.OuterRef); !ok || o.Depth != 1 || o.Idx != 0 {
		return nil
	}
	ix := r.Index
	if ix.Where != "" || len(ix.Columns) < 2 {
		return nil
	}
	c0, c1 := ix.Columns[0], ix.Columns[1]
	if c0.Col != from[0] || c1.Col != to[0] || c1.Col == t.RowidCol || c1.Col < 0 || c1.Col >= len(t.Columns) ||
		collOf(c0.Collate) != types.CollBinary || collOf(c1.Collate) != types.CollBinary ||
		t.Columns[c0.Col].Generated != "" || t.Columns[c1.Col].Generated != "" {
		return nil
	}
	return &graphIndexLookup{ix: ix, fromDesc: c0.Desc, toDesc: c1.Desc, toAff: t.Columns[c1.Col].Affinity}
}

// look reads the other ends of the edges whose looked-up end equals k
// into ends. ok is false when some end's value is not told by its key (an
// integral value in a column that may hold a REAL): the caller reads that
// vertex's edges through the lookup operator instead.
func (l *graphIndexLookup) look(c *Ctx, k types.Value) (ok bool, err error) {
	if l.st != nil { // counted as the lookup plan's batch of edges
		start := time.Now()
		defer func() {
			l.st.Time += time.Since(start)
			if ok && len(l.ends) > 0 {
				l.st.Batches++
				l.st.Rows += int64(len(l.ends))
			}
		}()
	}
	l.ends, l.keep = l.ends[:0], true
	if k.IsNull() {
		return true, nil
	}
	l.prefix = types.AppendKey(l.prefix[:0], k, l.fromDesc, types.CollBinary)
	if l.cur == nil {
		l.cur = c.IndexTree(l.ix).Reopen(l.old)
		l.old = nil
	}
	if !l.cur.Seek(l.prefix) {
		return true, l.cur.Err()
	}
	for {
		if r, ok := l.cur.Cells(graphLookupRun); ok {
			for i := range r.Len() {
				if more, err := l.add(r.Key(i)); !more || err != nil {
					return l.keep, err
				}
			}
		} else if more, err := l.add(l.cur.Key()); !more || err != nil {
			return l.keep, err
		}
		if !l.cur.Next() {
			return l.keep, l.cur.Err()
		}
	}
}

// add takes the other end of index entry key when the entry belongs to
// the looked-up vertex; more is false past its entries or once an end
// cannot be decoded.
func (l *graphIndexLookup) add(key []byte) (more bool, err error) {
	if !bytes.HasPrefix(key, l.prefix) {
		return false, nil
	}
	v, _, err := types.DecodeKey(key[len(l.prefix):], l.toDesc)
	if err != nil {
		return false, errs.Wrap(errs.CodeCorrupt, err)
	}
	if !plan.KeyDecodable(v, l.toAff) {
		l.keep = false
		return false, nil
	}
	switch v.Kind() {
	case types.KindText: // the key aliases the page: copy
		v = types.NewText(strings.Clone(v.Text()))
	case types.KindBlob:
		v = types.NewBlob([]byte(v.Str()))
	}
	l.ends = append(l.ends, plan.KeyValue(v, l.toAff))
	return true, nil
}

// close ends the execution's cursor, kept for reopening.
func (l *graphIndexLookup) close() {
	if l.cur != nil {
		l.cur.Close()
		l.old, l.cur = l.cur, nil
	}
}
