package exec

import "github.com/ladybugsql/ladybug/engine/plan"

func (cp *compiler) newIndexScan(n *plan.Scan) (Operator, error) {
	return nil, notSupportedErr("index scan")
}
