package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/ladybugsql/ladybug/pagecache"
	"github.com/ladybugsql/ladybug/vfs"
)

// Many processes on one database: the -shm file and its locks (see doc.go,
// "Many processes", and docs/ARCHITECTURE.md for the protocol and its
// state table).
const (
	shmSize  = 4096
	shmMagic = 0x4c4253484d000001 // "LBSHM", version 1
	// Words of the shared state (8 bytes each, at these offsets).
	shmMagicOff = 0
	shmChg      = 8  // change counter, odd while the log state changes
	shmGen      = 16 // log generation: bumped at every restart or truncation
	shmSalt     = 24 // the log's salt
	shmEnd      = 32 // offset after the last committed frame (0: empty file)
	shmCRC      = 40 // checksum chain value at shmEnd
	shmSeq      = 48 // newest commit
	shmHasHdr   = 56 // 1: a committed frame of this generation holds page 0
	// shmWriting is 1 from when a writer takes the writer lock until it
	// releases it: the next writer finding it set knows its predecessor
	// died holding the lock, and adopts whatever complete commits it left
	// in the log after shmEnd (a read-only process may have read them).
	shmWriting = 64
	// Process slots: 64 bytes each from shmSlot0; a process owns the slot
	// whose lock byte (lockSlot0+i) it holds.
	shmSlot0   = 512
	shmSlotLen = 64
	shmSlots   = (shmSize - shmSlot0) / shmSlotLen
	slotActive = 0 // open read transactions of the process
	slotMin    = 8 // a lower bound of their snapshots' commits
	// Lock bytes of the -shm file.
	lockDMS    = 0 // shared by every process using the file; exclusive to initialize it
	lockWriter = 1 // the writer lock
	lockSlot0  = 8 // + slot number: held exclusive by the slot's owner
	// lockROReaders is the byte of the main file that read-only processes
	// (which never write the -shm file) hold shared while they read, and a
	// checkpoint holds exclusive while it writes the main file or restarts
	// the log. Far past the data, as locks are advisory it only has to be
	// the same byte everywhere.
	lockROReaders = 1 << 40
	// lockROPending is held exclusive by a checkpoint waiting for
	// lockROReaders; a read-only process takes it shared (and lets it go)
	// before it takes lockROReaders, so its readers stop starting while a
	// checkpoint waits, and the checkpoint gets its turn.
	lockROPending = lockROReaders + 1
)

// shared is a Store's view of the -shm file: the mapping, its slot, and
// how far it has followed the other processes.
type shared struct {
	f    vfs.Shared
	mem  []byte
	slot int
	// seen is the change counter this Store's index reflects; mu is held
	// while the Store applies other processes' changes and while it
	// changes the shared state itself (setting seen with it, so that its
	// own readers never take its own commits for a foreign change).
	seen atomic.Uint64
	mu   sync.Mutex
	gen  uint64 // log generation of the index; guarded by mu
}

func (sh *shared) word(off int) *atomic.Uint64 {
	return (*atomic.Uint64)(unsafe.Pointer(&sh.mem[off]))
}

func (sh *shared) slotWord(i, off int) *atomic.Uint64 {
	return sh.word(shmSlot0 + i*shmSlotLen + off)
}

// logState is the log as the newest commit left it, shared by all.
type logState struct {
	chg, gen, salt, end, crc, seq, hasHdr uint64
}

// state reads the shared log state; ok is false while a writer changes it.
func (sh *shared) state() (st logState, ok bool) {
	c := sh.word(shmChg).Load()
	if c&1 != 0 {
		return st, false
	}
	st = logState{
		chg: c, gen: sh.word(shmGen).Load(), salt: sh.word(shmSalt).Load(),
		end: sh.word(shmEnd).Load(), crc: sh.word(shmCRC).Load(),
		seq: sh.word(shmSeq).Load(), hasHdr: sh.word(shmHasHdr).Load(),
	}
	return st, sh.word(shmChg).Load() == c
}

