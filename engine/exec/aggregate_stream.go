package exec

// nextStream is Next for an aggregate over input sorted by its group keys
// that a LIMIT reads (plan.Aggregate.Stream): after each input batch the
// groups before the last are complete (a group ends where the key
// changes) and are emitted at once, so a consumer that stops early stops
// the input too. The last group is emitted when the input ends.
func (a *aggregateOp) nextStream(c *Ctx) (*Batch, error) {
	if !a.ready {
		if err := a.begin(c); err != nil {
			return nil, err
		}
		a.ready = true
	}
	for {
		done := a.ngroups - 1 // the last group may go on in the next batch
		if a.inDone {
			done = a.ngroups
		}
		if a.emitted < done {
			return a.emit(done)
		}
		if a.inDone {
			return nil, nil
		}
		more, err := a.consumeBatch(c)
		if err != nil {
			return nil, err
		}
		a.inDone = !more
	}
}
