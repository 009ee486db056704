package engine

import (
	"fmt"

	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// explainAnalyze runs q to the end with every operator profiled and
// returns one row per plan node, in EXPLAIN QUERY PLAN's columns: the
// detail holds the node, the planner's row estimate, and the rows,
// batches and time (inputs included) it actually took.
func explainAnalyze(c *exec.Ctx, q *plan.Query) ([][]types.Value, error) {
	op, prof, err := exec.BuildProfiled(q.Root)
	if err != nil {
		return nil, err
	}
	defer op.Close()
	for {
		b, err := op.Next(c)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
	}
	e := &explainer{}
	analyzeNode(e, prof, q.Root, 0)
	return e.rows, nil
}

func analyzeNode(e *explainer, prof exec.Profile, n plan.Node, parent int) {
	detail := fmt.Sprintf("%s (est ~%.0f rows)", plan.Describe(n), plan.EstimateRows(n))
	if st := prof[n]; st != nil {
		detail += fmt.Sprintf(" actual rows=%d batches=%d time=%s", st.Rows, st.Batches, st.Time.Round(1000))
	}
	id := e.add(parent, detail)
	for _, in := range n.Children() {
		analyzeNode(e, prof, in, id)
	}
}
