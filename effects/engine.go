package effects

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

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
	if e.recursive {
		for round := 0; round < 8; round++ {
			changed := false
			for _, fn := range fns {
				s := e.compute(fn)
				if !equalSummaries(s, e.summaries[fn]) {
					e.summaries[fn] = s
					changed = true
				}
			}
			if !changed {
				break
			}
		}
	}
	return e.summaries
}

func (e *Engine) local(fn *ssa.Function) *Summary {
	if o := fn.Origin(); o != nil {
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

// call dispatches one call.
func (e *Engine) call(c *ssa.CallCommon, pos token.Pos, fr *frame, out *collector) {
	args := c.Args
	if c.IsInvoke() {
		e.invoke(c, pos, fr, out)
		return
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return // append, len, copy, min, ...: no effects
	}
	if fn := c.StaticCallee(); fn != nil {
		e.callStatic(fn, c.Value, args, pos, fr, out)
		return
	}
	e.callValue(c.Value, args, pos, fr, out)
}

// callValue handles a call of a function value.
func (e *Engine) callValue(v ssa.Value, args []ssa.Value, pos token.Pos, fr *frame, out *collector) {
	fs := e.funcsOf(v, fr)
	for _, cl := range fs.callables {
		e.callStaticIn(cl.fn, cl.value, cl.fr, args, pos, fr, out)
	}
	for _, rc := range fs.returned {
		e.instantiateReturned(rc, args, pos, fr, out)
	}
	for _, i := range fs.params {
		out.addPending(Pending{Op: OpCallParam, Param: i, Pos: e.pos(pos), Module: e.Module})
	}
	if fs.fromStd {
		e.funcArgs(args, pos, fr, out)
	}
	if fs.unresolved {
		out.add(e.dynamic(pos, false, "calls a function value the analysis cannot resolve",
			"call the function directly, or declare the statement with //agent:effect"))
	}
}

func (e *Engine) unprovable(pos token.Pos, reason, fix string) Effect {
	return Effect{Kind: Unprovable, Reason: reason, Fix: fix, Pos: e.pos(pos), Module: e.Module}
}

// generatedCode stands for the module of a site in generated code, so
// that it matches no handler's module.
const generatedCode = "(generated code)"

// dynamic is an unresolved dynamic call. Unless its callee may be an
// effect sink (sink), it counts only for handlers of the module whose
// code makes it (see Effect.Local), and never in generated code, which
// nobody reviews or fixes by hand.
func (e *Engine) dynamic(pos token.Pos, sink bool, reason, fix string) Effect {
	eff := e.unprovable(pos, reason, fix)
	if !sink {
		eff.Local = true
		if e.Generated != nil && e.Generated[eff.Pos.File] {
			eff.Module = generatedCode
		}
	}
	return eff
}

// callStatic handles a call whose callee is known. value is the callee
// operand (a MakeClosure carries the closure's bindings) and is evaluated
// in valueFr; args are evaluated in fr.
func (e *Engine) callStatic(fn *ssa.Function, value ssa.Value, args []ssa.Value, pos token.Pos, fr *frame, out *collector) {
	e.callStaticIn(fn, value, fr, args, pos, fr, out)
}

func (e *Engine) callStaticIn(fn *ssa.Function, value ssa.Value, valueFr *frame, args []ssa.Value, pos token.Pos, fr *frame, out *collector) {
	if fn.Parent() != nil || (fn.Synthetic != "" && fn.Origin() == nil && len(fn.Blocks) > 0) {
		// A closure or a synthetic wrapper: walk it inline.
		var free []binding
		if mc, ok := value.(*ssa.MakeClosure); ok {
			for _, b := range mc.Bindings {
				free = append(free, binding{b, valueFr})
			}
		}
		e.inline(fn, bind(args, fr), free, pos, fr, out)
		return
	}
	obj := funcObject(fn)
	if obj == nil {
		return
	}
	key := FuncKey(obj)
	if m, ok := models[key]; ok {
		m(e, &callSite{fn: obj, args: args, pos: pos, fr: fr, out: out})
		return
	}
	if s, ok := e.Opts.Sinks[key]; ok {
		e.configuredSink(s, obj, args, pos, fr, out)
		return
	}
	pkg := obj.Pkg()
	switch {
	case pkg == nil:
		return
	case isModelled(pkg.Path()):
		e.funcArgs(args, pos, fr, out)
	case pkg == e.Pkg:
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		e.instantiate(e.local(fn), args, pos, fr, out)
	case e.Analysed != nil && e.Analysed(pkg):
		if e.Import != nil {
			e.instantiate(e.Import(obj), args, pos, fr, out)
		}
	default:
		// The standard library is modelled, not analysed: outside the
		// sink tables it is effect-free, but function values handed to
		// it (sort.Slice, sync.Once.Do, iterators) run at this call.
		e.funcArgs(args, pos, fr, out)
	}
}

// inline walks a closure or wrapper body in a new frame; pos is the call
// that reaches it.
func (e *Engine) inline(fn *ssa.Function, args, free []binding, pos token.Pos, fr *frame, out *collector) {
	if fr.depth >= maxDepth || fr.onStack(fn) || e.depth > maxTrace {
		return
	}
	e.depth++
	defer func() { e.depth-- }()
	nf := &frame{fn: fn, args: args, free: free, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}, at: fr.at}
	if fn.Synthetic != "" && fn.Parent() == nil && pos.IsValid() {
		nf.at = pos
	}
	root := fr
	for root.parent != nil {
		root = root.parent
	}
	var lo, hi Position
	if syn := root.fn.Syntax(); syn != nil {
		lo, hi = e.pos(syn.Pos()), e.pos(syn.End())
	}
	inRoot := func(p Position) bool {
		return lo.IsValid() && comparePos(lo, p) <= 0 && comparePos(p, hi) < 0
	}
	at := e.pos(pos)
	local := within(fn, root.fn)
	// A closure of the root's own body is in place where it stands,
	// unless the root calls it with arguments (save("INSERT INTO x")):
	// then, as for a named function, the call decides the subject and is
	// where the effect is reported. A closure made elsewhere (returned by
	// a helper) is reached through this call.
	if nf.at.IsValid() || !pos.IsValid() || (local && (len(args) == 0 || !inRoot(at))) {
		e.walk(nf, out)
		return
	}
	sub := newCollector()
	e.walk(nf, sub)
	for _, eff := range sub.effects {
		// A site in the root's own closures (a loop body the iterator
		// calls back) is already in place.
		if !local && len(eff.Via) == 0 && inRoot(eff.Pos) {
			out.add(*eff)
			continue
		}
		eff.Via = append([]Position{at}, eff.Via...)
		out.add(*eff)
	}
	for _, p := range sub.pending {
		p.Via = append([]Position{at}, p.Via...)
		out.addPending(*p)
	}
}

// within reports whether fn is root or a closure nested in it.
func within(fn, root *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		if f == root {
			return true
		}
	}
	return false
}

