package effects

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/authvet/authvet/grant/urlprefix"
	"golang.org/x/tools/go/ssa"
)

// call dispatches one call instruction.
func (e *Engine) call(c *ssa.CallCommon, pos token.Pos, fr *frame, out *collector) {
	if c.IsInvoke() {
		e.invoke(c, pos, fr, out)
		return
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return // append, len, copy, min, ...: no effects
	}
	if fn := c.StaticCallee(); fn != nil {
		e.callFunc(fn, c.Value, fr, bind(c.Args, fr), pos, fr, out)
		return
	}
	e.callValue(c.Value, bind(c.Args, fr), pos, fr, out)
}

// callValue handles a call of a function value with args.
func (e *Engine) callValue(v ssa.Value, args []binding, pos token.Pos, fr *frame, out *collector) {
	e.callFuncs(e.funcsOf(v, fr), args, pos, fr, out, callFlags{slot: valueSlot(v)})
}

// valueSlot names the function field of a named struct that v was read
// from (s.onSave, (*s).hook), or "". A function read from the elements
// of a field holding a map, slice or array of them (at any depth: a
// range over p.allowURLSchemes[scheme]) names the field and "[]".
func valueSlot(v ssa.Value) string {
	elem := ""
	for range 8 {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return ""
			}
			switch a := x.X.(type) {
			case *ssa.FieldAddr:
				return slotOrElems(a.X.Type(), a.Field, elem)
			case *ssa.IndexAddr:
				v, elem = a.X, "[]"
				continue
			}
			return ""
		case *ssa.FieldAddr:
			// The address of an array field, indexed.
			if elem == "" {
				return ""
			}
			return slotOrElems(x.X.Type(), x.Field, elem)
		case *ssa.Field:
			return slotOrElems(x.X.Type(), x.Field, elem)
		case *ssa.Index:
			v, elem = x.X, "[]"
		case *ssa.Lookup:
			v, elem = x.X, "[]"
		case *ssa.Extract:
			switch t := x.Tuple.(type) {
			case *ssa.Lookup:
				if x.Index != 0 {
					return ""
				}
				v, elem = t.X, "[]"
			case *ssa.Next:
				// The value of a range over a map.
				rg, ok := t.Iter.(*ssa.Range)
				if !ok || x.Index != 2 {
					return ""
				}
				v, elem = rg.X, "[]"
			default:
				return ""
			}
		default:
			return ""
		}
	}
	return ""
}

// slotOrElems is the slot of field f of the struct type t, with elem
// ("[]": the functions in its elements) appended.
func slotOrElems(t types.Type, f int, elem string) string {
	k := slotOf(t, []int{f})
	if k == "" {
		return ""
	}
	return k + elem
}

// callFlags qualify a call of a function value: it may run after the
// call that was handed it returns (detach), or inside a transaction.
type callFlags struct {
	detach   bool
	detachIf int // 1-based parameter: detached if its structure outlives the request
	inTx     bool
	// protocol: the methods the callee calls on a value it is handed as
	// any (nil: every one authvet knows of; see Library.Protocols).
	protocol []string
	// slot: the function field the value was read from (Effect.Slot),
	// for the unprovable site an unresolved value makes.
	slot string
	// stdArgs: the value is a callback the standard library calls, and
	// no other argument of that call holds a function: the functions the
	// library hands the callback are its own (slices.Collect's yield).
	stdArgs bool
}

// callFuncs calls every function a function value may be, with args
// (nil: unknown arguments).
func (e *Engine) callFuncs(fs funcSet, args []binding, pos token.Pos, fr *frame, out *collector, fl callFlags) {
	target := out
	if fl.detach || fl.detachIf > 0 {
		target = newCollector()
	}
	for _, cl := range fs.callables {
		if madeByCtorHelper(cl, fr) {
			continue
		}
		e.callFuncIn(cl.fn, cl.value, cl.fr, args, pos, fr, target, fl.inTx)
	}
	for _, rc := range fs.returned {
		e.instantiateAt(rc.sum, &instCtx{args: bind(rc.callArgs, rc.callFr), ret: args, targs: rc.targs}, pos, fr, target)
	}
	for _, i := range fs.params {
		target.addPending(Pending{Op: OpCallParam, Param: i, Detach: fl.detach, DetachIf: fl.detachIf, InTx: fl.inTx || e.inTransaction(fr), Pos: e.pos(pos), Module: e.Module})
	}
	for _, pr := range fs.paramResults {
		target.addPending(Pending{Op: OpCallParam, Param: pr.param, Result: pr.index + 1, Detach: fl.detach, DetachIf: fl.detachIf, InTx: fl.inTx || e.inTransaction(fr), Pos: e.pos(pos), Module: e.Module})
	}
	for _, pf := range fs.fieldParams {
		target.addPending(Pending{Op: OpCallParam, Param: pf.param, Fields: pf.path, Detach: fl.detach, DetachIf: fl.detachIf, InTx: fl.inTx || e.inTransaction(fr), Pos: e.pos(pos), Module: e.Module, Slot: fl.slot})
	}
	for _, i := range fs.elemParams {
		target.addPending(Pending{Op: OpCallParam, Param: i, Elem: true, Detach: fl.detach, DetachIf: fl.detachIf, InTx: fl.inTx || e.inTransaction(fr), Pos: e.pos(pos), Module: e.Module})
	}
	if fs.fromStd && args != nil {
		e.handOff(nil, args, pos, fr, target)
	}
	for _, w := range fs.wrapped {
		e.callArg(w, pos, fr, target, fl)
	}
	if fs.unresolved {
		u := e.unprovable(pos, "calls a function value the analysis cannot resolve",
			"call the function directly, or declare the statement with //agent:effect")
		u.Slot = fl.slot
		target.add(u)
	}
	switch {
	case fl.detach:
		e.detachedWork(target, pos, "hands a function to code that may run it after the call returns", out)
	case fl.detachIf > 0:
		if hasWork(target) {
			out.addPending(Pending{Op: OpDetachIf, Param: fl.detachIf - 1, Pos: e.pos(pos), Module: e.Module})
		}
		out.merge(target)
	}
}

