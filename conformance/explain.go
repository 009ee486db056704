package conformance

import (
	"regexp"

	"github.com/ladybugsql/ladybug/conformance/gen"
)

// likeOperand is a qualified column as the left operand of LIKE or GLOB.
var likeOperand = regexp.MustCompile(`(\b[A-Za-z_]\w*\.\w+) ((?:NOT )?(?:LIKE|GLOB)) `)

// explain names the intended difference (DIFFERENCES.md) that accounts for
// a mismatch on s, given ladybug's rows, or returns "". Each check is
// narrow: it reruns a variant of the statement that differs only in what
// the difference is about and requires the oracle to agree with ladybug
// then.
func (d *Differ) explain(s gen.Stmt, other *Rows) string {
	if s.Write || other == nil {
		return ""
	}
	if d.explainsLikeOnRowid(s, other) {
		return "D1"
	}
	if d.explainsCompoundPushDown(s, other) {
		return "D10"
	}
	return ""
}

// derivedEnd is the closing parenthesis of a derived table of the
// generator's ("(…) AS s12").
var derivedEnd = regexp.MustCompile(`\) AS (s\d+)\b`)

// explainsCompoundPushDown is D10: SQLite pushes a WHERE term on a
// compound subquery's column down into each arm, where it compares with
// that arm's affinity instead of the compound column's. A LIMIT in the
// subquery stops the push-down without changing its rows; if the oracle
// then gives ladybug's answer, the mismatch is D10.
func (d *Differ) explainsCompoundPushDown(s gen.Stmt, other *Rows) bool {
	if !dedups(s.SQL) {
		return false // no compound anywhere
	}
	q := derivedEnd.ReplaceAllString(s.SQL, " LIMIT -1) AS $1")
	if q == s.SQL {
		return false
	}
	ra, err := d.a.Query(q, s.Args...)
	if err != nil {
		return false
	}
	return compareRows(ra, other, s.Ordered, canonValue) == "" ||
		compareRows(ra, other, s.Ordered, looseValue) == ""
}

// explainsLikeOnRowid is D1: modernc's SQLite (SQLITE_LIKE_DOESNT_MATCH_BLOBS)
// turns "rowid-alias LIKE pattern" in a join's ON clause into a range
// filter that drops rows. A unary plus in front of the column turns that
// optimisation off without changing the value LIKE sees; if the oracle
// then gives ladybug's answer, the mismatch is D1.
func (d *Differ) explainsLikeOnRowid(s gen.Stmt, other *Rows) bool {
	q := likeOperand.ReplaceAllString(s.SQL, "+$1 $2 ")
	if q == s.SQL {
		return false
	}
	ra, err := d.a.Query(q, s.Args...)
	if err != nil {
		return false
	}
	return compareRows(ra, other, s.Ordered, canonValue) == "" ||
		dedups(s.SQL) && compareRows(ra, other, s.Ordered, looseValue) == ""
}
