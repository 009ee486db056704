package main

import "math/rand/v2"

// deleteBatchCases: delete 10k of 100k rows (at scale 1) in one
// transaction with a prepared DELETE, commit inside the timer. The table
// carries an index on its text column in every variant, so each delete
// also maintains an index.
func deleteBatchCases() []*Case {
	mk := func(variant, where string, byText bool) *Case {
		return &Case{
			Name: "delete_batch/" + variant, Workload: "delete_batch", Unit: "row",
			Run: func(e *Env) error { return runDeleteBatch(e, variant, where, byText) },
		}
	}
	return []*Case{
		mk("contiguous", "id = ?", false),
		mk("spread", "id = ?", false),
		mk("text", "k = ?", true),
	}
}

func runDeleteBatch(e *Env, variant, where string, byText bool) error {
	rows := e.P.scaled(100_000, 1_000)
	m := rows / 10
	if err := execAll(e.DB, "DROP TABLE IF EXISTS d",
		"CREATE TABLE d (id INTEGER PRIMARY KEY, val INTEGER NOT NULL, k TEXT NOT NULL)",
		"CREATE INDEX d_k ON d (k)"); err != nil {
		return err
	}
	if err := load(e.DB, "INSERT INTO d (id, val, k) VALUES (?, ?, ?)", rows, func(i int) []any {
		return []any{i, valOf(i), nameOf(i)}
	}); err != nil {
		return err
	}
	ids := deleteKeys(variant, rows, m, uint64(e.run))
	args := make([][]any, m)
	var deletedSum int64
	for i, id := range ids {
		deletedSum += int64(id)
		args[i] = []any{id}
		if byText {
			args[i] = []any{nameOf(id)}
		}
	}
	hooks := e.spec.name == "ladybug"
	var hooked0 int64
	if hooks {
		var err error
		if hooked0, err = hookedDeletes(e.DB); err != nil {
			return err
		}
	}
	var affected int64
	err := e.Measure(m, func() error {
		var err error
		affected, err = execEachInTx(e.DB, "DELETE FROM d WHERE "+where, args, true)
		return err
	})
	if err != nil {
		return err
	}
	if err := e.Check("rows affected", affected, int64(m)); err != nil {
		return err
	}
	if hooks { // ladybug: every row and index entry went through the commit hooks
		hooked, err := hookedDeletes(e.DB)
		if err != nil {
			return err
		}
		if err := e.Check("keys deleted by commit hooks", hooked-hooked0, int64(2*m)); err != nil {
			return err
		}
	}
	total := int64(rows) * int64(rows+1) / 2
	return checkCountSum(e, "d", "id", int64(rows-m), total-deletedSum)
}

// deleteKeys picks m distinct ids of 1..rows: a contiguous run from the
// first quarter, or a random spread in random order.
func deleteKeys(variant string, rows, m int, seed uint64) []int {
	ids := make([]int, m)
	if variant == "contiguous" {
		for i := range ids {
			ids[i] = rows/4 + i + 1
		}
		return ids
	}
	perm := rand.New(rand.NewPCG(seed, 11)).Perm(rows)
	for i := range ids {
		ids[i] = perm[i] + 1
	}
	return ids
}
