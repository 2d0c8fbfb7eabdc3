package analyzer

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestSlotStores checks what slotStores reads from each shape of store
// into a function field, and that every shape it cannot name is unknown
// (the manifest then keeps the site unprovable).
func TestSlotStores(t *testing.T) {
	const src = `package p

import "net/http"

type Hooks struct {
	Before func(string)
	After  func(string)
	n      int
}

type Outer struct {
	Hooks // Before and After promoted
}

type Twin struct {
	Before func(string)
	After  func(string)
	n      int
}

func quiet(string) {}

func loud(s string) { println(s) }

type T struct{}

func (T) M(string) {}

func stores(h *Hooks, o *Outer, param func(string), c *http.Client) {
	h.Before = func(string) {}            // inert literal
	h.Before = func(s string) { loud(s) } // literal that calls
	h.Before = quiet                      // declared, inert
	h.After = T{}.M                       // method value
	h.After = h.Before                    // a copy of another field
	h.After = param                       // a parameter: what calls pass
	h.After = nil                         // nothing
	o.Before = quiet                      // promoted: Hooks.Before
	saved := c.CheckRedirect
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.CheckRedirect = saved // restored: a copy of the field
	var f func(string)
	g := &f
	_ = g
	h.Before = f // a variable whose address is taken: unknown
	x, y := pair()
	h.After = x
	_ = y
	_ = Hooks{Before: quiet, After: loud}
	_ = Hooks{quiet, nil, 0}
	_ = Twin(*h) // converted: both types' function fields unknown
	var anon struct {
		Before func(string)
		After  func(string)
		n      int
	}
	_ = Hooks(anon) // from an unnamed struct: Hooks' fields unknown
	var g2 func(string)
	for _, g2 = range []func(string){loud} {
	}
	g2 = quiet
	h.Before = g2 // a range variable: unknown
	var a any = quiet
	switch f := a.(type) {
	case func(string):
		f = quiet
		h.After = f // a type switch's variable: unknown
	}
}

func pair() (func(string), int) { return nil, 0 }

// Pseudo-slots: a parameter, a result, a package map's elements.
type Builder struct{ cb func(string) }

func (b *Builder) On(cb func(string)) *Builder { b.cb = cb; return b }

type Oner interface{ On(func(string)) *Builder }

func wire(b *Builder, o Oner) {
	b.On(quiet)
	o.On(loud)
	(*Builder).On(b, quiet)
}

var handlers = map[string]func(string){"a": quiet, "b": loud}

var aliased = map[string]func(string){"a": quiet}

var addressed = []func(string){quiet}

func pointAt() { p := &addressed[0]; *p = loud }

func pick(k string) func(string) {
	if handlers[k] != nil {
		return handlers[k]
	}
	return aliased[k]
}

func bare() (f func(string)) { f = loud; return }

func esc(f func(string)) { var t Twin; t.Before = f }

func pickAll(h *Hooks) {
	h.Before = pick("a")
	h.After = bare()
	m := aliased
	m["b"] = loud
	handlers["c"] = func(string) {}
	_ = esc
}

// Functions in the elements of a field: a map of slices appended to,
// a slice literal, a copy only read; and two that escape.
type urlPolicy func(string) bool

type Pol struct {
	schemes map[string][]urlPolicy
	fixed   []func(string)
}

func (p *Pol) Allow(s string, f urlPolicy) { p.schemes[s] = append(p.schemes[s], f) }

func (p *Pol) Reset(s string) { p.schemes[s] = nil }

func (p *Pol) check(s string) bool {
	fs, ok := p.schemes[s]
	if !ok || len(fs) == 0 {
		return false
	}
	for _, f := range fs {
		if f(s) {
			return true
		}
	}
	return false
}

func newPol() *Pol {
	return &Pol{schemes: make(map[string][]urlPolicy), fixed: []func(string){quiet, loud}}
}

type Leaky struct{ fs, gs []func(string) }

func leak(l *Leaky) []func(string) {
	s := l.fs
	s[0] = loud
	return l.gs
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Implicits: map[ast.Node]types.Object{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	got := slotStores(&analysis.Pass{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info})
	describe := func(k string) string {
		var out []string
		for _, s := range got[k] {
			switch {
			case s.Unknown:
				out = append(out, "unknown")
			case s.From != "":
				out = append(out, "from "+s.From)
			case s.Func != nil:
				out = append(out, "func "+s.Func.Name()+map[bool]string{true: " inert"}[s.Inert])
			case s.Lit.IsValid():
				out = append(out, "lit"+map[bool]string{true: " inert"}[s.Inert])
			}
		}
		slices.Sort(out)
		return strings.Join(out, ", ")
	}
	for k, want := range map[string]string{
		"p.Hooks.Before":                "from result:p.pick#0, func quiet inert, func quiet inert, func quiet inert, func quiet inert, lit, lit inert, unknown, unknown, unknown, unknown",
		"p.Hooks.After":                 "from p.Hooks.Before, from param:p.stores#2, from result:p.bare#0, func M, func loud, unknown, unknown, unknown, unknown",
		"p.Twin.Before":                 "from param:p.esc#0, unknown",
		"p.Twin.After":                  "unknown",
		"net/http.Client.CheckRedirect": "from net/http.Client.CheckRedirect, lit inert",
		"p.Builder.cb":                  "from iface:On#0, from param:(*p.Builder).On#0",
		"param:(*p.Builder).On#0":       "func quiet inert, func quiet inert",
		"iface:On#0":                    "func loud",
		"result:p.pick#0":               "from elem:p.aliased, from elem:p.handlers",
		"elem:p.handlers":               "func loud, func quiet inert, lit inert",
		"elem:p.aliased":                "func quiet inert, unknown",
		"elem:p.addressed":              "func quiet inert, unknown",
		"result:p.bare#0":               "unknown",
		"param:p.esc#0":                 "unknown",
		"p.Pol.schemes[]":               "from iface:Allow#1, from param:(*p.Pol).Allow#1",
		"p.Pol.fixed[]":                 "func loud, func quiet inert",
		"p.Leaky.fs[]":                  "unknown",
		"p.Leaky.gs[]":                  "unknown",
	} {
		if d := describe(k); d != want {
			t.Errorf("%s:\n got %s\nwant %s", k, d, want)
		}
	}
}
