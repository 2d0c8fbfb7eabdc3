package effects

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Handle kinds for parameter parts of a Str: a string parameter, or a
// handle whose SQL or URL is traced back to where it was made.
const (
	handleString uint8 = iota
	handleStmt
	handleReqURL
	handleReqMethod
	handleJobArgs // a River JobArgs value: its type's Kind()
	handleTask    // an *asynq.Task: NewTask's type name
	handleMethod  // the constant result of a method (Part.Lit) of the value's type
	handleBatch   // a *pgx.Batch: the SQL of every statement queued on it
	// handleTypeArg: the constant result of method Part.Lit of the
	// generic body's type argument Part.Param (1-based, the index of its
	// type parameter), read off each instance at its call.
	handleTypeArg
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
	if h == handleJobArgs {
		// A job's args of a concrete type: the type says the kind,
		// however the value was built.
		if _, isParam := v.(*ssa.Parameter); !isParam {
			if s, ok := typeArgString(v.Type(), fr, "Kind"); ok {
				return s // var a A, in another package's generic body
			}
		}
		if _, isTP := v.Type().(*types.TypeParam); !isTP && !types.IsInterface(v.Type()) {
			return e.jobKind(v, fr)
		}
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		idx := paramIndex(fr.fn, v)
		if idx < 0 {
			return unknownStr()
		}
		if h == handleReqURL && e.reqRewritten(v, 0) {
			return unknownStr() // this function changes the request's URL
		}
		if b, ok := fr.param(idx); ok {
			return e.traceB(b, h)
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
				return e.traceB(fr.free[i], h)
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
	case *ssa.MakeInterface:
		if h == handleString && isString(v.X.Type()) {
			return e.trace(v.X, fr, h) // a string handed as any
		}
	case *ssa.Field:
		if bs, ok := e.fieldValues(v, fr); ok {
			return e.traceAll(bs, h)
		}
		return unknownStr()
	case *ssa.UnOp:
		if h == handleStmt {
			if x := sqlxEmbeddedStmt(v); x != nil {
				return e.trace(x, fr, handleStmt) // the statement sqlx's Preparex made
			}
		}
		if bs, ok := e.fieldValues(v, fr); ok {
			return e.traceAll(bs, h)
		}
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL && (h == handleString || h == handleStmt) && !builtHere(fa.X, fr) {
			// An unexported field of the package's own struct, read where
			// the struct was built out of sight (a statement prepared, a
			// table named, in its constructor): every value the package
			// stores to it.
			if s, ok := e.fieldStoredStr(fa, fr, h); ok {
				return s
			}
		}
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
		if ia, ok := v.X.(*ssa.IndexAddr); ok && v.Op == token.MUL {
			// An element of a local array or slice literal only indexed
			// (urls[i%2]): every value stored to any element.
			stores := elemStores(ia.X)
			if len(stores) == 0 {
				return unknownStr()
			}
			var s Str
			for _, st := range stores {
				s = unionStr(s, e.trace(st, fr, h))
			}
			return s
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
	if h == handleString {
		// A statement from a map of them (ops[op], q, ok := ops[op]):
		// every value of a map only its declaration fills.
		var lk *ssa.Lookup
		switch x := v.(type) {
		case *ssa.Lookup:
			if !x.CommaOk {
				lk = x
			}
		case *ssa.Extract:
			if l, ok := x.Tuple.(*ssa.Lookup); ok && x.Index == 0 {
				lk = l
			}
		}
		if lk != nil {
			if _, isMap := lk.X.Type().Underlying().(*types.Map); isMap {
				if vals, ok := e.mapValues(lk.X, fr); ok {
					var s Str
					for _, b := range vals {
						s = unionStr(s, e.trace(b.v, b.fr, h))
					}
					return s
				}
			}
		}
	}
	if s, ok := e.traceReturned(v, fr, h); ok {
		return s
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
	case handleBatch:
		if text, ok := batchSQL(e, v, fr); ok {
			return text
		}
	}
	return unknownStr()
}

// resultOf returns the call whose result v is, and the result's index
// (a call's single result, or one extracted from its tuple); nil when v
// is no call's result.
func resultOf(v ssa.Value) (*ssa.Call, int) {
	switch v := v.(type) {
	case *ssa.Call:
		return v, 0
	case *ssa.Extract:
		call, _ := v.Tuple.(*ssa.Call)
		return call, v.Index
	}
	return nil, 0
}

// traceReturned traces a value a function of this package returns (a
// helper that builds the SQL text, the request, the task): each return
// of the callee, in a frame bound to the call's arguments.
func (e *Engine) traceReturned(v ssa.Value, fr *frame, h uint8) (Str, bool) {
	call, idx := resultOf(v)
	if call == nil {
		return Str{}, false
	}
	key := staticKey(call.Call)
	if _, ok := lib().strings[key]; ok {
		return Str{}, false
	}
	if _, ok := lib().extracts[key]; ok {
		return Str{}, false
	}
	if e.returns >= maxReturns {
		return unknownStr(), true
	}
	cf, rets := e.localReturns(call, fr)
	if cf == nil || len(rets) == 0 {
		return Str{}, false
	}
	e.returns++
	defer func() { e.returns-- }()
	var s Str
	found := false
	for _, ret := range rets {
		if idx >= len(ret.Results) {
			return Str{}, false
		}
		if c, ok := ret.Results[idx].(*ssa.Const); ok && c.IsNil() && h != handleString {
			continue // return nil, err: no request, statement or task to use
		}
		s = unionStr(s, e.trace(ret.Results[idx], cf, h))
		found = true
	}
	if !found {
		return unknownStr(), true
	}
	return s, true
}

// methodResult evaluates the result of calling the no-argument method
// name on v, for the concrete types v may hold: each must have a method
// returning one constant string. A parameter of the function being
// summarised stays symbolic, resolved at each call.
func (e *Engine) methodResult(v ssa.Value, fr *frame, name string) Str {
	if p, ok := v.(*ssa.Parameter); ok && (fr.args == nil || paramIndex(fr.fn, p) >= len(fr.args)) {
		if idx := paramIndex(fr.fn, p); idx >= 0 && (fr.root || fr.retParams) {
			base := 0
			if !fr.root {
				base = retBase
			}
			return Str{Alts: [][]Part{{{Param: base + idx + 1, Handle: handleMethod, Lit: name}}}}
		}
		return unknownStr()
	}
	if s, ok := typeArgString(v.Type(), fr, name); ok {
		return s // zero.Table() in another package's generic body
	}
	if !types.IsInterface(v.Type()) {
		if _, isTP := v.Type().(*types.TypeParam); !isTP {
			if c, ok := e.methodConst(v.Type(), name); ok {
				return litStr(c)
			}
			return unknownStr()
		}
	}
	var ts []target
	if !e.concretes(v, fr, 0, &ts) || len(ts) == 0 {
		// A parameter bound by an inline frame: follow the binding.
		if p, ok := v.(*ssa.Parameter); ok {
			if b, ok := fr.param(paramIndex(fr.fn, p)); ok {
				return e.methodResultB(b, name)
			}
		}
		return unknownStr()
	}
	var s Str
	for _, t := range ts {
		c, ok := "", false
		if t.x != nil {
			c, ok = e.methodConst(t.x.Type(), name)
		}
		if !ok {
			return unknownStr()
		}
		s = unionStr(s, litStr(c))
	}
	return s
}

// traceAll unions the traces of bs.
func (e *Engine) traceAll(bs []binding, h uint8) Str {
	var s Str
	for _, b := range bs {
		s = unionStr(s, e.trace(b.v, b.fr, h))
	}
	return s
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
// when addr is one (an Alloc, possibly captured by a closure) and every
// store to it is visible: none when its address escapes to code that
// could store to it unseen (a helper handed &q), or when a closure that
// captures it assigns it.
func storedValues(addr ssa.Value, fr *frame) []binding {
	for {
		fv, ok := addr.(*ssa.FreeVar)
		if !ok {
			break
		}
		found := false
		for i, x := range fr.fn.FreeVars {
			if x == fv && i < len(fr.free) && fr.free[i].live() {
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
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != alloc {
				return nil // the address is stored away
			}
			out = append(out, binding{v: r.Val, fr: fr})
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			if closureStores(r, alloc) {
				return nil
			}
		default:
			return nil // handed to a call, or kept: it may change unseen
		}
	}
	return out
}

// elemStores returns the values stored to the elements of a local
// array (or the slice of one, a slice literal) whose elements are only
// stored to and loaded, through their addresses: nil if the array or an
// element's address goes anywhere else (a call, a copy, a closure).
func elemStores(x ssa.Value) []ssa.Value { return elemStoresN(x, 0) }

func elemStoresN(x ssa.Value, copies int) []ssa.Value {
	if copies > 4 {
		return nil // arrays copied into each other (a, b = b, a)
	}
	if sl, ok := x.(*ssa.Slice); ok {
		x = sl.X
	}
	alloc, ok := x.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []ssa.Value
	var elems func(refs *[]ssa.Instruction, depth int) bool
	elems = func(refs *[]ssa.Instruction, depth int) bool {
		if refs == nil || depth > 1 {
			return false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.IndexAddr:
				for _, rr := range *r.Referrers() {
					switch rr := rr.(type) {
					case *ssa.Store:
						if rr.Addr != r {
							return false
						}
						out = append(out, rr.Val)
					case *ssa.UnOp:
						if rr.Op != token.MUL {
							return false
						}
					case *ssa.DebugRef:
					default:
						return false
					}
				}
			case *ssa.Slice:
				if !elems(r.Referrers(), depth+1) {
					return false
				}
			case *ssa.Call:
				if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" {
					return false
				}
			case *ssa.UnOp:
				// The whole array read: a copy, which changes nothing here.
				if r.Op != token.MUL || depth > 0 {
					return false
				}
			case *ssa.Store:
				// urls := [2]string{...}: the literal's array copied in.
				ld, ok := r.Val.(*ssa.UnOp)
				if !ok || depth > 0 || ld.Op != token.MUL || ld.X == alloc {
					return false
				}
				src := elemStoresN(ld.X, copies+1)
				if len(src) == 0 {
					return false
				}
				out = append(out, src...)
			default:
				return false
			}
		}
		return true
	}
	if !elems(alloc.Referrers(), 0) {
		return nil
	}
	return out
}

// closureStores reports whether the closure mc, which captures alloc,
// stores to it (or lets its address go further).
func closureStores(mc *ssa.MakeClosure, alloc *ssa.Alloc) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return true
	}
	for i, b := range mc.Bindings {
		if b == alloc && (i >= len(fn.FreeVars) || freeVarStored(fn, i)) {
			return true
		}
	}
	return false
}

// freeVarStored reports whether free variable i of fn is stored to or
// escapes, through nested closures too.
func freeVarStored(fn *ssa.Function, i int) bool {
	for _, r := range *fn.FreeVars[i].Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			inner, ok := r.Fn.(*ssa.Function)
			if !ok {
				return true
			}
			for j, b := range r.Bindings {
				if b == fn.FreeVars[i] && (j >= len(inner.FreeVars) || freeVarStored(inner, j)) {
					return true
				}
			}
		default:
			return true
		}
	}
	return false
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
		if isString(v.X.Type()) || isBytes(v.X.Type()) && onlyRead(v.X) {
			return e.trace(v.X, fr, handleString)
		}
	case *ssa.Call:
		if f, ok := lib().strings[staticKey(v.Call)]; ok {
			return f(e, v.Call.Args, fr)
		}
		if c, ok := e.constCall(v.Call); ok {
			return litStr(c) // "INSERT INTO " + m.TableName()
		}
		if v.Call.IsInvoke() && len(v.Call.Args) == 0 {
			// m.TableName() on an interface or type-parameter value: the
			// constant result of the concrete type's method.
			return e.methodResult(v.Call.Value, fr, v.Call.Method.Name())
		}
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if f, ok := lib().extracts[staticKey(call.Call)]; ok {
				return f(e, call.Call.Args, fr)
			}
		}
	}
	return unknownStr()
}

