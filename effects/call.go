package effects

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

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
	for _, w := range fs.wrapped {
		e.callArg(w.v, pos, w.fr, out)
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
	for _, w := range fs.wrapped {
		e.callArg(w.v, pos, w.fr, out)
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
func (e *Engine) instantiateWith(s *Summary, pos token.Pos, out *collector, sub func(Part) Str, callParam func(Pending, *collector)) {
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
		if p.Op == OpCallParam || p.Op == OpCallMethod {
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
	sub := func(p Part) Str {
		if p.Param-1 >= retBase {
			p.Param -= retBase
			return inner(p)
		}
		return outer(p)
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
	if p.Op == OpCallMethod {
		if i < len(args) {
			// Still a parameter here: pass the question up to our callers.
			if q, ok := args[i].(*ssa.Parameter); ok && (fr.root || fr.retParams) && fr.args == nil {
				if idx := paramIndex(fr.fn, q); idx >= 0 {
					if fr.retParams {
						idx += retBase
					}
					p.Param = idx
					out.addPending(p)
					return
				}
			}
		}
		if i >= len(args) || !e.callMethodOn(args[i], fr, p.Name, pos, sub) {
			if !p.Discharged {
				eff := e.dynamic(pos, p.Sink, p.Reason, dynamicFix)
				eff.Pos, eff.Via, eff.Module = p.Pos, p.Via, p.Module
				sub.add(eff)
			}
		}
	} else if i < len(args) {
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
func (e *Engine) substFunc(args []ssa.Value, fr *frame) func(Part) Str {
	return func(p Part) Str {
		i := p.Param - 1
		if i >= len(args) {
			return unknownStr()
		}
		if p.Handle == handleMethod {
			return e.methodResult(args[i], fr, p.Lit)
		}
		return e.trace(args[i], fr, p.Handle)
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
		unknown := func(Part) Str { return unknownStr() }
		for _, p := range s.Pending {
			if p.Op == OpCallMethod {
				if !p.Discharged {
					eff := Effect{Kind: Unprovable, Reason: p.Reason, Fix: dynamicFix, Pos: p.Pos, Via: p.Via, Module: p.Module, Local: !p.Sink}
					if !(eff.Local && eff.Module != module) {
						out.add(eff)
					}
				}
				continue
			}
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
	return unsafeSideWins(sum.Effects)
}

// unsafeSideWins drops a bounded write that an unbounded write of the same
// table at the same site subsumes: where the paths join, the unsafe side
// wins, and the site is one effect.
func unsafeSideWins(effs []Effect) []Effect {
	type site struct {
		report, pos Position
		subject     string
	}
	unbounded := map[site]bool{}
	for _, e := range effs {
		if e.Kind == UnboundedWrite {
			unbounded[site{e.Report(), e.Pos, e.Subject}] = true
		}
	}
	out := effs[:0]
	for _, e := range effs {
		if e.Kind == Write && unbounded[site{e.Report(), e.Pos, e.Subject}] {
			continue
		}
		out = append(out, e)
	}
	return out
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