// hasWork reports whether c holds an effect or a site that may become
// one, other than a callback still to be resolved (which carries its own
// detachment).
func hasWork(c *collector) bool {
	if len(c.effects) > 0 {
		return true
	}
	for _, p := range c.pending {
		switch {
		case p.Op == OpTxEnqueue || p.Op == OpDetachIf:
			// conditions on other work, not work of their own
		case (p.Op == OpCallParam || p.Op == OpCallMethod) && (p.Detach || p.DetachIf > 0),
			p.Op == OpCallMethod && p.Reason == "" && p.ShapeArg == 0:
			// callbacks that carry their own detachment, or hand-offs
			// that are dropped if never resolved
		default:
			return true
		}
	}
	return false
}

// remapDetach turns a detachment conditional on the callee's parameter
// i (1-based; 0: none) into the caller's terms: what the caller passes
// outlives the request, is one of its own parameters, or is made here.
func (e *Engine) remapDetach(i int, ctx *instCtx) callFlags {
	if i == 0 {
		return callFlags{}
	}
	b, ok := ctx.param(i - 1)
	if !ok {
		return callFlags{detach: true}
	}
	return e.storedInto(b)
}

// storedInto is the detachment of work kept in the structure b: detached
// if b outlives the request (or is out of sight), conditional on the
// caller if b is a parameter, none if b is made during the request.
func (e *Engine) storedInto(b binding) callFlags {
	b = follow(b)
	if !b.live() {
		return callFlags{detach: true}
	}
	switch life, idx := e.lifetime(b.v, b.fr); life {
	case lifeLong:
		return callFlags{detach: true}
	case lifeParam:
		return callFlags{detachIf: idx + 1}
	}
	return callFlags{}
}

// detachedWork merges the work of a callback that may run after the call
// that was handed it returns, adding a detached effect when that work
// has any effect or unprovable site.
func (e *Engine) detachedWork(work *collector, pos token.Pos, reason string, out *collector) {
	if hasWork(work) {
		out.add(Effect{Kind: Detached, Reason: reason, Pos: e.pos(pos), Module: e.Module})
	}
	out.merge(work)
}

func (e *Engine) unprovable(pos token.Pos, reason, fix string) Effect {
	return Effect{Kind: Unprovable, Reason: reason, Fix: fix, Pos: e.pos(pos), Module: e.Module}
}

// callFunc calls fn, whose operand value (a MakeClosure carries the
// closure's bindings) lives in valueFr, with args.
func (e *Engine) callFunc(fn *ssa.Function, value ssa.Value, valueFr *frame, args []binding, pos token.Pos, fr *frame, out *collector) {
	e.callFuncIn(fn, value, valueFr, args, pos, fr, out, false)
}

func (e *Engine) callFuncIn(fn *ssa.Function, value ssa.Value, valueFr *frame, args []binding, pos token.Pos, fr *frame, out *collector, inTx bool) {
	if fn.Parent() != nil || (fn.Synthetic != "" && fn.Origin() == nil && len(fn.Blocks) > 0) {
		// A closure or a synthetic wrapper: walk it inline.
		var free []binding
		if mc, ok := value.(*ssa.MakeClosure); ok {
			free = bind(mc.Bindings, valueFr)
		}
		e.inline(fn, args, free, pos, fr, out, inTx)
		return
	}
	obj := funcObject(fn)
	if obj == nil {
		return
	}
	if obj.Pkg() == e.Pkg && len(fn.Blocks) > 0 && len(args) > 0 && args[0].live() && obj.Signature().Recv() != nil && methodsInlined(fr) < maxMethodInline {
		if _, _, local := allocOf(args[0].v, args[0].fr, 0); local || args[0].fr != fr {
			// A method on a receiver built here or in another frame (a
			// helper that built it): walk it inline, so the fields set
			// where it was built are seen.
			e.inline(fn, args, nil, pos, fr, out, inTx)
			return
		}
	}
	e.callObj(obj, fn, args, pos, fr, out)
}

// callObj calls the declared function or method obj (fn its SSA function
// in this program, if any) with args, receiver first.
func (e *Engine) callObj(obj *types.Func, fn *ssa.Function, args []binding, pos token.Pos, fr *frame, out *collector) {
	if !e.deeper() {
		out.add(e.boundHit(pos, fr))
		return
	}
	defer e.shallower()
	key := e.funcKey(obj)
	c := &callSite{e: e, fn: obj, args: args, pos: pos, fr: fr, out: out}
	if s, ok := e.Opts.Sinks[key]; ok {
		// The user's configuration wins over authvet's own model.
		e.configuredSink(s, c)
		c.handOffContexts()
		return
	}
	if len(e.Opts.Sinks) > 0 && obj.Signature().Recv() != nil && len(args) > 0 {
		for _, k := range promotedKeys(obj, args[0]) {
			if s, ok := e.Opts.Sinks[k]; ok {
				e.configuredSink(s, c)
				c.handOffContexts()
				return
			}
		}
	}
	if m := lib().models[key]; m != nil {
		m(c)
		c.handOffContexts()
		return
	}
	for _, shape := range lib().callShapes {
		if md := shape(obj); md != nil {
			md(c)
			c.handOffContexts()
			return
		}
	}
	pkg := obj.Pkg()
	switch {
	case pkg == nil:
	case lib().modelled(pkg.Path()):
		lib().unmodelled(c)
	case lib().isSafe(obj):
		// Library knowledge: effect-free (metrics, a framework's own
		// response writer); what it is handed still counts here.
		e.handOff(obj, args, pos, fr, out)
	case pkg == e.Pkg:
		if fn == nil && e.Prog != nil {
			fn = e.Prog.FuncValue(obj)
		}
		if fn == nil {
			return
		}
		if fr.makesHandlers() && e.madeHelper(fn) && staticCallOf(fr.cur, obj) {
			// A handler constructor's helper: the handlers it makes are
			// the constructor's (return noteTool(db, "pin_note")).
			e.inlineAs(fn, args, nil, pos, fr, out, false, true)
			return
		}
		e.instantiateAt(e.local(fn), &instCtx{args: args, targs: localTypeArgs(obj, fn, fr)}, pos, fr, out)
	case e.Analysed != nil && e.Analysed(pkg):
		if e.Import != nil {
			s := e.Import(obj)
			if fr.makesHandlers() && s != nil && s.Made != nil && staticCallOf(fr.cur, obj) {
				s = s.Made
			}
			e.instantiateAt(s, &instCtx{args: args, targs: typeArgsOf(obj, fn)}, pos, fr, out)
		}
	default:
		// The standard library, or a package that reaches no sink of its
		// own: effect-free, but what the call is handed counts here.
		e.handOff(obj, args, pos, fr, out)
	}
}