// constCall evaluates a static call to a function that always returns
// one constant string: in this package from its body, elsewhere from its
// ConstString fact.
func (e *Engine) constCall(c ssa.CallCommon) (string, bool) {
	if c.IsInvoke() {
		return "", false
	}
	fn := c.StaticCallee()
	if fn == nil {
		return "", false
	}
	if len(fn.Blocks) > 0 && pkgOf(fn) == e.Pkg {
		return ConstResult(fn, e.GlobalConst)
	}
	if obj := funcObject(fn); obj != nil && obj.Pkg() != e.Pkg && e.ImportConst != nil {
		return e.ImportConst(obj)
	}
	return "", false
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// onlyRead reports whether a byte slice is only converted back to a
// string or measured: bytes written in place (copy(q[12:], "payout"),
// q[0] = 'x', a helper handed q) are not the text they were made from.
func onlyRead(b ssa.Value) bool {
	refs := b.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Convert, *ssa.DebugRef:
		case *ssa.Call:
			if bi, ok := r.Call.Value.(*ssa.Builtin); !ok || (bi.Name() != "len" && bi.Name() != "cap") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// maxReturns bounds how many helpers' returns a value is followed
// through, one inside another: past it the value is unknown (each level
// can fan out over every return, so the bound keeps the work small).
const maxReturns = 4

// funcSet is what a function value may be.
type funcSet struct {
	callables []callable
	returned  []returned // function values returned by another package's function
	wrapped   []binding  // function arguments of the standard-library call that made the value
	params    []int      // parameters of the root function it may be
	// paramResults: results of calling parameters of the root function
	// it may be (typed := handlerFn(deps)).
	paramResults []paramResult
	elemParams   []int        // slice parameters of the root function it may be an element of (functional options)
	fieldParams  []paramField // fields of struct parameters of the root function it may be
	fromStd      bool         // a function value made by the standard library
	unresolved   bool
}

// paramResult is result index of calling root parameter param.
type paramResult struct{ param, index int }

// returned is a function value that a call into another analysed package
// returned: calling it has the effects of its summary's Returned part.
type returned struct {
	sum      *Summary
	callArgs []ssa.Value // the arguments of the call that returned it
	callFr   *frame
	targs    []types.Type // the type arguments of the generic instance called
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
		if e.depth > maxTrace {
			fs.unresolved = true
		}
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
		b, bound := fr.param(idx)
		switch {
		case idx >= 0 && bound:
			if b = follow(b); b.live() {
				e.collectFuncs(b.v, b.fr, fs, depth+1)
			} else {
				fs.unresolved = true
			}
		case idx >= 0 && fr.root:
			fs.params = append(fs.params, idx)
		case idx >= 0 && fr.retParams:
			fs.params = append(fs.params, retBase+idx)
		default:
			fs.unresolved = true
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) && fr.free[i].live() {
				e.collectFuncs(fr.free[i].v, fr.free[i].fr, fs, depth+1)
				return
			}
		}
		fs.unresolved = true
	case *ssa.Field:
		bs, ok := e.fieldValues(v, fr)
		if !ok {
			if pf, ok := paramFieldOf(v, fr); ok {
				fs.fieldParams = append(fs.fieldParams, pf)
				return
			}
			fs.unresolved = true
			return
		}
		for _, b := range bs {
			e.collectFuncs(b.v, b.fr, fs, depth+1)
		}
	case *ssa.UnOp:
		if v.Op == token.ARROW {
			if vals, ok := chanSends(v.X); ok {
				// Received from a channel of closures the function
				// drains itself: every closure sent on it.
				for _, x := range vals {
					e.collectFuncs(x, fr, fs, depth+1)
				}
				return
			}
		}
		if bs, ok := e.fieldValues(v, fr); ok {
			for _, b := range bs {
				e.collectFuncs(b.v, b.fr, fs, depth+1)
			}
			return
		}
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL && e.fieldFuncs(fa, fr, fs, depth) {
			// An unexported function field only this package writes
			// (a clock: now: time.Now): every value stored to it.
			return
		}
		if pf, ok := paramFieldOf(v, fr); ok {
			fs.fieldParams = append(fs.fieldParams, pf)
			return
		}
		if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
			// var validate = sync.OnceValue(...), var now = time.Now
			if val, ok := e.InitGlobals[g]; ok && e.Prog != nil {
				if init := g.Pkg.Func("init"); init != nil {
					e.collectFuncs(val, &frame{fn: init, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, fs, depth+1)
					return
				}
			}
			if stores, ok := e.globalStores(g); ok {
				// An unexported variable only this package writes (ent's
				// columnCheck, set once under a sync.Once): every value
				// stored to it.
				for _, st := range stores {
					e.collectFuncs(st.Val, &frame{fn: st.Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, fs, depth+1)
				}
				return
			}
			fs.unresolved = true
			return
		}
		if ia, ok := v.X.(*ssa.IndexAddr); ok && v.Op == token.MUL {
			// An element of a slice: of a slice handed in (functional
			// options), or of a slice literal built here.
			e.collectElems(ia.X, fr, fs, depth)
			return
		}
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
			if e.keptResult(v, 0) {
				fs.unresolved = true // what the program put in, out of sight
				return
			}
			// sync.OnceFunc(f) and friends call f when their result is
			// called: the function arguments of the call that made the
			// value count at its call.
			fs.fromStd = true
			for _, a := range v.Call.Args {
				if _, ok := a.Type().Underlying().(*types.Signature); ok {
					fs.wrapped = append(fs.wrapped, binding{v: a, fr: fr})
				}
			}
			return
		}
		if !e.returnedFuncs(v, 0, fr, fs, depth) && !e.importedReturned(v, 0, fr, fs) && !e.dynamicReturned(v, 0, fr, fs, depth) {
			fs.unresolved = true
		}
	case *ssa.Lookup:
		vals, ok := e.mapValues(v.X, fr)
		if !ok {
			fs.unresolved = true
			return
		}
		for _, b := range vals {
			e.collectFuncs(b.v, b.fr, fs, depth+1)
		}
	case *ssa.Extract:
		if lk, ok := v.Tuple.(*ssa.Lookup); ok && v.Index == 0 {
			e.collectFuncs(lk, fr, fs, depth+1)
			return
		}
		if rcv, ok := v.Tuple.(*ssa.UnOp); ok && rcv.Op == token.ARROW && v.Index == 0 {
			e.collectFuncs(rcv, fr, fs, depth+1) // v, ok := <-ch; a range over ch
			return
		}
		if sel, ok := v.Tuple.(*ssa.Select); ok && v.Index >= 2 {
			// A value received in a select: every value sent on its
			// channel, when the function makes and drains it itself.
			if ch := selectRecvChan(sel, v.Index-2); ch != nil {
				if vals, ok := chanSends(ch); ok {
					for _, x := range vals {
						e.collectFuncs(x, fr, fs, depth+1)
					}
					return
				}
			}
		}
		if next, ok := v.Tuple.(*ssa.Next); ok && v.Index == 2 && !next.IsString {
			// The value of a range over a map: every value in it.
			if rg, ok := next.Iter.(*ssa.Range); ok {
				if vals, ok := e.mapValues(rg.X, fr); ok {
					for _, b := range vals {
						e.collectFuncs(b.v, b.fr, fs, depth+1)
					}
					return
				}
			}
		}
		if call, ok := v.Tuple.(*ssa.Call); ok {
			if e.isStdCall(call) {
				if e.keptResult(call, v.Index) {
					fs.unresolved = true
					return
				}
				fs.fromStd = true
				return
			}
			if e.returnedFuncs(call, v.Index, fr, fs, depth) || e.importedReturned(call, v.Index, fr, fs) || e.dynamicReturned(call, v.Index, fr, fs, depth) {
				return
			}
		}
		fs.unresolved = true
	default:
		fs.unresolved = true
	}
}

