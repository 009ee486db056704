package txn

import (
	"bytes"
	"slices"
	"strings"
	"unsafe"
)

// tombState is the state of one key in a tombSet.
type tombState uint8

const (
	tsNone       tombState = iota // not tombstoned (never, cancelled, or a dropped phantom)
	tsUnverified                  // tombstoned by Delete without a lookup
	tsVerified                    // tombstoned, and known to exist in storage
)

// tombPush records one add, so undo can pop adds newest first.
type tombPush struct {
	idx      int32  // run index, or -1 for a key of other
	appended bool   // the add appended run[idx] (else it revived it)
	key      string // the key of other
}

// tombSet is one tree's pending tombstones. Deletes usually come in key
// order (a scan, a sorted batch), so keys larger than every key so far are
// appended to run, a sorted slice: adding costs an append and looking up
// the key a scan is about to visit costs one comparison. Keys that arrive
// out of order go to the map other. A key is live in at most one of them.
// live and unverified count the keys in state tsUnverified/tsVerified.
type tombSet struct {
	run    []string
	state  []tombState // parallel to run
	other  map[string]tombState
	pushes []tombPush // every add, oldest first; popped only by undo

	live, unverified int
}

// sbytes views s as bytes without copying; the result must not be written.
func sbytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// account moves the counters from state old to state new.
func (s *tombSet) account(old, new tombState) {
	if old != tsNone {
		s.live--
	}
	if new != tsNone {
		s.live++
	}
	if old == tsUnverified {
		s.unverified--
	}
	if new == tsUnverified {
		s.unverified++
	}
}

// find returns the index of key in run.
func (s *tombSet) find(key []byte) (int, bool) {
	n := len(s.run)
	if n == 0 || bytes.Compare(key, sbytes(s.run[n-1])) > 0 || bytes.Compare(key, sbytes(s.run[0])) < 0 {
		return 0, false
	}
	return slices.BinarySearchFunc(s.run, key, func(e string, k []byte) int {
		return bytes.Compare(sbytes(e), k)
	})
}

// get returns the state of key.
func (s *tombSet) get(key []byte) tombState {
	if s.live == 0 {
		return tsNone
	}
	if i, ok := s.find(key); ok && s.state[i] != tsNone {
		return s.state[i]
	}
	if len(s.other) > 0 {
		return s.other[string(key)]
	}
	return tsNone
}

// add tombstones key, which must not be live; str makes the stored string.
func (s *tombSet) add(key []byte, st tombState, str func([]byte) string) {
	n := len(s.run)
	if n == 0 || bytes.Compare(key, sbytes(s.run[n-1])) > 0 {
		s.run = append(s.run, str(key))
		s.state = append(s.state, st)
		s.pushes = append(s.pushes, tombPush{idx: int32(n), appended: true})
		s.account(tsNone, st)
		return
	}
	if i, ok := s.find(key); ok {
		s.account(s.state[i], st)
		s.state[i] = st
		s.pushes = append(s.pushes, tombPush{idx: int32(i)})
		return
	}
	if s.other == nil {
		s.other = make(map[string]tombState)
	}
	k := str(key)
	s.account(s.other[k], st)
	s.other[k] = st
	s.pushes = append(s.pushes, tombPush{idx: -1, key: k})
}

// set puts key, a key of run or other or neither, in state st; it returns
// the previous state and the stored string (for a new key of other, made
// by str).
func (s *tombSet) set(key []byte, st tombState, str func([]byte) string) (tombState, string) {
	if i, ok := s.find(key); ok {
		old := s.state[i]
		s.account(old, st)
		s.state[i] = st
		return old, s.run[i]
	}
	if st == tsNone {
		old, ok := s.other[string(key)]
		if !ok {
			return tsNone, ""
		}
		delete(s.other, string(key))
		s.account(old, st)
		return old, str(key)
	}
	if s.other == nil {
		s.other = make(map[string]tombState)
	}
	k := str(key)
	old := s.other[k]
	s.account(old, st)
	s.other[k] = st
	return old, k
}

// pop undoes the newest n adds.
func (s *tombSet) pop(n int) {
	for ; n > 0 && len(s.pushes) > 0; n-- {
		p := s.pushes[len(s.pushes)-1]
		s.pushes = s.pushes[:len(s.pushes)-1]
		switch {
		case p.idx < 0:
			s.account(s.other[p.key], tsNone)
			delete(s.other, p.key)
		case p.appended:
			s.account(s.state[p.idx], tsNone)
			s.run, s.state = s.run[:p.idx], s.state[:p.idx]
		default:
			s.account(s.state[p.idx], tsNone)
			s.state[p.idx] = tsNone
		}
	}
}

// verify calls exists for every unverified key: an existing one becomes
// verified, an absent one (a phantom) is dropped.
func (s *tombSet) verify(exists func(key []byte) (bool, error)) error {
	for i, st := range s.state {
		if st != tsUnverified {
			continue
		}
		ok, err := exists(sbytes(s.run[i]))
		if err != nil {
			return err
		}
		s.account(st, stateOf(ok))
		s.state[i] = stateOf(ok)
	}
	for k, st := range s.other {
		if st != tsUnverified {
			continue
		}
		ok, err := exists(sbytes(k))
		if err != nil {
			return err
		}
		s.account(st, stateOf(ok))
		if ok {
			s.other[k] = tsVerified
		} else {
			delete(s.other, k)
		}
	}
	return nil
}

func stateOf(exists bool) tombState {
	if exists {
		return tsVerified
	}
	return tsNone
}

// sorted returns the live keys in key order, copied into one allocation.
func (s *tombSet) sorted() [][]byte {
	var extra []string
	for k, st := range s.other {
		if st != tsNone {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	size := 0
	for i, k := range s.run {
		if s.state[i] != tsNone {
			size += len(k)
		}
	}
	for _, k := range extra {
		size += len(k)
	}
	arena := make([]byte, 0, size)
	keys := make([][]byte, 0, s.live)
	emit := func(k string) {
		start := len(arena)
		arena = append(arena, k...)
		keys = append(keys, arena[start:len(arena):len(arena)])
	}
	i := 0
	for j, k := range s.run {
		if s.state[j] == tsNone {
			continue
		}
		for ; i < len(extra) && strings.Compare(extra[i], k) < 0; i++ {
			emit(extra[i])
		}
		emit(k)
	}
	for ; i < len(extra); i++ {
		emit(extra[i])
	}
	return keys
}