// store writes the log state and ends the change (the counter is odd on
// entry); the caller holds sh.mu.
func (sh *shared) store(st logState) {
	sh.word(shmGen).Store(st.gen)
	sh.word(shmSalt).Store(st.salt)
	sh.word(shmEnd).Store(st.end)
	sh.word(shmCRC).Store(st.crc)
	sh.word(shmSeq).Store(st.seq)
	sh.word(shmHasHdr).Store(st.hasHdr)
	sh.gen = st.gen
	sh.seen.Store(sh.word(shmChg).Add(1))
}

// openShared joins the other processes using the database through its
// -shm file, when the file system supports that (the OS on Linux and
// macOS) and the open is read-write. first reports that no other process
// had it open: the caller then initializes the shared state (initShared)
// once it has read the files. Elsewhere the main file's own lock admits
// one process.
func (s *Store) openShared() (first bool, err error) {
	if !s.canShare() || s.readOnly {
		return false, nil
	}
	sfs := s.opts.FS.(vfs.SharedFS)
	f, err := sfs.OpenShared(s.path + "-shm")
	if err != nil {
		return false, fmt.Errorf("storage: open %s-shm: %w", s.path, err)
	}
	sh := &shared{f: f, slot: -1}
	if err := s.joinShared(sh, &first); err != nil {
		f.Close()
		return false, err
	}
	s.sh = sh
	return first, nil
}

// canShare reports whether processes can share the file: the file system
// maps a -shm file and locks bytes of the main file.
func (s *Store) canShare() bool {
	_, ok := s.opts.FS.(vfs.SharedFS)
	_, lockable := s.db.(vfs.ByteLocker)
	return ok && lockable
}

func (s *Store) joinShared(sh *shared, first *bool) error {
	f := sh.f
	got, err := f.TryLockByte(lockDMS, true)
	if err != nil {
		return err
	}
	if got {
		*first = true
		if err := f.Truncate(0); err != nil {
			return fmt.Errorf("storage: reset %s-shm: %w", s.path, err)
		}
		if err := f.Truncate(shmSize); err != nil {
			return fmt.Errorf("storage: size %s-shm: %w", s.path, err)
		}
	} else if err := s.pollLock(f, lockDMS, false, "another process is opening the database"); err != nil {
		return err
	}
	if err := f.Map(shmSize); err != nil {
		return err
	}
	sh.mem = f.Mem()
	if !*first && sh.word(shmMagicOff).Load() != shmMagic {
		return fmt.Errorf("%w: %s-shm is not ladybug's shared index", ErrCorrupt, s.path)
	}
	for i := range shmSlots {
		got, err := f.TryLockByte(lockSlot0+int64(i), true)
		if err != nil {
			return err
		}
		if got {
			sh.slot = i
			sh.slotWord(i, slotActive).Store(0)
			sh.slotWord(i, slotMin).Store(^uint64(0))
			return nil
		}
	}
	return fmt.Errorf("%w: %d processes have the database open, the most it admits", ErrBusy, shmSlots)
}

// pollLock takes a lock byte of f, retrying for the busy timeout.
func (s *Store) pollLock(f vfs.ByteLocker, off int64, exclusive bool, what string) error {
	deadline := time.Now().Add(max(s.opts.BusyTimeout, 0))
	pause := 50 * time.Microsecond
	for {
		got, err := f.TryLockByte(off, exclusive)
		if err != nil || got {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: %s", ErrBusy, what)
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Millisecond)
	}
}

// initShared publishes the state the first process read from the files,
// then lets the others in.
func (s *Store) initShared() error {
	sh := s.sh
	sh.mu.Lock()
	sh.word(shmMagicOff).Store(shmMagic)
	sh.word(shmChg).Store(1)
	sh.store(s.logStateLocked(1))
	sh.mu.Unlock()
	if _, err := sh.f.TryLockByte(lockDMS, false); err != nil {
		return err
	}
	return nil
}

// logStateLocked is the log as this Store (holding the writer lock) has
// it, in generation gen.
func (s *Store) logStateLocked(gen uint64) logState {
	st := logState{gen: gen, salt: uint64(s.wal.salt), end: uint64(s.wal.end), crc: uint64(s.wal.crc)}
	s.mu.Lock()
	st.seq = s.hdr.seq
	s.mu.Unlock()
	if s.wal.hasHeader {
		st.hasHdr = 1
	}
	return st
}

