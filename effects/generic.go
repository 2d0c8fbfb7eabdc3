package effects

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A generic function of another package is summarised once, from its
// generic body: a method it calls on a value of a type parameter that is
// not one of its parameters (var zero T; zero.Table()), and the constant
// a method of a type parameter returns, are left to each instance, whose
// type arguments say which method it is (typeArgBase, handleTypeArg).
// A generic of the package being analysed is walked per instance and
// never needs them.

// typeArgBase, added to a type parameter's index, is Pending.Param for a
// method called on a value of that type parameter (OpCallMethod).
const typeArgBase = 2000

// typeParamOf reports the index of t's type parameter when t is a type
// parameter of fn's generic signature (its own, or its receiver's).
func typeParamOf(t types.Type, fn *ssa.Function) (int, bool) {
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok || fn == nil {
		return 0, false
	}
	if ta := fn.TypeArgs(); len(ta) > 0 {
		// An instance over another generic's type parameters
		// (helper[T] called from a generic body): its type argument j.
		for j, a := range ta {
			if a == t {
				return j, true
			}
		}
		return 0, false
	}
	// (An SSA function's type parameters: a generic function's own, or
	// those of a generic type's method's receiver.)
	if list := fn.TypeParams(); list != nil && tp.Index() < list.Len() && list.At(tp.Index()) == tp {
		return tp.Index(), true
	}
	return 0, false
}

// typeArgsOf are the type arguments of the instance fn (or obj, an
// instantiated method) a call reaches, or nil.
func typeArgsOf(obj *types.Func, fn *ssa.Function) []types.Type {
	if fn != nil {
		if ta := fn.TypeArgs(); len(ta) > 0 {
			return ta
		}
	}
	if obj == nil {
		return nil
	}
	recv := obj.Signature().Recv()
	if recv == nil || obj.Signature().RecvTypeParams().Len() > 0 {
		return nil // (the generic declaration: over its own parameters)
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 {
		return nil
	}
	out := make([]types.Type, n.TypeArgs().Len())
	for i := range out {
		out[i] = n.TypeArgs().At(i)
	}
	return out
}

// typeArgMethod evaluates the constant result of method name of type
// argument k of the instance c calls: a type parameter of the generic
// body being summarised stays symbolic, for its own instances.
func (e *Engine) typeArgMethod(c *instCtx, k int, name string) Str {
	if c == nil || k < 0 || k >= len(c.targs) {
		return unknownStr()
	}
	t := c.targs[k]
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		return Str{Alts: [][]Part{{{Param: tp.Index() + 1, Handle: handleTypeArg, Lit: name}}}}
	}
	if types.IsInterface(t) {
		return unknownStr()
	}
	if s, ok := e.methodConst(t, name); ok {
		return litStr(s)
	}
	return unknownStr()
}

// typeArgString is the symbolic result of method name on a value of a
// type parameter of the generic body fr summarises, if it is one.
func typeArgString(t types.Type, fr *frame, name string) (Str, bool) {
	k, ok := rootTypeParam(t, fr)
	if !ok {
		return Str{}, false
	}
	return Str{Alts: [][]Part{{{Param: k + 1, Handle: handleTypeArg, Lit: name}}}}, true
}

// resolveTypeArgMethod resolves a generic body's call of method p.Name on
// a value of its type parameter p.Param-typeArgBase: on the instance's
// type argument, with a receiver the caller cannot see (the body made
// it). A type parameter of the generic body being summarised passes the
// question on; an interface, or no type argument, is the call's
// unprovable site.
func (e *Engine) resolveTypeArgMethod(p Pending, ctx *instCtx, pos token.Pos, fr *frame, out *collector) {
	k := p.Param - typeArgBase
	var t types.Type
	if ctx != nil && k >= 0 && k < len(ctx.targs) {
		t = ctx.targs[k]
	}

	if t != nil {
		if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
			if j, ok := rootTypeParam(tp, fr); ok {
				p.Param = typeArgBase + j
				p.Args = e.passArgs(p.Args, ctx, pos, fr, out)
				out.addPending(p)
				return
			}
		}
	}
	sub := newCollector()
	if p.InTx {
		fr = txFrame(fr)
	}
	if obj, fn := e.typeArgMethodOf(t, p.Name); obj != nil {
		args := append([]binding{{}}, symArgs(p.Args, ctx)...)
		e.callObjOrWrapper(obj, fn, args, pos, fr, sub)
		sub = relocate(sub, e.pos(pos), p)
	} else if p.Reason != "" {
		u := e.unprovable(pos, p.Reason, p.fix())
		u.Pos, u.Via, u.Module, u.Slot = p.Pos, p.Via, p.Module, p.Slot
		sub.add(u)
	}
	e.mergeResolved(p, sub, pos, out)
}

