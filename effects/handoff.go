package effects

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Values handed to code that is not walked (SPEC §4.1): the standard
// library, a modelled library's non-sink API, a package that reaches no
// sink of its own. A function value handed over counts as called there;
// an interface value whose concrete type the analysis sees counts as each
// method of that interface called on it. When the callee may run what it
// was handed after it returns, the work is also detached. Stored
// callbacks (a store, a channel send, a map update of a function or
// interface value into something that outlives the statement) are
// walked where they are stored, the same way.

// handOff hands args (receiver first for methods) to fn, a function that
// is not walked; fn is nil for a function value the standard library
// made (sync.OnceFunc's product), whose parameters are the args' own.
func (e *Engine) handOff(fn *types.Func, args []binding, pos token.Pos, fr *frame, out *collector) {
	var sig *types.Signature
	recv := 0
	if fn != nil {
		sig = fn.Signature()
		if sig.Recv() != nil {
			recv = 1
		}
	}
	for i, a := range args {
		var pt types.Type
		switch j := i - recv; {
		case sig == nil:
		case j < 0:
			pt = sig.Recv().Type() // a func type's method (http.HandlerFunc.ServeHTTP) calls it
		case j < sig.Params().Len():
			pt = sig.Params().At(j).Type()
		case sig.Variadic() && sig.Params().Len() > 0:
			pt = sig.Params().At(sig.Params().Len() - 1).Type()
		}
		fl := e.retainFlags(fn, i-recv, args)
		fl.protocol = protocolOf(fn)
		if t := bindingType(a); t != nil {
			if _, isFunc := t.Underlying().(*types.Signature); isFunc {
				fl.stdArgs = fn != nil && fn.Pkg() != nil && stdPath(fn.Pkg().Path()) && !othersHoldFuncs(args, i)
			}
		}
		e.handOffValue(a, pt, pos, fr, out, fl)
	}
}

// othersHoldFuncs reports whether an argument other than args[i] can
// hold a function value: a callee handed one may pass it on to the
// callback it calls.
func othersHoldFuncs(args []binding, i int) bool {
	for j, a := range args {
		if t := bindingType(a); j != i && (t == nil || holdsFuncs(t, map[types.Type]bool{}, 0)) {
			return true
		}
	}
	return false
}

// retainFlags says whether what fn is handed as parameter i may run after
// it returns: kept for good, or kept in the structure of another argument,
// which outlives the request if that argument does.
func (e *Engine) retainFlags(fn *types.Func, i int, args []binding) callFlags {
	if fn == nil {
		return callFlags{}
	}
	if e.retains(fn, i) {
		return callFlags{detach: true}
	}
	if k, ok := lib().keepsInRecv[FuncKey(fn)]; ok && (k < 0 || k == paramArg(fn, i)) && i >= 0 && len(args) > 0 {
		return e.storedInto(args[0])
	}
	if e.Retains == nil {
		return callFlags{}
	}
	long, into := e.Retains(fn, i)
	if long {
		return callFlags{detach: true}
	}
	var fl callFlags
	for _, k := range into {
		if k >= len(args) {
			return callFlags{detach: true}
		}
		switch f := e.storedInto(args[k]); {
		case f.detach:
			return f
		case f.detachIf > 0:
			fl.detachIf = f.detachIf
		}
	}
	return fl
}

// handOffValue hands one value over: pt is the parameter's declared type
// (nil: the value's own).
func (e *Engine) handOffValue(b binding, pt types.Type, pos token.Pos, fr *frame, out *collector, fl callFlags) {
	b = follow(b)
	if !b.live() {
		return
	}
	if c, ok := b.v.(*ssa.Const); ok && c.IsNil() {
		return
	}
	if pt == nil {
		pt = b.v.Type()
	}
	switch u := b.v.Type().Underlying().(type) {
	case *types.Signature:
		e.callArg(b, pos, fr, out, fl)
	case *types.Interface:
		e.handOffIface(b, pt, pos, fr, out, fl)
	case *types.Slice:
		// A variadic argument or a slice literal of callbacks or
		// interface values: each element the analysis sees; the elements
		// of a slice the caller handed are the caller's to resolve.
		it, isIface := u.Elem().Underlying().(*types.Interface)
		if isIface && e.followedIface(u.Elem()) {
			pf, isField := paramFieldOf(b.v, b.fr)
			if idx, isParam := rootParam(b); isParam {
				pf, isField = paramField{param: idx}, true
			}
			if isField {
				for _, name := range handedMethodNames(it) {
					out.addPending(Pending{Op: OpCallMethod, Param: pf.param, Fields: append(slices.Clone(pf.path), elemStep), Name: name, Detach: fl.detach, DetachIf: fl.detachIf, Pos: e.pos(pos), Module: e.Module})
				}
				if it.NumMethods() == 0 {
					// any: the callee may call the protocol methods
					// (String, MarshalJSON) of what the caller put there.
					for _, name := range fl.protocolMethods() {
						out.addPending(Pending{Op: OpCallMethod, Param: pf.param, Fields: append(slices.Clone(pf.path), elemStep), Name: name, Detach: fl.detach, DetachIf: fl.detachIf, Pos: e.pos(pos), Module: e.Module})
					}
				}
				return
			}
		}
		switch u.Elem().Underlying().(type) {
		case *types.Signature, *types.Interface:
			for _, el := range sliceElems(b.v) {
				e.handOffValue(binding{v: el, fr: b.fr}, u.Elem(), pos, fr, out, fl)
			}
		}
	default:
		if tp, ok := pt.(*types.TypeParam); ok {
			// A generic callee calls its constraint's methods on the value.
			if it, ok := tp.Constraint().Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
				e.callIfaceMethods(b.v.Type(), b, it, pos, fr, out, fl)
				return
			}
		}
		e.handOffFields(b, pos, fr, out, fl, 0)
	}
}

