package plan

import "fmt"

// Each node lists its inputs (Children) and builds a copy of itself over
// other inputs (WithChildren), so walks and rewrites need no type switch
// over node types (Walk, Transform). A node's children are the plan nodes
// it reads rows from, in output order: a Join's left then right side, a
// Lateral's left side. Subquery plans and a recursive CTE's terms are plans
// of their own, not children.

// fixedInputs is implemented by the nodes of one or two inputs: inputs
// returns Children's nodes (n of them) without building a slice, so Walk
// and Transform, which visit every node once per rewrite rule, allocate
// nothing for the nodes they leave unchanged.
type fixedInputs interface {
	inputs() (a, b Node, n int)
}

// eachInput calls fn for each of n's children in order until fn returns
// false, and reports whether every call returned true; for the nodes of
// one or two inputs it builds no slice.
func eachInput(n Node, fn func(Node) bool) bool {
	if in, ok := n.(fixedInputs); ok {
		a, b, k := in.inputs()
		return fn(a) && (k == 1 || fn(b))
	}
	for _, c := range n.Children() {
		if !fn(c) {
			return false
		}
	}
	return true
}

// Children implements Node.
func (*Scan) Children() []Node { return nil }

// WithChildren implements Node.
func (s *Scan) WithChildren(children ...Node) (Node, error) { return leafWith(s, children) }

// Children implements Node.
func (*Single) Children() []Node { return nil }

// WithChildren implements Node.
func (s *Single) WithChildren(children ...Node) (Node, error) { return leafWith(s, children) }

// Children implements Node.
func (*Values) Children() []Node { return nil }

// WithChildren implements Node.
func (v *Values) WithChildren(children ...Node) (Node, error) { return leafWith(v, children) }

// Children implements Node.
func (*CTERef) Children() []Node { return nil }

// WithChildren implements Node.
func (c *CTERef) WithChildren(children ...Node) (Node, error) { return leafWith(c, children) }

// Children implements Node.
func (*TableFunc) Children() []Node { return nil }

// WithChildren implements Node.
func (t *TableFunc) WithChildren(children ...Node) (Node, error) { return leafWith(t, children) }

// Children implements Node.
func (*TableCount) Children() []Node { return nil }

// WithChildren implements Node.
func (t *TableCount) WithChildren(children ...Node) (Node, error) { return leafWith(t, children) }

// Children implements Node.
func (f *Filter) Children() []Node { return []Node{f.Input} }

func (f *Filter) inputs() (Node, Node, int) { return f.Input, nil, 1 }

// WithChildren implements Node.
func (f *Filter) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(f, 1, children); err != nil {
		return nil, err
	}
	nf := *f
	nf.Input = children[0]
	return &nf, nil
}

// Children implements Node.
func (p *Project) Children() []Node { return []Node{p.Input} }

func (p *Project) inputs() (Node, Node, int) { return p.Input, nil, 1 }

// WithChildren implements Node.
func (p *Project) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(p, 1, children); err != nil {
		return nil, err
	}
	np := *p
	np.Input = children[0]
	return &np, nil
}

// Children implements Node.
func (l *Limit) Children() []Node { return []Node{l.Input} }

func (l *Limit) inputs() (Node, Node, int) { return l.Input, nil, 1 }

// WithChildren implements Node.
func (l *Limit) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(l, 1, children); err != nil {
		return nil, err
	}
	nl := *l
	nl.Input = children[0]
	return &nl, nil
}

// Children implements Node.
func (s *Sort) Children() []Node { return []Node{s.Input} }

func (s *Sort) inputs() (Node, Node, int) { return s.Input, nil, 1 }

// WithChildren implements Node.
func (s *Sort) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(s, 1, children); err != nil {
		return nil, err
	}
	ns := *s
	ns.Input = children[0]
	return &ns, nil
}

// Children implements Node.
func (a *Aggregate) Children() []Node { return []Node{a.Input} }

func (a *Aggregate) inputs() (Node, Node, int) { return a.Input, nil, 1 }

// WithChildren implements Node.
func (a *Aggregate) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(a, 1, children); err != nil {
		return nil, err
	}
	na := *a
	na.Input = children[0]
	return &na, nil
}

// Children implements Node.
func (d *Distinct) Children() []Node { return []Node{d.Input} }

func (d *Distinct) inputs() (Node, Node, int) { return d.Input, nil, 1 }

// WithChildren implements Node.
func (d *Distinct) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(d, 1, children); err != nil {
		return nil, err
	}
	nd := *d
	nd.Input = children[0]
	return &nd, nil
}

// Children implements Node.
func (w *Window) Children() []Node { return []Node{w.Input} }

func (w *Window) inputs() (Node, Node, int) { return w.Input, nil, 1 }

// WithChildren implements Node.
func (w *Window) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(w, 1, children); err != nil {
		return nil, err
	}
	nw := *w
	nw.Input = children[0]
	return &nw, nil
}

// Children implements Node.
func (l *Lateral) Children() []Node { return []Node{l.Left} }

func (l *Lateral) inputs() (Node, Node, int) { return l.Left, nil, 1 }

// WithChildren implements Node.
func (l *Lateral) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(l, 1, children); err != nil {
		return nil, err
	}
	nl := *l
	nl.Left = children[0]
	return &nl, nil
}

// Children implements Node.
func (j *Join) Children() []Node { return []Node{j.Left, j.Right} }

func (j *Join) inputs() (Node, Node, int) { return j.Left, j.Right, 2 }

// WithChildren implements Node.
func (j *Join) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(j, 2, children); err != nil {
		return nil, err
	}
	nj := *j
	nj.Left, nj.Right = children[0], children[1]
	return &nj, nil
}

// Children implements Node.
func (s *SetOp) Children() []Node { return []Node{s.Left, s.Right} }

func (s *SetOp) inputs() (Node, Node, int) { return s.Left, s.Right, 2 }

// WithChildren implements Node.
func (s *SetOp) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(s, 2, children); err != nil {
		return nil, err
	}
	ns := *s
	ns.Left, ns.Right = children[0], children[1]
	return &ns, nil
}

// leafWith is WithChildren of a node without inputs: the node itself, for
// no children.
func leafWith(n Node, children []Node) (Node, error) {
	if err := wantChildren(n, 0, children); err != nil {
		return nil, err
	}
	return n, nil
}

// wantChildren checks that n is given as many children as it has.
func wantChildren(n Node, want int, children []Node) error {
	if len(children) != want {
		return fmt.Errorf("plan: %T takes %d children, got %d", n, want, len(children))
	}
	return nil
}

// Children implements Node: Input, Edges, then the lookups it has.
func (g *GraphExpand) Children() []Node { return graphInputs(g) }

// WithChildren implements Node.
func (g *GraphExpand) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(g, len(graphInputs(g)), children); err != nil {
		return nil, err
	}
	ng := *g
	ng.Input, ng.Edges, children = children[0], children[1], children[2:]
	if ng.OutLookup != nil {
		ng.OutLookup, children = children[0], children[1:]
	}
	if ng.InLookup != nil {
		ng.InLookup = children[0]
	}
	return &ng, nil
}