func bind(vs []ssa.Value, fr *frame) []binding {
	bs := make([]binding, len(vs))
	for i, v := range vs {
		bs[i] = binding{v, fr}
	}
	return bs
}

// funcArgs treats every function-valued argument as called at pos.
func (e *Engine) funcArgs(args []ssa.Value, pos token.Pos, fr *frame, out *collector) {
	for _, a := range args {
		if _, ok := a.Type().Underlying().(*types.Signature); ok {
			e.callArg(a, pos, fr, out)
		}
	}
}

// callArg treats the function value v as called at pos with unknown
// arguments: a callback handed to a callee that calls it.
func (e *Engine) callArg(v ssa.Value, pos token.Pos, fr *frame, out *collector) {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return
	}
	fs := e.funcsOf(v, fr)
	for _, cl := range fs.callables {
		if cl.fn.Parent() != nil || cl.fn.Synthetic != "" {
			var free []binding
			if mc, ok := cl.value.(*ssa.MakeClosure); ok {
				for _, b := range mc.Bindings {
					free = append(free, binding{b, cl.fr})
				}
			}
			e.inline(cl.fn, nil, free, pos, fr, out)
			continue
		}
		e.callStaticIn(cl.fn, cl.value, cl.fr, make([]ssa.Value, 0), pos, fr, out)
	}
	for _, rc := range fs.returned {
		e.instantiateReturned(rc, nil, pos, fr, out)
	}
	for _, i := range fs.params {
		out.addPending(Pending{Op: OpCallParam, Param: i, Pos: e.pos(pos), Module: e.Module})
	}
	if fs.unresolved {
		out.add(e.dynamic(pos, false, "hands a function value the analysis cannot resolve to a callee that calls it",
			"pass the function directly, or declare the statement with //agent:effect"))
	}
}

