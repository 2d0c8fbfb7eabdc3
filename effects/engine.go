package effects

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Options configures the engine from authvet.yaml.
type Options struct {
	TenantColumns []string        // columns whose binding to a parameter scopes a query
	Sinks         map[string]Sink // configured in-house sinks, by FuncKey
	Benign        map[string]bool // extra benign interfaces, "pkgpath.Name"
}

// Sink is a configured in-house effect API.
type Sink struct {
	Effect     string // job, webhook, write (SQL text) or outbound (URL)
	SubjectArg int    // 0-based, receiver not counted
}

// Hatch is an //agent:effect directive attached to the statement spanning
// [Start, End).
type Hatch struct {
	Start, End token.Pos
	None       bool
	Scoped     bool
	Declared   []Effect // Kind and Subject; the engine fills in the rest
	Reason     string
}

// Engine derives effect summaries for the functions of one package.
type Engine struct {
	Fset   *token.FileSet
	Pkg    *types.Package
	Module string // module path of the package ("" outside modules)
	Opts   Options

	// Import returns the summary an analysed package exported for fn, or nil.
	Import func(fn *types.Func) *Summary
	// Analysed reports whether pkg was analysed and so exports summaries.
	// Packages that were not (the standard library) are modelled instead.
	Analysed func(pkg *types.Package) bool
	// Hatches of this package, on statements.
	Hatches []*Hatch
	// Prog is the SSA program of the package, for methods of its types.
	Prog *ssa.Program
	// ImportConst returns the ConstString fact of fn, if any.
	ImportConst func(fn *types.Func) (string, bool)
	// Contract returns the effect contract on an interface method, if any.
	Contract func(m *types.Func) *Contract
	// Generated holds the package's generated files, by name.
	Generated map[string]bool
	// InitGlobals are the package's variables that only their declaration
	// sets, with the value (see InitGlobals); a function value read from one
	// resolves to it.
	InitGlobals map[*ssa.Global]ssa.Value
	// GlobalConst returns the value of a package-level string variable
	// that nothing but its declaration sets (see ConstGlobals).
	GlobalConst func(v *types.Var) (string, bool)

	summaries   map[*ssa.Function]*Summary
	state       map[*ssa.Function]uint8
	depth       int // current recursion depth of trace, collectFuncs and inline
	recursive   bool
	txCallbacks int // > 0 while walking a callback that runs in a transaction
}

const (
	inProgress uint8 = iota + 1
	done
)

// binding is a value together with the frame it must be evaluated in.
type binding struct {
	v  ssa.Value
	fr *frame
}

// frame is one activation in the walk. The root frame is the function
// being summarised: its parameters stay symbolic. Closures are walked
// inline in frames whose parameters and free variables are bound to the
// caller's values.
type frame struct {
	fn       *ssa.Function
	root     bool
	args     []binding // nil: parameters unknown
	free     []binding
	parent   *frame
	depth    int
	visiting map[ssa.Value]bool

	cur ssa.Instruction // the instruction being walked

	// retParams: this frame is a function value the summarised function
	// returns; its parameters are symbolic, numbered from retBase.
	retParams bool

	// at, when valid, is where the sites of this frame are: a synthetic
	// wrapper (a method value's $bound, a thunk) has no source of its
	// own, so its calls are placed at the call that reached it.
	at token.Pos
}

func (fr *frame) onStack(fn *ssa.Function) bool {
	for f := fr; f != nil; f = f.parent {
		if f.fn == fn {
			return true
		}
	}
	return false
}

// maxDepth bounds inline walking of closures; maxTrace bounds the
// engine's recursion as a whole (tracing values, inlining), so no input
// can exhaust the stack.
const (
	maxDepth = 24
	maxTrace = 512
)