// staticCallOf reports whether in, the instruction a frame is at, calls
// obj statically: a handler constructor's own call of a helper, not a
// function value a callee's summary calls back (a middleware a chain
// applies), which stays a plain call.
func staticCallOf(in ssa.Instruction, obj *types.Func) bool {
	c, ok := in.(ssa.CallInstruction)
	if !ok {
		return false
	}
	callee := c.Common().StaticCallee()
	if callee == nil {
		return false
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	return callee.Object() == obj || callee.Object() == obj.Origin()
}

// inline walks a closure or wrapper body in a new frame; pos is the call
// that reaches it.
func (e *Engine) inline(fn *ssa.Function, args, free []binding, pos token.Pos, fr *frame, out *collector, inTx bool) {
	e.inlineAs(fn, args, free, pos, fr, out, inTx, false)
}

// inlineAs is inline; helper walks fn as a handler constructor's helper
// (ctorHelper): the literals it makes count as called.
func (e *Engine) inlineAs(fn *ssa.Function, args, free []binding, pos token.Pos, fr *frame, out *collector, inTx, helper bool) {
	if fr.onStack(fn) {
		// A closure that calls itself (through a variable). Its sites are
		// walked once more with the new arguments; past that, a call whose
		// arguments trace as the innermost activation's did adds nothing,
		// and any other is cut, unprovable if the closure has effects.
		var inner *frame
		n := 0
		for f := fr; f != nil; f = f.parent {
			if f.fn == fn {
				if inner == nil {
					inner = f
				}
				n++
			}
		}
		if n >= 2 {
			if !e.sameArgs(inner.args, args) {
				inner.recursed = true
			}
			return
		}
	}
	if fr.depth >= maxDepth || !e.deeper() {
		out.add(e.boundHit(pos, fr))
		return
	}
	defer e.shallower()
	nf := &frame{fn: fn, args: args, free: free, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}, at: fr.at, inTx: inTx || fr.inTx, ctor: helper, helper: helper}
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
	sub := newCollector()
	e.walk(nf, sub)
	if nf.recursed && (len(sub.effects)+len(sub.pending) > 0 || e.touchesSinks(fn)) {
		sub.add(e.unprovable(fn.Pos(), "calls a closure that calls itself, whose deeper calls may reach other subjects",
			"make the recursion a named function, or declare the call with //agent:effect"))
	}
	// A closure of the root's own body is in place where it stands,
	// unless the root calls it with arguments (save("INSERT INTO x")):
	// then, as for a named function, the call decides the subject and is
	// where the effect is reported. A closure made elsewhere (returned by
	// a helper) is reached through this call.
	if nf.at.IsValid() || !pos.IsValid() || (local && (len(args) == 0 || !inRoot(at))) {
		out.merge(sub)
		return
	}
	for _, eff := range sub.effects {
		// A site in the root's own closures (a loop body the iterator
		// calls back) is already in place.
		if !local && len(eff.Via) == 0 && inRoot(eff.Pos) {
			out.add(*eff)
			continue
		}
		out.addLifted(*eff, at)
	}
	for _, p := range sub.pending {
		p.Via = prependVia(at, p.Via)
		out.addPending(*p)
	}
	out.overflow = out.overflow || sub.overflow
}

// sameArgs reports whether a recursive call's arguments are, as far as the
// walk can tell them apart, those of the activation it recurses from:
// strings trace the same, and function and interface values are the same
// values.
// touchesSinks reports whether fn calls a modelled library, a
// configured sink or a method of a handle type itself: where a deeper
// activation with other arguments is cut, its sites may reach other
// subjects even if the levels walked reached none (they only read).
func (e *Engine) touchesSinks(fn *ssa.Function) bool {
	found := false
	eachInstr([]*ssa.Function{fn}, func(_ *ssa.Function, in ssa.Instruction) {
		c, ok := in.(ssa.CallInstruction)
		if found || !ok {
			return
		}
		cc := c.Common()
		if cc.IsInvoke() {
			found = isHandle(cc.Value.Type())
			return
		}
		callee := cc.StaticCallee()
		if callee == nil {
			return
		}
		obj := funcObject(callee)
		if obj == nil || obj.Pkg() == nil {
			return
		}
		key := FuncKey(obj)
		_, configured := e.Opts.Sinks[key]
		found = configured || lib().models[key] != nil && !lib().runners[key] || lib().modelled(obj.Pkg().Path())
	})
	return found
}

