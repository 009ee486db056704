package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/grammar"
)

// winState collects the window functions of one query level; they are
// computed by a Window node whose output is the scope's columns followed
// by one column per function.
type winState struct {
	base   int
	funcs  []WindowFunc
	named  map[string]*grammar.WindowSpec
	inArgs bool
}

func (b *Binder) bindWindowCall(f *grammar.FuncCall, sc *scope) (Expr, error) {
	if sc == nil || sc.win == nil || sc.win.inArgs {
		return nil, bindErr("misuse of window function %s()", f.Name)
	}
	st := sc.win
	if len(f.OrderBy) > 0 {
		return nil, bindErr("ORDER BY may not be used with non-aggregate %s()", f.Name)
	}
	if f.Distinct {
		return nil, bindErr("DISTINCT is not supported for window functions")
	}
	spec, err := resolveWindow(f, st)
	if err != nil {
		return nil, err
	}
	st.inArgs = true
	defer func() { st.inArgs = false }()
	wf := WindowFunc{Name: strings.ToLower(f.Name), Star: f.Star, Distinct: f.Distinct}
	if wf.Args, err = b.bindExprs(f.Args, sc); err != nil {
		return nil, err
	}
	if f.Filter != nil {
		if wf.Filter, err = b.bindExpr(f.Filter, sc); err != nil {
			return nil, err
		}
	}
	if wf.Partition, err = b.bindExprs(spec.PartitionBy, sc); err != nil {
		return nil, err
	}
	for _, o := range spec.OrderBy {
		k, err := b.bindSortKey(o, sc)
		if err != nil {
			return nil, err
		}
		wf.Order = append(wf.Order, k)
	}
	if spec.Frame != nil {
		if wf.Frame, err = b.bindFrame(spec.Frame, sc); err != nil {
			return nil, err
		}
	}
	if !windowOnlyNames[wf.Name] && !aggregateNames[wf.Name] {
		return nil, bindErr("%s() may not be used as a window function", f.Name)
	}
	if f.Filter != nil && !aggregateNames[wf.Name] {
		return nil, bindErr("FILTER clause may only be used with aggregate window functions")
	}
	st.funcs = append(st.funcs, wf)
	return &ColRef{Idx: st.base + len(st.funcs) - 1}, nil
}

// resolveWindow merges OVER name / OVER (base …) with the WINDOW clause.
func resolveWindow(f *grammar.FuncCall, st *winState) (*grammar.WindowSpec, error) {
	spec := f.Over
	name := f.OverName
	if spec != nil && spec.Base != "" {
		name = spec.Base
	}
	if name == "" {
		return spec, nil
	}
	base, ok := st.named[strings.ToLower(name)]
	if !ok {
		return nil, bindErr("no such window: %s", name)
	}
	if spec == nil {
		return base, nil
	}
	merged := *base
	if len(spec.OrderBy) > 0 {
		merged.OrderBy = spec.OrderBy
	}
	if spec.Frame != nil {
		merged.Frame = spec.Frame
	}
	return &merged, nil
}

var boundKinds = map[grammar.BoundKind]string{
	grammar.UnboundedPreceding: "UNBOUNDED PRECEDING", grammar.Preceding: "PRECEDING",
	grammar.CurrentRow: "CURRENT ROW", grammar.Following: "FOLLOWING",
	grammar.UnboundedFollowing: "UNBOUNDED FOLLOWING",
}

func (b *Binder) bindFrame(fs *grammar.FrameSpec, sc *scope) (Frame, error) {
	fr := Frame{Set: true, Unit: [...]string{"ROWS", "RANGE", "GROUPS"}[fs.Unit]}
	fr.StartKind = boundKinds[fs.Start.Kind]
	var err error
	if fs.Start.Offset != nil {
		if fr.Start, err = b.bindExpr(fs.Start.Offset, nil); err != nil {
			return fr, err
		}
	}
	fr.EndKind = "CURRENT ROW"
	if fs.End != nil {
		fr.EndKind = boundKinds[fs.End.Kind]
		if fs.End.Offset != nil {
			if fr.End, err = b.bindExpr(fs.End.Offset, nil); err != nil {
				return fr, err
			}
		}
	}
	fr.Exclude = [...]string{"", "NO OTHERS", "CURRENT ROW", "GROUP", "TIES"}[fs.Exclude]
	return fr, nil
}