// Summaries computes the summary of every function in fns, solving
// recursion by iterating to a fixed point.
func (e *Engine) Summaries(fns []*ssa.Function) map[*ssa.Function]*Summary {
	e.summaries = map[*ssa.Function]*Summary{}
	e.state = map[*ssa.Function]uint8{}
	for _, fn := range fns {
		e.local(fn)
	}
	if !e.recursive {
		return e.summaries
	}
	for round := 0; round < maxRounds; round++ {
		var changed []*ssa.Function
		for _, fn := range fns {
			s := e.compute(fn)
			if !equalSummaries(s, e.summaries[fn]) {
				e.summaries[fn] = s
				changed = append(changed, fn)
			}
		}
		if len(changed) == 0 {
			return e.summaries
		}
		if round == maxRounds-1 {
			// Still growing: fail closed rather than trust a summary
			// that may be missing effects.
			for _, fn := range changed {
				s := e.summaries[fn]
				s.Effects = append(s.Effects, Effect{Kind: Unprovable,
					Reason: fmt.Sprintf("calls recursive code whose effects did not settle in %d rounds", maxRounds),
					Fix:    "declare what the call does with //agent:effect", Pos: e.pos(fn.Pos()), Module: e.Module})
			}
		}
	}
	return e.summaries
}

// maxRounds bounds the fixed-point iteration over recursive functions.
// Summaries only grow, and are bounded, so it converges; the bound keeps
// a pathological package from iterating long.
const maxRounds = 8

func (e *Engine) local(fn *ssa.Function) *Summary {
	// An instance of a generic function of the package is summarised on
	// its own body, where calls on its type arguments are static.
	if o := fn.Origin(); o != nil && len(fn.Blocks) == 0 {
		fn = o
	}
	switch e.state[fn] {
	case done:
		return e.summaries[fn]
	case inProgress:
		e.recursive = true
		return e.summaries[fn]
	}
	e.state[fn] = inProgress
	s := e.compute(fn)
	e.summaries[fn] = s
	e.state[fn] = done
	return s
}

func (e *Engine) compute(fn *ssa.Function) *Summary {
	out := newCollector()
	if len(fn.Blocks) == 0 {
		// No Go body (assembly, //go:linkname): it cannot be read, which
		// matters when a handle the analysis tracks flows into it.
		for _, p := range fn.Params {
			if isHandle(p.Type()) {
				out.add(e.unprovable(fn.Pos(), "calls a function with no Go body (assembly or //go:linkname) that is handed a "+typeName(p.Type()),
					"declare what the call does with //agent:effect"))
				break
			}
		}
		return out.summary(e.pos(fn.Pos()), e.Module)
	}
	root := &frame{fn: fn, root: true, visiting: map[ssa.Value]bool{}}
	e.walk(root, out)
	s := out.summary(e.pos(fn.Pos()), e.Module)
	e.computeReturned(s, root)
	return s
}

// computeReturned summarises calling the function value fn returns (an
// iterator, a func factory's product), so that callers in other packages
// can resolve it: the closures returned are walked with their own
// parameters symbolic.
func (e *Engine) computeReturned(s *Summary, root *frame) {
	results := root.fn.Signature.Results()
	r := -1
	for i := 0; i < results.Len(); i++ {
		if _, ok := results.At(i).Type().Underlying().(*types.Signature); ok {
			r = i
			break
		}
	}
	if r < 0 {
		return
	}
	var fs funcSet
	for _, b := range root.fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && r < len(ret.Results) {
			e.collectFuncs(ret.Results[r], root, &fs, 0)
		}
	}
	out := newCollector()
	for _, cl := range fs.callables {
		var free []binding
		if mc, ok := cl.value.(*ssa.MakeClosure); ok {
			for _, b := range mc.Bindings {
				free = append(free, binding{b, cl.fr})
			}
		}
		if cl.fn.Parent() == nil {
			continue // a named function: callers resolve it themselves
		}
		e.walk(&frame{fn: cl.fn, free: free, parent: root, depth: 1, visiting: map[ssa.Value]bool{}, retParams: true}, out)
	}
	if fs.unresolved {
		out.add(e.dynamic(root.fn.Pos(), false, "returns a function value the analysis cannot resolve",
			"return a closure or a function, or declare the calls with //agent:effect"))
	}
	if len(out.effects)+len(out.pending) > 0 || len(fs.callables) > 0 {
		s.Returned = out.summary(e.pos(root.fn.Pos()), e.Module)
		s.ReturnedIndex = r
	}
}