func (e *Engine) sameArgs(old, new []binding) bool {
	if len(old) != len(new) {
		return false
	}
	for i := range old {
		a, b := follow(old[i]), follow(new[i])
		if !a.live() || !b.live() {
			return false
		}
		t := a.v.Type()
		switch {
		case isString(t) || isBytes(t):
			if e.traceB(a, handleString).String() != e.traceB(b, handleString).String() {
				return false
			}
		case callbackType(t):
			if a.v != b.v || a.fr != b.fr {
				return false
			}
		}
		// Numbers, flags and plain data (a tree's nodes) decide no
		// subject the walk can trace.
	}
	return true
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

// callArg treats the function value b as called at pos with unknown
// arguments: a callback handed to a callee that calls it.
func (e *Engine) callArg(b binding, pos token.Pos, fr *frame, out *collector, fl callFlags) {
	b = follow(b)
	if !b.live() {
		out.add(e.unprovable(pos, "hands a function value the analysis cannot resolve to a callee that calls it",
			"pass the function directly, or declare the statement with //agent:effect"))
		return
	}
	if c, ok := b.v.(*ssa.Const); ok && c.IsNil() {
		return
	}
	if e.callbacks >= maxCallbacks || !e.spend(1) || !e.deeper() {
		out.add(e.boundHit(pos, fr))
		return
	}
	defer e.shallower()
	e.callbacks++
	defer func() { e.callbacks-- }()
	var args []binding
	if sig, ok := b.v.Type().Underlying().(*types.Signature); ok && fl.stdArgs {
		args = stdMadeArgs(sig, fr)
	}
	e.callFuncs(e.funcsOf(b.v, b.fr), args, pos, fr, out, fl)
}

// stdMadeArgs binds the parameters of a callback the standard library
// calls: a function parameter to a nil function (what the library hands
// it is its own, and does nothing the program can see: the yield of
// slices.Collect or iter.Pull), anything else unknown. Nil when the
// callback takes no function.
func stdMadeArgs(sig *types.Signature, fr *frame) []binding {
	var args []binding
	funcs := false
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		if _, ok := t.Underlying().(*types.Signature); ok {
			args = append(args, binding{v: ssa.NewConst(nil, t), fr: fr})
			funcs = true
			continue
		}
		args = append(args, binding{})
	}
	if !funcs {
		return nil
	}
	return args
}

// callElems treats each element of the slice b (functional options handed
// in) as called at pos.
func (e *Engine) callElems(b binding, pos token.Pos, fr *frame, out *collector, fl callFlags) {
	b = follow(b)
	if !b.live() {
		out.add(e.unprovable(pos, "calls the functions of a slice the analysis cannot see",
			"pass a slice literal of functions, or declare the statement with //agent:effect"))
		return
	}
	if !e.deeper() {
		out.add(e.boundHit(pos, fr))
		return
	}
	defer e.shallower()
	var fs funcSet
	e.collectElems(b.v, b.fr, &fs, 0)
	e.callFuncs(fs, nil, pos, fr, out, fl)
}

// maxCallbacks bounds how deeply callbacks handed to callbacks are
// resolved (a func factory wrapping its own product, recursively).
const maxCallbacks = 16

// spend charges n units of work to the summary being computed; it
// reports false once the budget is spent (the caller fails closed).
func (e *Engine) spend(n int) bool {
	e.budget -= n
	return e.budget >= 0
}

// instantiateAt adds a callee's summary at a call, resolving what depends
// on the callee's parameters through ctx.
func (e *Engine) instantiateAt(s *Summary, ctx *instCtx, pos token.Pos, fr *frame, out *collector) {
	if s.Empty() {
		return
	}
	if !e.spend(1+len(s.Effects)+len(s.Pending)) || !e.deeper() {
		out.add(e.boundHit(pos, fr))
		return
	}
	defer e.shallower()
	at := e.pos(pos)
	sub := e.subFor(ctx)
	for _, eff := range s.Effects {
		out.addLifted(eff, at)
	}
	for _, p := range s.Pending {
		p.Via = prependVia(at, p.Via)
		switch p.Op {
		case OpCallParam:
			e.resolveCallParam(p, ctx, pos, fr, out)
		case OpCallMethod:
			e.resolveCallMethod(p, ctx, pos, fr, out)
		case OpTxEnqueue:
			e.txEnqueue(p, fr, out)
		case OpDetachIf:
			e.detachIf(p, ctx, out)
		default:
			p.Text = p.Text.subst(sub)
			p.Method = p.Method.subst(sub)
			e.emit(p, out)
		}
	}
}

// resolveCallParam resolves a callee's call of its function-valued
// parameter to the closure or function the caller passes.
func (e *Engine) resolveCallParam(p Pending, ctx *instCtx, pos token.Pos, fr *frame, out *collector) {
	sub := newCollector()
	fl := e.remapDetach(p.DetachIf, ctx)
	fl.inTx = p.InTx
	fl.detach = fl.detach || p.Detach
	p.Detach = false // callArg marks the work itself
	b, ok := ctx.param(p.Param)
	if ok && b.v != nil {
		rec, busy := e.enterResolve("", p.Pos, b.v)
		if busy {
			return
		}
		defer e.leaveResolve("", p.Pos, b.v)
		defer func() {
			if *rec && hasWork(sub) {
				// (sub is merged by now: the site goes straight out.)
				out.add(e.recursedResolve(pos))
			}
		}()
	}
	if ok && p.Result > 0 {
		// Call what calling the caller's value returns.
		var callees, fs funcSet
		if b = follow(b); b.live() {
			e.collectFuncs(b.v, b.fr, &callees, 0)
		} else {
			callees.unresolved = true
		}
		for _, q := range callees.params {
			// Still a parameter here: the caller's caller resolves it.
			r := p
			r.Param = q
			r.Detach, r.DetachIf = fl.detach, fl.detachIf
			out.addPending(r)
		}
		callees.params = nil
		if !e.resultsOf(callees, nil, p.Result-1, fr, &fs, 0) || fs.unresolved {
			// Out of sight: unprovable where the callee calls it (the
			// linked program's call graph may resolve it there).
			fs.unresolved = false
			sub.add(Effect{Kind: Unprovable, Reason: "calls a function value the analysis cannot resolve",
				Fix: "call the function directly, or declare the statement with //agent:effect", Pos: p.Pos, Via: p.Via, Module: p.Module})
		}
		e.callFuncs(fs, nil, pos, fr, sub, fl)
		e.mergeResolved(p, sub, pos, out)
		return
	}
	if ok && len(p.Fields) > 0 {
		done, up, found := e.fieldsOf(b, p.Fields, fr.cur)
		ok = found
		for _, u := range up {
			q := p
			q.Param, q.Fields = u.param, u.path
			q.Detach, q.DetachIf = fl.detach, fl.detachIf
			out.addPending(q)
		}
		for _, d := range done {
			e.callArg(d, pos, fr, sub, fl)
		}
		if ok {
			e.mergeResolved(p, sub, pos, out)
			return
		}
	}
	if ok && p.Elem {
		e.callElems(b, pos, fr, sub, fl)
	} else if ok {
		e.callArg(b, pos, fr, sub, fl)
	} else {
		u := e.unprovable(pos, "calls a function value the analysis cannot resolve",
			"call the function directly, or declare the statement with //agent:effect")
		if b.live() && len(p.Fields) > 0 {
			u.Slot = slotOf(b.v.Type(), p.Fields)
		}
		sub.add(u)
	}
	e.mergeResolved(p, sub, pos, out)
}

