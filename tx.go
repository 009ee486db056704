package ladybug

import "database/sql/driver"

// tx is a database/sql transaction on one connection.
type tx struct {
	c    *conn
	done bool
}

var _ driver.Tx = (*tx)(nil)

// Commit makes the transaction durable (per the sync setting).
func (t *tx) Commit() error {
	if t.done {
		return errTxDone
	}
	t.done = true
	t.c.tx = nil
	return t.c.sess.Commit()
}

// Rollback discards the transaction; nothing it did reaches the file.
func (t *tx) Rollback() error {
	if t.done {
		return errTxDone
	}
	t.done = true
	t.c.tx = nil
	return t.c.sess.Rollback()
}