// globalStores returns every store to g, an unexported package variable
// of this package whose address is used only to load it and store to it
// (nothing else can write it: no other package names it, and no pointer
// to it leaves those instructions). It reports false otherwise, or when
// nothing stores to it.
func (e *Engine) globalStores(g *ssa.Global) ([]*ssa.Store, bool) {
	if e.Prog == nil || g.Pkg == nil || g.Pkg.Pkg != e.Pkg || g.Object() == nil || g.Object().Exported() {
		return nil, false
	}
	if e.globalStoreCache == nil {
		// One pass over the package: the stores to each of its
		// variables, and the variables used any other way (nil).
		e.globalStoreCache = map[*ssa.Global][]*ssa.Store{}
		e.globalLoadCache = map[*ssa.Global][]*ssa.UnOp{}
		bad := map[*ssa.Global]bool{}
		var ops []*ssa.Value
		eachInstr(e.packageFuncs(), func(_ *ssa.Function, instr ssa.Instruction) {
			ops = instr.Operands(ops[:0])
			for k, op := range ops {
				gv, ok := (*op).(*ssa.Global)
				if !ok || gv.Pkg != g.Pkg {
					continue
				}
				switch in := instr.(type) {
				case *ssa.Store:
					if k == 0 && in.Addr == gv { // Operands: Addr, then Val
						e.globalStoreCache[gv] = append(e.globalStoreCache[gv], in)
						continue
					}
				case *ssa.UnOp:
					if in.Op == token.MUL {
						e.globalLoadCache[gv] = append(e.globalLoadCache[gv], in)
						continue
					}
				case *ssa.DebugRef:
					continue
				}
				bad[gv] = true
			}
		})
		for gv := range bad {
			e.globalStoreCache[gv] = nil
		}
	}
	sts := e.globalStoreCache[g]
	return sts, len(sts) > 0
}

