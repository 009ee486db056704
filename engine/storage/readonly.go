package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"sync"

	"github.com/ladybugsql/ladybug/vfs"
)

// roState is how a read-only open follows the processes that write the
// file without writing anything itself (not even the -shm index): while
// it has read transactions open it holds the main file's read-only
// readers' byte shared, which keeps every checkpoint and log restart out,
// and each read transaction first catches up with the files: the commits
// appended to the log since, or, when the log restarted or a checkpoint
// changed the main file, everything again.
type roState struct {
	mu      sync.Mutex
	open    int    // read transactions open; guarded by mu
	mainSeq uint64 // the main file's commit when last read; guarded by mu
}

// beginRO registers a read transaction of a read-only open.
func (s *Store) beginRO() error {
	ro := s.ro
	ro.mu.Lock()
	defer ro.mu.Unlock()
	bl := s.db.(vfs.ByteLocker)
	if ro.open == 0 {
		// A checkpoint waiting for the readers holds lockROPending: wait
		// for it rather than start a reader that would keep it waiting.
		if err := s.pollLock(bl, lockROPending, false, "another process is checkpointing"); err != nil {
			return err
		}
		bl.UnlockByte(lockROPending)
		if err := s.pollLock(bl, lockROReaders, false, "another process is checkpointing"); err != nil {
			return err
		}
	}
	if err := s.refreshRO(); err != nil {
		if ro.open == 0 {
			bl.UnlockByte(lockROReaders)
		}
		return err
	}
	ro.open++
	return nil
}

// endRO unregisters a read transaction of a read-only open.
func (s *Store) endRO() {
	ro := s.ro
	ro.mu.Lock()
	defer ro.mu.Unlock()
	if ro.open--; ro.open == 0 {
		s.db.(vfs.ByteLocker).UnlockByte(lockROReaders)
	}
}

// refreshRO catches up with the files (holding ro.mu and the readers'
// byte, so no checkpoint runs meanwhile).
func (s *Store) refreshRO() error {
	ro := s.ro
	var seq [8]byte
	if _, err := s.db.ReadAt(seq[:], 16); err != nil {
		return fmt.Errorf("storage: read header: %w", err)
	}
	if s.wal.f == nil {
		f, err := s.opts.FS.Open(s.path+"-wal", true)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("storage: open wal: %w", err)
		}
		if err == nil {
			s.wal.f = f
		}
	}
	salt, ok, err := s.logSalt()
	if err != nil {
		return err
	}
	if binary.BigEndian.Uint64(seq[:]) != ro.mainSeq || ok != (s.wal.end > 0) || (ok && salt != s.wal.salt) {
		m, err := s.reloadLogLocked(-1)
		ro.mainSeq = m
		return err
	}
	if !ok {
		return nil
	}
	size, err := s.wal.f.Size()
	if err != nil {
		return fmt.Errorf("storage: wal size: %w", ioErr(err))
	}
	if size < s.wal.end+frameSize(s.ps) {
		return nil
	}
	return s.readTail(size, false)
}

// logSalt reads the log's header: its salt, and whether it is valid.
func (s *Store) logSalt() (uint32, bool, error) {
	if s.wal.f == nil {
		return 0, false, nil
	}
	var h [walHeaderSize]byte
	n, err := s.wal.f.ReadAt(h[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, false, fmt.Errorf("storage: read wal header: %w", ioErr(err))
	}
	if n < walHeaderSize || string(h[:8]) != walMagic ||
		binary.BigEndian.Uint32(h[28:]) != crc32.Checksum(h[:28], castagnoli) ||
		int(binary.BigEndian.Uint32(h[12:])) != s.ps {
		return 0, false, nil
	}
	return binary.BigEndian.Uint32(h[16:]), true, nil
}
