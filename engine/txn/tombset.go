package txn

import (
	"bytes"
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
// (run grew by one), a revived run entry i encoded as i, or entry i of
// other encoded as pushOther-i.
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
// of order (random point deletes, index entries) go to the hash table
// other. A key is live in at most one of them. live and unverified count
// the keys in state tsUnverified/tsVerified.
type tombSet struct {
	runBuf []byte
	runOff []int       // start of each run key in runBuf
	state  []tombState // parallel to runOff
	other  keyTable
	pushes []int32 // every add, oldest first; popped only by undo

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
	if i := s.other.find(key); i >= 0 {
		return s.other.ents[i].st
	}
	return tsNone
}

// add tombstones key unless it is live already (false: nothing changed).
// One call answers what a get and an add would, for Delete.
func (s *tombSet) add(key []byte, st tombState) bool {
	if handled, added := s.addRun(key, st); handled {
		return added
	}
	i := s.other.find(key)
	if i < 0 {
		i = s.other.insert(key, tsNone)
	} else if s.other.ents[i].st != tsNone {
		return false
	}
	s.setOther(i, st)
	s.pushes = append(s.pushes, pushOther-int32(i))
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

// setOther puts entry i of other in state st and returns its state before.
func (s *tombSet) setOther(i int, st tombState) tombState {
	e := &s.other.ents[i]
	old := e.st
	s.account(old, st)
	e.st = st
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
	i := s.other.find(key)
	if i < 0 {
		if st == tsNone {
			return tsNone, ""
		}
		i = s.other.insert(key, tsNone)
	}
	old := s.setOther(i, st)
	if old == tsNone {
		return old, ""
	}
	return old, str(key)
}

// bytes is the memory the set's buffers hold (their capacities): what a
// statement that grows them is charged against the memory limit.
func (s *tombSet) bytes() int64 {
	const ent = int64(unsafe.Sizeof(keyEnt{}))
	o := &s.other
	return int64(cap(s.runBuf)+8*cap(s.runOff)+cap(s.state)+4*cap(s.pushes)) +
		int64(cap(o.buf)+8*cap(o.slots)) + ent*int64(cap(o.ents))
}

// pop undoes the newest n adds.
func (s *tombSet) pop(n int) {
	for ; n > 0 && len(s.pushes) > 0; n-- {
		p := s.pushes[len(s.pushes)-1]
		s.pushes = s.pushes[:len(s.pushes)-1]
		switch {
		case p <= pushOther:
			s.setOther(int(pushOther-p), tsNone)
		case p == pushAppend:
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
	for i := range s.other.ents {
		if s.other.ents[i].st != tsUnverified {
			continue
		}
		ok, err := exists(s.other.key(i))
		if err != nil {
			return err
		}
		s.setOther(i, stateOf(ok))
	}
	return nil
}

func stateOf(exists bool) tombState {
	if exists {
		return tsVerified
	}
	return tsNone
}

// sorted returns the live keys in key order. They share the set's
// buffers, so the caller must empty the set right after (applyTombs does)
// and never write them.
func (s *tombSet) sorted() [][]byte {
	keys := make([][]byte, 0, s.live)
	if s.other.live() == 0 {
		for i := range s.runOff {
			if s.state[i] != tsNone {
				keys = append(keys, s.runKey(i))
			}
		}
		return keys
	}
	keys = s.other.sorted(keys)
	// Merge the run in from the back, in place: keys has room for it.
	n := len(keys)
	j := len(s.runOff) - 1
	keys = keys[:s.live]
	for w := s.live - 1; w >= 0; w-- {
		for j >= 0 && s.state[j] == tsNone {
			j--
		}
		if j < 0 {
			break // the rest of keys[:n] is in place
		}
		if n > 0 && bytes.Compare(keys[n-1], s.runKey(j)) > 0 {
			n--
			keys[w] = keys[n]
		} else {
			keys[w] = s.runKey(j)
			j--
		}
	}
	return keys
}
