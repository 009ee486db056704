package exec

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"io"
	"os"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// An ORDER BY under a memory limit sorts externally, as SQLite's sorter
// does with its temp files: when the rows it holds would pass the limit
// (or half of it), it sorts them and writes them to a temp file as one
// sorted run, gives their memory back and goes on reading; at the end it
// merges the runs, fanIn at a time, and streams the last merge. Run
// records are the key (memcmp order, as in memory) and the row in types'
// record format. The temp file lives in the system temp directory
// ($TMPDIR) and is unlinked as soon as it is created where the system
// allows, so nothing is left behind even by a crash.

// spillBufSize is the buffer of each run read or written.
const spillBufSize = 32 << 10

// sortSpill is the temp file of one sort and its runs.
type sortSpill struct {
	f       *os.File
	removed bool // unlinked at creation
	end     int64
	runs    []spillRun
	w       *bufio.Writer
	rec     []byte
	vals    []types.Value
	// The final merge.
	merge *runMerge
	dec   rowDecoder
	ar    arena
}

// spillRun is a sorted run: n bytes at off.
type spillRun struct{ off, n int64 }

// spillFanIn is how many runs one merge reads at once under limit: their
// buffers take at most a quarter of it.
func spillFanIn(limit int64) int {
	return int(min(max(limit/4/spillBufSize, 2), 64))
}

// shouldSpill reports whether a sort holding size bytes writes them out
// as a run instead of accounting them: only under a memory limit, once
// they would pass it or half of it, or the process-wide budget.
func (s *sortOp) shouldSpill(c *Ctx, size int64) bool {
	if s.topn != nil || s.sorter.Len() == 0 {
		return false
	}
	return s.topTooBig(c, size)
}

// topTooBig reports whether the top rows a LIMIT keeps, holding size
// bytes, should become a sort that may spill (shouldSpill's test).
func (s *sortOp) topTooBig(c *Ctx, size int64) bool {
	if lim := memBudget.limit.Load(); lim > 0 && memBudget.used.Load()-s.mem.n+size > lim {
		return true // the process-wide budget
	}
	return c.MemoryLimit > 0 && (size > c.MemoryLimit/2 || c.memUsed-s.mem.n+size > c.MemoryLimit)
}

// topToSorter turns the kept top rows into a full sort of the same rows.
func (s *sortOp) topToSorter(c *Ctx) {
	s.topn.Sort()
	s.sorter = factorized.NewSorter(c.Pool)
	for i := 0; i < s.topn.Len(); i++ {
		s.key = s.topn.Key(s.key[:0], i)
		s.sorter.Add(s.topn.Slot(i), s.key)
	}
	s.topn.Reset()
	s.topn = nil
}

// spillRun sorts the rows held and writes them to the temp file as a run,
// then empties the table and the sorter.
func (s *sortOp) spillRun(c *Ctx) error {
	sp := s.spill
	if sp == nil {
		f, err := os.CreateTemp("", "ladybug-sort-*")
		if err != nil {
			return spillErr(err)
		}
		sp = &sortSpill{f: f, removed: os.Remove(f.Name()) == nil}
		sp.w = bufio.NewWriterSize(io.NewOffsetWriter(f, 0), spillBufSize)
		s.spill = sp
	}
	s.sorter.Sort()
	sp.w.Reset(io.NewOffsetWriter(sp.f, sp.end))
	start := sp.end
	for i := 0; i < s.sorter.Len(); i++ {
		if i%BatchSize == 0 {
			if err := c.CheckNow(); err != nil {
				return err
			}
		}
		s.key = s.sorter.Key(s.key[:0], i)
		r := s.table.Row(s.sorter.Row(i))
		sp.vals = sp.vals[:0]
		for col := 0; col < s.ncol; col++ {
			sp.vals = append(sp.vals, factValue(r, col))
		}
		sp.rec = types.AppendRecord(sp.rec[:0], sp.vals)
		n, err := writeSpillRecord(sp.w, s.key, sp.rec)
		if err != nil {
			return spillErr(err)
		}
		sp.end += n
	}
	if err := sp.w.Flush(); err != nil {
		return spillErr(err)
	}
	sp.runs = append(sp.runs, spillRun{start, sp.end - start})
	s.table.Release()
	s.table = nil
	s.sorter.Reset()
	return nil
}

// writeSpillRecord writes one run record: the key's and the row's lengths
// as uvarints, then both.
func writeSpillRecord(w *bufio.Writer, key, rec []byte) (int64, error) {
	var hdr [2 * binary.MaxVarintLen64]byte
	h := binary.AppendUvarint(hdr[:0], uint64(len(key)))
	h = binary.AppendUvarint(h, uint64(len(rec)))
	if _, err := w.Write(h); err != nil {
		return 0, err
	}
	if _, err := w.Write(key); err != nil {
		return 0, err
	}
	if _, err := w.Write(rec); err != nil {
		return 0, err
	}
	return int64(len(h) + len(key) + len(rec)), nil
}

