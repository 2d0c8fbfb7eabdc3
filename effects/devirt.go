package effects

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// target is a concrete value an interface value may hold.
type target struct {
	x  ssa.Value // the concrete value (the MakeInterface operand); nil if not seen
	fr *frame
	// typ is the concrete type, when known without a value (a standard
	// variable such as http.DefaultTransport).
	typ types.Type
	// std: the value was made by a call into the standard library or a
	// modelled library, whose methods are modelled, not analysed; wrapped
	// are the function values that call was handed.
	std     bool
	wrapped []binding
}

// typeOf is the target's concrete type, or nil when it is not known.
func (t target) typeOf() types.Type {
	if t.x != nil {
		return t.x.Type()
	}
	return t.typ
}

// stdGlobals are standard-library variables whose concrete type is known.
var stdGlobals = map[string]string{"net/http.DefaultTransport": "Transport"}

// maxTargets bounds the concrete values one interface call resolves to.
const maxTargets = 8

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
	case *ssa.Const:
		// A nil interface holds no value: a method called on it panics,
		// and one handed on is never called (return nil on success).
		return v.IsNil()
	case *ssa.Phi:
		for _, ed := range v.Edges {
			if !e.concretes(ed, fr, depth+1, out) {
				return false
			}
		}
		return true
	case *ssa.Parameter:
		if b, ok := fr.param(paramIndex(fr.fn, v)); ok {
			if b = follow(b); b.live() {
				return e.concretes(b.v, b.fr, depth+1, out)
			}
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) && fr.free[i].live() {
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
		if g, ok := v.X.(*ssa.Global); ok {
			return e.globalConcretes(g, fr, depth, out)
		}
		stores := storedValues(v.X, fr)
		if ia, ok := v.X.(*ssa.IndexAddr); ok && len(stores) == 0 {
			// An element of a slice literal (ranging over closers).
			return e.elemConcretes(ia.X, fr, depth+1, out)
		}
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
		if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 {
			return e.assertedConcretes(ta, fr, depth, out)
		}
	case *ssa.TypeAssert:
		return e.assertedConcretes(v, fr, depth, out)
	}
	return false
}

// assertedConcretes follows a type assertion to the values asserted on,
// keeping those of a type that passes it.
func (e *Engine) assertedConcretes(ta *ssa.TypeAssert, fr *frame, depth int, out *[]target) bool {
	var inner []target
	if !e.concretes(ta.X, fr, depth+1, &inner) {
		return false
	}
	for _, t := range inner {
		typ := t.typeOf()
		switch {
		case typ == nil:
			*out = append(*out, t)
		case types.IsInterface(ta.AssertedType):
			if it, ok := ta.AssertedType.Underlying().(*types.Interface); ok && types.Implements(typ, it) {
				*out = append(*out, t)
			}
		case types.Identical(typ, ta.AssertedType):
			*out = append(*out, t)
		}
	}
	return true
}

// assertedParam sees through a type assertion on a value: a method called
// on p.(I) is called on the parameter p.
func assertedParam(b binding) binding {
	v := b.v
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		v = ex.Tuple
	}
	if ta, ok := v.(*ssa.TypeAssert); ok {
		return binding{v: ta.X, fr: b.fr}
	}
	return b
}

