package engine

import (
	"errors"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/grammar"
)

// checkSchemaAfter binds every view and trigger of cat again after an
// ALTER TABLE (what names it: "rename", "drop column") and fails, as
// SQLite does, with the first one that no longer binds, so an ALTER never
// leaves a view or trigger reading a column or table that is gone. A temp
// schema's objects bind with main (the statement's) beneath them.
func checkSchemaAfter(main, cat *catalog.Catalog, what string) error {
	bind := cat
	if cat.IsTemp() {
		bind = main.Main().WithTemp(cat)
	}
	for _, e := range cat.Entries() {
		var err error
		switch e.Type {
		case "view":
			if v := cat.View(e.Name); v != nil {
				_, err = plan.NewBinder(bind, nil).ViewTable(v)
			}
		case "trigger":
			err = bindStoredTrigger(bind, e)
		case catalog.GraphEntryType:
			err = checkStoredGraph(cat, e)
		default:
			continue
		}
		if err != nil {
			return errs.New(errs.CodeGeneric, "error in %s %s after %s: %s", e.Type, e.Name, what, errText(err))
		}
	}
	return nil
}

// bindStoredTrigger binds the trigger of entry e against its table or view.
func bindStoredTrigger(cat *catalog.Catalog, e catalog.Entry) error {
	st, err := parseOne(e.SQL)
	if err != nil {
		return err
	}
	ct, ok := st.(*grammar.CreateTriggerStmt)
	if !ok {
		return nil
	}
	target := cat.Table(ct.Table)
	if v := cat.View(ct.Table); v != nil {
		if target, err = plan.NewBinder(cat, nil).ViewTable(v); err != nil {
			return err
		}
	}
	if target == nil {
		return errs.New(errs.CodeGeneric, "no such table: main.%s", ct.Table)
	}
	_, err = plan.NewBinder(cat, exec.ConstEvaluator{}).BindTrigger(ct, target)
	return err
}

// errText is err's message without the "ladybug: " prefix.
func errText(err error) string {
	var le *errs.Error
	if errors.As(err, &le) && le.Msg != "" {
		return le.Msg
	}
	return err.Error()
}