// handOffFields hands over the function and interface values a struct
// (or a pointer to one) holds in its fields (Options{Body: r, Less: f}):
// the callee may call them. Fields the analysis cannot see were set by
// someone else, and count where they are called.
func (e *Engine) handOffFields(b binding, pos token.Pos, fr *frame, out *collector, fl callFlags, depth int) {
	t := b.v.Type()
	ptr := false
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 2 {
		return
	}
	alloc, afr, ok := structAlloc(b, ptr)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		_, isStruct := ft.Underlying().(*types.Struct)
		if !callbackType(ft) && !isStruct && !isStructPtr(ft) {
			continue
		}
		var bs []binding
		if !fieldOfAllocAt(alloc, i, afr, 0, &bs, fr.cur) {
			continue
		}
		for _, x := range bs {
			if callbackType(ft) {
				e.handOffValue(x, ft, pos, fr, out, fl)
			} else {
				e.handOffFields(x, pos, fr, out, fl, depth+1)
			}
		}
	}
}

// structAlloc returns the local struct b is (ptr: points to), when the
// analysis sees where it is made.
func structAlloc(b binding, ptr bool) (*ssa.Alloc, *frame, bool) {
	v := b.v
	if load, isLoad := v.(*ssa.UnOp); !ptr && isLoad && load.Op == token.MUL {
		v = load.X
	}
	return allocOf(v, b.fr, 0)
}

func isStructPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Struct)
	return ok
}

// handOffIface hands over an interface value: each method of the
// parameter's interface (for an empty interface, the methods the
// standard library calls through type assertions: String, Error,
// MarshalJSON, ...) is called on each concrete value the analysis sees.
// A parameter of the function being summarised is resolved at each call.
func (e *Engine) handOffIface(b binding, pt types.Type, pos token.Pos, fr *frame, out *collector, fl callFlags) {
	it, _ := pt.Underlying().(*types.Interface)
	if it == nil {
		it, _ = b.v.Type().Underlying().(*types.Interface)
	}
	if it == nil || !e.followedIface(pt) || !e.followedIface(b.v.Type()) {
		return
	}
	// A parameter widened to another interface on the way (a
	// reply(w http.ResponseWriter) helper handing w on as an io.Writer)
	// is still the caller's value.
	for i := 0; i < 8; i++ {
		ci, ok := b.v.(*ssa.ChangeInterface)
		if !ok {
			break
		}
		b.v = ci.X
	}
	names := handedMethodNames(it)
	if len(names) == 0 {
		// any: the callee may call the protocol methods (MarshalJSON,
		// String) of what the caller put there (writeJSON(w, v any)).
		names = fl.protocolMethods()
	}
	if idx, ok := rootParam(b); ok {
		for _, name := range names {
			// Reason "": dropped if the caller cannot resolve it either.
			out.addPending(Pending{Op: OpCallMethod, Param: idx, Name: name, Detach: fl.detach, DetachIf: fl.detachIf, Pos: e.pos(pos), Module: e.Module})
		}
		return
	}
	if pf, ok := paramFieldOf(b.v, b.fr); ok {
		// A field of a struct the caller built (Options{Body: r}).
		for _, name := range names {
			out.addPending(Pending{Op: OpCallMethod, Param: pf.param, Fields: pf.path, Name: name, Detach: fl.detach, DetachIf: fl.detachIf, Pos: e.pos(pos), Module: e.Module})
		}
		return
	}
	var ts []target
	if e.Prog == nil || !e.concretes(b.v, b.fr, 0, &ts) {
		// What another package's function returned, by its summary's
		// ResultMethods (an error whose Error audits).
		e.resultMethods(b, names, nil, pos, fr, out)
		return
	}
	for _, t := range ts {
		if t.x == nil {
			continue
		}
		if _, ok := t.x.Type().Underlying().(*types.Signature); ok {
			// A function value handed over as any (runtime.SetFinalizer's
			// finalizer, a FuncMap entry).
			e.callArg(binding{v: t.x, fr: t.fr}, pos, fr, out, fl)
			continue
		}
		e.callIfaceMethods(t.x.Type(), binding{v: t.x, fr: t.fr}, it, pos, fr, out, fl)
	}
}