// globalConcretes follows a package variable: one of this package that
// only its declaration sets, or a standard variable of known type.
func (e *Engine) globalConcretes(g *ssa.Global, fr *frame, depth int, out *[]target) bool {
	if val, ok := e.InitGlobals[g]; ok {
		if init := g.Pkg.Func("init"); init != nil {
			return e.concretes(val, &frame{fn: init, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, depth+1, out)
		}
	}
	if g.Pkg == nil {
		return false
	}
	if name, ok := stdGlobals[g.Pkg.Pkg.Path()+"."+g.Name()]; ok {
		if tn, ok := g.Pkg.Pkg.Scope().Lookup(name).(*types.TypeName); ok {
			*out = append(*out, target{typ: types.NewPointer(tn.Type()), std: true})
			return true
		}
	}
	return false
}

// elemConcretes collects the concretes of every element of sl, a slice
// literal built here (or a variable, parameter or captured variable that
// holds one) that nothing writes an element of after.
func (e *Engine) elemConcretes(sl ssa.Value, fr *frame, depth int, out *[]target) bool {
	if depth > 16 {
		return false
	}
	switch v := sl.(type) {
	case *ssa.Parameter:
		if b, ok := fr.param(paramIndex(fr.fn, v)); ok {
			if b = follow(b); b.live() {
				return e.elemConcretes(b.v, b.fr, depth+1, out)
			}
		}
		return false
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) && fr.free[i].live() {
				return e.elemConcretes(fr.free[i].v, fr.free[i].fr, depth+1, out)
			}
		}
		return false
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		stores := storedValues(v.X, fr)
		if len(stores) == 0 {
			return false
		}
		for _, b := range stores {
			if !e.elemConcretes(b.v, b.fr, depth+1, out) {
				return false
			}
		}
		return true
	case *ssa.Slice:
		for _, r := range *v.Referrers() {
			if ia, ok := r.(*ssa.IndexAddr); ok {
				for _, r2 := range *ia.Referrers() {
					if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
						return false // an element written after the literal
					}
				}
			}
		}
		els := sliceElems(v)
		if els == nil {
			return false
		}
		for _, el := range els {
			if !e.concretes(el, fr, depth+1, out) {
				return false
			}
		}
		return true
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
		if e.keptResult(call, i) {
			return false // what the program put in, out of sight
		}
		t := target{std: true}
		for _, a := range call.Call.Args {
			switch a.Type().Underlying().(type) {
			case *types.Signature:
				t.wrapped = append(t.wrapped, binding{v: a, fr: fr})
			case *types.Interface:
				// http.StripPrefix(p, h): the value calls h; accept it only
				// when h is itself the standard library's.
				var inner []target
				if !e.concretes(a, fr, depth+1, &inner) {
					return false
				}
				for _, it := range inner {
					if !it.std && (it.typeOf() == nil || !e.stdType(it.typeOf())) {
						return false
					}
				}
			}
		}
		*out = append(*out, t)
		return true
	}
	if e.returns >= maxReturns {
		return false
	}
	e.returns++
	defer func() { e.returns-- }()
	if call.Call.StaticCallee() == nil {
		return e.concreteValueResult(call, i, fr, depth, out)
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

// concreteValueResult is concreteResult for a call of a function value
// (a middleware factory's product: Audit("export")(inner)): each function
// it may be must be a function or closure of this package, followed into
// its body with the call's arguments and the closure's bindings.
func (e *Engine) concreteValueResult(call *ssa.Call, i int, fr *frame, depth int, out *[]target) bool {
	fs := e.funcsOf(call.Call.Value, fr)
	if len(fs.callables) == 0 || len(fs.returned)+len(fs.wrapped)+len(fs.params)+len(fs.elemParams)+len(fs.fieldParams) > 0 || fs.fromStd || fs.unresolved {
		return false
	}
	for _, cl := range fs.callables {
		if len(cl.fn.Blocks) == 0 || pkgOf(cl.fn) != e.Pkg {
			return false
		}
		var free []binding
		if mc, ok := cl.value.(*ssa.MakeClosure); ok {
			free = bind(mc.Bindings, cl.fr)
		}
		cf := &frame{fn: cl.fn, args: bind(call.Call.Args, fr), free: free, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}, at: fr.at}
		found := false
		for _, b := range cl.fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || i >= len(ret.Results) {
				continue
			}
			if !e.concretes(ret.Results[i], cf, depth+1, out) {
				return false
			}
			found = true
		}
		if !found {
			return false
		}
	}
	return true
}

// keptResult reports whether result i of call, a call into a package
// that is not walked, may be a value the program put in rather than one
// the package made: by the libraries' tables for the standard library
// (a pool's Get), by the package's KeepsFact for any other (a plugin
// table's Get, a setter's getter).
func (e *Engine) keptResult(call *ssa.Call, i int) bool {
	obj := funcObject(call.Call.StaticCallee())
	if obj == nil {
		return false
	}
	if lib().returnsKept[FuncKey(obj)] {
		return true
	}
	if e.ResultKept == nil || obj.Pkg() == nil {
		return false
	}
	t := call.Type()
	if tup, ok := t.(*types.Tuple); ok {
		if i >= tup.Len() {
			return false
		}
		t = tup.At(i).Type()
	}
	switch t.Underlying().(type) {
	case *types.Signature, *types.Interface:
		return e.ResultKept(obj, t)
	}
	return false
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
	return pkg != e.Pkg && (e.Analysed == nil || !e.Analysed(pkg) || lib().modelled(pkg.Path()))
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
			// A struct its frame is returning (a constructor's &mw{next:
			// h}, its handler): the return hands it to no writer.
			ok = fieldOfAlloc(alloc, fa.Field, afr, 0, &out)
		} else if call, isCall := fa.X.(*ssa.Call); isCall {
			ok = e.helperFieldValues(call, fa.Field, fr, &out)
		}
	}
	return out, ok && len(out) > 0
}