// detachIf resolves a conditional detachment: the structure the work was
// stored into is the caller's value of the parameter; stored work runs
// after the request if that value outlives it.
func (e *Engine) detachIf(p Pending, ctx *instCtx, out *collector) {
	b, ok := ctx.param(p.Param)
	b = follow(b)
	if !ok || !b.live() {
		out.add(Effect{Kind: Detached, Reason: storedReason, Pos: p.Pos, Via: p.Via, Module: p.Module})
		return
	}
	switch life, idx := e.lifetime(b.v, b.fr); life {
	case lifeLong:
		out.add(Effect{Kind: Detached, Reason: storedReason, Pos: p.Pos, Via: p.Via, Module: p.Module})
	case lifeParam:
		p.Param = idx
		out.addPending(p)
	}
}

// storedReason is the reason of detached work stored where it outlives
// the request.
const storedReason = "stores a function or value where it may run after the request"

// resolveCallMethod resolves a callee's call of a method on its
// interface-typed parameter, with the value the caller passes.
func (e *Engine) resolveCallMethod(p Pending, ctx *instCtx, pos token.Pos, fr *frame, out *collector) {
	if p.Param >= typeArgBase {
		e.resolveTypeArgMethod(p, ctx, pos, fr, out)
		return
	}
	b, ok := ctx.param(p.Param)
	if ok && len(p.Fields) > 0 {
		done, up, found := e.fieldsOf(b, p.Fields, fr.cur)
		if found {
			for _, u := range up {
				q := p
				q.Param, q.Fields = u.param, u.path
				q.Args = e.passArgs(p.Args, ctx, pos, fr, out)
				fl := e.remapDetach(p.DetachIf, ctx)
				q.Detach, q.DetachIf = p.Detach || fl.detach, fl.detachIf
				out.addPending(q)
			}
			for _, d := range done {
				q := p
				q.Fields = nil
				e.resolveCallMethodOn(q, d, true, ctx, pos, fr, out)
			}
			return
		}
		ok = false
	}
	e.resolveCallMethodOn(p, b, ok, ctx, pos, fr, out)
}

// resolveCallMethodOn resolves a pending method call on b, the caller's
// value (ok: there is one).
func (e *Engine) resolveCallMethodOn(p Pending, b binding, ok bool, ctx *instCtx, pos token.Pos, fr *frame, out *collector) {
	b = follow(b)
	if idx, isParam := rootParam(b); ok && isParam {
		// Still a parameter here: pass the question up to our callers,
		// with the arguments and the detachment in our terms.
		fl := e.remapDetach(p.DetachIf, ctx)
		p.Param = idx
		p.Args = e.passArgs(p.Args, ctx, pos, fr, out)
		p.Detach, p.DetachIf = p.Detach || fl.detach, fl.detachIf
		out.addPending(p)
		return
	}
	// A site resolved again, on the same receiver value, while it is
	// being resolved (a visitor whose Visit methods call Accept, whose
	// Accept calls Visit): the deeper resolution is cut, and if the
	// outer one found anything, what the deeper calls reach with other
	// arguments is unprovable, as for a closure that calls itself.
	var rec *bool
	if ok && b.v != nil {
		var busy bool
		if rec, busy = e.enterResolve(p.Name, p.Pos, b.v); busy {
			return
		}
		defer e.leaveResolve(p.Name, p.Pos, b.v)
	}
	sub := newCollector()
	if p.Invoked {
		prevAt, prevParam := e.invokedAt, e.invokedParam
		e.invokedAt, e.invokedParam = fr.cur, p.Param
		defer func() { e.invokedAt, e.invokedParam = prevAt, prevParam }()
	}
	if p.InTx {
		fr = txFrame(fr)
	}
	switch {
	case ok && e.ifaceModel(b, p.Name, symArgs(p.Args, ctx), pos, fr, sub):
	case ok && e.callMethodOn(b, p.Name, symArgs(p.Args, ctx), pos, fr, sub):
	case ok && e.resultMethod(b, p.Name, symArgs(p.Args, ctx), pos, fr, sub):
		// The value another package's function returned, whose summary
		// says what each method of the returned interface does.
	case p.ShapeArg > 0 && p.ShapeArg <= len(p.Args):
		// A SQL handle by its shape: the call runs its SQL text.
		arg := binding{sym: &p.Args[p.ShapeArg-1], ctx: ctx}
		e.emit(Pending{Op: OpSQL, Text: e.traceB(arg, handleString), Pos: p.Pos, Via: p.Via, Module: p.Module}, sub)
	case p.Reason != "":
		if m, isReq := p.requestMethod(func(i int) Str { return e.traceB(binding{sym: &p.Args[i], ctx: ctx}, handleReqMethod) }); isReq {
			// A request through a client or transport out of sight: its
			// method may still be known, here or in our callers.
			e.emit(Pending{Op: OpEgress, Method: m, Reason: p.Reason, Fix: p.fix(), Pkg: p.Pkg, Pos: p.Pos, Via: p.Via, Module: p.Module, Discharged: p.Discharged}, sub)
			break
		}
		eff := e.unprovable(pos, p.Reason, p.fix())
		eff.Pos, eff.Via, eff.Module = p.Pos, p.Via, p.Module
		eff.Egress, eff.Pkg, eff.Slot = p.Pkg != "", p.Pkg, p.Slot
		sub.add(eff)
	}
	sub = relocate(sub, e.pos(pos), p)
	switch fl := e.remapDetach(p.DetachIf, ctx); {
	case fl.detach:
		p.Detach = true
	case fl.detachIf > 0 && hasWork(sub):
		out.addPending(Pending{Op: OpDetachIf, Param: fl.detachIf - 1, Pos: p.Pos, Via: p.Via, Module: p.Module})
	}
	if rec != nil && *rec && hasWork(sub) {
		sub.add(e.recursedResolve(pos))
	}
	e.mergeResolved(p, sub, pos, out)
}