func (e *Engine) pos(p token.Pos) Position { return PositionOf(e.Fset, p) }

func (e *Engine) walk(fr *frame, out *collector) {
	for _, b := range fr.fn.Blocks {
		// Calls the compiler synthesises (the iterator call of a
		// range-over-func loop) have no position of their own; they
		// are placed at the nearest positioned instruction before them.
		last := token.NoPos
		for _, instr := range b.Instrs {
			pos := instr.Pos()
			if !pos.IsValid() {
				pos = last
			} else {
				last = pos
			}
			fr.cur = instr
			switch instr := instr.(type) {
			case *ssa.Call:
				e.site(pos, instr.Common(), false, fr, out)
			case *ssa.Defer:
				e.site(pos, instr.Common(), false, fr, out)
			case *ssa.Go:
				e.site(pos, instr.Common(), true, fr, out)
			}
		}
	}
}

// site handles one call, defer or go instruction, applying any hatch on
// the statement that holds it.
func (e *Engine) site(pos token.Pos, c *ssa.CallCommon, isGo bool, fr *frame, out *collector) {
	if fr.at.IsValid() {
		pos = fr.at
	}
	if !pos.IsValid() {
		pos = fr.fn.Pos()
	}
	hs := e.hatchesAt(pos)
	for _, h := range hs {
		if h.None {
			out.add(Effect{Kind: AssertedEffectFree, Reason: h.Reason, Provenance: Declared, Pos: e.pos(h.Start), Module: e.Module})
			return
		}
	}
	target := out
	if len(hs) > 0 {
		target = newCollector()
	}
	if isGo {
		sub := newCollector()
		e.call(c, pos, fr, sub)
		target.add(Effect{
			Kind:   Detached,
			Reason: "starts a detached goroutine",
			Pos:    e.pos(pos),
			Module: e.Module,
			// A goroutine inside a dependency that does nothing the
			// analysis can see is that dependency's business.
			Local: len(sub.effects)+len(sub.pending) == 0,
		})
		target.merge(sub)
	} else {
		e.call(c, pos, fr, target)
	}
	if len(hs) == 0 {
		return
	}
	for _, h := range hs {
		for _, d := range h.Declared {
			d.Provenance = Declared
			d.Pos = e.pos(h.Start)
			d.Module = e.Module
			d.Reason = h.Reason
			target.add(d)
		}
		if len(h.Declared) > 0 {
			target.discharge()
		}
		if h.Scoped {
			target.scope()
		}
	}
	out.merge(target)
}

func (e *Engine) hatchesAt(pos token.Pos) []*Hatch {
	var hs []*Hatch
	for _, h := range e.Hatches {
		if h.Start <= pos && pos < h.End {
			hs = append(hs, h)
		}
	}
	return hs
}

// discharge drops unprovable sites: a declaration covers them.
func (c *collector) discharge() {
	for k, eff := range c.effects {
		if eff.Kind == Unprovable {
			delete(c.effects, k)
		}
	}
	c.rekeyPending(func(p *Pending) { p.Discharged = true })
}

// scope drops cross-tenant effects: the statement is declared scoped.
func (c *collector) scope() {
	for k, eff := range c.effects {
		if eff.Kind == CrossTenant {
			delete(c.effects, k)
		}
	}
	c.rekeyPending(func(p *Pending) { p.Scoped = true })
}

func (c *collector) rekeyPending(f func(*Pending)) {
	old := c.pending
	c.pending = map[string]*Pending{}
	for _, p := range old {
		f(p)
		c.addPending(*p)
	}
}