// instantiate adds a callee's summary at a call, resolving what depends
// on the callee's parameters with the call's arguments.
func (e *Engine) instantiate(s *Summary, args []ssa.Value, pos token.Pos, fr *frame, out *collector) {
	e.instantiateWith(s, pos, out, e.substFunc(args, fr), func(p Pending, out *collector) {
		e.callParam(p, args, p.Param, pos, fr, out)
	})
}

// instantiateWith adds summary s at the call at pos: sub gives the value
// of each parameter part, callParam resolves each called callback.
func (e *Engine) instantiateWith(s *Summary, pos token.Pos, out *collector, sub func(int, uint8) Str, callParam func(Pending, *collector)) {
	if s.Empty() {
		return
	}
	at := e.pos(pos)
	for _, eff := range s.Effects {
		eff.Via = append([]Position{at}, eff.Via...)
		out.add(eff)
	}
	for _, p := range s.Pending {
		p.Via = append([]Position{at}, p.Via...)
		if p.Op == OpCallParam {
			callParam(p, out)
			continue
		}
		p.Text = p.Text.subst(sub)
		p.Method = p.Method.subst(sub)
		e.emit(p, out)
	}
}

// instantiateReturned adds the effects of calling a function value that
// a function of another package returned (rc), with args (nil: unknown).
func (e *Engine) instantiateReturned(rc returned, args []ssa.Value, pos token.Pos, fr *frame, out *collector) {
	outer := e.substFunc(rc.callArgs, rc.callFr)
	inner := e.substFunc(args, fr)
	sub := func(i int, h uint8) Str {
		if i >= retBase {
			return inner(i-retBase, h)
		}
		return outer(i, h)
	}
	e.instantiateWith(rc.sum, pos, out, sub, func(p Pending, out *collector) {
		if p.Param >= retBase {
			e.callParam(p, args, p.Param-retBase, pos, fr, out)
		} else {
			e.callParam(p, rc.callArgs, p.Param, pos, rc.callFr, out)
		}
	})
}

// callParam resolves a callee's call of its function-valued parameter
// to the closure or function the caller passes.
func (e *Engine) callParam(p Pending, args []ssa.Value, i int, pos token.Pos, fr *frame, out *collector) {
	sub := newCollector()
	if i < len(args) {
		e.callArg(args[i], pos, fr, sub)
	} else if !p.Discharged {
		sub.add(e.unprovable(pos, "calls a function value the analysis cannot resolve",
			"call the function directly, or declare the statement with //agent:effect"))
	}
	for _, eff := range sub.effects {
		if eff.Kind == Unprovable && p.Discharged {
			continue
		}
		if eff.Kind == CrossTenant && p.Scoped {
			continue
		}
		out.add(*eff)
	}
	for _, q := range sub.pending {
		q.Discharged = q.Discharged || p.Discharged
		q.Scoped = q.Scoped || p.Scoped
		out.addPending(*q)
	}
}

// substFunc evaluates parameter parts of a callee's pending site with the
// call's arguments.
func (e *Engine) substFunc(args []ssa.Value, fr *frame) func(int, uint8) Str {
	return func(i int, h uint8) Str {
		if i >= len(args) {
			return unknownStr()
		}
		return e.trace(args[i], fr, h)
	}
}

// emit adds a pending site, or resolves it when it no longer depends on
// parameters.
func (e *Engine) emit(p Pending, out *collector) {
	if p.Text.hasParam() || p.Method.hasParam() {
		out.addPending(p)
		return
	}
	for _, eff := range e.resolve(p) {
		out.add(eff)
	}
}

// Finalize resolves a handler's summary: parameters of the handler are
// unknown, and local effects of other modules are dropped.
func (e *Engine) Finalize(s *Summary, module string) []Effect {
	out := newCollector()
	if s != nil {
		for _, eff := range s.Effects {
			if eff.Local && eff.Module != module {
				continue
			}
			out.add(eff)
		}
		unknown := func(int, uint8) Str { return unknownStr() }
		for _, p := range s.Pending {
			if p.Op == OpCallParam {
				if !p.Discharged {
					out.add(Effect{Kind: Unprovable, Reason: "calls a function-valued parameter, whose callee the analysis cannot see",
						Fix: "declare the statement with //agent:effect", Pos: p.Pos, Via: p.Via, Module: p.Module})
				}
				continue
			}
			p.Text = p.Text.subst(unknown)
			p.Method = p.Method.subst(unknown)
			for _, eff := range e.resolve(p) {
				out.add(eff)
			}
		}
	}
	sum := out.summary(Position{}, module)
	return sum.Effects
}