// enterResolve marks a pending call (name "" for a function parameter's)
// at pos as being resolved on value v. If it already is, further up
// the stack, the call is its own deeper resolution (a visitor whose
// Visit methods call Accept, an encoder that calls the encoders of its
// fields): busy, and the outer resolution is marked recursed.
func (e *Engine) enterResolve(name string, pos Position, v ssa.Value) (rec *bool, busy bool) {
	k := resolveKey{name, pos, v}
	if r, ok := e.resolving[k]; ok {
		*r = true
		return nil, true
	}
	if e.resolving == nil {
		e.resolving = map[resolveKey]*bool{}
	}
	rec = new(bool)
	e.resolving[k] = rec
	return rec, false
}

func (e *Engine) leaveResolve(name string, pos Position, v ssa.Value) {
	delete(e.resolving, resolveKey{name, pos, v})
}

// recursedResolve is the site a recursed resolution that found work
// adds: the deeper calls it cut, with other arguments, may reach other
// subjects (as for a closure that calls itself).
func (e *Engine) recursedResolve(pos token.Pos) Effect {
	return e.unprovable(pos, "calls code that calls back into this call, whose deeper calls may reach other subjects",
		"declare what the call does with //agent:effect")
}

// resolveKey is a pending method call being resolved on a receiver value.
type resolveKey struct {
	name string
	pos  Position
	recv ssa.Value
}

// requestMethod is the HTTP method of a pending call that sends a
// request (Pkg set: a client's or transport's method): the one its name
// says, or the request argument's, read by method(i) for argument i.
func (p Pending) requestMethod(method func(i int) Str) (Str, bool) {
	if p.Pkg == "" || p.Op != OpCallMethod {
		return Str{}, false
	}
	if m, ok := methodOfName(p.Name); ok {
		return m, true
	}
	switch p.Name {
	case "Do", "RoundTrip":
		for i, a := range p.Args {
			if a.Handle == handleReqURL {
				return method(i), true
			}
		}
	}
	return Str{}, false
}

// relocate places what a pending method call resolved to at the call's
// own site (in the callee that made it), reached through the pending
// site's chain, rather than at the caller's call that resolved it.
func relocate(sub *collector, at Position, p Pending) *collector {
	out := newCollector()
	move := func(pos Position, via []Position) (Position, []Position) {
		switch {
		case len(via) == 0 && pos == at:
			return p.Pos, slices.Clone(p.Via)
		case len(via) > 0 && via[0] == at:
			return pos, append(append(slices.Clone(p.Via), p.Pos), via[1:]...)
		}
		return pos, via
	}
	for _, eff := range sub.effects {
		c := *eff
		c.Pos, c.Via = move(c.Pos, c.Via)
		out.add(c)
	}
	for _, q := range sub.pending {
		c := *q
		c.Pos, c.Via = move(c.Pos, c.Via)
		out.addPending(c)
	}
	out.overflow = sub.overflow
	return out
}

// passArgs rewrites the recorded arguments of a pending call in the terms
// of the caller's parameters. A function or interface value the caller
// made itself counts as handed over here.
func (e *Engine) passArgs(args []Arg, ctx *instCtx, pos token.Pos, fr *frame, out *collector) []Arg {
	outArgs := make([]Arg, len(args))
	sub := e.subFor(ctx)
	for i, a := range args {
		if a.Param > 0 {
			b, ok := ctx.param(a.Param - 1)
			if idx, isParam := rootParam(follow(b)); ok && isParam {
				outArgs[i] = Arg{Handle: handleNone, Param: idx + 1}
				continue
			}
			if ok {
				e.handOffValue(b, nil, pos, fr, out, callFlags{})
			}
			outArgs[i] = Arg{Handle: handleNone}
			continue
		}
		outArgs[i] = Arg{Handle: a.Handle, Str: a.Str.subst(sub), Method: a.Method.subst(sub)}
	}
	return outArgs
}

// fix is the fix of an unresolved pending call.
func (p *Pending) fix() string {
	if p.Fix != "" {
		return p.Fix
	}
	return dynamicFix
}

// mergeResolved adds what a pending call resolved to, keeping the hatches
// that covered it and marking work that may outlive the call.
func (e *Engine) mergeResolved(p Pending, sub *collector, pos token.Pos, out *collector) {
	res := newCollector()
	for _, eff := range sub.effects {
		if eff.Kind == Unprovable && p.Discharged {
			continue
		}
		if eff.Kind == CrossTenant && p.Scoped {
			continue
		}
		res.add(*eff)
	}
	for _, q := range sub.pending {
		q.Discharged = q.Discharged || p.Discharged
		q.Scoped = q.Scoped || p.Scoped
		res.addPending(*q)
	}
	res.overflow = sub.overflow
	if p.Detach && hasWork(res) {
		out.add(Effect{Kind: Detached, Reason: "hands a function or value to code that may run it after the call returns", Pos: p.Pos, Via: p.Via, Module: p.Module})
	}
	out.merge(res)
}

