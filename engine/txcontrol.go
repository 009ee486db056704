package engine

import (
	"context"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
)

// txControl runs BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE and
// ROLLBACK TO written in SQL.
func (s *Session) txControl(ctx context.Context, tc *plan.TxControl) error {
	switch tc.Op {
	case "BEGIN":
		return s.Begin(ctx, TxOptions{Immediate: tc.Immediate})
	case "COMMIT":
		return s.Commit()
	case "ROLLBACK":
		return s.Rollback()
	case "SAVEPOINT":
		if s.tx == nil {
			// A SAVEPOINT outside a transaction begins one, as in SQLite;
			// releasing it commits.
			if err := s.Begin(ctx, TxOptions{}); err != nil {
				return err
			}
			s.savepointTx = true
		}
		if s.ttx != nil {
			if err := s.ttx.Savepoint(tc.Name); err != nil {
				return err
			}
		}
		return s.tx.Savepoint(tc.Name)
	case "RELEASE":
		if s.tx == nil {
			return errs.New(errs.CodeGeneric, "no such savepoint: %s", tc.Name)
		}
		if err := s.tx.Release(tc.Name); err != nil {
			return err
		}
		if s.ttx != nil {
			if err := s.ttx.Release(tc.Name); err != nil {
				return err
			}
		}
		if s.savepointTx && len(s.tx.Savepoints()) == 0 {
			s.savepointTx = false
			return s.Commit()
		}
		return nil
	case "ROLLBACK TO":
		if s.tx == nil {
			return errs.New(errs.CodeGeneric, "no such savepoint: %s", tc.Name)
		}
		prev := s.txCat
		if err := s.tx.RollbackTo(tc.Name); err != nil {
			return err
		}
		if s.ttx != nil {
			if err := s.ttx.RollbackTo(tc.Name); err != nil {
				return err
			}
			if err := s.reloadTempCatalog(); err != nil {
				return err
			}
		}
		// Schema changes after the savepoint are undone in the trees; the
		// catalog snapshot is reloaded from them at the next statement.
		if prev != nil {
			s.txCat = nil
			cat, err := loadCatalog(s.tx)
			if err != nil {
				return err
			}
			if cat.Version != s.db.cat.Load().Version {
				s.txCat = cat
			}
		}
		return nil
	}
	return errs.New(errs.CodeNotSupported, "not supported: %s", tc.Op)
}