// callIfaceMethods calls, with unknown arguments, each method of it (or,
// for an empty interface, each protocol method, on the value and on the
// types of its fields: an encoder walks them) on the value recv of
// concrete type t. Only types of analysed packages (and handles) have
// methods worth walking.
func (e *Engine) callIfaceMethods(t types.Type, recv binding, it *types.Interface, pos token.Pos, fr *frame, out *collector, fl callFlags) {
	work := newCollector()
	names := handedMethodNames(it)
	if len(names) == 0 {
		e.callProtocol(t, recv, fl.protocolMethods(), pos, fr, work, 0, map[types.Type]bool{})
	} else if e.analysedType(t) || isHandle(t) {
		e.callMethods(t, recv, names, pos, fr, work)
		if e.analysedType(t) {
			e.callMethodResults(t, recv, names, pos, fr, work)
		}
	}
	switch {
	case fl.detach:
		e.detachedWork(work, pos, "hands a value to code that may call its methods after the call returns", out)
	case fl.detachIf > 0 && hasWork(work):
		out.merge(work)
		out.addPending(Pending{Op: OpDetachIf, Param: fl.detachIf - 1, Pos: e.pos(pos), Module: e.Module})
	default:
		out.merge(work)
	}
}

// callMethods calls methods names of type t on recv, with unknown arguments.
func (e *Engine) callMethods(t types.Type, recv binding, names []string, pos token.Pos, fr *frame, out *collector) {
	for _, name := range names {
		obj, fn := e.methodOf(t, name)
		if obj == nil {
			continue
		}
		e.callObjOrWrapper(obj, fn, []binding{recv}, pos, fr, out)
	}
}

// callMethodResults calls, with unknown arguments, the function values
// that the methods names of t return when called on recv: the code the
// value is handed to may call them (a client hook whose
// ProcessHook(next) returns the closure the library then runs around
// every command). One it cannot resolve is unprovable. The functions
// that code hands the method (next) are its own, and do nothing here.
func (e *Engine) callMethodResults(t types.Type, recv binding, names []string, pos token.Pos, fr *frame, out *collector) {
	for _, name := range names {
		obj, fn := e.methodOf(t, name)
		if obj == nil {
			continue
		}
		res := obj.Signature().Results()
		for i := 0; i < res.Len(); i++ {
			if _, ok := res.At(i).Type().Underlying().(*types.Signature); !ok {
				continue
			}
			// The method's function parameters are the code's own (the
			// next hook in the client's chain): as a nil function, they
			// add nothing.
			sig := obj.Signature()
			args := []binding{recv}
			for j := 0; j < sig.Params().Len(); j++ {
				if t := sig.Params().At(j).Type(); isFuncType(t) {
					args = append(args, binding{v: ssa.NewConst(nil, t), fr: fr})
				} else {
					args = append(args, binding{})
				}
			}
			var fs funcSet
			switch {
			case fn != nil && len(fn.Blocks) > 0 && pkgOf(fn) == e.Pkg:
				if !e.resultsOf(funcSet{callables: []callable{{fn: fn, fr: fr}}}, args, i, fr, &fs, 0) {
					fs = funcSet{unresolved: true}
				}
			case obj.Pkg() != nil && obj.Pkg() != e.Pkg && e.Import != nil:
				if s := e.Import(obj); s != nil && s.Returned != nil && s.ReturnedIndex == i {
					e.instantiateAt(s.Returned, &instCtx{args: args}, pos, fr, out)
					continue
				}
				fs.unresolved = true // as importedReturned has it
			default:
				fs.unresolved = true
			}
			e.callFuncs(fs, nil, pos, fr, out, callFlags{})
		}
	}
}

// isFuncType reports whether t is a function type.
func isFuncType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// callEveryMethod calls the methods names of t on recv from their
// summaries, never walking one inline for its receiver's fields: a
// template calls every exported method of its data, and each may
// execute a template on the same value again (a CLI's usage text).
func (e *Engine) callEveryMethod(t types.Type, recv binding, names []string, pos token.Pos, fr *frame, out *collector) {
	for _, name := range names {
		obj, fn := e.methodOf(t, name)
		if obj == nil {
			continue
		}
		if fn != nil && (fn.Parent() != nil || fn.Synthetic != "") {
			e.callFunc(fn, fn, fr, []binding{recv}, pos, fr, out)
			continue
		}
		e.callObj(obj, fn, []binding{recv}, pos, fr, out)
	}
}

