package engine

import (
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// pragmaWrites reports whether setting pragma name writes the file.
func pragmaWrites(name string) bool {
	switch name {
	case "user_version", "application_id":
		return true
	}
	return false
}

// pragmaColumns are the result columns of introspection pragmas.
var pragmaColumns = plan.TableFuncColumns

func namedColumns(names ...string) []Column {
	out := make([]Column, len(names))
	for i, n := range names {
		out[i] = Column{Name: n, Nullable: -1}
	}
	return out
}

func oneValue(name string, v types.Value) outcome {
	return outcome{rows: staticRows(namedColumns(name), [][]types.Value{{v}})}
}

// pragma runs PRAGMA name [= value].
func (s *Session) pragma(c *exec.Ctx, p *plan.Pragma) (outcome, error) {
	// PRAGMA main.x or temp.x introspects that schema only.
	if rows, ok, err := exec.IntrospectionRows(exec.SchemaCatalog(c.Catalog, p.Schema), p.Name, p.Arg); ok || err != nil {
		return outcome{rows: staticRows(namedColumns(pragmaColumns["pragma_"+p.Name]...), rows)}, err
	}
	if out, ok, err := s.connectPragma(c, p); ok {
		return out, err
	}
	switch p.Name {
	case "user_version", "application_id":
		slot := metaUserVersion
		if p.Name == "application_id" {
			slot = metaApplicationID
		}
		if p.HasArg {
			n, err := strconv.ParseInt(strings.TrimSpace(p.Arg), 0, 32)
			if err != nil {
				return outcome{}, nil // SQLite ignores a malformed value
			}
			return outcome{}, c.Tx.SetMeta(slot, uint64(uint32(int32(n))))
		}
		return oneValue(p.Name, types.NewInt(int64(int32(uint32(c.Tx.Meta(slot)))))), nil
	case "schema_version":
		return oneValue(p.Name, types.NewInt(int64(c.Catalog.Version))), nil
	case "foreign_keys":
		if p.HasArg {
			s.foreignKeys = pragmaBool(p.Arg)
			return outcome{}, nil
		}
		return oneValue(p.Name, types.NewBool(s.foreignKeys)), nil
	case "recursive_triggers":
		if p.HasArg {
			s.recursiveTriggers = pragmaBool(p.Arg)
			return outcome{}, nil
		}
		return oneValue(p.Name, types.NewBool(s.recursiveTriggers)), nil
	case "page_size":
		return oneValue(p.Name, types.NewInt(int64(s.db.store.PageSize()))), nil
	case "page_count":
		return oneValue(p.Name, types.NewInt(int64(s.db.store.PageCount()))), nil
	case "freelist_count":
		return oneValue(p.Name, types.NewInt(int64(s.db.store.FreelistCount()))), nil
	case "encoding":
		return oneValue(p.Name, types.NewText("UTF-8")), nil
	case "foreign_key_check":
		rows, err := exec.ForeignKeyCheckRows(c, p.Arg)
		return outcome{rows: staticRows(namedColumns("table", "rowid", "parent", "fkid"), rows)}, err
	case "integrity_check", "quick_check":
		return s.integrityCheck(c, p.Name)
	case "optimize":
		return s.optimize(c, p)
	case "analysis_limit":
		if p.HasArg {
			// As SQLite: a decimal or hex integer >= 0, kept to 31 bits;
			// anything else leaves the limit as it is.
			if n, ok := pragmaInt(p.Arg); ok && n >= 0 {
				s.analysisLimit = n & 0x7fffffff
			}
		}
		return oneValue(p.Name, types.NewInt(s.analysisLimit)), nil
	case "compile_options":
		return outcome{rows: staticRows(namedColumns(p.Name), nil)}, nil
	}
	// Unknown pragmas are ignored, as SQLite does.
	return outcome{}, nil
}

func pragmaBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "on", "true", "yes":
		return true
	}
	return false
}

func (s *Session) integrityCheck(c *exec.Ctx, name string) (outcome, error) {
	problems, err := s.db.store.IntegrityCheckContext(c.Go)
	if err != nil {
		if ierr := c.CheckNow(); ierr != nil {
			return outcome{}, ierr
		}
		return outcome{}, errs.Wrap(errs.CodeCorrupt, err)
	}
	if cat := s.db.cat.Load(); cat != nil && len(problems) == 0 {
		more, err := s.indexAgreement(c, cat)
		if err != nil {
			if ierr := c.CheckNow(); ierr != nil {
				return outcome{}, ierr
			}
			return outcome{}, errs.Wrap(errs.CodeCorrupt, err)
		}
		problems = append(problems, more...)
	}
	if len(problems) == 0 && c.Catalog != nil {
		more, err := indexKeysAgree(c, c.Catalog.Main())
		if err != nil {
			if ierr := c.CheckNow(); ierr != nil {
				return outcome{}, ierr
			}
			return outcome{}, errs.Wrap(errs.CodeCorrupt, err)
		}
		problems = append(problems, more...)
	}
	rows := [][]types.Value{}
	for _, p := range problems {
		rows = append(rows, []types.Value{types.NewText(p)})
	}
	if len(rows) == 0 {
		rows = append(rows, []types.Value{types.NewText("ok")})
	}
	return outcome{rows: staticRows(namedColumns(name), rows)}, nil
}

// setting answers a single-value pragma read as a table.
func (s *Session) setting(name string) (types.Value, bool) {
	switch name {
	case "page_size":
		return types.NewInt(int64(s.db.store.PageSize())), true
	case "page_count":
		return types.NewInt(int64(s.db.store.PageCount())), true
	case "freelist_count":
		return types.NewInt(int64(s.db.store.FreelistCount())), true
	case "foreign_keys":
		return types.NewBool(s.foreignKeys), true
	case "recursive_triggers":
		return types.NewBool(s.recursiveTriggers), true
	case "analysis_limit":
		return types.NewInt(s.analysisLimit), true
	case "schema_version":
		if c := s.db.cat.Load(); c != nil {
			return types.NewInt(int64(c.Version)), true
		}
	}
	return types.Null, false
}

// pragmaInt parses a pragma argument as SQLite's sqlite3DecOrHexToI64
// does: a decimal integer (sign and surrounding spaces allowed) or 0x
// followed by at most 16 hex digits (the bits of an int64).
func pragmaInt(arg string) (int64, bool) {
	a := strings.TrimSpace(arg)
	if len(a) > 2 && a[0] == '0' && (a[1] == 'x' || a[1] == 'X') {
		if len(a) > 18 {
			return 0, false
		}
		u, err := strconv.ParseUint(a[2:], 16, 64)
		return int64(u), err == nil
	}
	n, err := strconv.ParseInt(a, 10, 64)
	return n, err == nil
}
