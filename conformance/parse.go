package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// File is a parsed .test file: its lines (kept for rewriting) and records.
type File struct {
	Path    string
	Lines   []string
	Records []*Record
}

var hashLine = regexp.MustCompile(`^(\d+) values hashing to ([0-9a-f]{32})$`)

// ParseFile reads and parses one sqllogictest file.
func ParseFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("conformance: read %s: %w", path, err)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	p := &parser{name: filepath.Base(path), lines: lines}
	recs, err := p.parse()
	if err != nil {
		return nil, err
	}
	return &File{Path: path, Lines: lines, Records: recs}, nil
}

type parser struct {
	name  string
	lines []string
	pos   int
}

func (p *parser) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("conformance: %s:%d: %s", p.name, line+1, fmt.Sprintf(format, args...))
}

func (p *parser) parse() ([]*Record, error) {
	var recs []*Record
	var conds []Condition
	for p.pos < len(p.lines) {
		line := strings.TrimSpace(p.lines[p.pos])
		if line == "" || strings.HasPrefix(line, "#") {
			p.pos++
			continue
		}
		f := strings.Fields(line)
		if c, ok := parseCondition(f); ok {
			conds = append(conds, c)
			p.pos++
			continue
		}
		rec, err := p.record(f)
		if err != nil {
			return nil, err
		}
		rec.Conditions, conds = conds, nil
		recs = append(recs, rec)
	}
	return recs, nil
}

func parseCondition(f []string) (Condition, bool) {
	if len(f) < 2 || (f[0] != "skipif" && f[0] != "onlyif") {
		return Condition{}, false
	}
	return Condition{Only: f[0] == "onlyif", Engine: strings.ToLower(f[1])}, true
}

// record parses the record whose header is at p.pos.
func (p *parser) record(f []string) (*Record, error) {
	rec := &Record{File: p.name, Line: p.pos + 1, headerIdx: p.pos}
	switch f[0] {
	case "halt":
		rec.Kind = KindHalt
		p.pos++
		return rec, nil
	case "hash-threshold":
		if len(f) != 2 {
			return nil, p.errorf(p.pos, "hash-threshold wants one number")
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, p.errorf(p.pos, "hash-threshold: %v", err)
		}
		rec.Kind, rec.Threshold = KindHashThreshold, n
		p.pos++
		return rec, nil
	case "statement":
		return rec, p.statement(rec, f)
	case "query":
		return rec, p.query(rec, f)
	}
	return nil, p.errorf(p.pos, "unknown record %q", f[0])
}

func (p *parser) statement(rec *Record, f []string) error {
	rec.Kind = KindStatement
	switch {
	case len(f) >= 2 && f[1] == "ok":
	case len(f) >= 2 && f[1] == "error":
		rec.ExpectError = true
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p.lines[p.pos]), "statement"))
		rec.ErrorPattern = strings.TrimSpace(strings.TrimPrefix(rest, "error"))
	default:
		return p.errorf(p.pos, "statement wants ok or error")
	}
	p.pos++
	rec.SQL = p.sqlBlock(false)
	if rec.SQL == "" {
		return p.errorf(rec.headerIdx, "statement without SQL")
	}
	return nil
}

func (p *parser) query(rec *Record, f []string) error {
	rec.Kind = KindQuery
	if len(f) >= 2 {
		rec.Types = f[1]
	}
	if len(f) >= 3 {
		switch f[2] {
		case "nosort":
		case "rowsort":
			rec.Sort = RowSort
		case "valuesort":
			rec.Sort = ValueSort
		default:
			return p.errorf(p.pos, "unknown sort mode %q", f[2])
		}
	}
	p.pos++
	rec.SQL = p.sqlBlock(true)
	if rec.SQL == "" {
		return p.errorf(rec.headerIdx, "query without SQL")
	}
	rec.resultIdx, rec.resultEnd = p.pos, p.pos
	if p.pos < len(p.lines) && strings.TrimSpace(p.lines[p.pos]) == "----" {
		rec.HasResult = true
		p.pos++
		p.results(rec)
		rec.resultEnd = p.pos
	}
	return nil
}

// sqlBlock reads SQL lines up to a blank line, EOF or (for queries) "----".
func (p *parser) sqlBlock(query bool) string {
	var sql []string
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		t := strings.TrimSpace(l)
		if t == "" || query && t == "----" {
			break
		}
		sql = append(sql, l)
		p.pos++
	}
	return strings.TrimSpace(strings.Join(sql, "\n"))
}

func (p *parser) results(rec *Record) {
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		if strings.TrimSpace(l) == "" {
			break
		}
		if m := hashLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil && len(rec.Expected) == 0 {
			rec.HashCount, _ = strconv.Atoi(m[1])
			rec.Hash = m[2]
		} else {
			rec.Expected = append(rec.Expected, l)
		}
		p.pos++
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
