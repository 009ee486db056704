package grammar

func (x *BeginStmt) write(p *printer) {
	switch x.Mode {
	case TxImmediate:
		p.kw("BEGIN IMMEDIATE")
	case TxExclusive:
		p.kw("BEGIN EXCLUSIVE")
	default:
		p.kw("BEGIN")
	}
}

func (x *CommitStmt) write(p *printer) { p.kw("COMMIT") }

func (x *RollbackStmt) write(p *printer) {
	p.kw("ROLLBACK")
	if x.Savepoint != "" {
		p.kw(" TO SAVEPOINT ")
		p.name(x.Savepoint)
	}
}

func (x *SavepointStmt) write(p *printer) {
	p.kw("SAVEPOINT ")
	p.name(x.Name)
}

func (x *ReleaseStmt) write(p *printer) {
	p.kw("RELEASE SAVEPOINT ")
	p.name(x.Name)
}

func (x *PragmaStmt) write(p *printer) {
	p.kw("PRAGMA ")
	p.qualified(x.Schema, x.Name)
	if x.Value == nil {
		return
	}
	if x.Call {
		p.kw("(")
		p.expr(x.Value)
		p.kw(")")
		return
	}
	p.kw(" = ")
	p.expr(x.Value)
}

func (x *ExplainStmt) write(p *printer) {
	p.kw("EXPLAIN ")
	if x.QueryPlan {
		p.kw("QUERY PLAN ")
	}
	if x.Analyze {
		p.kw("ANALYZE ")
	}
	p.node(x.Stmt)
}

func (x *AnalyzeStmt) write(p *printer) {
	p.kw("ANALYZE")
	if x.Name != "" {
		p.kw(" ")
		p.qualified(x.Schema, x.Name)
	}
}

func (x *ReindexStmt) write(p *printer) {
	p.kw("REINDEX")
	if x.Name != "" {
		p.kw(" ")
		p.qualified(x.Schema, x.Name)
	}
}

func (x *CreateVirtualTableStmt) write(p *printer) {
	p.kw("CREATE VIRTUAL TABLE ")
	if x.IfNotExists {
		p.kw("IF NOT EXISTS ")
	}
	p.qualified(x.Schema, x.Name)
	p.kw(" USING ")
	p.name(x.Module)
	p.kw(x.Args)
}

func (x *VacuumStmt) write(p *printer) {
	p.kw("VACUUM")
	if x.Schema != "" {
		p.kw(" ")
		p.name(x.Schema)
	}
	if x.Into != nil {
		p.kw(" INTO ")
		p.expr(x.Into)
	}
}

func (x *AttachStmt) write(p *printer) {
	p.kw("ATTACH DATABASE ")
	p.expr(x.File)
	p.kw(" AS ")
	p.name(x.Schema)
}

func (x *DetachStmt) write(p *printer) {
	p.kw("DETACH DATABASE ")
	p.name(x.Schema)
}

// String prints the node as SQL.
func (x *BeginStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *CommitStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *RollbackStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *SavepointStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *ReleaseStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *PragmaStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *ExplainStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *AnalyzeStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *VacuumStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *ReindexStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *CreateVirtualTableStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *AttachStmt) String() string { return render(x) }

// String prints the node as SQL.
func (x *DetachStmt) String() string { return render(x) }
