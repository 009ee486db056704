package txn

import (
	"bytes"
	"encoding/binary"
	"slices"
	"unsafe"
)

// tombState is the state of one key in a tombSet.
type tombState uint8

const (
	tsNone       tombState = iota // not tombstoned (never, cancelled, or a dropped phantom)
	tsUnverified                  // tombstoned by Delete without a lookup
	tsVerified                    // tombstoned, and known to exist in storage
)

// A push records one add, so undo can pop adds newest first: pushAppend
// (run grew by one), pushOther (a key of other, on otherKeys), or a revived
// run entry i encoded as i.
const (
	pushAppend int32 = -1
	pushOther  int32 = -2
)

// tombSet is one tree's pending tombstones. Deletes usually come in key
// order (a scan, a sorted batch), so keys larger than every key so far are
// appended to the run, a sorted sequence: adding costs an append and
// looking up the key a scan is about to visit costs one comparison. The
// run's keys are packed in runBuf (key i at runBuf[runOff[i]:runOff[i+1]]),
// so the garbage collector has no pointers to trace. Keys that arrive out
// of order go to the map other. A key is live in at most one of them.
// live and unverified count the keys in state tsUnverified/tsVerified.
type tombSet struct {
	runBuf []byte
	runOff []int       // start of each run key in runBuf
	state  []tombState // parallel to runOff
	other  map[string]tombState
	filter tombFilter // over other's keys
	pushes []int32    // every add, oldest first; popped only by undo

	otherKeys []string // keys of pushOther pushes, oldest first

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

// runKey returns run key i; it must not be written or kept across adds.
func (s *tombSet) runKey(i int) []byte {
	end := len(s.runBuf)
	if i+1 < len(s.runOff) {
		end = s.runOff[i+1]
	}
	return s.runBuf[s.runOff[i]:end:end]
}

// find returns the index of key in the run.
func (s *tombSet) find(key []byte) (int, bool) {
	n := len(s.runOff)
	if n == 0 || bytes.Compare(key, s.runKey(n-1)) > 0 || bytes.Compare(key, s.runKey(0)) < 0 {
		return 0, false
	}
	lo, hi := 0, n
	for lo < hi { // first index whose key >= key
		mid := int(uint(lo+hi) >> 1)
		if bytes.Compare(s.runKey(mid), key) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < n && bytes.Equal(s.runKey(lo), key)
}

// get returns the state of key.
func (s *tombSet) get(key []byte) tombState {
	if s.live == 0 {
		return tsNone
	}
	if i, ok := s.find(key); ok && s.state[i] != tsNone {
		return s.state[i]
	}
	if len(s.other) > 0 && s.filter.mayHold(key) {
		return s.other[string(key)]
	}
	return tsNone
}

// add tombstones key unless it is live already (false: nothing changed);
// str makes the string of a key stored in other. One call answers what a
// get and an add would, for Delete.
func (s *tombSet) add(key []byte, st tombState, str func([]byte) string) bool {
	if handled, added := s.addRun(key, st); handled {
		return added
	}
	if s.inOther(key) {
		return false
	}
	if s.other == nil {
		s.other = make(map[string]tombState)
	}
	k := str(key)
	s.putOther(k, st)
	s.pushes = append(s.pushes, pushOther)
	s.otherKeys = append(s.otherKeys, k)
	return true
}

// addRun is add for a key the run can take: one above every run key
// (appended) or one of the run's (revived unless live). handled false
// means neither: the key is below the run's last key and not in it.
func (s *tombSet) addRun(key []byte, st tombState) (handled, added bool) {
	n := len(s.runOff)
	if n == 0 || bytes.Compare(key, s.runKey(n-1)) > 0 {
		s.runOff = append(s.runOff, len(s.runBuf))
		s.runBuf = append(s.runBuf, key...)
		s.state = append(s.state, st)
		s.pushes = append(s.pushes, pushAppend)
		s.account(tsNone, st)
		return true, true
	}
	if i, ok := s.find(key); ok {
		if s.state[i] != tsNone {
			return true, false
		}
		s.account(tsNone, st)
		s.state[i] = st
		s.pushes = append(s.pushes, int32(i))
		return true, true
	}
	return false, false
}

// runTakes reports whether addRun would handle key.
func (s *tombSet) runTakes(key []byte) bool {
	n := len(s.runOff)
	if n == 0 || bytes.Compare(key, s.runKey(n-1)) > 0 {
		return true
	}
	_, ok := s.find(key)
	return ok
}

// inOther reports whether key is live in other (whose entries are all
// live: a key leaving the live states leaves the map).
func (s *tombSet) inOther(key []byte) bool {
	return len(s.other) > 0 && s.filter.mayHold(key) && s.other[string(key)] != tsNone
}

// putOther puts k in state st in other, which must exist, and returns its
// state before.
func (s *tombSet) putOther(k string, st tombState) tombState {
	old, had := s.other[k]
	s.account(old, st)
	s.other[k] = st
	if !had {
		s.filter.add(k, s.other)
	}
	return old
}

// set puts key, a key of the run or other or neither, in state st; it
// returns the previous state and, when it changed a live key, the key as a
// string made by str (for the undo log).
func (s *tombSet) set(key []byte, st tombState, str func([]byte) string) (tombState, string) {
	if i, ok := s.find(key); ok {
		old := s.state[i]
		s.account(old, st)
		s.state[i] = st
		if old == tsNone {
			return old, ""
		}
		return old, str(key)
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
	old := s.putOther(k, st)
	return old, k
}

// pop undoes the newest n adds.
func (s *tombSet) pop(n int) {
	for ; n > 0 && len(s.pushes) > 0; n-- {
		p := s.pushes[len(s.pushes)-1]
		s.pushes = s.pushes[:len(s.pushes)-1]
		switch p {
		case pushOther:
			k := s.otherKeys[len(s.otherKeys)-1]
			s.otherKeys = s.otherKeys[:len(s.otherKeys)-1]
			s.account(s.other[k], tsNone)
			delete(s.other, k)
		case pushAppend:
			last := len(s.runOff) - 1
			s.account(s.state[last], tsNone)
			s.runBuf = s.runBuf[:s.runOff[last]]
			s.runOff, s.state = s.runOff[:last], s.state[:last]
		default:
			s.account(s.state[p], tsNone)
			s.state[p] = tsNone
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
		ok, err := exists(s.runKey(i))
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

// sorted returns the live keys in key order, copied into one allocation
// unless they all sit in the run, whose bytes it then shares (the caller
// empties the set right after).
func (s *tombSet) sorted() [][]byte {
	if s.live == len(s.runOff) && len(s.other) == 0 {
		keys := make([][]byte, len(s.runOff))
		for i := range keys {
			keys[i] = s.runKey(i)
		}
		return keys
	}
	extra := s.sortedOther()
	size := 0
	for i := range s.runOff {
		if s.state[i] != tsNone {
			size += len(s.runKey(i))
		}
	}
	for _, k := range extra {
		size += len(k)
	}
	arena := make([]byte, 0, size)
	keys := make([][]byte, 0, s.live)
	emit := func(k []byte) {
		start := len(arena)
		arena = append(arena, k...)
		keys = append(keys, arena[start:len(arena):len(arena)])
	}
	i := 0
	for j := range s.runOff {
		if s.state[j] == tsNone {
			continue
		}
		k := s.runKey(j)
		for ; i < len(extra) && bytes.Compare(extra[i], k) < 0; i++ {
			emit(extra[i])
		}
		emit(k)
	}
	for ; i < len(extra); i++ {
		emit(extra[i])
	}
	return keys
}

// sortedOther returns the live keys of other in key order. When they are
// all 8 bytes long (rowid keys), it sorts them as big-endian integers,
// whose order is theirs and which sort far faster than strings.
func (s *tombSet) sortedOther() [][]byte {
	extra := make([][]byte, 0, len(s.other))
	short := true
	for k, st := range s.other {
		if st != tsNone {
			extra = append(extra, sbytes(k))
			short = short && len(k) == 8
		}
	}
	if !short {
		slices.SortFunc(extra, bytes.Compare)
		return extra
	}
	nums := make([]uint64, len(extra))
	for i, k := range extra {
		nums[i] = binary.BigEndian.Uint64(k)
	}
	radixSort(nums)
	buf := make([]byte, 0, 8*len(nums))
	for i, n := range nums {
		buf = binary.BigEndian.AppendUint64(buf, n)
		extra[i] = buf[8*i : 8*i+8 : 8*i+8]
	}
	return extra
}
