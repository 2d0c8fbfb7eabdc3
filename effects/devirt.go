package effects

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// target is a concrete value an interface value may hold.
type target struct {
	x  ssa.Value // the concrete value (the MakeInterface operand)
	fr *frame
	// std: the value was made by a call into the standard library or a
	// modelled library, whose methods are modelled, not analysed; wrapped
	// are the function values that call was handed.
	std     bool
	wrapped []binding
}

// maxTargets bounds the concrete values one interface call resolves to.
const maxTargets = 8

// devirtualize resolves a call through an interface when the analysis can
// see every concrete value the interface holds, in this package: a
// conversion in the same function or in a helper of the package that
// returns it (middleware: logged(h).ServeHTTP), through phis, locals and
// bound parameters, or a value the standard library made. It reports
// whether it did.
func (e *Engine) devirtualize(c *ssa.CallCommon, pos token.Pos, fr *frame, out *collector) bool {
	if e.Prog == nil {
		return false
	}
	var ts []target
	if !e.concretes(c.Value, fr, 0, &ts) || len(ts) == 0 || len(ts) > maxTargets {
		return false
	}
	// Resolve every target before adding anything: one unreadable target
	// leaves the call unprovable as a whole.
	type call struct {
		fn *ssa.Function
		t  target
	}
	var calls []call
	for _, t := range ts {
		if t.std {
			calls = append(calls, call{t: t})
			continue
		}
		sel := e.Prog.MethodSets.MethodSet(t.x.Type()).Lookup(c.Method.Pkg(), c.Method.Name())
		if sel == nil {
			return false
		}
		fn := e.Prog.MethodValue(sel)
		if fn == nil {
			return false
		}
		calls = append(calls, call{fn: fn, t: t})
	}
	for _, cl := range calls {
		if cl.t.std {
			for _, w := range cl.t.wrapped {
				e.callArg(w.v, pos, w.fr, out)
			}
			e.funcArgs(c.Args, pos, fr, out)
			continue
		}
		if cl.t.fr == fr {
			e.callStatic(cl.fn, cl.fn, append([]ssa.Value{cl.t.x}, c.Args...), pos, fr, out)
			continue
		}
		e.callBound(cl.fn, append([]binding{{cl.t.x, cl.t.fr}}, bind(c.Args, fr)...), pos, fr, out)
	}
	return true
}

// callBound calls fn with arguments that live in different frames (a
// receiver made in a helper, the rest here).
func (e *Engine) callBound(fn *ssa.Function, bs []binding, pos token.Pos, fr *frame, out *collector) {
	obj := funcObject(fn)
	switch {
	case obj == nil || obj.Pkg() == nil:
	case obj.Pkg() == e.Pkg && len(fn.Blocks) > 0:
		e.inline(fn, bs, nil, pos, fr, out)
	case e.Analysed != nil && e.Analysed(obj.Pkg()) && !isModelled(obj.Pkg().Path()) && e.Import != nil:
		sub := func(p Part) Str {
			i := p.Param - 1
			if i >= len(bs) {
				return unknownStr()
			}
			if p.Handle == handleMethod {
				return e.methodResult(bs[i].v, bs[i].fr, p.Lit)
			}
			return e.trace(bs[i].v, bs[i].fr, p.Handle)
		}
		e.instantiateWith(e.Import(obj), pos, out, sub, func(p Pending, out *collector) {
			if p.Param < len(bs) {
				e.callArg(bs[p.Param].v, pos, bs[p.Param].fr, out)
			}
		})
	default:
		for _, b := range bs {
			if _, ok := b.v.Type().Underlying().(*types.Signature); ok {
				e.callArg(b.v, pos, b.fr, out)
			}
		}
	}
}

// concretes collects the concrete values v may hold; it reports false
// when some path leads somewhere the analysis cannot follow.
func (e *Engine) concretes(v ssa.Value, fr *frame, depth int, out *[]target) bool {
	if depth > 16 || len(*out) > maxTargets {
		return false
	}
	if !e.enter(v, fr) {
		return e.depth <= maxTrace // a cycle adds no value
	}
	defer e.leave(v, fr)
	switch v := v.(type) {
	case *ssa.MakeInterface:
		if types.IsInterface(v.X.Type()) {
			return e.concretes(v.X, fr, depth+1, out)
		}
		*out = append(*out, target{x: v.X, fr: fr})
		return true
	case *ssa.ChangeInterface:
		return e.concretes(v.X, fr, depth+1, out)
	case *ssa.Phi:
		for _, ed := range v.Edges {
			if !e.concretes(ed, fr, depth+1, out) {
				return false
			}
		}
		return true
	case *ssa.Parameter:
		if idx := paramIndex(fr.fn, v); idx >= 0 && fr.args != nil && idx < len(fr.args) {
			return e.concretes(fr.args[idx].v, fr.args[idx].fr, depth+1, out)
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) {
				return e.concretes(fr.free[i].v, fr.free[i].fr, depth+1, out)
			}
		}
	case *ssa.Field:
		return e.concretesOf(e.fieldValues(v, fr))(depth, out)
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		if _, isField := v.X.(*ssa.FieldAddr); isField {
			return e.concretesOf(e.fieldValues(v, fr))(depth, out)
		}
		stores := storedValues(v.X, fr)
		if len(stores) == 0 {
			return false
		}
		for _, b := range stores {
			if !e.concretes(b.v, b.fr, depth+1, out) {
				return false
			}
		}
		return true
	case *ssa.Call:
		return e.concreteResult(v, 0, fr, depth, out)
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			return e.concreteResult(call, v.Index, fr, depth, out)
		}
	}
	return false
}