// finishSpill writes what is still held as the last run, merges runs
// until at most fanIn are left and opens their final merge.
func (s *sortOp) finishSpill(c *Ctx) error {
	if s.sorter.Len() > 0 {
		if err := s.spillRun(c); err != nil {
			return err
		}
	}
	s.mem.release()
	sp := s.spill
	limit := c.MemoryLimit
	if b := memBudget.limit.Load(); b > 0 && (limit <= 0 || b < limit) {
		limit = b
	}
	fan := spillFanIn(limit)
	if err := s.mem.set(c, int64(fan+1)*spillBufSize); err != nil {
		return err
	}
	for len(sp.runs) > fan {
		// Merge the first fan runs into one at the file's end, in their
		// place: runs stay in input order, so equal keys keep it.
		m, err := sp.openMerge(sp.runs[:fan])
		if err != nil {
			return err
		}
		start := sp.end
		sp.w.Reset(io.NewOffsetWriter(sp.f, sp.end))
		for k := 0; ; k++ {
			if k%BatchSize == 0 {
				if err := c.CheckNow(); err != nil {
					return err
				}
			}
			key, rec, ok, err := m.next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			n, err := writeSpillRecord(sp.w, key, rec)
			if err != nil {
				return spillErr(err)
			}
			sp.end += n
		}
		if err := sp.w.Flush(); err != nil {
			return spillErr(err)
		}
		sp.runs = append([]spillRun{{start, sp.end - start}}, sp.runs[fan:]...)
	}
	m, err := sp.openMerge(sp.runs)
	if err != nil {
		return err
	}
	sp.merge = m
	return nil
}

// nextSpilled fills the output batch from the final merge.
func (s *sortOp) nextSpilled(c *Ctx) (*Batch, error) {
	sp := s.spill
	b := s.out
	b.Reset()
	b.reserve(BatchSize) // a spilled sort holds many rows
	sp.ar.reset()
	for b.N < BatchSize {
		_, rec, ok, err := sp.merge.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if err := sp.dec.decode(rec, nil, b.Cols, b.N, &sp.ar); err != nil {
			return nil, err
		}
		b.N++
	}
	if b.N == 0 {
		return nil, nil
	}
	return b, c.CheckNow()
}

// close removes the temp file.
func (sp *sortSpill) close() {
	sp.f.Close()
	if !sp.removed {
		os.Remove(sp.f.Name())
	}
}

// spillErr is the error of a failed temp file operation.
func spillErr(err error) error {
	return &errs.Error{Code: errs.CodeIOErr, Msg: "sorting to a temp file: " + err.Error(), Err: err}
}

// runCursor reads the records of one run.
type runCursor struct {
	r        *bufio.Reader
	idx      int // the run's place: ties go to the earlier run
	key, rec []byte
}

func (rc *runCursor) advance() (bool, error) {
	kl, err := binary.ReadUvarint(rc.r)
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, spillErr(err)
	}
	rl, err := binary.ReadUvarint(rc.r)
	if err != nil {
		return false, spillErr(err)
	}
	rc.key = resize(rc.key, int(kl))
	rc.rec = resize(rc.rec, int(rl))
	if _, err := io.ReadFull(rc.r, rc.key); err != nil {
		return false, spillErr(err)
	}
	if _, err := io.ReadFull(rc.r, rc.rec); err != nil {
		return false, spillErr(err)
	}
	return true, nil
}

// resize returns b resized to n bytes, reusing its storage when it can.
func resize(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// runMerge is a k-way merge of runs: a heap of cursors by (key, run).
type runMerge struct {
	h    runHeap
	last *runCursor // the cursor whose record next returned last
	key  []byte
	rec  []byte
}

func (sp *sortSpill) openMerge(runs []spillRun) (*runMerge, error) {
	m := &runMerge{}
	for i, r := range runs {
		rc := &runCursor{r: bufio.NewReaderSize(io.NewSectionReader(sp.f, r.off, r.n), spillBufSize), idx: i}
		ok, err := rc.advance()
		if err != nil {
			return nil, err
		}
		if ok {
			m.h = append(m.h, rc)
		}
	}
	heap.Init(&m.h)
	return m, nil
}

// next returns the smallest record left; the slices are valid until the
// next call.
func (m *runMerge) next() (key, rec []byte, ok bool, err error) {
	if m.last != nil {
		// Advance the cursor returned last now that its record was used.
		more, err := m.last.advance()
		if err != nil {
			return nil, nil, false, err
		}
		if more {
			heap.Fix(&m.h, 0)
		} else {
			heap.Pop(&m.h)
		}
		m.last = nil
	}
	if len(m.h) == 0 {
		return nil, nil, false, nil
	}
	m.last = m.h[0]
	return m.last.key, m.last.rec, true, nil
}

type runHeap []*runCursor

func (h runHeap) Len() int { return len(h) }
func (h runHeap) Less(i, j int) bool {
	if c := bytes.Compare(h[i].key, h[j].key); c != 0 {
		return c < 0
	}
	return h[i].idx < h[j].idx
}
func (h runHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)   { *h = append(*h, x.(*runCursor)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
