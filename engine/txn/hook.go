package txn

// hook is a commit or rollback action registered on a transaction.
type hook struct {
	name     string
	commit   func(*Tx) error // OnCommit
	rollback func()          // OnRollback
}

// OnCommit registers fn to run at Commit, in registration order, before the
// tombstones are applied and the commit is made durable. fn may read and
// write through tx (its reads honour the tombstones); an error aborts the
// commit and rolls the transaction back. Registering a name already
// registered is a no-op, so a statement can register "its" hook every
// time. A hook registered by a statement or savepoint that is undone is
// unregistered with it.
func (tx *Tx) OnCommit(name string, fn func(*Tx) error) {
	tx.addHook(hook{name: name, commit: fn})
}

// OnRollback registers fn to run when the work it belongs to is undone: at
// Rollback (also a failed Commit), in registration order, or when the
// statement or savepoint that registered it is rolled back. Registering a
// name already registered is a no-op.
func (tx *Tx) OnRollback(name string, fn func()) {
	tx.addHook(hook{name: name, rollback: fn})
}

func (tx *Tx) addHook(h hook) {
	if tx.done {
		return
	}
	for _, o := range tx.hooks {
		if o.name == h.name && (o.commit == nil) == (h.commit == nil) {
			return
		}
	}
	tx.hooks = append(tx.hooks, h)
	tx.log(undoEntry{op: opHook})
}

// popHook unregisters the newest hook, running it if it is a rollback hook.
func (tx *Tx) popHook() {
	if len(tx.hooks) == 0 {
		return
	}
	h := tx.hooks[len(tx.hooks)-1]
	tx.hooks = tx.hooks[:len(tx.hooks)-1]
	if h.rollback != nil {
		runQuiet(h.rollback)
	}
}

// runCommitHooks runs the OnCommit hooks in order; hooks registered by a
// hook run too. A panicking hook becomes ErrHookPanic.
func (tx *Tx) runCommitHooks() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = ErrHookPanic
		}
	}()
	for i := 0; i < len(tx.hooks); i++ {
		if fn := tx.hooks[i].commit; fn != nil {
			if err := fn(tx); err != nil {
				return err
			}
		}
	}
	return nil
}

// runRollbackHooks runs the OnRollback hooks in order. A panic in one does
// not stop the others; rollback cannot fail.
func (tx *Tx) runRollbackHooks() {
	for _, h := range tx.hooks {
		if h.rollback != nil {
			runQuiet(h.rollback)
		}
	}
}

func runQuiet(fn func()) {
	defer func() { _ = recover() }()
	fn()
}