// callProtocol calls the protocol methods a value of type t handed over
// as any may have called on it, and those of its fields' types, a few
// levels deep (encoding/json and fmt walk into fields).
// protoMessage reports whether t is a generated protocol buffers message
// (it has ProtoReflect() protoreflect.Message): its String, Format and
// JSON methods run the protobuf runtime's encoders over its fields,
// which describe the message and nothing else.
func protoMessage(t types.Type) bool {
	if _, isPtr := t.(*types.Pointer); !isPtr {
		t = types.NewPointer(t)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ProtoReflect")
	fn, ok := obj.(*types.Func)
	if !ok || fn.Signature().Results().Len() != 1 {
		return false
	}
	return qualifiedName(fn.Signature().Results().At(0).Type()) == "google.golang.org/protobuf/reflect/protoreflect.Message"
}

func (e *Engine) callProtocol(t types.Type, recv binding, names []string, pos token.Pos, fr *frame, out *collector, depth int, seen map[types.Type]bool) {
	if depth > 2 || seen[t] || protoMessage(t) {
		return
	}
	seen[t] = true
	if e.analysedType(t) {
		e.callMethods(t, recv, names, pos, fr, out)
		if _, isPtr := t.(*types.Pointer); !isPtr {
			e.callMethods(types.NewPointer(t), recv, names, pos, fr, out)
		}
	}
	base := t
	if p, ok := base.(*types.Pointer); ok {
		base = p.Elem()
	}
	switch u := base.Underlying().(type) {
	case *types.Struct:
		// A struct built here: what it holds in an interface field
		// (Envelope{Data: v}) is walked like a value handed as any.
		var alloc *ssa.Alloc
		var afr *frame
		built := false
		if recv.live() && e.protoNest < 4 {
			_, isPtr := t.Underlying().(*types.Pointer)
			alloc, afr, built = structAlloc(recv, isPtr)
		}
		for i := 0; i < u.NumFields(); i++ {
			ft := u.Field(i).Type()
			var bs []binding
			if built && types.IsInterface(ft) && fieldOfAllocAt(alloc, i, afr, 0, &bs, fr.cur) {
				e.protoNest++
				for _, x := range bs {
					e.handOffIface(x, ft, pos, fr, out, callFlags{protocol: names})
				}
				e.protoNest--
				continue
			}
			e.callProtocol(ft, binding{}, names, pos, fr, out, depth+1, seen)
		}
	case *types.Slice:
		if st, ok := u.Elem().Underlying().(*types.Struct); ok && recv.live() && e.protoNest < 4 {
			e.protoElemFields(recv, st, names, pos, fr, out)
		}
		e.callProtocol(u.Elem(), binding{}, names, pos, fr, out, depth+1, seen)
	case *types.Map:
		// encoding/json marshals a map's keys by their MarshalText.
		e.callProtocol(u.Key(), binding{}, names, pos, fr, out, depth+1, seen)
		e.callProtocol(u.Elem(), binding{}, names, pos, fr, out, depth+1, seen)
	case *types.Array:
		e.callProtocol(u.Elem(), binding{}, names, pos, fr, out, depth+1, seen)
	}
}

// protoElemFields walks, like values handed as any, what a slice literal
// of structs built here holds in its elements' interface fields
// ([]Row{{V: v}}).
func (e *Engine) protoElemFields(recv binding, st *types.Struct, names []string, pos token.Pos, fr *frame, out *collector) {
	sl, ok := recv.v.(*ssa.Slice)
	if !ok {
		return
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return
	}
	e.protoNest++
	defer func() { e.protoNest-- }()
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, r2 := range *ia.Referrers() {
			if store, ok := r2.(*ssa.Store); ok && store.Addr == ia {
				// The element copied in whole from a literal.
				load, ok := store.Val.(*ssa.UnOp)
				if !ok || load.Op != token.MUL {
					continue
				}
				lit, ok := load.X.(*ssa.Alloc)
				if !ok {
					continue
				}
				for i := 0; i < st.NumFields(); i++ {
					var bs []binding
					if ft := st.Field(i).Type(); types.IsInterface(ft) && fieldOfAllocAt(lit, i, recv.fr, 0, &bs, fr.cur) {
						for _, x := range bs {
							e.handOffIface(x, ft, pos, fr, out, callFlags{protocol: names})
						}
					}
				}
				continue
			}
			fa, ok := r2.(*ssa.FieldAddr)
			if !ok || fa.Field >= st.NumFields() || !types.IsInterface(st.Field(fa.Field).Type()) {
				continue
			}
			for _, r3 := range *fa.Referrers() {
				if store, ok := r3.(*ssa.Store); ok && store.Addr == fa {
					e.handOffIface(binding{v: store.Val, fr: recv.fr}, st.Field(fa.Field).Type(), pos, fr, out, callFlags{protocol: names})
				}
			}
		}
	}
}

