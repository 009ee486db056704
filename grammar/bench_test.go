package grammar

import "testing"

const (
	benchPointSelect = "SELECT id, name, email FROM users WHERE id = ?"
	benchGormInsert  = "INSERT INTO `users` (`created_at`,`updated_at`,`deleted_at`,`name`,`email`,`age`,`active`) VALUES (?,?,?,?,?,?,?) RETURNING `id`"
	benchAnalytic    = `WITH monthly AS (
    SELECT strftime('%Y-%m', created_at) AS month,
           customer_id,
           sum(total) AS spent
    FROM orders
    WHERE status <> 'cancelled'
    GROUP BY 1, 2
), ranked AS (
    SELECT month, customer_id, spent,
           rank() OVER (PARTITION BY month ORDER BY spent DESC) AS rnk,
           sum(spent) OVER (PARTITION BY customer_id ORDER BY month
                            ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS rolling,
           lag(spent, 1, 0) OVER w AS previous
    FROM monthly
    WINDOW w AS (PARTITION BY customer_id ORDER BY month)
)
SELECT month, customer_id, spent, rolling, spent - previous AS delta
FROM ranked
WHERE rnk <= 10
ORDER BY month DESC, rnk
LIMIT 100`
)

func benchParse(b *testing.B, sql string) {
	b.ReportAllocs()
	b.SetBytes(int64(len(sql)))
	for i := 0; i < b.N; i++ {
		if _, err := Parse(sql); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse_PointSelect(b *testing.B)         { benchParse(b, benchPointSelect) }
func BenchmarkParse_GormInsertReturning(b *testing.B) { benchParse(b, benchGormInsert) }
func BenchmarkParse_AnalyticQuery(b *testing.B)       { benchParse(b, benchAnalytic) }

func BenchmarkString_AnalyticQuery(b *testing.B) {
	st, err := Parse(benchAnalytic)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = st[0].String()
	}
}
