package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"sync"

	"github.com/ladybugsql/ladybug/vfs"
)

// WAL layout; see doc.go.
const (
	walMagic      = "LBWAL001"
	walHeaderSize = 32
	frameHdrSize  = 24
	frameCommit   = 1 // frame flag: last frame of a commit (always page 0)
)

// walVer is one committed version of a page in the WAL.
type walVer struct {
	seq uint64 // commit that wrote it
	off int64  // frame offset in the WAL file
}

// wal is the write-ahead log file and its in-memory index. The index and
// frames are guarded by Store.walMu (read by page loads, written by commit
// publication and checkpoint); end, crc and buf belong to the writer.
type wal struct {
	f      vfs.File
	ps     int
	salt   uint32
	index  map[uint32][]walVer // committed versions per page, oldest first
	frames int                 // committed frames in the log
	end    int64               // offset after the last frame written
	// hasHeader: a committed frame of this log generation holds page 0.
	hasHeader bool
	crc       uint32 // checksum chain value at end
	// shift extends the chain over a page body from its checksum (see
	// frameCRC), for page size shiftPS.
	shift   *crcShiftTable
	shiftPS int
}

// frameBufs are scratch buffers for appendFrames' frame batches, shared
// by every store: a database that is not writing (one of a thousand
// idle clones) keeps none.
var frameBufs = sync.Pool{New: func() any { return new([]byte) }}

func frameSize(ps int) int64 { return int64(frameHdrSize + ps) }

// resolve returns the version of page p a reader of snapshot snap sees:
// the newest WAL version with seq <= snap, or seq 0 for the main file.
func (w *wal) resolve(p uint32, snap uint64) (uint64, int64) {
	if len(w.index) == 0 {
		return 0, -1
	}
	vs := w.index[p]
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].seq <= snap {
			return vs[i].seq, vs[i].off
		}
	}
	return 0, -1
}

// reset starts an empty log with a fresh salt.
func (w *wal) reset() error {
	if err := w.writeHeader(); err != nil {
		return err
	}
	w.clearIndex()
	return nil
}

// clearIndex forgets every frame (the caller holds walMu exclusively, or
// no reader exists yet).
func (w *wal) clearIndex() {
	w.index = map[uint32][]walVer{}
	w.frames = 0
	w.hasHeader = false
}

// writeHeader writes a header with a fresh salt: every frame after it in
// the file stops verifying. It resets the writer's end and checksum chain.
func (w *wal) writeHeader() error {
	w.salt = rand.Uint32()
	var h [walHeaderSize]byte
	copy(h[:], walMagic)
	binary.BigEndian.PutUint32(h[8:], formatVersion)
	binary.BigEndian.PutUint32(h[12:], uint32(w.ps))
	binary.BigEndian.PutUint32(h[16:], w.salt)
	crc := crc32.Checksum(h[:28], castagnoli)
	binary.BigEndian.PutUint32(h[28:], crc)
	if _, err := w.f.WriteAt(h[:], 0); err != nil {
		return fmt.Errorf("storage: write wal header: %w", ioErr(err))
	}
	w.end = walHeaderSize
	w.crc = crc
	return nil
}

// framePage is one page to append: its number and contents.
type framePage struct {
	pg   uint32
	data []byte
}

