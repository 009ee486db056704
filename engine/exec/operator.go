package exec

// Operator is a pull-based physical operator. Next returns the next batch,
// or nil at the end; the batch is valid until the next Next or Close.
type Operator interface {
	Next(c *Ctx) (*Batch, error)
	Close()
}

// Rewinder is an operator that can restart from the beginning (the inner
// side of a nested-loop join, a correlated subquery).
type Rewinder interface {
	Operator
	Rewind(c *Ctx) error
}