// typeArgMethodOf finds method name of a concrete type argument t.
func (e *Engine) typeArgMethodOf(t types.Type, name string) (*types.Func, *ssa.Function) {
	if t == nil || types.IsInterface(t) || e.Prog == nil {
		return nil, nil
	}
	return e.methodOf(t, name)
}

// rootTypeParam reports the index of t's type parameter when t is one of
// the generic body the walk summarises (the root of fr), following it up
// the frames: a generic body walked for an instance's wrapper stands for
// the instance's type arguments, and a method of the same generic type
// called on the receiver's type (r.table() in Repository[T].DeleteByID)
// for the caller's receiver type parameters, index for index.
func rootTypeParam(t types.Type, fr *frame) (int, bool) {
	cur := t
	for f := fr; f != nil; f = f.parent {
		if f.parent == nil {
			if !f.root {
				return 0, false
			}
			return typeParamOf(cur, f.fn)
		}
		k, ok := typeParamOf(cur, f.fn)
		if !ok || len(f.fn.TypeArgs()) > 0 {
			continue // not the frame's, or already in its caller's terms
		}
		p := f.parent.fn
		switch {
		case f.fn.Parent() != nil && f.fn.TypeParams() == p.TypeParams():
			// A function literal of the generic body (the iterator it
			// returns): the body's own type parameters.
		case p.Origin() == f.fn && k < len(p.TypeArgs()):
			cur = p.TypeArgs()[k]
		case recvNamed(f.fn) != nil && recvNamed(f.fn) == recvNamed(p) && len(p.TypeArgs()) == 0 && k < p.Signature.RecvTypeParams().Len():
			cur = p.Signature.RecvTypeParams().At(k)
		default:
			return 0, false
		}
	}
	return 0, false
}

// localTypeArgs are the type arguments of a call of fn, a function of the
// package, for its summary: an instance's own; for a generic body called
// as itself (a method of the same generic type, on the receiver's type),
// the root's receiver type parameters, index for index.
func localTypeArgs(obj *types.Func, fn *ssa.Function, fr *frame) []types.Type {
	if ta := typeArgsOf(obj, fn); len(ta) > 0 {
		return ta
	}
	if fn != nil && fr != nil && fr.fn.Origin() == fn {
		// An instance's wrapper calling its generic body.
		return fr.fn.TypeArgs()
	}
	if fn == nil || fn.Signature.RecvTypeParams().Len() == 0 {
		return nil
	}
	root := fr
	for root != nil && root.parent != nil {
		root = root.parent
	}
	if root == nil || !root.root || len(root.fn.TypeArgs()) > 0 {
		return nil
	}
	rl := root.fn.Signature.RecvTypeParams()
	if rl == nil || rl.Len() != fn.Signature.RecvTypeParams().Len() || recvNamed(root.fn) != recvNamed(fn) {
		return nil
	}
	out := make([]types.Type, rl.Len())
	for i := range out {
		out[i] = rl.At(i)
	}
	return out
}

// recvNamed is the generic named type fn is a method of, or nil.
func recvNamed(fn *ssa.Function) *types.Named {
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	rt := recv.Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	if n, ok := types.Unalias(rt).(*types.Named); ok {
		return n.Origin()
	}
	return nil
}

// HandlerMaker reports whether sig is a handler adapter or middleware's:
// it returns a handler and takes a function or an interface value, which
// the handler it returns may call (adapt.Query(f), mw.Logger(next)). A
// package that declares one is analysed: the caller's handler is what
// the returned one calls, not work kept for later.
func HandlerMaker(sig *types.Signature) bool {
	if !returnsHandler(sig) || requestShaped(sig) {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		switch sig.Params().At(i).Type().Underlying().(type) {
		case *types.Signature, *types.Interface:
			return true
		}
	}
	return false
}
