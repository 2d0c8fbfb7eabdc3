package manifest

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"

	"github.com/authvet/authvet/effects"
)

// Vet mode analyses one package at a time, so a call through an
// interface or a function value whose callee is out of sight is
// unprovable there (a Store field injected in main, deps.GetClient(ctx)).
// The manifest links the whole program: where the call graph (VTA,
// refining CHA) proves every callee of such a call, and every callee has
// a summary, the unprovable site is replaced by what the callees do,
// with provenance type_resolved. Anything short of that stays
// unprovable.

// maxResolveDepth bounds how many dynamic calls deep a site is resolved.
const maxResolveDepth = 3

type resolver struct {
	b   *builder
	cg  *callgraph.Graph
	cha *callgraph.Graph
	// sites are the dynamic calls of the module, by position: a generic
	// function's call is there once per instance.
	sites map[token.Position][]ssa.CallInstruction
	memo  map[*ssa.Function][]effects.Effect
	slots *slotIndex
	impls map[string][]*types.Func // interface method → its implementations (nil: not all known)
}

func newResolver(b *builder, prog *ssa.Program, fns []*ssa.Function) *resolver {
	set := map[*ssa.Function]bool{}
	for _, fn := range fns {
		set[fn] = true
	}
	initial := cha.CallGraph(prog)
	r := &resolver{b: b, cg: vta.CallGraph(set, initial), cha: initial, sites: map[token.Position][]ssa.CallInstruction{}, memo: map[*ssa.Function][]effects.Effect{},
		slots: newSlotIndex(b.slots), impls: map[string][]*types.Func{}}
	for _, fn := range fns {
		for _, bl := range fn.Blocks {
			for _, instr := range bl.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || call.Common().StaticCallee() != nil {
					continue
				}
				if _, isBuiltin := call.Common().Value.(*ssa.Builtin); isBuiltin {
					continue
				}
				p := b.fset.Position(call.Pos())
				p.Offset = 0
				r.sites[p] = append(r.sites[p], call)
			}
		}
	}
	return r
}

// resolve replaces each unprovable site at a dynamic call whose callees
// the call graph proves by the callees' effects.
func (r *resolver) resolve(effs []effects.Effect, depth int) []effects.Effect {
	var out []effects.Effect
	for _, e := range effs {
		if e.Kind != effects.Unprovable || e.More || depth >= maxResolveDepth {
			// (A site marked More stands for others the summary
			// dropped: resolving it would drop them too.)
			out = append(out, e)
			continue
		}
		// The call graph at the site first; the field or method the
		// site names, through the whole program, where it has none.
		more, ok := r.at(e, depth)
		if !ok && e.Slot != "" {
			more, ok = r.slot(e, depth)
		}
		if !ok {
			out = append(out, e)
			continue
		}
		out = append(out, more...)
	}
	return out
}

// at returns what the callees of the dynamic call at e's site do.
func (r *resolver) at(e effects.Effect, depth int) ([]effects.Effect, bool) {
	calls, ok := r.sites[token.Position{Filename: e.Pos.File, Line: e.Pos.Line, Column: e.Pos.Col}]
	if !ok {
		return nil, false
	}
	var callees []*ssa.Function
	for _, call := range calls {
		if len(calls) > 1 && genericBody(call.Parent()) {
			continue // no values flow into the generic body; its instances' do
		}
		cs := calleesAt(r.cg, call)
		if len(cs) == 0 {
			// VTA lost the value's type (it went through a library
			// without a body here, such as a context's Value): every
			// implementation in the linked program, as CHA has them.
			cs = calleesAt(r.cha, call)
		}
		if len(cs) == 0 {
			return nil, false // nothing proved: it may be anything
		}
		callees = appendNew(callees, cs)
	}
	if len(callees) == 0 {
		return nil, false
	}
	var out []effects.Effect
	for _, c := range callees {
		ce, ok := r.effectsOf(c)
		if !ok {
			return nil, false
		}
		out = r.lift(e, ce, depth, out)
	}
	return out, true
}

