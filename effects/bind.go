package effects

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// handleNone marks an Arg that carries no trace.
const handleNone uint8 = 255

// binding is what a parameter of a frame, or an argument of a call, is
// bound to: a value with the frame it must be evaluated in, or, for an
// argument of an interface call that a callee's summary left pending, the
// recorded Arg together with the instantiation that gives its parameter
// parts their values.
type binding struct {
	v   ssa.Value
	fr  *frame
	sym *Arg
	ctx *instCtx
}

func (b binding) live() bool { return b.v != nil }

// instCtx is one instantiation of a summary at a call: the bindings of
// the callee's parameters (receiver first), and, for the Returned part of
// a summary, of the returned function value's own parameters.
type instCtx struct {
	args []binding
	ret  []binding
	// targs are the type arguments of the instance called, when the
	// summary is a generic body's (another package's generic).
	targs []types.Type
}

// param returns the binding of parameter i (0-based; from retBase, of the
// returned value).
func (c *instCtx) param(i int) (binding, bool) {
	if c == nil {
		return binding{}, false
	}
	if i >= retBase {
		i -= retBase
		if i >= 0 && i < len(c.ret) {
			return c.ret[i], true
		}
		return binding{}, false
	}
	if i >= 0 && i < len(c.args) {
		return c.args[i], true
	}
	return binding{}, false
}

// sub evaluates a parameter part of a callee's symbolic string.
func (e *Engine) subFor(c *instCtx) func(Part) Str {
	return func(p Part) Str {
		if p.Handle == handleTypeArg {
			return e.typeArgMethod(c, p.Param-1, p.Lit)
		}
		b, ok := c.param(p.Param - 1)
		if !ok {
			return unknownStr()
		}
		if p.Handle == handleMethod {
			return e.methodResultB(b, p.Lit)
		}
		return e.traceB(b, p.Handle)
	}
}

// traceB traces a binding as trace does a value.
func (e *Engine) traceB(b binding, h uint8) Str {
	switch {
	case b.live():
		return e.trace(b.v, b.fr, h)
	case b.sym == nil:
		return unknownStr()
	case b.sym.Param > 0:
		if pb, ok := b.ctx.param(b.sym.Param - 1); ok {
			return e.traceB(pb, h)
		}
	case b.sym.Handle == h:
		return b.sym.Str.subst(e.subFor(b.ctx))
	case h == handleReqMethod && b.sym.Handle == handleReqURL:
		return b.sym.Method.subst(e.subFor(b.ctx))
	}
	return unknownStr()
}

// methodResultB is methodResult on a binding.
func (e *Engine) methodResultB(b binding, name string) Str {
	switch {
	case b.live():
		return e.methodResult(b.v, b.fr, name)
	case b.sym != nil && b.sym.Param > 0:
		if pb, ok := b.ctx.param(b.sym.Param - 1); ok {
			return e.methodResultB(pb, name)
		}
	}
	return unknownStr()
}

// follow resolves a symbolic binding that stands for a parameter of the
// callee to the caller's binding, as far as it goes.
func follow(b binding) binding {
	for i := 0; i < 64 && !b.live() && b.sym != nil && b.sym.Param > 0; i++ {
		pb, ok := b.ctx.param(b.sym.Param - 1)
		if !ok {
			return binding{}
		}
		b = pb
	}
	return b
}

// unfree follows a closure's captured variable to the value it was
// bound to where the closure was made, as far as the frames say.
func unfree(b binding) binding {
	for i := 0; i < 16 && b.fr != nil; i++ {
		fv, ok := b.v.(*ssa.FreeVar)
		if !ok {
			break
		}
		j := slices.Index(b.fr.fn.FreeVars, fv)
		if j < 0 || j >= len(b.fr.free) || !b.fr.free[j].live() {
			break
		}
		b = b.fr.free[j]
	}
	return b
}