// helperFieldValues collects field f of the struct a helper of this
// package builds and returns (h := newHandlers(db); h.Create): what the
// helper stores to it, on every return, and what the caller stores to it
// after. It reports false when the struct may change anywhere else.
func (e *Engine) helperFieldValues(call *ssa.Call, f int, fr *frame, out *[]binding) bool {
	if e.returns >= maxReturns {
		return false
	}
	e.returns++
	defer func() { e.returns-- }()
	cf, rets := e.localReturns(call, fr)
	if cf == nil || len(rets) == 0 {
		return false
	}
	for _, ret := range rets {
		if len(ret.Results) == 0 {
			return false
		}
		alloc, afr, found := allocOf(ret.Results[0], cf, 0)
		if !found || afr != cf || !fieldOfAllocAt(alloc, f, afr, 0, out, ret) {
			return false
		}
	}
	for _, r := range *call.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			vals, ok := fieldStores(r)
			if !ok {
				return false
			}
			if r.Field == f {
				for _, v := range vals {
					*out = append(*out, binding{v: v, fr: fr})
				}
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return false // handed on or kept: it may change unseen
		}
	}
	return true
}

// fieldOf collects field f of the struct value sv.
func fieldOf(sv ssa.Value, f int, fr *frame, depth int, out *[]binding) bool {
	alloc, afr, ok := allocOf(sv, fr, depth+1)
	return ok && fieldOfAlloc(alloc, f, afr, depth+1, out)
}

// returning is the return a root frame is at, if it is at one: a struct
// a handler constructor returns is its handler, handed to no writer of
// the program's (&mw{next: h}). A helper's return hands the struct to
// its caller, which may write it: not skipped.
func returning(fr *frame) ssa.Instruction {
	if fr == nil || fr.parent != nil || !fr.root || !fr.ctor {
		return nil
	}
	if r, ok := fr.cur.(*ssa.Return); ok {
		return r
	}
	return nil
}

// fieldOfAlloc collects what is stored to field f of a local struct:
// through &alloc.f, or as part of a whole value stored to it. It reports
// false when the struct or the field's address escapes to code that could
// store to it unseen (a call, a pointer kept elsewhere).
func fieldOfAlloc(alloc *ssa.Alloc, f int, fr *frame, depth int, out *[]binding) bool {
	return fieldOfAllocAt(alloc, f, fr, depth, out, nil)
}

// fieldOfAllocAt is fieldOfAlloc, with the call except (the one being
// resolved, which reads the struct) not counted as a writer.
func fieldOfAllocAt(alloc *ssa.Alloc, f int, fr *frame, depth int, out *[]binding, except ssa.Instruction) bool {
	if depth > 16 {
		return false
	}
	ret := returning(fr)
	for _, r := range *alloc.Referrers() {
		if except != nil && r == except || ret != nil && r == ret {
			continue
		}
		switch r := r.(type) {
		case *ssa.FieldAddr:
			vals, ok := fieldStores(r)
			if !ok {
				return false // the field's address is stored away or handed on
			}
			if r.Field == f {
				for _, v := range vals {
					*out = append(*out, binding{v: v, fr: fr})
				}
			}
		case *ssa.Store:
			if r.Addr != alloc {
				return false // the pointer is stored away
			}
			if !fieldOf(r.Val, f, fr, depth+1, out) {
				return false
			}
		case *ssa.MakeInterface:
			if !readOnlyUses(r, 0) && !onlyUsedBy(r, except) && !invokedReading(r, f) {
				return false // &v handed on as an interface: json.Unmarshal(b, &v) writes it
			}
		case *ssa.MakeClosure:
			if !capturedReadOnly(r, alloc, except) {
				return false // a closure that may write it
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return false // handed to a call, or kept: it may change unseen
		}
	}
	return true
}

// invokedReading reports whether the interface value mi is only called
// through (r.Rename(ctx, id) on a decorator made here), and every method
// called is one of this package whose receiver only reads the struct's
// field f: the field still holds what was stored here.
func invokedReading(mi *ssa.MakeInterface, f int) bool {
	parent := mi.Parent()
	if parent == nil || parent.Prog == nil || parent.Pkg == nil {
		return false
	}
	prog := parent.Prog
	called := false
	for _, r := range *mi.Referrers() {
		switch u := r.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.Call:
			if !u.Call.IsInvoke() || u.Call.Value != mi || slices.Contains(u.Call.Args, ssa.Value(mi)) {
				return false
			}
			sel := prog.MethodSets.MethodSet(mi.X.Type()).Lookup(u.Call.Method.Pkg(), u.Call.Method.Name())
			if sel == nil {
				return false
			}
			fn := prog.MethodValue(sel)
			if fn == nil || fn.Pkg != parent.Pkg || len(fn.Params) == 0 {
				return false
			}
			for _, rr := range *fn.Params[0].Referrers() {
				switch rr := rr.(type) {
				case *ssa.DebugRef:
				case *ssa.FieldAddr:
					vals, ok := fieldStores(rr)
					if !ok || rr.Field == f && len(vals) > 0 {
						return false
					}
				default:
					return false // the receiver handed on: it may be written there
				}
			}
			called = true
		default:
			return false
		}
	}
	return called
}