// callObjOrWrapper calls a method found by methodOf: through its SSA
// function when the program has one (a promoted method's wrapper is
// walked; a method of this package on a receiver built here is walked
// inline), else by its declaration.
func (e *Engine) callObjOrWrapper(obj *types.Func, fn *ssa.Function, args []binding, pos token.Pos, fr *frame, out *collector) {
	if fn != nil {
		e.callFunc(fn, fn, fr, args, pos, fr, out)
		return
	}
	e.callObj(obj, fn, args, pos, fr, out)
}

// protocolMethods are the methods the standard library calls on a value
// it is handed as any, through type assertions (fmt, encoding/json,
// encoding, log/slog, database/sql/driver): all of them, for a callee
// whose package Library.Protocols does not narrow.
var protocolMethods = []string{"String", "Error", "GoString", "Format", "MarshalJSON", "MarshalText", "MarshalBinary", "AppendText", "LogValue", "Value", "WriteTo",
	"Scan", "UnmarshalJSON", "UnmarshalText", "UnmarshalBinary", "MarshalXML", "MarshalXMLAttr", "UnmarshalXML", "UnmarshalXMLAttr",
	"GobEncode", "GobDecode", "Is", "As", "Unwrap"}

// protocolMethods is the protocol of the callee the flags were made for.
func (fl callFlags) protocolMethods() []string {
	if fl.protocol != nil {
		return fl.protocol
	}
	return protocolMethods
}

// protocolOf is what fn's package calls on a value handed as any: its
// Library.Protocols row, or nil (every protocol method).
func protocolOf(fn *types.Func) []string {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	return lib().protocols[fn.Pkg().Path()]
}

func ifaceMethodNames(it *types.Interface) []string {
	var names []string
	for i := 0; i < it.NumMethods(); i++ {
		names = append(names, it.Method(i).Name())
	}
	return names
}

// handedMethodNames are the methods code handed a value as it may call:
// the interface's own, and those the libraries may find on it by a type
// assertion (Library.Optional).
func handedMethodNames(it *types.Interface) []string {
	names := ifaceMethodNames(it)
	for i := 0; i < it.NumMethods(); i++ {
		for _, o := range lib().optional[it.Method(i).Name()] {
			if !slices.Contains(names, o) {
				names = append(names, o)
			}
		}
	}
	return names
}

// ignoredIface: context.Context and error values are handed to nearly
// every call; their implementations are the standard library's or plain
// values, and following them would cost more than it finds.
func ignoredIface(t types.Type) bool {
	switch qualifiedName(t) {
	case "context.Context", "error":
		return true
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() == nil && n.Obj().Name() == "error" {
		return true
	}
	return false
}

// analysedType reports whether t (or *t's element) is a named type of a
// package whose functions have summaries: this one or an analysed one.
func (e *Engine) analysedType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	pkg := n.Obj().Pkg()
	return pkg == e.Pkg || (e.Analysed != nil && e.Analysed(pkg) && !lib().modelled(pkg.Path()))
}

// sliceElems returns the values stored into the elements of a slice
// built here from a local array (a variadic argument, a slice literal).
func sliceElems(v ssa.Value) []ssa.Value { return SliceElems(v) }