// appendFrames writes pages as consecutive frames of commit seq, the last
// one flagged commit when commit is set, and returns each frame's offset
// through offs (appended). Pages are sealed (checksummed) first. On error
// end and crc are unchanged, so the frames are overwritten by the next
// append and never become part of the log.
func (w *wal) appendFrames(pages []framePage, seq uint64, commit bool, offs []int64) ([]int64, error) {
	fs := int(frameSize(w.ps))
	const batch = 64
	if w.shiftPS != w.ps {
		w.shift, w.shiftPS = shiftTableFor(w.ps), w.ps
	}
	end, crc := w.end, w.crc
	bp := frameBufs.Get().(*[]byte)
	defer frameBufs.Put(bp)
	for start := 0; start < len(pages); start += batch {
		chunk := pages[start:min(start+batch, len(pages))]
		need := len(chunk) * fs
		if cap(*bp) < need {
			*bp = make([]byte, need)
		}
		buf := (*bp)[:need]
		for i, fp := range chunk {
			fr := buf[i*fs : (i+1)*fs]
			sealPage(fp.data, fp.pg)
			flags := uint32(0)
			if commit && start+i == len(pages)-1 {
				flags = frameCommit
			}
			binary.BigEndian.PutUint32(fr[0:], fp.pg)
			binary.BigEndian.PutUint32(fr[4:], flags)
			binary.BigEndian.PutUint64(fr[8:], seq)
			binary.BigEndian.PutUint32(fr[16:], w.salt)
			copy(fr[frameHdrSize:], fp.data)
			// The page was just sealed: its trailer is its body's
			// checksum, so the chain need not read the page again.
			crc = frameCRC(crc, fr[:20], fr[frameHdrSize:], fp.pg, w.shift)
			binary.BigEndian.PutUint32(fr[20:], crc)
			offs = append(offs, end+int64(i*fs))
		}
		if _, err := w.f.WriteAt(buf, end); err != nil {
			return offs, fmt.Errorf("storage: write wal: %w", ioErr(err))
		}
		end += int64(need)
	}
	w.end, w.crc = end, crc
	return offs, nil
}

// readFrame reads the page of the frame at off into buf and verifies the
// page checksum.
func (w *wal) readFrame(off int64, buf []byte) error {
	if _, err := w.f.ReadAt(buf, off+frameHdrSize); err != nil {
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: wal frame at %d is truncated", ErrCorrupt, off)
		}
		return fmt.Errorf("storage: read wal: %w", ioErr(err))
	}
	return nil
}

// replayed is the committed state found in a log.
type replayed struct {
	hdr     []byte // newest committed header page, nil if none
	lastSeq uint64
}

// replay rebuilds the index from the log file: the frames of every
// complete commit, in order, stopping at the first frame that does not
// verify (a torn or stale tail). A missing or torn header means an empty
// log. baseSeq is the main file's commit number. The log may start at or
// before it: a checkpoint that crashed after writing the main file's
// header but before restarting the log leaves commits the main file may
// hold only in part, and replaying them again is harmless.
func (w *wal) replay(baseSeq uint64) (replayed, error) { return w.replayTo(baseSeq, -1) }

