package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/grammar"
)

// errNoEvaluator is returned by a binder made without an Evaluator for a
// statement it would have to optimize.
var errNoEvaluator = errs.New(errs.CodeInternal, "plan: a query or write bound without a constant evaluator")

// Bind binds one parsed statement.
func (b *Binder) Bind(st grammar.Statement) (Statement, error) {
	switch s := st.(type) {
	case *grammar.SelectStmt:
		q, err := b.bindSelect(s)
		if err != nil {
			return nil, err
		}
		q.ReadOnly, q.NoTables = true, !b.touched
		if b.eval == nil {
			return nil, errNoEvaluator
		}
		if err := checkJoinWidth(q.Root); err != nil {
			return nil, err
		}
		return Optimize(b.cat, b.eval, q), nil
	case *grammar.InsertStmt:
		return b.optimizeStmt(b.bindInsert(s))
	case *grammar.UpdateStmt:
		return b.optimizeStmt(b.bindUpdate(s))
	case *grammar.DeleteStmt:
		return b.optimizeStmt(b.bindDelete(s))
	case *grammar.CreateTableStmt:
		return b.bindCreateTable(s)
	case *grammar.CreateIndexStmt:
		return b.bindCreateIndex(s)
	case *grammar.CreateViewStmt:
		return b.bindCreateView(s)
	case *grammar.DropStmt:
		if _, err := b.schemaCat(s.Schema); err != nil {
			return nil, err
		}
		return &Drop{Kind: s.Kind, Schema: strings.ToLower(s.Schema), Name: s.Name, IfExists: s.IfExists}, nil
	case *grammar.BeginStmt:
		return &TxControl{Op: "BEGIN", Immediate: s.Mode != grammar.TxDeferred}, nil
	case *grammar.CommitStmt:
		return &TxControl{Op: "COMMIT"}, nil
	case *grammar.RollbackStmt:
		if s.Savepoint != "" {
			return &TxControl{Op: "ROLLBACK TO", Name: s.Savepoint}, nil
		}
		return &TxControl{Op: "ROLLBACK"}, nil
	case *grammar.SavepointStmt:
		return &TxControl{Op: "SAVEPOINT", Name: s.Name}, nil
	case *grammar.ReleaseStmt:
		return &TxControl{Op: "RELEASE", Name: s.Name}, nil
	case *grammar.PragmaStmt:
		return b.bindPragma(s)
	case *grammar.ExplainStmt:
		if !s.QueryPlan && !s.Analyze {
			return nil, notSupported("EXPLAIN without QUERY PLAN")
		}
		inner, err := b.Bind(s.Stmt)
		if err != nil {
			return nil, err
		}
		if _, isQuery := inner.(*Query); s.Analyze && !isQuery {
			return nil, notSupported("EXPLAIN ANALYZE of a statement other than a query")
		}
		return &Explain{Stmt: inner, Analyze: s.Analyze}, nil
	case *grammar.AnalyzeStmt:
		if s.Schema == "" && (strings.EqualFold(s.Name, "main") || strings.EqualFold(s.Name, "temp")) {
			return &Analyze{Schema: strings.ToLower(s.Name)}, nil // ANALYZE schema
		}
		return &Analyze{Schema: strings.ToLower(s.Schema), Name: s.Name}, nil
	case *grammar.VacuumStmt:
		if s.Into != nil {
			into, err := b.bindExpr(s.Into, nil)
			if err != nil {
				return nil, err
			}
			return &Nop{What: "VACUUM INTO", Into: into}, nil
		}
		return &Nop{What: "VACUUM"}, nil
	case *grammar.ReindexStmt:
		return &Reindex{Schema: s.Schema, Name: s.Name}, nil
	case *grammar.CreateVirtualTableStmt:
		return nil, notSupported("virtual tables (CREATE VIRTUAL TABLE … USING %s)", s.Module)
	case *grammar.AttachStmt, *grammar.DetachStmt:
		return nil, notSupported("ATTACH and DETACH")
	case *grammar.CreateTriggerStmt:
		return b.bindCreateTrigger(s)
	case *grammar.CreatePropertyGraphStmt, *grammar.DropPropertyGraphStmt, *grammar.AlterPropertyGraphStmt:
		return b.bindGraphDDL(st)
	case *grammar.AlterTableStmt:
		cat, err := b.schemaCat(s.Schema)
		if err != nil {
			return nil, err
		}
		t := cat.Table(s.Table)
		if t == nil {
			return nil, bindErr("no such table: %s", qualified(s.Schema, s.Table))
		}
		return b.bindAlterTable(t, s)
	}
	return nil, notSupported("statement %T", st)
}

func (b *Binder) optimizeStmt(s Statement, err error) (Statement, error) {
	if err != nil {
		return nil, err
	}
	if b.eval == nil {
		return nil, errNoEvaluator
	}
	return OptimizeStmt(b.cat, b.eval, s), nil
}

// bindPragma binds PRAGMA name [= value]; the engine executes it.
func (b *Binder) bindPragma(s *grammar.PragmaStmt) (Statement, error) {
	if _, err := b.schemaCat(s.Schema); err != nil {
		return nil, err
	}
	p := &Pragma{Name: strings.ToLower(s.Name), Schema: strings.ToLower(s.Schema)}
	b.opensTemp = b.opensTemp || IsTempSchema(s.Schema)
	if s.Value != nil {
		p.HasArg = true
		switch v := s.Value.(type) {
		case *grammar.ColumnRef:
			p.Arg = v.Column
		case *grammar.Literal:
			p.Arg = v.Value
		case *grammar.UnaryExpr:
			p.Arg = v.String()
		default:
			p.Arg = v.String()
		}
	}
	return p, nil
}

// IsDDL reports whether a parsed statement changes the schema.
func IsDDL(st grammar.Statement) bool {
	switch st.(type) {
	case *grammar.CreateTableStmt, *grammar.CreateIndexStmt, *grammar.CreateViewStmt,
		*grammar.CreateTriggerStmt, *grammar.DropStmt, *grammar.AlterTableStmt,
		*grammar.CreatePropertyGraphStmt, *grammar.DropPropertyGraphStmt, *grammar.AlterPropertyGraphStmt:
		return true
	}
	return false
}