// SliceElems returns the values stored into the array behind a slice
// literal (a variadic call's arguments); nil for any other slice.
func SliceElems(v ssa.Value) []ssa.Value {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, r2 := range *ia.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// retains reports whether fn, of the standard library, is documented to
// keep its parameter i and run it after it returns.
func (e *Engine) retains(fn *types.Func, i int) bool {
	r, ok := lib().retains[FuncKey(fn)]
	return ok && (r < 0 || r == paramArg(fn, i))
}

// storeSite walks a function or interface value stored where it may be
// called later: into a field, a global, a slice or map element, a
// channel. A store into a local variable or into a struct the analysis
// follows is resolved where the value is called instead.
func (e *Engine) storeSite(instr ssa.Instruction, pos token.Pos, fr *frame, out *collector) {
	var val ssa.Value
	life, param := lifeLocal, 0
	switch in := instr.(type) {
	case *ssa.Store:
		val = in.Val
		if _, isFunc := val.Type().Underlying().(*types.Signature); isFunc && deadFieldStore(in) {
			// A function put in a field of a struct built here that
			// nothing reads (a vtable entry this path never calls): it
			// counts as called once where it is stored (SPEC §4.1).
			e.callArg(binding{v: val, fr: fr}, pos, fr, out, callFlags{})
			return
		}
		if !callbackType(val.Type()) && len(funcFields(val.Type())) == 0 || e.followedStore(in, fr) || transportDialer(in) {
			return
		}
		life, param = e.lifetime(in.Addr, fr)
		if ia, ok := in.Addr.(*ssa.IndexAddr); ok {
			if alloc, ok := ia.X.(*ssa.Alloc); ok {
				life, param = e.arrayLifetime(alloc, fr)
			}
		}
	case *ssa.Send:
		if _, ok := chanSends(in.Chan); ok {
			return // followed to where it is received
		}
		val, life = in.X, lifeLong
	case *ssa.MapUpdate:
		val = in.Value
		if onlyReadHere(in.Map) {
			return // followed to where it is looked up or ranged over
		}
		life, param = e.lifetime(in.Map, fr)
	default:
		return
	}
	if fields := funcFields(val.Type()); len(fields) > 0 {
		// A struct holding functions (a job with its run func, a
		// sync.Pool with its New) kept where it outlives the request.
		e.storeFuncFields(val, fields, life, param, pos, fr, out)
		return
	}
	if !callbackType(val.Type()) {
		return
	}
	switch life {
	case lifeLong:
		e.handOffValue(binding{v: val, fr: fr}, nil, pos, fr, out, callFlags{detach: true})
	case lifeParam:
		e.handOffValue(binding{v: val, fr: fr}, nil, pos, fr, out, callFlags{detachIf: param + 1})
	default:
		e.handOffValue(binding{v: val, fr: fr}, nil, pos, fr, out, callFlags{})
	}
}

// deadFieldStore reports whether st stores into a field of a struct
// allocated in its function that is never read there: no load of the
// field, of the whole struct's field (or of a copy's), and the struct
// never handed on.
func deadFieldStore(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	alloc, ok := fa.X.(*ssa.Alloc)
	return ok && fieldUnread(alloc, fa.Field, 0)
}

// fieldUnread reports whether field f of the local struct alloc is
// never read: its field addresses are only stored to (other fields may
// be read), and a load of the whole struct only gives other fields or
// is copied into another such struct.
func fieldUnread(alloc *ssa.Alloc, f, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			for _, rr := range *r.Referrers() {
				switch rr := rr.(type) {
				case *ssa.Store:
					if rr.Addr != r {
						return false // the field's address stored away
					}
				case *ssa.DebugRef:
				case *ssa.UnOp:
					if r.Field == f {
						return false
					}
				default:
					return false // its address handed on
				}
			}
		case *ssa.Store:
			// The whole struct stored into it (a copy of another): the
			// other one's stores are judged where they are made.
			if r.Addr != alloc {
				return false
			}
		case *ssa.UnOp:
			for _, rr := range *r.Referrers() {
				switch rr := rr.(type) {
				case *ssa.Field:
					if rr.Field == f {
						return false
					}
				case *ssa.Store:
					to, ok := rr.Addr.(*ssa.Alloc)
					if !ok || rr.Val != r || !fieldUnread(to, f, depth+1) {
						return false
					}
				case *ssa.DebugRef:
				default:
					return false
				}
			}
		default:
			return false // handed on, stored away, converted
		}
	}
	return true
}