// publishShared makes the log state this writer left (after a commit, or
// a new log header) the shared one; newGen starts a new generation.
func (s *Store) publishShared(newGen bool) {
	sh := s.sh
	if sh == nil {
		return
	}
	sh.mu.Lock()
	sh.word(shmChg).Add(1)
	gen := sh.word(shmGen).Load()
	if newGen {
		gen++
	}
	sh.store(s.logStateLocked(gen))
	sh.mu.Unlock()
}

// beginRead registers a read transaction of this process in its slot and
// catches up with the other processes' commits (before the caller takes
// its snapshot).
//
// While another process restarts the log it waits, unregistered (the
// restart waits for this process's registered readers to end).
func (s *Store) beginShared() error {
	sh := s.sh
	active := sh.slotWord(sh.slot, slotActive)
	active.Add(1)
	pause := 20 * time.Microsecond
	for {
		if sh.word(shmChg).Load() == sh.seen.Load() {
			return nil
		}
		err := s.syncShared(false)
		if err == nil {
			return nil
		}
		active.Add(^uint64(0))
		if !errors.Is(err, errRestarting) {
			return err
		}
		time.Sleep(pause)
		pause = min(2*pause, time.Millisecond)
		active.Add(1)
	}
}

// errRestarting: another process is restarting the log; see beginShared.
var errRestarting = errors.New("storage: another process is restarting the log")

// endShared unregisters a read transaction.
func (s *Store) endShared() {
	s.sh.slotWord(s.sh.slot, slotActive).Add(^uint64(0))
}

// setSharedMin publishes the oldest snapshot this process's readers may
// hold; the caller holds s.mu (publishLocked).
func (s *Store) setSharedMin(seq uint64) {
	if s.sh != nil {
		s.sh.slotWord(s.sh.slot, slotMin).Store(seq)
	}
}

// refreshSharedMin recomputes the oldest snapshot this process's readers
// may hold (readers only ever register on cur, so it can only rise), for
// a checkpoint of another process waiting for old readers to finish.
func (s *Store) refreshSharedMin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.cur.Load().hdr.seq
	for _, sn := range s.old {
		if sn.readers.Load() > 0 {
			m = min(m, sn.hdr.seq)
		}
	}
	s.setSharedMin(m)
}

// waitForeignReaders waits (at the start of a write transaction, the log
// long) until no other process's reader holds a snapshot older than the
// newest commit, so the checkpoint that follows can restart the log. It
// gives up after idle without progress or limit in all; each look
// announces itself, so the other processes' next read transactions
// publish how old their readers are.
func (s *Store) waitForeignReaders(ctx context.Context, idle, limit time.Duration) {
	newest := s.newestHeader().seq
	waitProgress(ctx, idle, limit, func() (bool, int64) {
		m, ok := s.foreignMin()
		return !ok || m >= newest, int64(min(m, newest))
	})
}

// syncShared brings the index up to the shared log state: the frames
// other processes committed since, or, after another process restarted
// the log, the whole new log over a reread main file. writer: the caller
// holds the writer lock (else, while another process restarts the log,
// errRestarting).
func (s *Store) syncShared(writer bool) error {
	sh := s.sh
	sh.mu.Lock()
	defer sh.mu.Unlock()
	st, ok := sh.state()
	if ok {
		if st.chg == sh.seen.Load() {
			return nil
		}
		if err := s.applyShared(st); err != nil {
			return err
		}
		sh.seen.Store(st.chg)
		s.refreshSharedMin()
		return nil
	}
	// A writer is restarting the log, or died doing it.
	if writer {
		return s.repairShared()
	}
	if done, err := s.tryRepairShared(); done || err != nil {
		return err
	}
	return errRestarting
}

// tryRepairShared repairs the shared state when the writer that was
// changing it died (its lock is free); the caller holds sh.mu.
func (s *Store) tryRepairShared() (bool, error) {
	select {
	case s.writer <- struct{}{}:
	default:
		return false, nil
	}
	defer func() { <-s.writer }()
	got, err := s.sh.f.TryLockByte(lockWriter, true)
	if err != nil || !got {
		return false, err
	}
	defer s.sh.f.UnlockByte(lockWriter)
	if _, ok := s.sh.state(); ok {
		return false, nil // finished meanwhile
	}
	return true, s.repairShared()
}

