package engine

import (
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// PRAGMA optimize's mask bits (SQLite's numbering).
const (
	optimizeReport    = 0x00001 // list the ANALYZE statements instead of running them
	optimizeAnalyze   = 0x00002 // run ANALYZE on tables that may benefit
	optimizeAllTables = 0x10000 // consider tables without an index too
	optimizeDefault   = 0x0fffe
)

// staleFactor is how many times larger or smaller than its measured row
// count a table must have become for PRAGMA optimize to measure it again
// (SQLite documents tenfold; it compares rough logarithmic estimates).
const staleFactor = 10

// optimize runs PRAGMA optimize[(MASK)]: it ANALYZEs each main-schema
// table (with an index, unless the mask has 0x10000) that has no
// statistics or whose row count moved by staleFactor since they were
// gathered. It returns no rows, as SQLite does; with mask bit 0x01 it
// returns the ANALYZE statements it would run instead of running them. Only main is looked at:
// PRAGMA temp.optimize does nothing.
func (s *Session) optimize(c *exec.Ctx, p *plan.Pragma) (outcome, error) {
	mask := int64(optimizeDefault)
	if p.HasArg {
		n, err := strconv.ParseInt(strings.TrimSpace(p.Arg), 0, 64)
		if err != nil {
			return outcome{}, nil // SQLite ignores a malformed value
		}
		mask = n
	}
	if mask&optimizeAnalyze == 0 || strings.EqualFold(p.Schema, "temp") {
		return outcome{}, nil
	}
	main := c.Catalog.Main()
	var stale []*catalog.Table
	for _, e := range main.Entries() {
		t := main.Table(e.Name)
		if e.Type != "table" || t == nil || t.Virtual || plan.IsSystemName(t.Name) {
			continue
		}
		if mask&optimizeAllTables == 0 && len(main.IndexesOf(t)) == 0 {
			continue
		}
		ok, err := statsStale(c, t)
		if err != nil {
			return outcome{}, err
		}
		if ok {
			stale = append(stale, t)
		}
	}
	if mask&optimizeReport != 0 {
		return optimizeReportRows(stale), nil
	}
	if len(stale) == 0 {
		return outcome{}, nil
	}
	cat := main.Clone()
	cat.Version = main.Version + 1
	for i, t := range stale {
		stale[i] = cat.Table(t.Name)
	}
	if err := s.measure(c, cat, stale, nil, optimizeLimit(mask, s.analysisLimit)); err != nil {
		return outcome{}, err
	}
	return outcome{}, nil
}

// statsStale reports whether t has no statistics, or a row count now at
// least staleFactor times larger or smaller than the one measured.
func statsStale(c *exec.Ctx, t *catalog.Table) (bool, error) {
	rows, err := c.Tx.Tree(t.Root).Count()
	if err != nil {
		return false, err
	}
	if t.Stat == nil {
		return rows > 0, nil
	}
	was := t.Stat.Rows
	return rows >= was*staleFactor || rows*staleFactor <= was, nil
}

// optimizeReportRows lists, in SQLite's words, the ANALYZE statements
// PRAGMA optimize would run on tables.
func optimizeReportRows(tables []*catalog.Table) outcome {
	rows := make([][]types.Value, len(tables))
	for i, t := range tables {
		rows[i] = []types.Value{types.NewText(`ANALYZE "main".` + quoted(t.Name))}
	}
	return outcome{rows: staticRows(namedColumns("optimize"), rows)}
}