// fieldKey names a field of a named struct type.
type fieldKey struct {
	t     *types.Named
	field int
}

// fieldOf returns the field a FieldAddr addresses, when it is an
// unexported field of a non-generic struct type declared in this package:
// only this package's code can write it.
func (e *Engine) fieldOf(fa *ssa.FieldAddr) (fieldKey, bool) {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return fieldKey{}, false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() != e.Pkg || named.TypeParams().Len() > 0 || named.TypeArgs().Len() > 0 {
		return fieldKey{}, false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() || st.Field(fa.Field).Exported() {
		return fieldKey{}, false
	}
	return fieldKey{named, fa.Field}, true
}

// fieldStores returns every store to the field fa addresses, an
// unexported field of a struct type of this package whose address is
// used only to load it and store to it, anywhere in the package (so no
// pointer to it leaves those instructions, and no other package can name
// it). A struct built out of sight (injected into a handler) holds in
// that field one of these values, or the zero value. It reports false
// otherwise, or when nothing stores to it.
func (e *Engine) fieldStores(fa *ssa.FieldAddr) ([]*ssa.Store, bool) {
	if e.Prog == nil {
		return nil, false
	}
	key, ok := e.fieldOf(fa)
	if !ok {
		return nil, false
	}
	if e.fieldStoreCache == nil {
		e.fieldStoreCache = map[fieldKey][]*ssa.Store{}
		bad := map[fieldKey]bool{}
		eachInstr(e.packageFuncs(), func(_ *ssa.Function, instr ssa.Instruction) {
			a, ok := instr.(*ssa.FieldAddr)
			if !ok {
				return
			}
			k, ok := e.fieldOf(a)
			if !ok {
				return
			}
			for _, r := range *a.Referrers() {
				switch r := r.(type) {
				case *ssa.Store:
					if r.Addr == a && r.Val != ssa.Value(a) {
						e.fieldStoreCache[k] = append(e.fieldStoreCache[k], r)
						continue
					}
				case *ssa.UnOp:
					if r.Op == token.MUL {
						continue
					}
				case *ssa.DebugRef:
					continue
				}
				bad[k] = true
			}
		})
		for k := range bad {
			e.fieldStoreCache[k] = nil
		}
	}
	sts := e.fieldStoreCache[key]
	return sts, len(sts) > 0
}

// fieldFuncs adds to fs the function values stored anywhere in this
// package into the field fa addresses (fieldStores), when every one of
// them resolves; it reports whether it did.
func (e *Engine) fieldFuncs(fa *ssa.FieldAddr, fr *frame, fs *funcSet, depth int) bool {
	stores, ok := e.fieldStores(fa)
	if !ok {
		return false
	}
	key, _ := e.fieldOf(fa)
	if e.fieldBusy[key] {
		return false // a field stored from itself: resolved where it started
	}
	if e.fieldBusy == nil {
		e.fieldBusy = map[fieldKey]bool{}
	}
	e.fieldBusy[key] = true
	defer delete(e.fieldBusy, key)
	var sub funcSet
	for _, st := range stores {
		e.collectFuncs(st.Val, &frame{fn: st.Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, &sub, depth+1)
	}
	if sub.unresolved || len(sub.params) > 0 || len(sub.elemParams) > 0 || len(sub.fieldParams) > 0 {
		return false
	}
	fs.callables = append(fs.callables, sub.callables...)
	fs.returned = append(fs.returned, sub.returned...)
	fs.wrapped = append(fs.wrapped, sub.wrapped...)
	fs.fromStd = fs.fromStd || sub.fromStd
	return true
}

// elemsOnlyRead reports whether every load of the package variable g (a
// slice) only reads its elements, ranges over it, takes its length or
// appends to it: no element is replaced behind the stores to g.
func (e *Engine) elemsOnlyRead(g *ssa.Global) bool {
	for _, load := range e.globalLoadCache[g] {
		for _, r := range *load.Referrers() {
			switch r := r.(type) {
			case *ssa.IndexAddr:
				for _, r2 := range *r.Referrers() {
					switch r2.(type) {
					case *ssa.UnOp, *ssa.DebugRef:
					default:
						return false
					}
				}
			case *ssa.Index, *ssa.DebugRef:
			case *ssa.Call:
				b, ok := r.Call.Value.(*ssa.Builtin)
				if !ok || (b.Name() != "len" && b.Name() != "cap" && b.Name() != "append") {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// mapValues returns the values stored into a map made here (a literal or
// make) that nothing else can change: it is only updated, read, and
// handed to the standard library (which does not change it).
func (e *Engine) mapValues(m ssa.Value, fr *frame) ([]binding, bool) {
	if load, ok := m.(*ssa.UnOp); ok && load.Op == token.MUL {
		if g, ok := load.X.(*ssa.Global); ok {
			return e.globalMapValues(g, fr)
		}
		stores := storedValues(load.X, fr)
		if len(stores) != 1 {
			return nil, false
		}
		m, fr = stores[0].v, stores[0].fr
	}
	mm, ok := m.(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	var out []binding
	for _, r := range *mm.Referrers() {
		switch r := r.(type) {
		case *ssa.MapUpdate:
			out = append(out, binding{v: r.Value, fr: fr})
		case *ssa.Lookup, *ssa.DebugRef, *ssa.Store, *ssa.Range, *ssa.ChangeType:
		case *ssa.Call:
			if !e.stdCallee(r.Call) {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return out, len(out) > 0
}

// onlyFuncsArg reports whether every use of v hands it to a template's
// Funcs, which copies the map.
func onlyFuncsArg(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if !funcsCall(r.Call) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// funcsCall reports whether c is a template's Funcs, which copies the
// FuncMap it is handed.
func funcsCall(c ssa.CallCommon) bool {
	switch staticKey(c) {
	case "text/template.Template.Funcs", "html/template.Template.Funcs":
		return true
	}
	return false
}

// globalMapValues returns the values of a map an unexported package
// variable holds (a dispatch table), when only one store sets it, to a
// map made there, and every other use of the variable only reads the map
// (looks it up, ranges over it, takes its length).
func (e *Engine) globalMapValues(g *ssa.Global, fr *frame) ([]binding, bool) {
	stores, ok := e.globalStores(g)
	if !ok || len(stores) != 1 {
		return nil, false
	}
	mm, ok := stores[0].Val.(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	var later []binding // entries set through the variable (formatters[k] = f in init)
	for _, load := range e.globalLoadCache[g] {
		for _, r := range *load.Referrers() {
			switch r := r.(type) {
			case *ssa.Lookup, *ssa.Range, *ssa.DebugRef:
			case *ssa.MapUpdate:
				if r.Map != ssa.Value(load) || r.Value == ssa.Value(load) || r.Key == ssa.Value(load) || !isInit(load.Parent()) {
					return nil, false // a registry others fill at run time (Plug(name, f))
				}
				later = append(later, binding{v: r.Value, fr: &frame{fn: load.Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}})
			case *ssa.Call:
				// len(m) reads; any other call (maps.Copy(m, ...),
				// delete, clear) may change the table.
				if b, ok := r.Call.Value.(*ssa.Builtin); (!ok || b.Name() != "len") && !funcsCall(r.Call) {
					return nil, false
				}
			case *ssa.ChangeType:
				// A template.FuncMap handed to Funcs, which copies it.
				if !onlyFuncsArg(r) {
					return nil, false
				}
			default:
				return nil, false
			}
		}
	}
	vals, _ := e.mapValues(mm, &frame{fn: stores[0].Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}})
	if vals == nil && !onlyFilled(mm) {
		return nil, false
	}
	vals = append(vals, later...)
	return vals, len(vals) > 0
}

// isInit reports whether fn is a package initialiser (func init).
func isInit(fn *ssa.Function) bool {
	return fn.Parent() == nil && fn.Signature.Recv() == nil && (fn.Name() == "init" || strings.HasPrefix(fn.Name(), "init#"))
}

// onlyFilled reports whether the map mm is only stored to a variable
// (its declaration: var m = map[K]V{}), with no entries of its own.
func onlyFilled(mm *ssa.MakeMap) bool {
	for _, r := range *mm.Referrers() {
		switch r.(type) {
		case *ssa.Store, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// collectElems collects the function values a slice may hold.
func (e *Engine) collectElems(sl ssa.Value, fr *frame, fs *funcSet, depth int) {
	if depth > 32 {
		fs.unresolved = true
		return
	}
	if fv, ok := sl.(*ssa.FreeVar); ok {
		for i, x := range fr.fn.FreeVars {
			if x == fv && i < len(fr.free) && fr.free[i].live() {
				e.collectElems(fr.free[i].v, fr.free[i].fr, fs, depth+1)
				return
			}
		}
		fs.unresolved = true
		return
	}
	if p, ok := sl.(*ssa.Parameter); ok {
		idx := paramIndex(fr.fn, p)
		if b, bound := fr.param(idx); bound {
			if b = follow(b); b.live() {
				e.collectElems(b.v, b.fr, fs, depth+1)
				return
			}
			fs.unresolved = true
			return
		}
		switch {
		case idx >= 0 && fr.root:
			fs.elemParams = append(fs.elemParams, idx)
		case idx >= 0 && fr.retParams:
			fs.elemParams = append(fs.elemParams, retBase+idx)
		default:
			fs.unresolved = true
		}
		return
	}
	if c, ok := sl.(*ssa.Const); ok && c.IsNil() {
		return
	}
	if load, ok := sl.(*ssa.UnOp); ok && load.Op == token.MUL {
		if g, ok := load.X.(*ssa.Global); ok {
			// An unexported package variable only this package writes
			// (a hook table its declaration fills, or init appends to):
			// the elements of every value stored to it.
			stores, ok := e.globalStores(g)
			if !ok || !e.elemsOnlyRead(g) {
				fs.unresolved = true
				return
			}
			for _, st := range stores {
				e.collectElems(st.Val, &frame{fn: st.Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, fs, depth+1)
			}
			return
		}
		// A field of a struct built here (a hook list it appends to).
		if _, ok := load.X.(*ssa.FieldAddr); ok {
			if bs, ok := e.fieldValues(load, fr); ok {
				for _, b := range bs {
					e.collectElems(b.v, b.fr, fs, depth+1)
				}
				return
			}
		}
		// A captured or addressed variable holding the slice.
		stores := storedValues(load.X, fr)
		if len(stores) == 0 {
			fs.unresolved = true
		}
		for _, b := range stores {
			e.collectElems(b.v, b.fr, fs, depth+1)
		}
		return
	}
	switch sl.(type) {
	case *ssa.Phi, *ssa.Call:
		// A slice built by appends (steps = append(steps, func() {...})
		// in a loop): the elements of every slice the appends and phis
		// join, provided nothing else can reach them.
		if els, ok := appendedElems(sl); ok {
			for _, el := range els {
				e.collectFuncs(el, fr, fs, depth+1)
			}
			return
		}
		// An append onto what a field of a struct built here holds
		// (hk.after = append(hk.after, f)): the elements of both.
		if call, ok := sl.(*ssa.Call); ok {
			if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(call.Call.Args) == 2 {
				if !e.enter(sl, fr) {
					return // the field's own earlier value: a cycle adds nothing
				}
				defer e.leave(sl, fr)
				e.collectElems(call.Call.Args[0], fr, fs, depth+1)
				e.collectElems(call.Call.Args[1], fr, fs, depth+1)
				return
			}
		}
	}
	els := sliceElems(sl)
	if els == nil {
		fs.unresolved = true
		return
	}
	for _, el := range els {
		e.collectFuncs(el, fr, fs, depth+1)
	}
}

// appendedElems returns the elements of a slice built only by append, in
// one function: the phis and appends that join nil, slice literals and
// appended arguments. It fails when a value of the chain is used any
// other way than appended to, ranged over, indexed for a read, or
// measured: a helper it is handed, or a store into an element, may
// change what it holds out of sight.
func appendedElems(v ssa.Value) ([]ssa.Value, bool) {
	seen := map[ssa.Value]bool{}
	var els []ssa.Value
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if depth > 16 {
			return false
		}
		if seen[v] {
			return true
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Const:
			return v.IsNil()
		case *ssa.Phi:
			for _, ed := range v.Edges {
				if !walk(ed, depth+1) {
					return false
				}
			}
			return true
		case *ssa.Call:
			b, ok := v.Call.Value.(*ssa.Builtin)
			if !ok || b.Name() != "append" || len(v.Call.Args) != 2 {
				return false
			}
			return walk(v.Call.Args[0], depth+1) && walk(v.Call.Args[1], depth+1)
		case *ssa.Slice:
			xs := sliceElems(v)
			if xs == nil {
				return false
			}
			els = append(els, xs...)
			return true
		}
		return false
	}
	if !walk(v, 0) {
		return nil, false
	}
	for x := range seen {
		if _, ok := x.(*ssa.Const); ok {
			continue
		}
		if _, ok := x.(*ssa.Slice); ok {
			continue // a literal's elements: read by sliceElems
		}
		for _, r := range *x.Referrers() {
			switch r := r.(type) {
			case *ssa.Phi:
				if !seen[r] {
					return nil, false
				}
			case *ssa.Call:
				b, ok := r.Call.Value.(*ssa.Builtin)
				if !ok {
					return nil, false
				}
				if b.Name() == "len" || b.Name() == "cap" || b.Name() == "append" && seen[r] {
					continue
				}
				return nil, false
			case *ssa.IndexAddr:
				for _, r2 := range *r.Referrers() {
					if u, ok := r2.(*ssa.UnOp); !ok || u.Op != token.MUL {
						return nil, false
					}
				}
			case *ssa.Range, *ssa.DebugRef:
			default:
				return nil, false
			}
		}
	}
	return els, true
}

// pkgOf is the package whose code fn is: an instance of a generic
// function (whose Pkg is nil) is its origin's.
func pkgOf(fn *ssa.Function) *types.Package {
	if fn.Pkg == nil {
		if o := fn.Origin(); o != nil {
			fn = o
		}
	}
	if fn.Pkg == nil {
		return nil
	}
	return fn.Pkg.Pkg
}

// localReturns gives, for a static call to a function of this package,
// a frame of the callee bound to the call's arguments and the callee's
// return instructions; nil otherwise.
func (e *Engine) localReturns(call *ssa.Call, fr *frame) (*frame, []*ssa.Return) {
	if call.Call.IsInvoke() {
		return nil, nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 || pkgOf(callee) != e.Pkg {
		return nil, nil
	}
	var free []binding
	if mc, ok := call.Call.Value.(*ssa.MakeClosure); ok {
		free = bind(mc.Bindings, fr)
	}
	cf := &frame{fn: callee, args: bind(call.Call.Args, fr), free: free, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}, at: fr.at}
	var rets []*ssa.Return
	for _, b := range callee.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			rets = append(rets, ret)
		}
	}
	return cf, rets
}

// returnedFuncs resolves the function value that result i of call
// returns, when the callee's body is in this package (an iterator
// constructor, a func factory): each returned value is resolved in a
// frame of the callee bound to the call's arguments.
func (e *Engine) returnedFuncs(call *ssa.Call, i int, fr *frame, fs *funcSet, depth int) bool {
	if e.returns >= maxReturns {
		return false
	}
	e.returns++
	defer func() { e.returns-- }()
	cf, rets := e.localReturns(call, fr)
	found := false
	for _, ret := range rets {
		if i < len(ret.Results) {
			e.collectFuncs(ret.Results[i], cf, fs, depth+1)
			found = true
		}
	}
	return found
}

// dynamicReturned resolves the function value that result i of a call
// of a function value returns (typed := handlerFn(deps)): the callee's
// values are resolved, and each, a function or literal with its body in
// this package, has what it returns resolved in a frame bound to the
// call's arguments; a parameter of the root function stays the caller's
// to resolve (Pending.Result).
func (e *Engine) dynamicReturned(call *ssa.Call, i int, fr *frame, fs *funcSet, depth int) bool {
	if call.Call.IsInvoke() || call.Call.StaticCallee() != nil {
		return false
	}
	var callees funcSet
	e.collectFuncs(call.Call.Value, fr, &callees, depth+1)
	for _, p := range callees.params {
		fs.paramResults = append(fs.paramResults, paramResult{p, i})
	}
	callees.params = nil
	return e.resultsOf(callees, bind(call.Call.Args, fr), i, fr, fs, depth)
}

// resultsOf collects into fs the function values result i of calling
// the functions of callees (with args; nil: unknown) returns. It reports
// false when one of them is out of sight.
func (e *Engine) resultsOf(callees funcSet, args []binding, i int, fr *frame, fs *funcSet, depth int) bool {
	if callees.unresolved || len(callees.returned)+len(callees.wrapped)+len(callees.params)+len(callees.elemParams)+len(callees.fieldParams)+len(callees.paramResults) > 0 || callees.fromStd {
		return false
	}
	if e.returns >= maxReturns {
		return false
	}
	e.returns++
	defer func() { e.returns-- }()
	for _, cl := range callees.callables {
		if len(cl.fn.Blocks) == 0 || pkgOf(cl.fn) != e.Pkg {
			return false
		}
		var free []binding
		if mc, ok := cl.value.(*ssa.MakeClosure); ok {
			free = bind(mc.Bindings, cl.fr)
		}
		cf := &frame{fn: cl.fn, args: args, free: free, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}, at: fr.at}
		for _, b := range cl.fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
				e.collectFuncs(ret.Results[i], cf, fs, depth+1)
			}
		}
	}
	return true
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
	fs.returned = append(fs.returned, returned{sum: s.Returned, callArgs: call.Call.Args, callFr: fr, targs: typeArgsOf(obj, callee)})
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
	return obj.Pkg() != e.Pkg && (e.Analysed == nil || !e.Analysed(obj.Pkg()) || lib().modelled(obj.Pkg().Path()))
}

// String describes the site for debugging.
func (p Pending) String() string { return fmt.Sprintf("%d %s at %s", p.Op, p.Text, p.Pos) }

// elemStep in a paramField's path stands for any element of a slice
// (or array).
const elemStep = -1

// maxFieldPath bounds a paramField's path.
const maxFieldPath = 8

// paramField is a field, at a path of struct fields (and slice
// elements), of a parameter of the function being summarised.
type paramField struct {
	param int
	path  []int
}

// paramFieldOf reports whether v is a field of a parameter of the root
// function being summarised (opts.Body, cfg.Store.Reader, p.hooks.OnDone):
// a value read from a struct the caller built.
func paramFieldOf(v ssa.Value, fr *frame) (paramField, bool) {
	var path []int
	for i := 0; i < 8 && fr != nil; i++ {
		switch x := v.(type) {
		case *ssa.Field:
			path = append(path, x.Field)
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return paramField{}, false
			}
			switch a := x.X.(type) {
			case *ssa.FieldAddr:
				path = append(path, a.Field)
				v = a.X
			case *ssa.IndexAddr:
				path = append(path, elemStep)
				v = a.X
			default:
				return paramField{}, false
			}
		case *ssa.Index:
			path = append(path, elemStep)
			v = x.X
		case *ssa.FieldAddr:
			path = append(path, x.Field)
			v = x.X
		case *ssa.Alloc:
			// A parameter spilled to a variable (a closure captures it):
			// the value its one store puts there.
			var val ssa.Value
			for _, r := range *x.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == x {
					if val != nil {
						return paramField{}, false
					}
					val = st.Val
				}
			}
			if _, isParam := val.(*ssa.Parameter); !isParam {
				return paramField{}, false
			}
			v = val
		case *ssa.FreeVar:
			// A closure's capture: what the frame that made it bound.
			found := false
			for j, fv := range fr.fn.FreeVars {
				if fv == x && j < len(fr.free) && fr.free[j].live() {
					b := follow(fr.free[j])
					v, fr, found = b.v, b.fr, true
					break
				}
			}
			if !found {
				return paramField{}, false
			}
		case *ssa.Parameter:
			if b, bound := fr.param(paramIndex(fr.fn, x)); bound {
				if b = follow(b); b.live() {
					v, fr = b.v, b.fr
					continue
				}
				return paramField{}, false
			}
			idx, ok := rootParam(binding{v: x, fr: fr})
			if !ok || len(path) == 0 {
				return paramField{}, false
			}
			slices.Reverse(path)
			return paramField{param: idx, path: path}, true
		default:
			return paramField{}, false
		}
	}
	return paramField{}, false
}

// fieldsOf follows a path of struct fields from b, the caller's value of
// a parameter: to the values stored there (done), or to a field of the
// caller's own parameter (up: the question passes to its callers).
//
// except is the call being resolved: it reads the struct it is handed.
func (e *Engine) fieldsOf(b binding, path []int, except ssa.Instruction) (done []binding, up []paramField, ok bool) {
	b = follow(b)
	if !b.live() {
		return nil, nil, false
	}
	if len(path) > 0 {
		// A struct a closure captured: the value it was bound to.
		if u := unfree(b); u.live() {
			b = follow(u)
		}
		if load, ok := b.v.(*ssa.UnOp); ok && load.Op == token.MUL {
			if _, isPtr := load.Type().Underlying().(*types.Pointer); isPtr {
				// A pointer read from its variable (a closure's
				// captured cell): every pointer stored to it.
				if stores := storedValues(load.X, b.fr); len(stores) > 0 {
					if !e.enter(load, b.fr) {
						return nil, nil, false // a cycle through the variable
					}
					defer e.leave(load, b.fr)
					for _, st := range stores {
						d, u, ok := e.fieldsOf(st, path, except)
						if !ok {
							return nil, nil, false
						}
						done, up = append(done, d...), append(up, u...)
					}
					return done, up, true
				}
			}
		}
	}
	if idx, isParam := rootParam(b); isParam {
		return nil, []paramField{{param: idx, path: path}}, true
	}
	if len(path) == 0 {
		return []binding{b}, nil, true
	}
	if pf, isField := paramFieldOf(b.v, b.fr); isField {
		if len(pf.path)+len(path) > maxFieldPath {
			return nil, nil, false // a path growing through recursion: cut
		}
		return nil, []paramField{{param: pf.param, path: append(slices.Clone(pf.path), path...)}}, true
	}
	var bs []binding
	v := b.v
	if path[0] == elemStep {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			return nil, nil, true // a variadic call with no arguments: no elements
		}
		// The elements of a slice literal or a variadic array built here.
		els := sliceElems(v)
		if len(els) == 0 {
			return nil, nil, false
		}
		for _, el := range els {
			bs = append(bs, binding{v: el, fr: b.fr})
		}
	} else if call, ok := v.(*ssa.Call); ok {
		// Built by a constructor: the parameter its summary says the
		// field holds, bound to this call's argument.
		arg, found := e.resultField(call, path[0])
		if !found {
			return nil, nil, false
		}
		after, ok := writtenAfter(call, path[0])
		if !ok {
			return nil, nil, false
		}
		bs = append(bs, binding{v: arg, fr: b.fr})
		for _, v := range after {
			bs = append(bs, binding{v: v, fr: b.fr})
		}
	} else {
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			v = load.X // a struct value loaded from its variable
		}
		alloc, afr, found := allocOf(v, b.fr, 0)
		if !found || !fieldOfAllocAt(alloc, path[0], afr, 0, &bs, except) {
			return nil, nil, false // (none stored: the field is nil)
		}
	}
	for _, x := range bs {
		d, u, ok := e.fieldsOf(x, path[1:], except)
		if !ok {
			return nil, nil, false
		}
		done, up = append(done, d...), append(up, u...)
	}
	return done, up, true
}

// slotOf names the struct field at the end of path from a value of type
// t ("net/http.Client.CheckRedirect"), or "" when the path leaves the
// types (a changed parameter type) or ends in an unnamed struct.
func slotOf(t types.Type, path []int) string {
	for i, step := range path {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if step == elemStep {
			switch u := t.Underlying().(type) {
			case *types.Slice:
				t = u.Elem()
			case *types.Array:
				t = u.Elem()
			case *types.Map:
				t = u.Elem()
			default:
				return ""
			}
			continue
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || step < 0 || step >= st.NumFields() {
			return ""
		}
		if i == len(path)-1 {
			n, ok := types.Unalias(t).(*types.Named)
			if !ok || n.Obj().Pkg() == nil {
				return ""
			}
			return SlotName(n, st.Field(step).Name())
		}
		t = st.Field(step).Type()
	}
	return ""
}

// SlotName is the name Effect.Slot gives field of the struct type n.
func SlotName(n *types.Named, field string) string {
	n = n.Origin()
	return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + field
}

// resultField returns the argument of call that field f of the struct
// its callee returns holds (Summary.ResultFields).
func (e *Engine) resultField(call *ssa.Call, f int) (ssa.Value, bool) {
	s := e.calleeSummary(&call.Call)
	if s == nil {
		return nil, false
	}
	for _, fs := range s.ResultFields {
		if fs.Field != f {
			continue
		}
		switch {
		case fs.Param >= 0 && fs.Param < len(call.Call.Args):
			return call.Call.Args[fs.Param], true
		case fs.Param == FieldFunc:
			if fn := e.funcNamed(fs.Func); fn != nil {
				return fn, true
			}
		case fs.Param == FieldNil:
			t := call.Type()
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			if st, ok := t.Underlying().(*types.Struct); ok && f < st.NumFields() {
				return ssa.NewConst(nil, st.Field(f).Type()), true
			}
		}
		return nil, false
	}
	return nil, false
}

// writtenAfter returns what the caller stores into field f of the
// struct call returns (q := New(db); q.hook = h), to be joined with what
// the constructor put there; false when the field's address is handed
// on.
func writtenAfter(call *ssa.Call, f int) ([]ssa.Value, bool) {
	var vals []ssa.Value
	for _, r := range *call.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Field != f {
			continue
		}
		for _, r2 := range *fa.Referrers() {
			switch r2 := r2.(type) {
			case *ssa.Store:
				if r2.Addr != fa {
					return nil, false
				}
				vals = append(vals, r2.Val)
			case *ssa.UnOp, *ssa.DebugRef:
			default:
				return nil, false
			}
		}
	}
	return vals, true
}

// funcNamed returns the package-level function "pkgpath.Name" of a
// package the program holds, or nil.
func (e *Engine) funcNamed(name string) *ssa.Function {
	i := strings.LastIndex(name, ".")
	if i < 0 || e.Prog == nil {
		return nil
	}
	path, member := name[:i], name[i+1:]
	var pkg *ssa.Package
	if e.Pkg != nil && e.Pkg.Path() == path {
		pkg = e.Prog.Package(e.Pkg)
	} else {
		pkg = e.Prog.ImportedPackage(path)
	}
	if pkg == nil {
		return nil
	}
	fn, _ := pkg.Members[member].(*ssa.Function)
	return fn
}

// fieldStoredStr traces, as h, every value the package stores to the
// unexported field fa addresses (fieldStores), each in a frame of the
// function that stores it, when they agree on one text; false when
// there are none, when they differ, or when the field is not one the
// package alone writes.
func (e *Engine) fieldStoredStr(fa *ssa.FieldAddr, fr *frame, h uint8) (Str, bool) {
	sts, ok := e.fieldStores(fa)
	if !ok || len(sts) == 0 {
		return Str{}, false
	}
	key, _ := e.fieldOf(fa)
	if e.fieldBusy[key] {
		return unknownStr(), true
	}
	if e.fieldBusy == nil {
		e.fieldBusy = map[fieldKey]bool{}
	}
	e.fieldBusy[key] = true
	defer delete(e.fieldBusy, key)
	var out Str
	for _, st := range sts {
		sf := &frame{fn: st.Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}
		out = unionStr(out, e.trace(st.Val, sf, h))
	}
	if len(out.Alts) != 1 {
		// Objects built with different texts: which one this is, only
		// the code that built it knows (the field is not per object).
		return Str{}, false
	}
	return out, true
}

// builtHere reports whether the struct x points to may have been built
// where the walk sees it: anything but a chain of field reads from a
// parameter no call binds (the handler's receiver, a dependency handed
// in) or a captured variable of one. Only such a struct's fields hold
// what the package stores to them.
func builtHere(x ssa.Value, fr *frame) bool {
	for i := 0; i < 16 && fr != nil; i++ {
		switch v := x.(type) {
		case *ssa.UnOp:
			fa, ok := v.X.(*ssa.FieldAddr)
			if !ok || v.Op != token.MUL {
				return true
			}
			x = fa.X
		case *ssa.Field:
			x = v.X
		case *ssa.Parameter:
			b, ok := fr.param(paramIndex(fr.fn, v))
			if !ok {
				return false // out of sight
			}
			if b = follow(b); !b.live() {
				return false
			}
			x, fr = b.v, b.fr
		case *ssa.FreeVar:
			b := unfree(binding{v: v, fr: fr})
			if _, still := b.v.(*ssa.FreeVar); still || !b.live() {
				return false
			}
			x, fr = b.v, b.fr
		default:
			return true
		}
	}
	return true
}

// selectRecvChan returns the channel of a select's i-th receive state.
func selectRecvChan(sel *ssa.Select, i int) ssa.Value {
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			continue
		}
		if i == 0 {
			return st.Chan
		}
		i--
	}
	return nil
}