// lift appends to out what a callee resolved for site e does (effs),
// resolved in turn, as reached through e, with provenance type_resolved.
func (r *resolver) lift(e effects.Effect, effs []effects.Effect, depth int, out []effects.Effect) []effects.Effect {
	via := append(slices.Clone(e.Via), e.Pos)
	for _, x := range r.resolve(effs, depth+1) {
		x.Via = append(slices.Clone(via), x.Via...)
		if x.Provenance != effects.Declared {
			x.Provenance = effects.TypeResolved
		}
		out = append(out, x)
	}
	return out
}

// genericBody reports whether fn is (a literal in) a generic function's
// own body, not an instance's.
func genericBody(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	generic := fn.TypeParams().Len() > 0 || fn.Signature.RecvTypeParams().Len() > 0
	return generic && len(fn.TypeArgs()) == 0
}

// appendNew appends to fns those of more it does not hold yet.
func appendNew(fns, more []*ssa.Function) []*ssa.Function {
	for _, f := range more {
		if !slices.Contains(fns, f) {
			fns = append(fns, f)
		}
	}
	return fns
}

// calleesAt lists the callees g gives the call site.
func calleesAt(g *callgraph.Graph, call ssa.CallInstruction) []*ssa.Function {
	node := g.Nodes[call.Parent()]
	if node == nil {
		return nil
	}
	var out []*ssa.Function
	for _, edge := range node.Out {
		if edge.Site == call && !slices.Contains(out, edge.Callee.Func) {
			out = append(out, edge.Callee.Func)
		}
	}
	return out
}

// effectsOf returns the effects of one call of a callee (unknown
// arguments): a declared function's summary, a literal's, or nothing for
// a standard-library function the engine models as effect-free with no
// function or interface in its signature.
func (r *resolver) effectsOf(fn *ssa.Function) ([]effects.Effect, bool) {
	if effs, ok := r.memo[fn]; ok {
		return effs, effs != nil
	}
	r.memo[fn] = nil // a cycle stays unresolved
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	var effs []effects.Effect
	var ok bool
	if !sourceFunc(fn) {
		// A wrapper (a bound method, an interface thunk): what it calls.
		var inner *ssa.Function
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, isCall := instr.(ssa.CallInstruction); isCall && c.Common().StaticCallee() != nil {
					inner = c.Common().StaticCallee()
				}
			}
		}
		if inner == nil {
			return nil, false
		}
		effs, ok = r.effectsOf(inner)
	} else if obj := declared(fn); obj != nil {
		res := r.b.results[obj.Pkg()]
		effs, ok = res.CalleeEffectsOf(obj)
	} else if fn.Parent() != nil {
		if top := topDeclared(fn); top != nil {
			effs, ok = r.b.results[top.Pkg()].CalleeEffectsAt(fn.Pos())
		}
	}
	if !ok {
		return nil, false
	}
	if effs == nil {
		effs = []effects.Effect{}
	}
	r.memo[fn] = effs
	return effs, true
}

// sortEffects orders effects by kind, subject, method, site and reason,
// whatever order the call graph gave their callees in.
func sortEffectList(effs []effects.Effect) {
	slices.SortStableFunc(effs, func(x, y effects.Effect) int {
		return cmp.Or(cmp.Compare(x.Kind, y.Kind), cmp.Compare(x.Subject, y.Subject), cmp.Compare(x.Method, y.Method),
			cmp.Compare(x.Pos.File, y.Pos.File), cmp.Compare(x.Pos.Line, y.Pos.Line), cmp.Compare(x.Pos.Col, y.Pos.Col),
			cmp.Compare(x.Reason, y.Reason), cmp.Compare(fmt.Sprint(x.Via), fmt.Sprint(y.Via)))
	})
}
