package effects

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/authvet/authvet/grant"
)

// Contract is an //agent:effect directive on an interface method: what
// every implementation may do. A call through the method is bounded by it
// (provenance declared), and every conversion of a concrete type to the
// interface is checked against it. It travels as a fact on the method.
type Contract struct {
	None, Scoped bool
	Declared     []Effect // Kind and Subject
	Reason       string
	Pos          Position
}

// AFact marks Contract as an analysis fact.
func (*Contract) AFact() {}

func (c *Contract) String() string {
	var parts []string
	for _, d := range c.Declared {
		parts = append(parts, d.Kind+" "+d.Subject)
	}
	if c.None {
		parts = append(parts, "none")
	}
	if c.Scoped {
		parts = append(parts, "scoped")
	}
	return "contract(" + strings.Join(parts, ", ") + ")"
}

// Allows reports whether an implementation's effect fits the contract:
// the contract reads as the grant it declares, and grant.Allows judges.
func (c *Contract) Allows(e Effect) bool {
	if e.Kind == AssertedEffectFree {
		return true
	}
	return c.asGrant().Allows(e.Kind, e.Subject)
}

// asGrant is the grant the contract's declarations make.
func (c *Contract) asGrant() grant.Grant {
	var g grant.Grant
	for _, d := range c.Declared {
		switch d.Kind {
		case Write:
			g.Writes = append(g.Writes, d.Subject)
		case UnboundedWrite:
			g.UnboundedWrites = append(g.UnboundedWrites, d.Subject)
		case Outbound:
			g.Outbound = append(g.Outbound, d.Subject)
		case Job:
			g.Jobs = append(g.Jobs, d.Subject)
		case Webhook:
			g.Webhooks = append(g.Webhooks, d.Subject)
		}
	}
	if c.Scoped {
		g.TenantScope = grant.CrossTenant
	}
	return g
}

// bounded adds the contract's effects for a call through its method.
func (c *Contract) bounded(e *Engine, pos token.Pos, out *collector) {
	at := e.pos(pos)
	if c.None {
		out.add(Effect{Kind: AssertedEffectFree, Reason: c.Reason, Provenance: Declared, Pos: at, Module: e.Module})
		return
	}
	for _, d := range c.Declared {
		d.Provenance, d.Pos, d.Module, d.Reason = Declared, at, e.Module, c.Reason
		out.add(d)
	}
}

// Conversions lists the conversions to interface types in fns.
func Conversions(fns []*ssa.Function) []*ssa.MakeInterface {
	var out []*ssa.MakeInterface
	eachInstr(fns, func(_ *ssa.Function, instr ssa.Instruction) {
		if mi, ok := instr.(*ssa.MakeInterface); ok {
			out = append(out, mi)
		}
	})
	return out
}

// Assertions returns the type assertions and interface-to-interface
// conversions of fns whose result is an interface: the ways a value of an
// unseen concrete type reaches an interface.
func Assertions(fns []*ssa.Function) []ssa.Value {
	var out []ssa.Value
	eachInstr(fns, func(_ *ssa.Function, instr ssa.Instruction) {
		switch x := instr.(type) {
		case *ssa.TypeAssert:
			if types.IsInterface(x.AssertedType) && types.IsInterface(x.X.Type()) {
				out = append(out, x)
			}
		case *ssa.ChangeInterface:
			out = append(out, x)
		}
	})
	return out
}

// ConversionSummary is the summary of calling impl, a method of a function
// type (an adapter like http.HandlerFunc), on the function value a
// conversion converts: the method calls that very function.
func (e *Engine) ConversionSummary(mi *ssa.MakeInterface, impl *ssa.Function) *Summary {
	if e.summaries == nil {
		e.summaries = map[*ssa.Function]*Summary{}
		e.state = map[*ssa.Function]uint8{}
	}
	obj := funcObject(impl)
	if obj == nil {
		return nil
	}
	saved := e.budget
	e.budget = maxWork
	defer func() { e.budget = saved }()
	root := &frame{fn: mi.Parent(), root: true, visiting: map[ssa.Value]bool{}}
	out := newCollector()
	e.callObj(obj, impl, []binding{{v: mi.X, fr: root}}, mi.Pos(), root, out)
	return e.finish(out, e.pos(mi.Pos()))
}
