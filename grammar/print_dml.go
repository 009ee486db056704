package grammar

var conflictSQL = [...]string{ConflictRollback: "ROLLBACK", ConflictAbort: "ABORT", ConflictFail: "FAIL", ConflictIgnore: "IGNORE", ConflictReplace: "REPLACE"}

// String returns the action's SQL spelling ("" for ConflictDefault).
func (c ConflictAction) String() string {
	if int(c) < len(conflictSQL) {
		return conflictSQL[c]
	}
	return "?"
}

// orAction writes " OR action" when one is given.
func (p *printer) orAction(c ConflictAction) {
	if c != ConflictDefault {
		p.kw(" OR ", c.String())
	}
}

// with writes "WITH ... " when w is set.
func (p *printer) with(w *With) {
	if w != nil {
		w.write(p)
		p.kw(" ")
	}
}

// returning writes " RETURNING ..." when cols is not empty.
func (p *printer) returning(cols []*ResultColumn) {
	if len(cols) > 0 {
		p.kw(" RETURNING ")
		list(p, cols)
	}
}

func (x *InsertStmt) write(p *printer) {
	p.with(x.With)
	if x.Replace {
		p.kw("REPLACE")
	} else {
		p.kw("INSERT")
		p.orAction(x.Or)
	}
	p.kw(" INTO ")
	p.qualified(x.Table.Schema, x.Table.Name)
	p.alias(x.Table.Alias)
	if len(x.Columns) > 0 {
		p.kw(" (")
		p.names(x.Columns)
		p.kw(")")
	}
	switch {
	case x.DefaultValues:
		p.kw(" DEFAULT VALUES")
	case x.Select != nil:
		p.kw(" ")
		x.Select.write(p)
	default:
		p.kw(" VALUES ")
		p.rows(x.Values)
	}
	for _, u := range x.Upserts {
		p.kw(" ")
		u.write(p)
	}
	p.returning(x.Returning)
}

func (x *Upsert) write(p *printer) {
	p.kw("ON CONFLICT")
	if len(x.Target) > 0 {
		p.kw(" (")
		list(p, x.Target)
		p.kw(")")
		p.where(x.TargetWhere)
	}
	if x.DoNothing {
		p.kw(" DO NOTHING")
		return
	}
	p.kw(" DO UPDATE SET ")
	list(p, x.Set)
	p.where(x.Where)
}

func (x *SetClause) write(p *printer) {
	if len(x.Columns) == 1 {
		p.name(x.Columns[0])
	} else {
		p.kw("(")
		p.names(x.Columns)
		p.kw(")")
	}
	p.kw(" = ")
	p.expr(x.Value)
}

func (x *UpdateStmt) write(p *printer) {
	p.with(x.With)
	p.kw("UPDATE")
	p.orAction(x.Or)
	p.kw(" ")
	x.Table.write(p)
	p.kw(" SET ")
	list(p, x.Set)
	if x.From != nil {
		p.kw(" FROM ")
		p.node(x.From)
	}
	p.where(x.Where)
	p.returning(x.Returning)
}

func (x *DeleteStmt) write(p *printer) {
	p.with(x.With)
	p.kw("DELETE FROM ")
	x.Table.write(p)
	p.where(x.Where)
	p.returning(x.Returning)
}

// String prints the node as SQL.
func (x *InsertStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *Upsert) String() string { return render(x) }

// String prints the node as SQL.
func (x *SetClause) String() string { return render(x) }

// String prints the node as SQL.
func (x *UpdateStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *DeleteStmt) String() string { return render(x) }