// funcObject returns the declared function or method behind fn.
func funcObject(fn *ssa.Function) *types.Func {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, _ := fn.Object().(*types.Func)
	return obj
}

// FuncKey names a function as the sink tables and authvet.yaml do:
// "pkgpath.Name" or "pkgpath.Recv.Name" (pointer-ness dropped).
func FuncKey(obj *types.Func) string {
	if obj.Pkg() == nil {
		return obj.Name()
	}
	if recv := obj.Signature().Recv(); recv != nil {
		return obj.Pkg().Path() + "." + typeName(recv.Type()) + "." + obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		return t.Origin().Obj().Name()
	case *types.Interface:
		return "interface"
	}
	return t.String()
}

// qualifiedName returns "pkgpath.Name" for a named type, or "".
func qualifiedName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return ""
	}
	obj := n.Origin().Obj()
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// callSite is the argument of a library model.
type callSite struct {
	fn   *types.Func
	args []ssa.Value // receiver first for methods
	pos  token.Pos
	fr   *frame
	out  *collector
}

func (e *Engine) configuredSink(s Sink, obj *types.Func, args []ssa.Value, pos token.Pos, fr *frame, out *collector) {
	i := s.SubjectArg
	if obj.Signature().Recv() != nil {
		i++
	}
	text := unknownStr()
	if i < len(args) {
		text = e.trace(args[i], fr, handleString)
	}
	op := OpSubject
	switch s.Effect {
	case Write:
		op = OpSQL
	case Outbound:
		op = OpURL
	}
	e.emit(Pending{Op: op, Kind: s.Effect, Text: text, Pos: e.pos(pos), Module: e.Module}, out)
	// An in-house queue that takes no transaction handle cannot join the
	// transaction it is called in.
	if s.Effect == Job {
		for i := 0; i < obj.Signature().Params().Len(); i++ {
			if txHandles[qualifiedName(obj.Signature().Params().At(i).Type())] {
				return
			}
		}
		e.checkTxEnqueue(&callSite{fn: obj, args: args, pos: pos, fr: fr, out: out}, FuncKey(obj), "")
	}
}

// Handle kinds for parameter parts of a Str: a string parameter, or a
// handle whose SQL or URL is traced back to where it was made.
const (
	handleString uint8 = iota
	handleStmt
	handleReqURL
	handleReqMethod
	handleJobArgs // a River JobArgs value: its type's Kind()
	handleTask    // an *asynq.Task: NewTask's type name
)

// trace evaluates v, in frame fr, to the string it carries (handleString)
// or to the SQL or URL behind the handle it is.
func (e *Engine) trace(v ssa.Value, fr *frame, h uint8) Str {
	// Values can refer back to themselves through captured variables
	// (req = req.WithContext(ctx)) and phis; a value already being
	// traced in this frame, or a trace past maxTrace deep, is unknown.
	if !e.enter(v, fr) {
		return unknownStr()
	}
	defer e.leave(v, fr)
	switch v := v.(type) {
	case *ssa.Parameter:
		idx := paramIndex(fr.fn, v)
		if idx < 0 {
			return unknownStr()
		}
		if fr.args != nil && idx < len(fr.args) {
			b := fr.args[idx]
			return e.trace(b.v, b.fr, h)
		}
		if fr.root {
			return Str{Alts: [][]Part{{{Param: idx + 1, Handle: h}}}}
		}
		if fr.retParams {
			return Str{Alts: [][]Part{{{Param: retBase + idx + 1, Handle: h}}}}
		}
		return unknownStr()
	case *ssa.FreeVar:
		for i, fv := range fr.fn.FreeVars {
			if fv == v && i < len(fr.free) {
				b := fr.free[i]
				return e.trace(b.v, b.fr, h)
			}
		}
		return unknownStr()
	case *ssa.Phi:
		var s Str
		for _, ed := range v.Edges {
			s = unionStr(s, e.trace(ed, fr, h))
		}
		return s
	case *ssa.ChangeType:
		return e.trace(v.X, fr, h)
	case *ssa.UnOp:
		if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL && h == handleString {
			// A package-level string variable that only its declaration
			// sets reads like a constant.
			if obj, ok := g.Object().(*types.Var); ok && e.GlobalConst != nil {
				if c, ok := e.GlobalConst(obj); ok {
					return litStr(c)
				}
			}
			return unknownStr()
		}
		if v.Op == token.MUL {
			var s Str
			stores := storedValues(v.X, fr)
			if len(stores) == 0 {
				return unknownStr()
			}
			for _, b := range stores {
				s = unionStr(s, e.trace(b.v, b.fr, h))
			}
			return s
		}
	}
	switch h {
	case handleString:
		return e.evalString(v, fr)
	case handleStmt:
		return e.stmtSQL(v, fr)
	case handleReqURL:
		return e.request(v, fr, false)
	case handleReqMethod:
		return e.request(v, fr, true)
	case handleJobArgs:
		return e.jobKind(v, fr)
	case handleTask:
		return e.asynqTask(v, fr)
	}
	return unknownStr()
}