// repairShared rebuilds the shared state from the files after a writer
// died while changing it; the caller holds the writer lock and sh.mu.
func (s *Store) repairShared() error {
	if err := s.reloadLog(-1); err != nil {
		return err
	}
	sh := s.sh
	if sh.word(shmChg).Load()&1 == 0 {
		sh.word(shmChg).Add(1)
	}
	sh.store(s.logStateLocked(sh.word(shmGen).Load() + 1))
	return nil
}

// applyShared catches up with st; the caller holds sh.mu.
func (s *Store) applyShared(st logState) error {
	if st.gen != s.sh.gen {
		if err := s.reloadLog(int64(st.end)); err != nil {
			return err
		}
		s.sh.gen = st.gen
		return nil
	}
	if int64(st.end) <= s.wal.end {
		return nil
	}
	return s.readTail(int64(st.end), true)
}

// readTail adds the commits other processes appended, up to end;
// exact: the shared index says the commits end there; else (a read-only
// open reading the log's size) whatever complete commits are found count.
func (s *Store) readTail(end int64, exact bool) error {
	s.mu.Lock()
	seq := s.hdr.seq
	s.mu.Unlock()
	sc, err := s.wal.scanRange(s.wal.end, s.wal.crc, end, seq, seq+1)
	if err != nil {
		return err
	}
	if exact && sc.end != end {
		return fmt.Errorf("%w: %s-wal: the commits end at %d, the shared index says %d", ErrCorrupt, s.path, sc.end, end)
	}
	if sc.lastSeq == 0 {
		return nil
	}
	var h header
	if sc.hdr != nil {
		if h, err = decodeHeader(sc.hdr); err != nil {
			return fmt.Errorf("storage: wal: %w", err)
		}
	}
	s.walMu.Lock()
	s.wal.apply(sc)
	s.walEmpty.Store(len(s.wal.index) == 0)
	s.mu.Lock()
	if sc.hdr != nil {
		s.hdr = h
	}
	s.hdr.seq = sc.lastSeq
	s.publishLocked(s.hdr)
	s.mu.Unlock()
	s.walMu.Unlock()
	return nil
}

// reloadLog rereads the main file's header and the log (up to limit;
// negative: all of it) after another process restarted or truncated the
// log: every frame this Store knew is in the main file by then, and no
// reader of this process is open on a snapshot that needs one (the
// restarting process saw none). Every cached page is dropped: the main
// file changed in places this Store cannot know.
func (s *Store) reloadLog(limit int64) error {
	unlock, err := s.lockMainStable()
	if err != nil {
		return err
	}
	defer unlock()
	_, err = s.reloadLogLocked(limit)
	return err
}

// reloadLogLocked is reloadLog for a caller that holds other processes'
// checkpoints off; it returns the main file's commit.
func (s *Store) reloadLogLocked(limit int64) (uint64, error) {
	main, err := s.mainHeader()
	if err != nil {
		return 0, err
	}
	tmp := wal{f: s.wal.f, ps: s.ps}
	r, err := replayed{}, errNoWAL // no log file (a read-only open's)
	if tmp.f != nil {
		r, err = tmp.replayTo(main.seq, limit)
	}
	if errors.Is(err, errNoWAL) {
		tmp.clearIndex()
		tmp.end, err = 0, nil
	}
	if err != nil {
		return 0, err
	}
	h := main
	if r.hdr != nil {
		if h, err = decodeHeader(r.hdr); err != nil {
			return 0, fmt.Errorf("storage: wal: %w", err)
		}
	}
	if r.lastSeq != 0 {
		h.seq = r.lastSeq
	}
	s.walMu.Lock()
	s.wal.index, s.wal.frames, s.wal.hasHeader = tmp.index, tmp.frames, tmp.hasHeader
	s.wal.salt, s.wal.end, s.wal.crc = tmp.salt, tmp.end, tmp.crc
	s.walEmpty.Store(len(s.wal.index) == 0)
	s.cache.InvalidateFunc(func(pagecache.Key) bool { return true })
	s.hot.clear()
	s.mu.Lock()
	s.hdr = h
	s.publishLocked(h)
	s.mu.Unlock()
	s.walMu.Unlock()
	return main.seq, nil
}