// emit adds a pending site, or resolves it when it no longer depends on
// parameters.
func (e *Engine) emit(p Pending, out *collector) {
	if e.scopedStmt > 0 {
		p.Scoped = true
	}
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
			switch p.Op {
			case OpCallMethod:
				if p.ShapeArg > 0 && p.ShapeArg <= len(p.Args) {
					q := Pending{Op: OpSQL, Text: p.Args[p.ShapeArg-1].Str.subst(unknown), Pos: p.Pos, Via: p.Via, Module: p.Module, Discharged: p.Discharged, Scoped: p.Scoped}
					for _, eff := range e.resolve(q) {
						out.add(eff)
					}
					continue
				}
				if !p.Discharged && p.Reason != "" {
					eff := Effect{Kind: Unprovable, Reason: p.Reason, Fix: p.fix(), Pos: p.Pos, Via: p.Via, Module: p.Module, Egress: p.Pkg != "", Pkg: p.Pkg, Slot: p.Slot}
					if m, isReq := p.requestMethod(func(i int) Str { return p.Args[i].Method.subst(unknown) }); isReq {
						eff.Method = constantMethod(m)
					}
					out.add(eff)
				}
			case OpCallParam:
				if !p.Discharged {
					if p.Elem {
						out.add(Effect{Kind: Unprovable, Reason: "calls the functions of a slice parameter, which the analysis cannot see",
							Fix: "declare the statement with //agent:effect", Pos: p.Pos, Via: p.Via, Module: p.Module})
						continue
					}
					if len(p.Fields) > 0 {
						// A function kept in a field of what the handler
						// was handed (its receiver's hook).
						out.add(Effect{Kind: Unprovable, Reason: "calls a function value the analysis cannot resolve",
							Fix: "call the function directly, or declare the statement with //agent:effect", Pos: p.Pos, Via: p.Via, Module: p.Module, Slot: p.Slot})
						continue
					}
					out.add(Effect{Kind: Unprovable, Reason: "calls a function-valued parameter, whose callee the analysis cannot see",
						Fix: "declare the statement with //agent:effect", Pos: p.Pos, Via: p.Via, Module: p.Module})
				}
			case OpTxEnqueue:
				// The handler itself runs outside any transaction.
			case OpDetachIf:
				// Stored into what the handler was handed: it outlives
				// the request.
				out.add(Effect{Kind: Detached, Reason: storedReason, Pos: p.Pos, Via: p.Via, Module: p.Module})
			default:
				p.Text = p.Text.subst(unknown)
				p.Method = p.Method.subst(unknown)
				for _, eff := range e.resolve(p) {
					out.add(eff)
				}
			}
		}
	}
	if out.overflow {
		out.add(Effect{Kind: Unprovable, Reason: fmt.Sprintf("reaches more than %d effect sites, past the analysis bound", maxCollect),
			Fix: "split the handler, or declare what its calls do with //agent:effect", Module: module})
	}
	effs := out.sorted().Effects
	if e.Opts.Client != nil {
		for i := range effs {
			eff := &effs[i]
			if eff.Kind != Unprovable || !eff.Egress {
				continue
			}
			if prefix := e.Opts.Client(eff.Pkg); prefix != "" {
				// A configured SDK client: the URL it cannot read goes
				// under the declared prefix; the method stays as proved.
				subject := prefix
				if strings.HasPrefix(eff.Subject, "/") {
					// the path the SDK proves, under the declared base URL
					subject = strings.TrimSuffix(prefix, "/") + eff.Subject
				}
				eff.Kind, eff.Subject, eff.Reason, eff.Fix, eff.Provenance, eff.Egress = Outbound, subject, "", "", Declared, false
			}
		}
	}
	return unsafeSideWins(effs)
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

// promotedKeys names a method call by the outer types its receiver was
// selected through as an embedded field, as authvet.yaml may name it:
// rdb.LPush on a *redis.Client calls cmdable.LPush on the embedded
// field, configured as "pkgpath.Client.LPush".
func promotedKeys(obj *types.Func, recv binding) []string {
	var keys []string
	v := recv.v
	for n := 0; v != nil && n < maxFieldPath; n++ {
		var outer types.Type
		var field *types.Var
		switch x := v.(type) {
		case *ssa.Field:
			outer, field, v = x.X.Type(), fieldVar(x.X.Type(), x.Field), x.X
		case *ssa.FieldAddr:
			outer, field, v = x.X.Type(), fieldVar(x.X.Type(), x.Field), x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return keys
			}
			v = x.X
			continue
		default:
			return keys
		}
		if field == nil || !field.Embedded() {
			return keys
		}
		if q := qualifiedName(outer); q != "" {
			keys = append(keys, q+"."+obj.Name())
		}
	}
	return keys
}

// fieldVar is field i of the struct t (or *t) is, or nil.
func fieldVar(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}

