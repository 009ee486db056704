package grammar

import "strings"

// miscStatement converts transaction control, PRAGMA and maintenance
// statements.
func (b *builder) miscStatement(s *sStatement) Statement {
	p := pos(s.Pos)
	switch {
	case s.Begin != nil:
		return &BeginStmt{Position: p, Mode: txMode(s.Begin.Mode)}
	case s.Commit != nil:
		return &CommitStmt{Position: p}
	case s.Rollback != nil:
		return &RollbackStmt{Position: p, Savepoint: unquote(s.Rollback.Savepoint)}
	case s.Savepoint != nil:
		return &SavepointStmt{Position: p, Name: unquote(s.Savepoint.Name)}
	case s.Release != nil:
		return &ReleaseStmt{Position: p, Name: unquote(s.Release.Name)}
	case s.Pragma != nil:
		return b.pragma(p, s.Pragma)
	case s.Analyze != nil:
		schema, name := qname(s.Analyze.Name)
		return &AnalyzeStmt{Position: p, Schema: schema, Name: name}
	case s.Reindex != nil:
		schema, name := qname(s.Reindex.Name)
		return &ReindexStmt{Position: p, Schema: schema, Name: name}
	case s.CreateVirtual != nil:
		v := s.CreateVirtual
		schema, name := qname(v.Name)
		return &CreateVirtualTableStmt{Position: p, IfNotExists: v.IfNotExists, Schema: schema, Name: name,
			Module: unquote(v.Module), Args: vtabArgs(v.Args)}
	case s.Vacuum != nil:
		return &VacuumStmt{Position: p, Schema: unquote(s.Vacuum.Schema), Into: b.expr(s.Vacuum.Into)}
	case s.Attach != nil:
		return &AttachStmt{Position: p, File: b.expr(s.Attach.File), Schema: unquote(s.Attach.Schema)}
	case s.Detach != nil:
		return &DetachStmt{Position: p, Schema: unquote(s.Detach.Schema)}
	}
	b.fail(s.Pos, "unsupported statement")
	return &CommitStmt{Position: p}
}

// vtabArgs prints a virtual table's module arguments, tokens separated
// by spaces.
func vtabArgs(a *sVTabArgs) string {
	if a == nil {
		return ""
	}
	parts := make([]string, 0, len(a.Items))
	for _, it := range a.Items {
		if it.Nested != nil {
			parts = append(parts, vtabArgs(it.Nested))
		} else {
			parts = append(parts, it.Token)
		}
	}
	return "(" + strings.Join(parts, " ") + ")"
}

func txMode(m string) TxMode {
	switch strings.ToUpper(m) {
	case "IMMEDIATE":
		return TxImmediate
	case "EXCLUSIVE":
		return TxExclusive
	}
	return TxDeferred
}

func (b *builder) pragma(p Position, s *sPragma) *PragmaStmt {
	schema, name := qname(s.Name)
	st := &PragmaStmt{Position: p, Schema: schema, Name: name}
	switch {
	case s.Eq != nil:
		st.Value = b.pragmaValue(s.Eq)
	case s.Call != nil:
		st.Value = b.pragmaValue(s.Call)
		st.Call = true
	}
	return st
}

// pragmaValue converts a PRAGMA value; a word becomes a ColumnRef.
func (b *builder) pragmaValue(v *sPragmaValue) Expr {
	p := pos(v.Pos)
	switch {
	case v.Num != nil:
		return b.signedNumber(p, v.Num)
	case v.Str != "":
		return stringLiteral(p, v.Str)
	}
	return &ColumnRef{Position: p, Column: unquote(v.Word)}
}