// onlyReadHere reports whether m is a map made here that is only filled,
// looked up and ranged over here: what is stored in it counts where it is
// read (collectFuncs), not where it is stored.
func onlyReadHere(m ssa.Value) bool {
	mm, ok := m.(*ssa.MakeMap)
	if !ok {
		return false
	}
	for _, r := range *mm.Referrers() {
		switch r := r.(type) {
		case *ssa.MapUpdate:
			if r.Value == mm || r.Key == mm {
				return false
			}
		case *ssa.Lookup, *ssa.Range, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// chanSends returns the values sent on ch when ch is a channel made here
// that is only sent to, received from and closed, all in this function
// (a handler's queue of closures it drains itself): what is received is
// one of them. It reports false otherwise.
func chanSends(ch ssa.Value) ([]ssa.Value, bool) {
	mc, ok := ch.(*ssa.MakeChan)
	if !ok {
		return nil, false
	}
	var vals []ssa.Value
	for _, r := range *mc.Referrers() {
		switch r := r.(type) {
		case *ssa.Send:
			if r.Chan != ssa.Value(mc) || r.X == ssa.Value(mc) {
				return nil, false
			}
			vals = append(vals, r.X)
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return nil, false
			}
		case *ssa.Select:
			// A select over it: a receive, or a send of one more value.
			for _, st := range r.States {
				if st.Chan != ssa.Value(mc) {
					if st.Send == ssa.Value(mc) {
						return nil, false
					}
					continue
				}
				if st.Dir == types.SendOnly {
					vals = append(vals, st.Send)
				}
			}
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "close" {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return vals, true
}

// callbackType: values whose storing matters, function values and
// interface values (context.Context and error aside).
func callbackType(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Interface:
		return !ignoredIface(t)
	}
	return false
}

// followedStore reports whether the analysis follows the store to the
// value's use: a local variable whose address does not escape, a field
// of a local struct it follows, or an element of a variadic array.
func (e *Engine) followedStore(st *ssa.Store, fr *frame) bool {
	switch a := st.Addr.(type) {
	case *ssa.Alloc:
		return !addrEscapes(a)
	case *ssa.FieldAddr:
		if modelledFields[qualifiedName(a.X.Type())+"."+fieldName(a.X.Type(), a.Field)] {
			return true // the models of the struct's methods read it
		}
		if alloc, _, ok := allocOf(a.X, fr, 0); ok {
			var bs []binding
			// A struct built here and handed to calls (Options{Body: r}):
			// the callee's summary (or, for a callee that is not
			// analysed, the hand-off of the struct's fields) sees what
			// it does with the field.
			return fieldOfAlloc(alloc, a.Field, fr, 0, &bs) || onlyHanded(alloc, storedParam(st.Val))
		}
	case *ssa.IndexAddr:
		// The elements of a local array are seen where the slice made of
		// it goes (a variadic call, append).
		if alloc, ok := a.X.(*ssa.Alloc); ok {
			return !arrayStoredAway(alloc)
		}
	}
	return false
}

// modelledFields are fields whose values the models read where they are
// used: an http.Client's Transport is walked when the client sends.
var modelledFields = map[string]bool{"net/http.Client.Transport": true}

// arrayStoredAway reports whether a local array's slice is appended to or
// stored into something else (its elements then live on there).
func arrayStoredAway(alloc *ssa.Alloc) bool {
	for _, r := range *alloc.Referrers() {
		sl, ok := r.(*ssa.Slice)
		if !ok {
			continue
		}
		for _, r2 := range *sl.Referrers() {
			switch r2 := r2.(type) {
			case *ssa.Call:
				if b, ok := r2.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
					return true
				}
			case *ssa.Store, *ssa.MapUpdate, *ssa.Send:
				return true
			}
		}
	}
	return false
}

// arrayLifetime is the lifetime of what the slices of a local array end
// up in (appended to a receiver's hook list, sent): the longest one.
func (e *Engine) arrayLifetime(alloc *ssa.Alloc, fr *frame) (int, int) {
	life, param := lifeLocal, 0
	note := func(l, p int) {
		if l == lifeLong || (l == lifeParam && life == lifeLocal) {
			life, param = l, p
		}
	}
	dest := func(v ssa.Value) {
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Val == v {
					note(e.lifetime(r.Addr, fr))
				}
			case *ssa.Send:
				note(lifeLong, 0)
			case *ssa.MapUpdate:
				note(e.lifetime(r.Map, fr))
			}
		}
	}
	for _, r := range *alloc.Referrers() {
		sl, ok := r.(*ssa.Slice)
		if !ok {
			continue
		}
		dest(sl)
		for _, r2 := range *sl.Referrers() {
			if c, ok := r2.(*ssa.Call); ok {
				if b, ok := c.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
					dest(c)
				}
			}
		}
	}
	return life, param
}

// addrEscapes reports whether a local variable's address is used other
// than to load and store it.
func addrEscapes(a *ssa.Alloc) bool {
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != a {
				return true
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			// Captured: the closure may store to it; storedValues
			// follows closures that only read it.
		default:
			return true
		}
	}
	return false
}

// Lifetimes of what a store writes into.
const (
	lifeLocal = iota // made during the walk: it lives as long as the request
	lifeLong         // a package variable: it outlives the request
	lifeParam        // a parameter of the function being summarised: its callers decide
)

// lifetime classifies the object addr is rooted at.
func (e *Engine) lifetime(addr ssa.Value, fr *frame) (int, int) { return e.lifetimeAt(addr, fr, 0) }