// bindingType is the static type of what b stands for, or nil.
func bindingType(b binding) types.Type {
	if b = follow(b); b.live() {
		return b.v.Type()
	}
	return nil
}

func bind(vs []ssa.Value, fr *frame) []binding {
	bs := make([]binding, len(vs))
	for i, v := range vs {
		bs[i] = binding{v: v, fr: fr}
	}
	return bs
}

// boundArg follows a parameter of a function walked inline to the
// argument it is bound to, through nested calls.
func boundArg(d binding) binding {
	for i := 0; i < 16; i++ {
		p, isParam := d.v.(*ssa.Parameter)
		if !isParam || d.fr == nil {
			break
		}
		pb, ok := d.fr.param(paramIndex(d.fr.fn, p))
		if !ok {
			break
		}
		d = follow(pb)
	}
	return d
}

// param returns the binding of parameter idx of the frame, if bound.
func (fr *frame) param(idx int) (binding, bool) {
	if idx < 0 || fr.args == nil || idx >= len(fr.args) {
		return binding{}, false
	}
	return fr.args[idx], true
}

// rootParam reports whether b is still a parameter of the function being
// summarised (its root frame, or the root of a returned function value),
// and which: the caller resolves it.
func rootParam(b binding) (int, bool) {
	q, ok := b.v.(*ssa.Parameter)
	if !ok || b.fr == nil || b.fr.args != nil || !(b.fr.root || b.fr.retParams) {
		return 0, false
	}
	idx := paramIndex(b.fr.fn, q)
	if idx < 0 {
		return 0, false
	}
	if b.fr.retParams {
		idx += retBase
	}
	return idx, true
}

// recordArg records an argument of an interface call whose callee is
// not known here, for a caller that may know it: its trace as the models
// will ask for it, or the parameter it is.
func (e *Engine) recordArg(b binding) Arg {
	if idx, ok := rootParam(b); ok {
		switch b.v.Type().Underlying().(type) {
		case *types.Signature, *types.Interface:
			return Arg{Handle: handleNone, Param: idx + 1}
		}
		if _, ok := b.v.Type().(*types.TypeParam); ok {
			return Arg{Handle: handleNone, Param: idx + 1}
		}
	}
	t := bindingType(b)
	if t == nil {
		return Arg{Handle: handleNone}
	}
	h := traceHandle(t)
	if h == handleNone {
		return Arg{Handle: handleNone}
	}
	a := Arg{Handle: h, Str: e.traceB(b, h)}
	if h == handleReqURL {
		a.Method = e.traceB(b, handleReqMethod)
	}
	return a
}

// traceHandle is how a value of type t is traced for the models: a
// string, a request, a prepared statement, River job args, an asynq task.
func traceHandle(t types.Type) uint8 {
	if isString(t) || isBytes(t) {
		return handleString
	}
	switch qualifiedName(t) {
	case "net/http.Request":
		return handleReqURL
	case "database/sql.Stmt", sqlxPath + ".Stmt", sqlxPath + ".NamedStmt":
		return handleStmt
	case asynqPath + ".Task":
		return handleTask
	case riverPath + ".JobArgs":
		return handleJobArgs
	}
	if types.IsInterface(t) {
		if it, ok := t.Underlying().(*types.Interface); ok && hasKindMethod(it) {
			return handleJobArgs
		}
	}
	return handleNone
}

func hasKindMethod(it *types.Interface) bool {
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i)
		if m.Name() == "Kind" && m.Signature().Params().Len() == 0 && m.Signature().Results().Len() == 1 && isString(m.Signature().Results().At(0).Type()) {
			return true
		}
	}
	return false
}

// symArgs turns the recorded arguments of a pending call into bindings
// evaluated through ctx.
func symArgs(args []Arg, ctx *instCtx) []binding {
	bs := make([]binding, len(args))
	for i := range args {
		bs[i] = binding{sym: &args[i], ctx: ctx}
	}
	return bs
}