// capturedReadOnly reports whether the closure mc captures the variable
// alloc only to read it: loads of it and of its fields, and the call
// being resolved (except).
func capturedReadOnly(mc *ssa.MakeClosure, alloc *ssa.Alloc, except ssa.Instruction) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, b := range mc.Bindings {
		if b != ssa.Value(alloc) || i >= len(fn.FreeVars) {
			continue
		}
		for _, r := range *fn.FreeVars[i].Referrers() {
			switch r := r.(type) {
			case *ssa.UnOp, *ssa.DebugRef:
			case *ssa.FieldAddr:
				if vals, ok := fieldStores(r); !ok || len(vals) > 0 {
					return false
				}
			default:
				if r != except {
					return false
				}
			}
		}
	}
	return true
}

// onlyUsedBy reports whether v's one use is the instruction in.
func onlyUsedBy(v ssa.Value, in ssa.Instruction) bool {
	refs := v.Referrers()
	return in != nil && refs != nil && len(*refs) == 1 && (*refs)[0] == in
}

// readOnlyCallees only read what their interface arguments point to.
var readOnlyCallees = map[string]bool{
	"fmt.Print": true, "fmt.Printf": true, "fmt.Println": true, "fmt.Sprint": true, "fmt.Sprintf": true,
	"fmt.Sprintln": true, "fmt.Fprint": true, "fmt.Fprintf": true, "fmt.Fprintln": true, "fmt.Errorf": true,
	"log.Print": true, "log.Printf": true, "log.Println": true,
	"log.Logger.Print": true, "log.Logger.Printf": true, "log.Logger.Println": true,
	"encoding/json.Marshal": true, "encoding/json.MarshalIndent": true, "encoding/json.Encoder.Encode": true,
	"log/slog.Any": true,
}

// readOnlyUses reports whether a pointer converted to an interface is
// handed only to callees that read it: directly, or through the slice of
// a variadic call. (Where it is stored, its own methods are what run.)
func readOnlyUses(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			if !readOnlyCallees[staticKey(r.Call)] {
				return false
			}
		case *ssa.Store:
			ia, ok := r.Addr.(*ssa.IndexAddr)
			if !ok || r.Val != v {
				continue // kept as before: only calls are judged here
			}
			arr, ok := ia.X.(*ssa.Alloc)
			if !ok {
				continue
			}
			for _, ar := range *arr.Referrers() {
				switch ar := ar.(type) {
				case *ssa.IndexAddr:
				case *ssa.Slice:
					if !readOnlyUses(ar, depth+1) {
						return false
					}
				default:
					return false
				}
			}
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
			if _, isParam := v.X.(*ssa.Parameter); isParam {
				// A struct loaded through a pointer parameter (a pointer
				// method's wrapper calling the value method).
				return allocOf(v.X, fr, depth+1)
			}
		}
	case *ssa.Parameter:
		if b, ok := fr.param(paramIndex(fr.fn, v)); ok {
			if b = follow(b); b.live() {
				return allocOf(b.v, b.fr, depth+1)
			}
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) && fr.free[i].live() {
				return allocOf(fr.free[i].v, fr.free[i].fr, depth+1)
			}
		}
	case *ssa.Call:
		// A pointer method's wrapper checks its receiver for nil, and
		// hands it back.
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "ssa:wrapnilchk" && len(v.Call.Args) > 0 {
			return allocOf(v.Call.Args[0], fr, depth+1)
		}
	}
	return nil, nil, false
}

// fieldStores returns the values stored through a field's address, or
// false if the address is used any other way than to store or load.
func fieldStores(fa *ssa.FieldAddr) ([]ssa.Value, bool) {
	var vals []ssa.Value
	for _, r := range *fa.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != fa {
				return nil, false
			}
			vals = append(vals, r.Val)
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return vals, true
}