// funcKey is FuncKey, cached for the engine's life: the walk asks for
// the key of every callee it meets, to look it up among the models.
func (e *Engine) funcKey(obj *types.Func) string {
	if k, ok := e.funcKeys[obj]; ok {
		return k
	}
	if e.funcKeys == nil {
		e.funcKeys = map[*types.Func]string{}
	}
	k := FuncKey(obj)
	e.funcKeys[obj] = k
	return k
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

// configuredSink is a sink from authvet.yaml: the configured effect
// stands for everything the function does.
func (e *Engine) configuredSink(s Sink, c *callSite) {
	if s.Effect == "none" {
		return // declared effect-free: the configuration stands for the body
	}
	op := OpSubject
	switch s.Effect {
	case Write:
		op = OpSQL
	case Outbound:
		op = OpURL
		if strings.HasPrefix(s.Subject, urlprefix.GRPCPrefix) || strings.HasPrefix(s.Subject, urlprefix.AliasPrefix) {
			op = OpSubject // a gRPC method or an alias, compared as written
		}
	}
	p := Pending{Op: op, Kind: s.Effect, Safe: s.Safe}
	if s.Method != "" {
		p.Method = litStr(s.Method)
	}
	if s.SubjectArg < 0 {
		p.Text, p.Prov = litStr(s.Subject), Declared
	} else {
		i := s.SubjectArg
		if c.fn.Signature().Recv() != nil {
			i++
		}
		// A string, or handed as any a string or a function whose
		// name is the subject (a Temporal workflow).
		p.Text = c.workflowName(i)
	}
	c.emit(p)
	// An in-house queue that takes no transaction handle cannot join the
	// transaction it is called in.
	if s.Effect == Job {
		for i := 0; i < c.fn.Signature().Params().Len(); i++ {
			if lib().txHandles[qualifiedName(c.fn.Signature().Params().At(i).Type())] {
				return
			}
		}
		e.checkTxEnqueue(c, FuncKey(c.fn), "")
	}
}

// deeper enters one level of the engine's recursion; it reports false
// past maxTrace, where the caller must stop (and fail closed).
func (e *Engine) deeper() bool {
	if e.depth > maxTrace {
		return false
	}
	e.depth++
	return true
}

func (e *Engine) shallower() { e.depth-- }

// boundHit is the unprovable site of a walk cut by the engine's bounds.
func (e *Engine) boundHit(pos token.Pos, fr *frame) Effect {
	// A bound hit where the walk has no position (the first, synthetic,
	// instruction of a block) is placed at the nearest function that
	// has one, never at no position at all.
	for f := fr; !pos.IsValid() && f != nil; f = f.parent {
		if f.fn != nil {
			pos = f.fn.Pos()
		}
	}
	if e.budget < 0 {
		return e.unprovable(pos, fmt.Sprintf("reaches code past the analysis budget (%d units of work for one function)", maxWork),
			"split the function, or declare what the call does with //agent:effect")
	}
	return e.unprovable(pos, fmt.Sprintf("reaches code past the analysis bounds (calls nested deeper than %d)", maxDepth),
		"declare what the call does with //agent:effect")
}

// requestShaped reports whether a signature takes a request: net/http's,
// an MCP tool call's, or a web framework's context.
func requestShaped(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if a, ok := t.(*types.Alias); ok && a.Obj().Name() == "CallToolRequest" {
			return true // go-sdk: an alias of ServerRequest[*CallToolParamsRaw]
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.Obj().Pkg() == nil {
			continue
		}
		path, name := n.Obj().Pkg().Path(), n.Obj().Name()
		switch {
		case path == httpPath && name == "Request",
			name == "CallToolRequest", name == "ServerRequest" && strings.Contains(path, "modelcontextprotocol"),
			name == "Context" && (strings.Contains(path, "gin-gonic/gin") || strings.Contains(path, "labstack/echo") || strings.Contains(path, "gofiber/fiber")):
			return true
		}
	}
	return false
}

// ifaceModel runs the model of method name of a modelled interface b's
// static type (pgx.Tx handed as a repository's DBTX): the model, not the
// values a library made behind it, says what the call does.
func (e *Engine) ifaceModel(b binding, name string, args []binding, pos token.Pos, fr *frame, out *collector) bool {
	b = follow(b)
	if !b.live() || !types.IsInterface(b.v.Type()) {
		return false
	}
	for i := 0; i < 4; i++ {
		if lib().ifaceModels[qualifiedName(b.v.Type())+"."+name] != nil {
			break
		}
		if ci, ok := b.v.(*ssa.ChangeInterface); ok { // var db DBTX = tx
			b.v = ci.X
		} else if ct, ok := b.v.(*ssa.ChangeType); ok && types.IsInterface(ct.X.Type()) {
			b.v = ct.X // an interface of the same method set (pgx.Row as interface{ Scan(...any) error })
		} else {
			break
		}
	}
	md := lib().ifaceModels[qualifiedName(b.v.Type())+"."+name]
	if md == nil {
		if t := qualifiedName(b.v.Type()); t != "" && lib().readerInterface(t) {
			// A library's result reader (a pgx.Row handed to a helper as
			// interface{ Scan(...any) error }): it only reads.
			if m := lookupMethod(b.v.Type(), name); m != nil {
				if libraryMade(b.v) {
					// The library's own reader: what it is handed still
					// counts (a destination's Scan).
					e.handOff(m, args, pos, fr, out)
				} else {
					e.benignUnresolved(b.v.Type(), m, b, args, pos, fr, out)
				}
				return true
			}
		}
		return false // before the method set: building one is dear
	}
	m := lookupMethod(b.v.Type(), name)
	if m == nil {
		return false
	}
	c := &callSite{e: e, fn: m, args: append([]binding{b}, args...), pos: pos, fr: fr, out: out}
	md(c)
	c.handOffContexts()
	return true
}

// libraryMade reports whether v is the result of a call into a modelled
// library (pool.QueryRow's pgx.Row), not a value of the program's.
func libraryMade(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	var obj *types.Func
	if call.Call.IsInvoke() {
		obj = call.Call.Method
	} else {
		obj = funcObject(call.Call.StaticCallee())
	}
	return obj != nil && obj.Pkg() != nil && lib().modelled(obj.Pkg().Path())
}

// maxMethodInline bounds how many methods walked inline for their
// receiver's fields may nest: past it, a method is called through its
// summary, whose sites on the receiver's fields stay pending for the
// caller to resolve. Without the bound a package whose methods call one
// another on one receiver (a server's connection handling) walks its
// whole call tree inline from every function that builds a receiver.
const maxMethodInline = 2

// methodsInlined counts the named methods walked inline on fr's chain.
func methodsInlined(fr *frame) int {
	n := 0
	for f := fr; f != nil && f.parent != nil; f = f.parent {
		if f.fn.Parent() == nil && f.fn.Signature.Recv() != nil {
			n++
		}
	}
	return n
}

// madeByCtorHelper reports whether cl is a literal a handler
// constructor's helper made, read back in the constructor (h :=
// newHandlers(db); mux.HandleFunc(p, h.Create)): the constructor's walk
// counted it as called where it called the helper (ctorHelper), so it is
// not walked again. A frame that makes no handlers (a handler's own
// body: logMW(h).ServeHTTP(w, r)) did not walk the helper as one, so
// there the literal is walked where it is called.
func madeByCtorHelper(cl callable, fr *frame) bool {
	if !fr.ctor || cl.fr == nil || cl.fr.helper || cl.fr.parent == nil || !cl.fr.parent.makesHandlers() {
		return false
	}
	if _, ok := cl.value.(*ssa.MakeClosure); !ok {
		return false
	}
	parent := cl.fn.Parent()
	return parent != nil && parent.Parent() == nil && cl.fr.fn == parent && ctorHelper(parent)
}