// replayTo is replay reading the log only up to limit (negative: its
// size), where another process says its committed frames end.
func (w *wal) replayTo(baseSeq uint64, limit int64) (replayed, error) {
	var out replayed
	w.index = map[uint32][]walVer{}
	w.frames, w.end = 0, walHeaderSize
	var h [walHeaderSize]byte
	n, err := w.f.ReadAt(h[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return out, fmt.Errorf("storage: read wal header: %w", ioErr(err))
	}
	if n < walHeaderSize || string(h[:8]) != walMagic ||
		binary.BigEndian.Uint32(h[28:]) != crc32.Checksum(h[:28], castagnoli) {
		return out, errNoWAL
	}
	ps := int(binary.BigEndian.Uint32(h[12:]))
	if w.ps == 0 && validPageSize(ps) {
		w.ps = ps // recovering a header: the log names the page size
	}
	if ps != w.ps {
		return out, errNoWAL // a log of another database generation
	}
	w.salt = binary.BigEndian.Uint32(h[16:])
	w.crc = binary.BigEndian.Uint32(h[28:])
	size, err := w.f.Size()
	if err != nil {
		return out, fmt.Errorf("storage: wal size: %w", ioErr(err))
	}
	if limit >= 0 {
		size = min(size, limit)
	}
	return w.scan(size, baseSeq)
}

// anyBase as replay's baseSeq accepts a log starting at any commit: for
// recovering a main file whose header page is unreadable.
const anyBase = ^uint64(0) - 1

// errNoWAL: the log has no valid header; start a fresh one.
var errNoWAL = errors.New("storage: no valid wal")

type pendingFrame struct {
	pg  uint32
	off int64
}

// scanFrame is a committed frame found by scanRange.
type scanFrame struct {
	pg  uint32
	seq uint64
	off int64
}

// scanned is what scanRange found: the committed frames in order, the
// newest committed header page (nil if none), the last commit, and the
// offset and checksum chain value after it.
type scanned struct {
	frames  []scanFrame
	hdr     []byte
	lastSeq uint64
	end     int64
	crc     uint32
}

// scanRange reads the frames from off (whose chain value is crc) up to
// size, and returns the complete commits among them, stopping at the first
// frame that does not verify. seq is the commit the first frame must have,
// or 0 for any at or before baseSeq+1. It changes nothing in w.
func (w *wal) scanRange(off int64, crc uint32, size int64, baseSeq, seq uint64) (scanned, error) {
	out := scanned{end: off, crc: crc}
	fs := frameSize(w.ps)
	fr := make([]byte, fs)
	var pending []pendingFrame
	var pendingHdr []byte // page 0 of the commit being read, if it has one
	for off+fs <= size {
		if _, err := w.f.ReadAt(fr, off); err != nil {
			if errors.Is(err, io.EOF) {
				break // cut by another process since size was read
			}
			return out, fmt.Errorf("storage: read wal: %w", ioErr(err))
		}
		c := crc32.Update(crc, castagnoli, fr[:20])
		c = crc32.Update(c, castagnoli, fr[frameHdrSize:])
		fseq := binary.BigEndian.Uint64(fr[8:])
		if seq == 0 && fseq <= baseSeq+1 {
			seq = fseq
		}
		if binary.BigEndian.Uint32(fr[16:]) != w.salt || binary.BigEndian.Uint32(fr[20:]) != c || fseq != seq {
			break
		}
		pg := binary.BigEndian.Uint32(fr[0:])
		pending = append(pending, pendingFrame{pg, off})
		if pg == 0 {
			pendingHdr = append(pendingHdr[:0], fr[frameHdrSize:]...)
		}
		off, crc = off+fs, c
		if binary.BigEndian.Uint32(fr[4:])&frameCommit == 0 {
			continue
		}
		for _, p := range pending {
			out.frames = append(out.frames, scanFrame{p.pg, seq, p.off})
		}
		if pendingHdr != nil {
			out.hdr = append(out.hdr[:0], pendingHdr...)
		}
		out.lastSeq = seq
		pending, pendingHdr = pending[:0], nil
		out.end, out.crc = off, crc
		seq++
	}
	return out, nil
}

// scan rebuilds the index from the frames after the header (see replay).
func (w *wal) scan(size int64, baseSeq uint64) (replayed, error) {
	var out replayed
	sc, err := w.scanRange(walHeaderSize, w.crc, size, baseSeq, 0)
	if err != nil {
		return out, err
	}
	w.apply(sc)
	out.hdr, out.lastSeq = sc.hdr, sc.lastSeq
	if out.lastSeq != 0 && out.lastSeq < baseSeq && baseSeq != anyBase {
		// Older than the main file (cannot happen with an intact main
		// file): replaying it would roll pages back, so ignore it.
		w.clearIndex()
		out = replayed{}
	}
	return out, nil
}

// apply adds the frames scanRange found to the index and moves the end
// and checksum chain after them (the caller holds walMu exclusively, or no
// reader exists yet).
func (w *wal) apply(sc scanned) {
	for _, f := range sc.frames {
		w.addVersion(f.pg, f.seq, f.off)
	}
	if sc.hdr != nil {
		w.hasHeader = true
	}
	w.end, w.crc = sc.end, sc.crc
}

// addVersion records a committed frame. Within one commit a page may have
// several frames (spilled, then rewritten); the last one wins.
func (w *wal) addVersion(p uint32, seq uint64, off int64) {
	vs := w.index[p]
	if n := len(vs); n > 0 && vs[n-1].seq == seq {
		vs[n-1].off = off
		return
	}
	w.index[p] = append(vs, walVer{seq: seq, off: off})
	w.frames++
}
