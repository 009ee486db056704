package txn

// hook is a commit or rollback action registered on a transaction: a
// function (OnCommit, OnRollback), or a tree's tombstone step (tree set:
// its commit applies the tree's tombstones, its rollback discards them;
// see hookTombs).
type hook struct {
	name     string
	onCommit bool            // a commit hook; else a rollback hook
	commit   func(*Tx) error // OnCommit
	rollback func()          // OnRollback
	tree     *TxTree
}

// OnCommit registers fn to run at Commit, in registration order, before the
// tombstones are applied and the commit is made durable. fn may read and
// write through tx (its reads honour the tombstones); an error aborts the
// commit and rolls the transaction back. Registering a name already
// registered is a no-op, so a statement can register "its" hook every
// time. A hook registered by a statement or savepoint that is undone is
// unregistered with it.
func (tx *Tx) OnCommit(name string, fn func(*Tx) error) {
	tx.addHook(hook{name: name, onCommit: true, commit: fn})
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
		if o.name == h.name && o.onCommit == h.onCommit && o.tree == h.tree {
			return
		}
	}
	tx.hooks = append(tx.hooks, h)
	tx.log(undoEntry{op: opHook})
}

// hookTombs registers the tree's tombstone hooks, at its first tombstone:
// an OnCommit step that sorts the buffered tombstones and deletes them
// from storage leaf by leaf (applyTombstones runs these steps after every
// other commit hook, so after all of the transaction's writes), and an
// OnRollback step that discards them. Undoing the statement or savepoint
// that buffered the first tombstone unregisters both, running the discard.
func (t *TxTree) hookTombs() {
	t.hooked = true
	t.tx.addHook(hook{onCommit: true, tree: t})
	t.tx.addHook(hook{tree: t})
}

// discardTombs is a tree's tombstone rollback step.
func (t *TxTree) discardTombs() {
	t.dropTombs()
	t.hooked = false
}

// runRollback runs a rollback hook; a panic in it is swallowed.
func (h *hook) runRollback() {
	if h.tree != nil {
		h.tree.discardTombs()
		return
	}
	runQuiet(h.rollback)
}

// popHook unregisters the newest hook, running it if it is a rollback hook.
func (tx *Tx) popHook() {
	if len(tx.hooks) == 0 {
		return
	}
	h := tx.hooks[len(tx.hooks)-1]
	tx.hooks = tx.hooks[:len(tx.hooks)-1]
	if !h.onCommit {
		h.runRollback()
	}
}

// runCommitHooks runs the OnCommit functions in order (hooks registered by
// a hook run too), then the trees' tombstone steps. A panicking hook
// becomes ErrHookPanic.
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
	return tx.applyTombstones()
}

// runRollbackHooks runs the rollback hooks in order. A panic in one does
// not stop the others; rollback cannot fail.
func (tx *Tx) runRollbackHooks() {
	for i := range tx.hooks {
		if h := &tx.hooks[i]; !h.onCommit {
			h.runRollback()
		}
	}
}

func runQuiet(fn func()) {
	defer func() { _ = recover() }()
	fn()
}