// releaseMain ends Open's hold on other processes' checkpoints.
func (s *Store) releaseMain() {
	if f := s.holdMain; f != nil {
		s.holdMain = nil
		f()
	}
}

// lockMainStable holds off checkpoints of other processes (the main
// file's read-only readers' byte, shared) while the main file's header is
// read; it returns the unlock.
func (s *Store) lockMainStable() (func(), error) {
	bl, ok := s.db.(vfs.ByteLocker)
	if !ok {
		return func() {}, nil
	}
	if err := s.pollLock(bl, lockROReaders, false, "another process is checkpointing"); err != nil {
		return nil, err
	}
	return func() { bl.UnlockByte(lockROReaders) }, nil
}

// lockSharedWriter takes the writer lock across processes (after the
// in-process token), waiting up to the busy timeout, and catches up with
// the other processes' commits.
func (s *Store) lockSharedWriter(ctx context.Context, wait time.Duration) error {
	f := s.sh.f
	deadline := time.Now().Add(wait)
	pause := 50 * time.Microsecond
	for {
		got, err := f.TryLockByte(lockWriter, true)
		if err != nil {
			return fmt.Errorf("storage: %w", err)
		}
		if got {
			break
		}
		if wait < 0 || time.Now().After(deadline) {
			return fmt.Errorf("%w: another process is writing (waited %v)", ErrBusy, max(wait, 0))
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w: %w", ErrBusy, ctx.Err())
		case <-t.C:
		}
		pause = min(2*pause, 2*time.Millisecond)
	}
	if err := s.tookSharedWriter(); err != nil {
		f.UnlockByte(lockWriter)
		return err
	}
	return nil
}

// tookSharedWriter catches up once the writer lock is taken: the other
// processes' commits, and those of a writer that died holding the lock.
func (s *Store) tookSharedWriter() error {
	err := s.syncShared(true)
	if err == nil && s.sh.word(shmWriting).Load() != 0 {
		err = s.adoptDeadWriter()
	}
	if err != nil {
		return err
	}
	s.sh.word(shmWriting).Store(1)
	return nil
}

// adoptDeadWriter takes into the index, and publishes, the complete
// commits a writer that died holding the writer lock left after the
// shared end of the log (killed after its commit record was written but
// before it published it). Frames of a commit it did not finish fail to
// verify or lack their commit record and stay out.
func (s *Store) adoptDeadWriter() error {
	if s.wal.end == 0 {
		return nil
	}
	size, err := s.wal.f.Size()
	if err != nil {
		return fmt.Errorf("storage: wal size: %w", ioErr(err))
	}
	s.sh.mu.Lock()
	err = s.readTail(size, false)
	s.sh.mu.Unlock()
	if err != nil {
		return err
	}
	s.publishShared(false)
	return nil
}

// unlockWriter releases the writer lock: across processes, then the
// in-process token.
func (s *Store) unlockWriter() {
	if s.sh != nil {
		s.sh.word(shmWriting).Store(0)
		s.sh.f.UnlockByte(lockWriter)
	}
	<-s.writer
}

// foreignMin announces a checkpoint to the other processes and returns the
// oldest snapshot their open read transactions may hold (ok false: none).
// A reader that registers after the announcement sees it and catches up
// to a snapshot at or after anything the checkpoint copies.
func (s *Store) foreignMin() (uint64, bool) {
	sh := s.sh
	sh.mu.Lock()
	sh.word(shmChg).Add(1)
	sh.seen.Store(sh.word(shmChg).Add(1))
	sh.mu.Unlock()
	m, ok := ^uint64(0), false
	for i := range shmSlots {
		if i == sh.slot || sh.slotWord(i, slotActive).Load() == 0 {
			continue
		}
		if live, err := sh.f.ByteHeld(lockSlot0 + int64(i)); err != nil || live {
			m, ok = min(m, sh.slotWord(i, slotMin).Load()), true
		}
	}
	return m, ok
}