// lifetimeAt is lifetime, depth cells deep: past a few cells (a pointer
// kept in a variable that keeps itself, p = p.next) the object is taken
// to outlive the request.
func (e *Engine) lifetimeAt(addr ssa.Value, fr *frame, depth int) (int, int) {
	if depth > 4 {
		return lifeLong, 0
	}
	for i := 0; i < 32; i++ {
		switch a := addr.(type) {
		case *ssa.Global:
			return lifeLong, 0
		case *ssa.Parameter:
			if b, ok := fr.param(paramIndex(fr.fn, a)); ok {
				if b = follow(b); b.live() {
					addr, fr = b.v, b.fr
					continue
				}
				return lifeLong, 0
			}
			if idx, ok := rootParam(binding{v: a, fr: fr}); ok {
				return lifeParam, idx
			}
			return lifeLong, 0
		case *ssa.FreeVar:
			found := false
			for j, x := range fr.fn.FreeVars {
				if x == a && j < len(fr.free) && fr.free[j].live() {
					addr, fr = fr.free[j].v, fr.free[j].fr
					found = true
					break
				}
			}
			if !found {
				return lifeLong, 0
			}
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.Field:
			addr = a.X
		case *ssa.Index:
			addr = a.X
		case *ssa.UnOp:
			if cell, ok := a.X.(*ssa.Alloc); ok && a.Op == token.MUL && isPointerLike(a.Type()) {
				// A pointer kept in a local cell (a variable a closure
				// captures): what was stored there decides.
				return e.cellLifetime(cell, fr, depth+1)
			}
			addr = a.X
		case *ssa.Slice:
			addr = a.X
		case *ssa.ChangeType:
			addr = a.X
		case *ssa.Lookup:
			addr = a.X
		case *ssa.Call:
			// What a getter of a process-wide object returns outlives
			// the request; what other calls return is taken as made for
			// it (a builder, a constructor's product).
			if e.callReturnsShared(a) {
				return lifeLong, 0
			}
			return lifeLocal, 0
		default:
			return lifeLocal, 0
		}
	}
	return lifeLong, 0
}

// callReturnsShared reports whether the callee of call, of this package
// or an analysed one, may return a package variable's value.
func (e *Engine) callReturnsShared(call *ssa.Call) bool {
	if callee := call.Call.StaticCallee(); callee != nil && pkgOf(callee) == e.Pkg && len(callee.Blocks) > 0 {
		return returnsShared(callee) // from its body, even while its summary is computed
	}
	s := e.calleeSummary(&call.Call)
	return s != nil && s.ReturnsShared
}

func isPointerLike(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Slice, *types.Chan:
		return true
	}
	return false
}

// cellLifetime is the longest lifetime of the values stored into a local
// cell (a captured variable).
func (e *Engine) cellLifetime(cell *ssa.Alloc, fr *frame, depth int) (int, int) {
	life, param := lifeLocal, 0
	for _, r := range *cell.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != cell {
			continue
		}
		l, p := e.lifetimeAt(st.Val, fr, depth)
		if l == lifeLong || (l == lifeParam && life == lifeLocal) {
			life, param = l, p
		}
	}
	// (A cell only closures assign is read as before: made here.)
	return life, param
}

// funcFields returns the indexes of the function-typed fields of a struct
// type (not through pointers).
func funcFields(t types.Type) []int {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []int
	for i := 0; i < st.NumFields(); i++ {
		if _, ok := st.Field(i).Type().Underlying().(*types.Signature); ok {
			out = append(out, i)
		}
	}
	return out
}

// storeFuncFields walks the functions a struct value holds in its fields,
// stored where it lives as long as life says.
func (e *Engine) storeFuncFields(val ssa.Value, fields []int, life, param int, pos token.Pos, fr *frame, out *collector) {
	if life == lifeLocal {
		return // seen where the struct's functions are called
	}
	fl := callFlags{detach: true}
	if life == lifeParam {
		fl = callFlags{detachIf: param + 1}
	}
	for _, f := range fields {
		var bs []binding
		if !fieldOf(val, f, fr, 0, &bs) {
			work := newCollector()
			work.add(e.unprovable(pos, "stores a struct whose function field the analysis cannot resolve where it may run after the request",
				"store the function where the analysis sees it, or declare the statement with //agent:effect"))
			e.detachedWork(work, pos, storedReason, out)
			continue
		}
		for _, b := range bs {
			e.handOffValue(b, nil, pos, fr, out, fl)
		}
	}
}

// onlyHanded reports whether a local struct's address only has its fields
// set and read, and is handed as an argument to calls (or, returnable,
// returned): never stored away or converted.
func onlyHanded(alloc *ssa.Alloc, returnable bool) bool {
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			for _, r2 := range *r.Referrers() {
				switch r2 := r2.(type) {
				case *ssa.Store:
					if r2.Addr != r {
						return false
					}
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return false
				}
			}
		case ssa.CallInstruction:
			if r.Common().Value == alloc {
				return false
			}
		case *ssa.Return:
			// Returned (a constructor, sqlc's New(db)) with a parameter
			// in the field: the caller reads it back through the
			// constructor's ResultFields. Anything else stored into a
			// returned struct is handed off where it is stored.
			if !returnable {
				return false
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// storedParam reports whether v is one of its function's parameters,
// possibly converted to an interface.
func storedParam(v ssa.Value) bool {
	for i := 0; i < 4; i++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.Parameter:
			return true
		default:
			return false
		}
	}
	return false
}
