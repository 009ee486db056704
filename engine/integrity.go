package engine

import (
	"fmt"
	"sort"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/dml"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/storage"
)

// maxIntegrityProblems bounds the report, as SQLite's integrity_check(N).
const maxIntegrityProblems = 100

// indexAgreement checks every index against its table on one snapshot:
// each index entry names a row that exists, no row appears twice in an
// index, and a full index has exactly one entry per row. Together these
// make the index's rowids a bijection with the table's. The storage layer
// has already checked pages, checksums, key order and the free list.
// It polls the statement's context every few hundred index entries.
func (s *Session) indexAgreement(c *exec.Ctx, cat *catalog.Catalog) ([]string, error) {
	tx, err := s.db.store.BeginRead()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var problems []string
	for _, e := range cat.Entries() {
		if e.Type != "table" {
			continue
		}
		t := cat.Table(e.Name)
		if t == nil || t.Virtual || t.WithoutRowid {
			continue
		}
		rows, err := tx.Tree(t.Root).Count()
		if err != nil {
			return nil, err
		}
		for _, ix := range cat.TableIndexes(t.Name) {
			more, err := checkIndex(c, tx, t, ix, rows)
			if err != nil {
				return nil, err
			}
			problems = append(problems, more...)
			if len(problems) >= maxIntegrityProblems {
				return problems[:maxIntegrityProblems], nil
			}
		}
	}
	sort.Strings(problems)
	return problems, nil
}

// checkIndex compares one index with its table (rows entries in the table).
func checkIndex(c *exec.Ctx, tx *storage.Tx, t *catalog.Table, ix *catalog.Index, rows int64) ([]string, error) {
	var problems []string
	seen := make(map[int64]struct{})
	table := tx.Tree(t.Root)
	cur := tx.Tree(ix.Root).Cursor()
	defer cur.Close()
	var key []byte
	for ok := cur.First(); ok; ok = cur.Next() {
		if err := c.Check(); err != nil {
			return nil, err
		}
		rowid, err := keycodec.TrailingRowid(cur.Key())
		if err != nil {
			problems = append(problems, fmt.Sprintf("index %s has a malformed entry", ix.Name))
			continue
		}
		if _, dup := seen[rowid]; dup {
			problems = append(problems, fmt.Sprintf("row %d appears twice in index %s", rowid, ix.Name))
		}
		seen[rowid] = struct{}{}
		key = keycodec.AppendRowid(key[:0], rowid)
		if _, found, err := table.Get(key); err != nil || !found {
			problems = append(problems, fmt.Sprintf("index %s has an entry for row %d, missing from table %s", ix.Name, rowid, t.Name))
		}
		if len(problems) >= maxIntegrityProblems {
			return problems, nil
		}
	}
	if err := cur.Err(); err != nil {
		return append(problems, fmt.Sprintf("index %s: %v", ix.Name, err)), nil
	}
	if ix.Where == "" && int64(len(seen)) != rows {
		problems = append(problems, fmt.Sprintf("wrong # of entries in index %s: %d for %d rows of %s", ix.Name, len(seen), rows, t.Name))
	}
	return problems, nil
}

// indexKeysAgree checks, in the statement's transaction, that every row of
// every table of cat has its exact entry in each of its indexes (its key as
// the row's values give it now) and that each index has no other entries:
// an index entry keeping a stale key of a live row is caught here, where
// indexAgreement sees only rowids.
func indexKeysAgree(c *exec.Ctx, cat *catalog.Catalog) ([]string, error) {
	var problems []string
	b := plan.NewBinder(cat, nil)
	for _, e := range cat.Entries() {
		t := cat.Table(e.Name)
		if e.Type != "table" || t == nil || t.Virtual || t.WithoutRowid || t.Temp {
			continue
		}
		iks, err := b.IndexKeysFor(t)
		if err != nil {
			return nil, err
		}
		for _, ik := range iks {
			more, rows, err := dml.CheckIndexRows(c, t, ik, maxIntegrityProblems-len(problems))
			if err != nil {
				return nil, err
			}
			problems = append(problems, more...)
			entries, err := c.IndexTree(ik.Index).Count()
			if err != nil {
				return nil, err
			}
			if entries != rows {
				problems = append(problems, fmt.Sprintf("wrong # of entries in index %s: %d for %d rows that belong in it", ik.Index.Name, entries, rows))
			}
			if len(problems) >= maxIntegrityProblems {
				return problems[:maxIntegrityProblems], nil
			}
		}
	}
	return problems, nil
}
