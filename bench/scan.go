package main

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// scanAggCases: count/sum/avg over every row of a 1M-row table (at scale
// 1); one query per op.
func scanAggCases() []*Case {
	var rows int
	return []*Case{{
		Name: "scan_agg", Workload: "scan_agg", Unit: "query", Heap: true,
		Setup: func(e *Env) error {
			rows = e.P.scaled(1_000_000, 10_000)
			if err := execAll(e.DB, "CREATE TABLE s (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, val INTEGER NOT NULL, f REAL NOT NULL)"); err != nil {
				return err
			}
			return load(e.DB, "INSERT INTO s (id, grp, val, f) VALUES (?, ?, ?, ?)", rows, func(i int) []any {
				return []any{i, i % 100, valOf(i), float64(valOf(i)) / 4}
			})
		},
		Run: func(e *Env) error {
			var count, sum int64
			var avg float64
			err := e.Measure(1, func() error {
				return e.DB.QueryRow("SELECT count(*), sum(val), avg(f) FROM s").Scan(&count, &sum, &avg)
			})
			if err != nil {
				return err
			}
			var wantSum int64
			for i := 1; i <= rows; i++ {
				wantSum += valOf(i)
			}
			if err := e.Check("count(*)", count, int64(rows)); err != nil {
				return err
			}
			if err := e.Check("sum(val)", sum, wantSum); err != nil {
				return err
			}
			return e.Check("avg(f)", avg, float64(wantSum)/4/float64(rows))
		},
	}}
}

// groupJoinCases: 10k customers × 1M orders (at scale 1): join, GROUP BY,
// ORDER BY the aggregate, LIMIT 10.
func groupJoinCases() []*Case {
	var want string
	return []*Case{{
		Name: "group_join", Workload: "group_join", Unit: "query", Heap: true,
		Setup: func(e *Env) error {
			nc := e.P.scaled(10_000, 100)
			no := e.P.scaled(1_000_000, 10_000)
			cust := orderCustomers(no, nc)
			want = topCustomers(cust, nc, 10)
			if err := execAll(e.DB,
				"CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL)",
				"CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL)"); err != nil {
				return err
			}
			if err := load(e.DB, "INSERT INTO customers (id, name, region) VALUES (?, ?, ?)", nc, func(i int) []any {
				return []any{i, nameOf(i), i % 7}
			}); err != nil {
				return err
			}
			return load(e.DB, "INSERT INTO orders (id, customer_id, amount) VALUES (?, ?, ?)", no, func(i int) []any {
				return []any{i, cust[i-1], amountOf(i)}
			})
		},
		Run: func(e *Env) error {
			var got string
			err := e.Measure(1, func() error {
				var err error
				got, err = queryTopCustomers(e)
				return err
			})
			if err != nil {
				return err
			}
			return e.Check("top customers", got, want)
		},
	}}
}

const groupJoinSQL = `SELECT c.id, c.name, count(*) AS n, sum(o.amount) AS total
FROM orders o JOIN customers c ON c.id = o.customer_id
GROUP BY c.id, c.name
ORDER BY total DESC, c.id
LIMIT 10`

func queryTopCustomers(e *Env) (string, error) {
	rows, err := e.DB.Query(groupJoinSQL)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, n, total int64
		var name string
		if err := rows.Scan(&id, &name, &n, &total); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%d:%s:%d:%d;", id, name, n, total)
	}
	return b.String(), rows.Err()
}

// amountOf is order i's amount.
func amountOf(i int) int64 { return valOf(i)%1000 + 1 }

// orderCustomers assigns each order a customer id in 1..nc, skewed so the
// top of the ranking is not a tie.
func orderCustomers(no, nc int) []int {
	r := rand.New(rand.NewPCG(5, 17))
	out := make([]int, no)
	for i := range out {
		out[i] = 1 + min(r.IntN(nc), r.IntN(nc))
	}
	return out
}

// topCustomers is the expected answer of groupJoinSQL.
func topCustomers(cust []int, nc, limit int) string {
	n := make([]int64, nc+1)
	total := make([]int64, nc+1)
	for i, c := range cust {
		n[c]++
		total[c] += amountOf(i + 1)
	}
	ids := make([]int, 0, nc)
	for c := 1; c <= nc; c++ {
		if n[c] > 0 {
			ids = append(ids, c)
		}
	}
	sort.Slice(ids, func(a, b int) bool {
		if total[ids[a]] != total[ids[b]] {
			return total[ids[a]] > total[ids[b]]
		}
		return ids[a] < ids[b]
	})
	var b strings.Builder
	for _, c := range ids[:min(limit, len(ids))] {
		fmt.Fprintf(&b, "%d:%s:%d:%d;", c, nameOf(c), n[c], total[c])
	}
	return b.String()
}