// enter marks v as being traced in fr. It reports false when v already
// is (a cycle through a captured variable or a phi) or when the engine is
// past maxTrace deep; otherwise the caller must leave.
func (e *Engine) enter(v ssa.Value, fr *frame) bool {
	if fr.visiting[v] || e.depth > maxTrace {
		return false
	}
	fr.visiting[v] = true
	e.depth++
	return true
}

func (e *Engine) leave(v ssa.Value, fr *frame) {
	delete(fr.visiting, v)
	e.depth--
}

// eachInstr calls f for every instruction of fns and of the closures
// nested in them, each function once.
func eachInstr(fns []*ssa.Function, f func(fn *ssa.Function, instr ssa.Instruction)) {
	seen := map[*ssa.Function]bool{}
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		if seen[fn] {
			return
		}
		seen[fn] = true
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				f(fn, instr)
			}
		}
		for _, anon := range fn.AnonFuncs {
			visit(anon)
		}
	}
	for _, fn := range fns {
		visit(fn)
	}
}

// storedValues returns the values stored to the local variable at addr,
// when addr is one (an Alloc, possibly captured by a closure).
func storedValues(addr ssa.Value, fr *frame) []binding {
	for {
		fv, ok := addr.(*ssa.FreeVar)
		if !ok {
			break
		}
		found := false
		for i, x := range fr.fn.FreeVars {
			if x == fv && i < len(fr.free) {
				addr, fr = fr.free[i].v, fr.free[i].fr
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	}
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []binding
	for _, r := range *alloc.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
			out = append(out, binding{st.Val, fr})
		}
	}
	return out
}

func paramIndex(fn *ssa.Function, p *ssa.Parameter) int {
	for i, x := range fn.Params {
		if x == p {
			return i
		}
	}
	return -1
}

func (e *Engine) evalString(v ssa.Value, fr *frame) Str {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.String {
			return litStr(constant.StringVal(v.Value))
		}
	case *ssa.BinOp:
		if v.Op == token.ADD && isString(v.Type()) {
			return concatStr(e.trace(v.X, fr, handleString), e.trace(v.Y, fr, handleString))
		}
	case *ssa.Convert:
		if isString(v.X.Type()) || isBytes(v.X.Type()) {
			return e.trace(v.X, fr, handleString)
		}
	case *ssa.Call:
		if f, ok := stringModels[staticKey(v.Call)]; ok {
			return f(e, v.Call.Args, fr)
		}
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if f, ok := extractStringModels[staticKey(call.Call)]; ok {
				return f(e, call.Call.Args, fr)
			}
		}
	}
	return unknownStr()
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// funcSet is what a function value may be.
type funcSet struct {
	callables  []callable
	returned   []returned // function values returned by another package's function
	params     []int      // parameters of the root function it may be
	fromStd    bool       // a function value made by the standard library
	unresolved bool
}

// returned is a function value that a call into another analysed package
// returned: calling it has the effects of its summary's Returned part.
type returned struct {
	sum      *Summary
	callArgs []ssa.Value // the arguments of the call that returned it
	callFr   *frame
}

// retBase numbers the parameters of a returned function value in a
// Summary's Returned part, apart from the function's own parameters.
const retBase = 1000

type callable struct {
	fn    *ssa.Function
	value ssa.Value // the MakeClosure, when there is one
	fr    *frame    // the frame value lives in
}

func (e *Engine) funcsOf(v ssa.Value, fr *frame) funcSet {
	var fs funcSet
	e.collectFuncs(v, fr, &fs, 0)
	sort.Ints(fs.params)
	return fs
}

