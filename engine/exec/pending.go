package exec

import "github.com/ladybugsql/ladybug/engine/plan"

func (cp *compiler) newIndexScan(n *plan.Scan) (Operator, error) {
	return nil, notSupportedErr("index scan")
}

func (b *builder) join(n *plan.Join) (Operator, error) { return nil, notSupportedErr("join") }

func (b *builder) setOp(n *plan.SetOp) (Operator, error) {
	return nil, notSupportedErr("set operation")
}

type cteStore struct{}

func (b *builder) cteRef(n *plan.CTERef) (Operator, error) {
	return nil, notSupportedErr("recursive CTE")
}

func (b *builder) window(n *plan.Window) (Operator, error) {
	return nil, notSupportedErr("window function")
}
