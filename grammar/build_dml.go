package grammar

import "strings"

var conflictActions = map[string]ConflictAction{
	"ROLLBACK": ConflictRollback, "ABORT": ConflictAbort, "FAIL": ConflictFail,
	"IGNORE": ConflictIgnore, "REPLACE": ConflictReplace,
}

func conflictAction(s string) ConflictAction { return conflictActions[strings.ToUpper(s)] }

func (b *builder) insert(s *sInsert) *InsertStmt {
	schema, name := qname(s.Table)
	st := &InsertStmt{Position: pos(s.Pos), With: b.with(s.With), Or: conflictAction(s.Or), Replace: s.Replace,
		Table:   &TableName{Position: pos(s.Table.Pos), Schema: schema, Name: name, Alias: unquote(s.Alias)},
		Columns: unquoteAll(s.Columns), DefaultValues: s.Default, Select: b.selectStmt(s.Select),
		Returning: b.resultColumns(s.Returning)}
	if s.Replace {
		st.Or = ConflictReplace
	}
	if s.Values != nil {
		st.Values = b.rows(s.Values)
	}
	for _, u := range s.Upserts {
		st.Upserts = append(st.Upserts, b.upsert(u))
	}
	return st
}

func (b *builder) upsert(u *sUpsert) *Upsert {
	return &Upsert{Position: pos(u.Pos), Target: b.indexedColumns(u.Target), TargetWhere: b.expr(u.TargetWhere),
		DoNothing: u.Nothing, Set: b.setClauses(u.Set), Where: b.expr(u.Where)}
}

func (b *builder) setClauses(list []*sSetClause) []*SetClause {
	var out []*SetClause
	for _, s := range list {
		out = append(out, &SetClause{Position: pos(s.Pos), Columns: unquoteAll(s.Columns), Value: b.expr(s.Value)})
	}
	return out
}

func (b *builder) update(s *sUpdate) *UpdateStmt {
	st := &UpdateStmt{Position: pos(s.Pos), With: b.with(s.With), Or: conflictAction(s.Or), Table: b.targetTable(s.Table),
		Set: b.setClauses(s.Set), Where: b.expr(s.Where), Returning: b.resultColumns(s.Returning)}
	if s.From != nil {
		st.From = b.from(s.From)
	}
	return st
}

func (b *builder) delete(s *sDelete) *DeleteStmt {
	return &DeleteStmt{Position: pos(s.Pos), With: b.with(s.With), Table: b.targetTable(s.Table),
		Where: b.expr(s.Where), Returning: b.resultColumns(s.Returning)}
}