func (e *Engine) collectFuncs(v ssa.Value, fr *frame, fs *funcSet, depth int) {
	if depth > 32 || e.depth > maxTrace {
		fs.unresolved = true
		return
	}
	if !e.enter(v, fr) {
		return // already being resolved: a cycle adds nothing
	}
	defer e.leave(v, fr)
	switch v := v.(type) {
	case *ssa.Function:
		fs.callables = append(fs.callables, callable{fn: v, value: v, fr: fr})
	case *ssa.MakeClosure:
		fs.callables = append(fs.callables, callable{fn: v.Fn.(*ssa.Function), value: v, fr: fr})
	case *ssa.Const:
		// A nil function: calling it panics, which is no effect.
	case *ssa.Phi:
		for _, ed := range v.Edges {
			e.collectFuncs(ed, fr, fs, depth+1)
		}
	case *ssa.ChangeType:
		e.collectFuncs(v.X, fr, fs, depth+1)
	case *ssa.Parameter:
		idx := paramIndex(fr.fn, v)
		switch {
		case idx >= 0 && fr.args != nil && idx < len(fr.args):
			e.collectFuncs(fr.args[idx].v, fr.args[idx].fr, fs, depth+1)
		case idx >= 0 && fr.root:
			fs.params = append(fs.params, idx)
		case idx >= 0 && fr.retParams:
			fs.params = append(fs.params, retBase+idx)
		default:
			fs.unresolved = true
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) {
				e.collectFuncs(fr.free[i].v, fr.free[i].fr, fs, depth+1)
				return
			}
		}
		fs.unresolved = true
	case *ssa.UnOp:
		stores := storedValues(v.X, fr)
		if v.Op != token.MUL || len(stores) == 0 {
			fs.unresolved = true
			return
		}
		for _, b := range stores {
			e.collectFuncs(b.v, b.fr, fs, depth+1)
		}
	case *ssa.Call:
		if e.isStdCall(v) {
			fs.fromStd = true
			return
		}
		if !e.returnedFuncs(v, 0, fr, fs, depth) && !e.importedReturned(v, 0, fr, fs) {
			fs.unresolved = true
		}
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			if e.isStdCall(call) {
				fs.fromStd = true
				return
			}
			if e.returnedFuncs(call, v.Index, fr, fs, depth) || e.importedReturned(call, v.Index, fr, fs) {
				return
			}
		}
		fs.unresolved = true
	default:
		fs.unresolved = true
	}
}

// returnedFuncs resolves the function value that result i of call
// returns, when the callee's body is in this package (an iterator
// constructor, a func factory): each returned value is resolved in a
// frame of the callee bound to the call's arguments.
func (e *Engine) returnedFuncs(call *ssa.Call, i int, fr *frame, fs *funcSet, depth int) bool {
	if call.Call.IsInvoke() {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 || callee.Pkg == nil || callee.Pkg.Pkg != e.Pkg {
		return false
	}
	var free []binding
	if mc, ok := call.Call.Value.(*ssa.MakeClosure); ok {
		for _, b := range mc.Bindings {
			free = append(free, binding{b, fr})
		}
	}
	cf := &frame{fn: callee, args: bind(call.Call.Args, fr), free: free, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}, at: fr.at}
	found := false
	for _, b := range callee.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
			e.collectFuncs(ret.Results[i], cf, fs, depth+1)
			found = true
		}
	}
	return found
}

// importedReturned resolves result i of a call into another analysed
// package to the Returned part of the callee's summary.
func (e *Engine) importedReturned(call *ssa.Call, i int, fr *frame, fs *funcSet) bool {
	if call.Call.IsInvoke() || e.Import == nil {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return false
	}
	obj := funcObject(callee)
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == e.Pkg || e.Analysed == nil || !e.Analysed(obj.Pkg()) {
		return false
	}
	s := e.Import(obj)
	if s == nil || s.Returned == nil || s.ReturnedIndex != i {
		return false
	}
	fs.returned = append(fs.returned, returned{sum: s.Returned, callArgs: call.Call.Args, callFr: fr})
	return true
}

// isStdCall reports whether call is a static call into a package that is
// modelled rather than analysed (the standard library).
func (e *Engine) isStdCall(call *ssa.Call) bool {
	fn := call.Call.StaticCallee()
	if fn == nil || call.Call.IsInvoke() {
		return false
	}
	obj := funcObject(fn)
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	return obj.Pkg() != e.Pkg && (e.Analysed == nil || !e.Analysed(obj.Pkg()) || isModelled(obj.Pkg().Path()))
}

// String describes the site for debugging.
func (p Pending) String() string { return fmt.Sprintf("%d %s at %s", p.Op, p.Text, p.Pos) }