// concretesOf collects the concretes of each of bs, if ok.
func (e *Engine) concretesOf(bs []binding, ok bool) func(depth int, out *[]target) bool {
	return func(depth int, out *[]target) bool {
		if !ok {
			return false
		}
		for _, b := range bs {
			if !e.concretes(b.v, b.fr, depth+1, out) {
				return false
			}
		}
		return true
	}
}

// concreteResult follows result i of a call: into the body of a function
// of the package, or to a value the standard library made.
func (e *Engine) concreteResult(call *ssa.Call, i int, fr *frame, depth int, out *[]target) bool {
	if call.Call.IsInvoke() {
		return false
	}
	if e.isStdCall(call) {
		t := target{std: true}
		for _, a := range call.Call.Args {
			switch a.Type().Underlying().(type) {
			case *types.Signature:
				t.wrapped = append(t.wrapped, binding{a, fr})
			case *types.Interface:
				// http.StripPrefix(p, h): the value calls h; accept it only
				// when h is itself the standard library's.
				var inner []target
				if !e.concretes(a, fr, depth+1, &inner) {
					return false
				}
				for _, it := range inner {
					if !it.std && !e.stdType(it.x.Type()) {
						return false
					}
				}
			}
		}
		*out = append(*out, t)
		return true
	}
	cf, rets := e.localReturns(call, fr)
	found := false
	for _, ret := range rets {
		if i < len(ret.Results) {
			if !e.concretes(ret.Results[i], cf, depth+1, out) {
				return false
			}
			found = true
		}
	}
	return found
}

// stdType reports whether t is a named type of a package the engine
// models rather than analyses (http.Dir, ...).
func (e *Engine) stdType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	pkg := n.Obj().Pkg()
	return pkg != e.Pkg && (e.Analysed == nil || !e.Analysed(pkg) || isModelled(pkg.Path()))
}

// fieldValues returns the values stored to a field of a struct built in
// the analysed code (a composite literal or a local variable), read as
// v: s.f on a struct value, or *(&p.f) through a pointer. It reports
// false when the struct is not one the analysis can see being built.
func (e *Engine) fieldValues(v ssa.Value, fr *frame) ([]binding, bool) {
	var out []binding
	ok := false
	switch v := v.(type) {
	case *ssa.Field:
		ok = fieldOf(v.X, v.Field, fr, 0, &out)
	case *ssa.UnOp:
		fa, isField := v.X.(*ssa.FieldAddr)
		if !isField || v.Op != token.MUL {
			return nil, false
		}
		if alloc, afr, found := allocOf(fa.X, fr, 0); found {
			ok = fieldOfAlloc(alloc, fa.Field, afr, 0, &out)
		}
	}
	return out, ok && len(out) > 0
}

// fieldOf collects field f of the struct value sv.
func fieldOf(sv ssa.Value, f int, fr *frame, depth int, out *[]binding) bool {
	alloc, afr, ok := allocOf(sv, fr, depth+1)
	return ok && fieldOfAlloc(alloc, f, afr, depth+1, out)
}

// fieldOfAlloc collects what is stored to field f of a local struct:
// through &alloc.f, or as part of a whole value stored to it. It reports
// false when the struct or the field's address escapes to code that could
// store to it unseen (a call, a pointer kept elsewhere).
func fieldOfAlloc(alloc *ssa.Alloc, f int, fr *frame, depth int, out *[]binding) bool {
	if depth > 16 {
		return false
	}
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			for _, r2 := range *r.Referrers() {
				switch r2 := r2.(type) {
				case *ssa.Store:
					if r2.Addr != r {
						return false // the field's address is stored away
					}
					if r.Field == f {
						*out = append(*out, binding{r2.Val, fr})
					}
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return false
				}
			}
		case *ssa.Store:
			if r.Addr != alloc {
				return false // the pointer is stored away
			}
			if !fieldOf(r.Val, f, fr, depth+1, out) {
				return false
			}
		case *ssa.UnOp, *ssa.MakeInterface, *ssa.DebugRef:
		default:
			return false // handed to a call, or kept: it may change unseen
		}
	}
	return true
}

// allocOf follows a pointer (or a loaded struct value) back, through
// bound parameters and free variables, to the local allocation it is.
func allocOf(v ssa.Value, fr *frame, depth int) (*ssa.Alloc, *frame, bool) {
	if depth > 16 {
		return nil, nil, false
	}
	switch v := v.(type) {
	case *ssa.Alloc:
		return v, fr, true
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if a, ok := v.X.(*ssa.Alloc); ok {
				return a, fr, true
			}
		}
	case *ssa.Parameter:
		if idx := paramIndex(fr.fn, v); idx >= 0 && fr.args != nil && idx < len(fr.args) {
			return allocOf(fr.args[idx].v, fr.args[idx].fr, depth+1)
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) {
				return allocOf(fr.free[i].v, fr.free[i].fr, depth+1)
			}
		}
	}
	return nil, nil, false
}
