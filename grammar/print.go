package grammar

import "strings"

// printer accumulates SQL text. Every node has a write method that appends
// its SQL; String methods wrap it.
type printer struct {
	strings.Builder
}

// writer is implemented by every node.
type writer interface {
	write(p *printer)
}

// render prints one node.
func render(n writer) string {
	var p printer
	n.write(&p)
	return p.String()
}

// kw writes keywords and punctuation verbatim.
func (p *printer) kw(s ...string) {
	for _, x := range s {
		p.WriteString(x)
	}
}

// name writes an identifier, quoted when it is not a plain word or when it
// is a keyword.
func (p *printer) name(s string) { p.WriteString(QuoteIdent(s)) }

// names writes a comma-separated identifier list.
func (p *printer) names(list []string) {
	for i, s := range list {
		if i > 0 {
			p.kw(", ")
		}
		p.name(s)
	}
}

// qualified writes [schema.]name.
func (p *printer) qualified(schema, name string) {
	if schema != "" {
		p.name(schema)
		p.kw(".")
	}
	p.name(name)
}

// alias writes " AS alias" when alias is set.
func (p *printer) alias(a string) {
	if a != "" {
		p.kw(" AS ")
		p.name(a)
	}
}

// node writes any node. Every node type of the package implements writer;
// the marker methods keep other packages from adding node types.
func (p *printer) node(n Node) {
	if w, ok := n.(writer); ok && !isNil(n) {
		w.write(p)
	}
}

// expr writes an expression at the lowest precedence (no parentheses).
func (p *printer) expr(e Expr) { p.exprAt(e, precLowest) }

// exprs writes a comma-separated expression list.
func (p *printer) exprs(list []Expr) {
	for i, e := range list {
		if i > 0 {
			p.kw(", ")
		}
		p.expr(e)
	}
}

// list writes comma-separated nodes.
func list[T writer](p *printer, items []T) {
	for i, it := range items {
		if i > 0 {
			p.kw(", ")
		}
		it.write(p)
	}
}

// QuoteIdent returns name as an SQL identifier: unchanged when it is a
// plain ASCII word that cannot be read as a keyword, double-quoted
// otherwise.
func QuoteIdent(name string) string {
	if isPlainWord(name) && !needsQuotes(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// QuoteString returns s as an SQL string literal.
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func isPlainWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