// foreignReaders reports whether a reader of another process is open
// (and, the caller holding sh.mu with the change counter odd, no new one
// can begin unnoticed).
func (s *Store) foreignReaders() bool {
	sh := s.sh
	for i := range shmSlots {
		if i == sh.slot || sh.slotWord(i, slotActive).Load() == 0 {
			continue
		}
		if live, err := sh.f.ByteHeld(lockSlot0 + int64(i)); err != nil || live {
			return true
		}
	}
	return false
}

// lockCheckpoint keeps read-only processes' readers out while a
// checkpoint writes the main file, waiting up to restartHold for the open
// ones to end (ok false: they did not); it returns the unlock. A
// read-only process's read transaction that begins meanwhile waits for
// the checkpoint.
func (s *Store) lockCheckpoint() (func(), bool) {
	bl, ok := s.db.(vfs.ByteLocker)
	if !ok || s.sh == nil {
		return func() {}, true
	}
	deadline := time.Now().Add(restartHold)
	pause := 20 * time.Microsecond
	pending := false
	for {
		if !pending {
			got, err := bl.TryLockByte(lockROPending, true)
			if err != nil {
				return nil, false
			}
			pending = got
		}
		got, err := bl.TryLockByte(lockROReaders, true)
		if err == nil && got {
			if pending {
				bl.UnlockByte(lockROPending)
			}
			return func() { bl.UnlockByte(lockROReaders) }, true
		}
		if err != nil || time.Now().After(deadline) {
			if pending {
				bl.UnlockByte(lockROPending)
			}
			return nil, false
		}
		time.Sleep(pause)
		pause = min(2*pause, time.Millisecond)
	}
}

// restartHold bounds how long a log restart holds other processes' new
// read transactions back while it waits for their open ones to end.
const restartHold = 20 * time.Millisecond

// beginRestart is called before the log restarts or is cut: it holds the
// other processes' new readers back (the change counter odd: they wait
// for the restart to finish), waits up to restartHold for their open
// readers to end, and reports whether they did; if so the caller changes
// the log and calls endRestart, else the log stays as it is. (Without the
// hold, processes whose read transactions always overlap would keep the
// log from ever restarting.)
func (s *Store) beginRestart() bool {
	sh := s.sh
	if sh == nil {
		return true
	}
	sh.mu.Lock()
	sh.word(shmChg).Add(1)
	deadline := time.Now().Add(restartHold)
	pause := 20 * time.Microsecond
	for s.foreignReaders() {
		if time.Now().After(deadline) {
			sh.seen.Store(sh.word(shmChg).Add(1))
			sh.mu.Unlock()
			return false
		}
		time.Sleep(pause)
		pause = min(2*pause, time.Millisecond)
	}
	return true
}

// endRestart publishes the restarted (or cut) log as a new generation.
func (s *Store) endRestart() {
	sh := s.sh
	if sh == nil {
		return
	}
	sh.store(s.logStateLocked(sh.word(shmGen).Load() + 1))
	sh.mu.Unlock()
}

// headerAt returns the header as of commit seq (an older snapshot another
// process reads): the newest logged page 0 at or before it, with its
// sequence number.
func (s *Store) headerAt(seq uint64) (header, error) {
	pg, err := s.readPage(0, seq)
	if err != nil {
		return header{}, err
	}
	h, err := decodeHeader(pg.Data)
	if err != nil {
		return header{}, fmt.Errorf("storage: header at %d: %w", seq, err)
	}
	h.seq = seq
	return h, nil
}

// crashAt calls the test hook Options.crashPoint, if set, at a named
// point: "commit-begin" (a write transaction's spilled pages in the log,
// its commit record not yet written), "commit-unpublished" (a commit record durable in the log, the
// shared state not yet updated), "restart-begin" and "restart-header"
// (the change counter odd, before and after the restarted log's header
// is written), "truncate-cut" (the change counter odd, the log file cut
// to nothing by wal_checkpoint(TRUNCATE)), "checkpoint-copy" (half of a checkpoint's pages copied
// into the main file).
func (s *Store) crashAt(point string) {
	if f := s.opts.crashPoint; f != nil {
		f(point)
	}
}
