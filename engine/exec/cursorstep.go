package exec

import "github.com/ladybugsql/ladybug/engine/txn"

// stepCursor advances a scan's cursor after the row it just read. It
// reports whether a row follows; at the end it sets *done and returns the
// cursor's error, if any.
func stepCursor(cur *txn.Cursor, done *bool) (bool, error) {
	if cur.Next() {
		return true, nil
	}
	*done = true
	return false, cur.Err()
}

// nonEmpty returns b, or nil when it holds no rows (the end of the input).
func nonEmpty(b *Batch) *Batch {
	if b.N == 0 {
		return nil
	}
	return b
}
