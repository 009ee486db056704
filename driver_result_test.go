package ladybug

import (
	"context"
	"database/sql/driver"
	"testing"
)

// An Exec result keeps its own numbers after later Execs, and a later Exec
// with the same numbers (a run of one-row UPDATEs) returns the same result
// instead of allocating one.
func TestConn_ExecResult_ImmutableAndReused(t *testing.T) {
	dc, err := (&Driver{}).Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	c := dc.(*conn)
	ctx := context.Background()
	exec := func(q string, args ...any) driver.Result {
		t.Helper()
		nv := make([]driver.NamedValue, len(args))
		for i, a := range args {
			nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		}
		r, err := c.ExecContext(ctx, q, nv)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	nums := func(r driver.Result) [2]int64 {
		id, _ := r.LastInsertId()
		n, _ := r.RowsAffected()
		return [2]int64{id, n}
	}
	exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)")
	r1 := exec("INSERT INTO t VALUES (1, 0), (2, 0)")
	r2 := exec("INSERT INTO t VALUES (7, 0)")
	if nums(r1) != [2]int64{2, 2} || nums(r2) != [2]int64{7, 1} {
		t.Fatalf("results %v %v, want [2 2] [7 1]", nums(r1), nums(r2))
	}
	u1 := exec("UPDATE t SET v = ? WHERE id = ?", 5, 1)
	u2 := exec("UPDATE t SET v = ? WHERE id = ?", 6, 2)
	if nums(u1) != [2]int64{7, 1} || u1 != u2 {
		t.Fatalf("one-row updates gave %v (%p) and %v (%p), want one shared [7 1]", nums(u1), u1, nums(u2), u2)
	}
	d := exec("DELETE FROM t")
	if nums(d) != [2]int64{7, 3} || nums(u1) != [2]int64{7, 1} || nums(r1) != [2]int64{2, 2} {
		t.Fatalf("after the delete: %v, earlier %v %v", nums(d), nums(u1), nums(r1))
	}
}
