package effects

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// invoke handles a call through an interface method.
func (e *Engine) invoke(c *ssa.CallCommon, pos token.Pos, fr *frame, out *collector) {
	m := c.Method
	recv := binding{v: c.Value, fr: fr}
	if m.Pkg() == nil && m.Name() == "Error" {
		// The universe error interface: ignored, unless an error type
		// with an effect is in reach; then it is a benign interface.
		if e.errorsAct() && !e.callMethodOn(recv, m.Name(), nil, pos, fr, out) && !e.resultMethod(recv, m.Name(), nil, pos, fr, out) {
			e.benignUnresolved(c.Value.Type(), m, recv, nil, pos, fr, out)
		}
		return
	}
	decl := ""
	if recv := m.Signature().Recv(); recv != nil {
		decl = qualifiedName(recv.Type())
	}
	static := qualifiedName(c.Value.Type())
	args := bind(c.Args, fr)
	site := &callSite{e: e, fn: m, args: append([]binding{recv}, args...), pos: pos, fr: fr, out: out}
	for _, name := range embeddedIfaces(c.Value.Type(), decl, len(e.Opts.Sinks) > 0) {
		// A sink configured on the interface method: whatever the value.
		// The user's configuration wins over authvet's own model.
		if s, ok := e.Opts.Sinks[name+"."+m.Name()]; ok {
			e.configuredSink(s, site)
			site.handOffContexts()
			return
		}
	}
	if s, ok := e.librarySink(m); ok {
		e.configuredSink(s, site)
		site.handOffContexts()
		return
	}
	for _, name := range []string{decl, static} {
		if md := lib().ifaceModels[name+"."+m.Name()]; md != nil && name != "" {
			md(site)
			site.handOffContexts()
			return
		}
	}
	if e.Contract != nil {
		if ct := e.Contract(m); ct != nil {
			// Bounded by the contract, however the value got here: every
			// conversion the analysis sees is checked against it, and an
			// assertion from another interface is checked against every
			// implementation the package can see (SPEC §4.1).
			ct.bounded(e, pos, out)
			return
		}
	}
	// Every concrete value the interface may hold is visible: call the
	// method on each (a benign interface included: the value is known).
	if e.callMethodOn(recv, m.Name(), args, pos, fr, out) {
		return
	}
	if e.closedIface(c.Value.Type(), m, args, pos, fr, out) {
		return
	}
	if e.resultMethod(recv, m.Name(), args, pos, fr, out) {
		return
	}
	if md, sqlArg := shapeOf(m); md != nil {
		if idx, ok := rootParam(assertedParam(recv)); ok && sqlArg >= 0 {
			p := Pending{Op: OpCallMethod, Param: idx, Name: m.Name(), ShapeArg: sqlArg + 1, InTx: e.inTransaction(fr), Pos: e.pos(pos), Module: e.Module}
			for _, a := range args {
				p.Args = append(p.Args, e.recordArg(a))
			}
			out.addPending(p)
			return
		}
		if k, ok := rootTypeParam(c.Value.Type(), fr); ok {
			// A value of a type parameter (a generic repository's DB
			// field) in a body summarised for other packages: the
			// shape's SQL runs whatever the type argument, and a type
			// argument of the program's own (a wrapper that also
			// deletes) adds what its method does at each instance.
			p := Pending{Op: OpCallMethod, Param: typeArgBase + k, Name: m.Name(), InTx: e.inTransaction(fr), Pos: e.pos(pos), Module: e.Module}
			for _, a := range args {
				p.Args = append(p.Args, e.recordArg(a))
			}
			out.addPending(p)
		}
		md(site)
		site.handOffContexts()
		return
	}
	for _, shape := range lib().shapes {
		if md := shape(m); md != nil {
			md(site)
			site.handOffContexts()
			return
		}
	}
	sink := (e.isSinkInterface(decl) || e.isSinkInterface(static)) && !e.isBenign(decl)
	if !sink && (e.isBenign(decl) || e.isBenign(static) || lib().readerInterface(decl) || static == "" && e.benignShape(c.Value.Type())) {
		e.benignUnresolved(c.Value.Type(), m, recv, args, pos, fr, out)
		return
	}
	iface := static
	if iface == "" {
		iface = decl
	}
	if iface == "" {
		iface = types.TypeString(c.Value.Type(), func(p *types.Package) string { return p.Name() })
	}
	reason := fmt.Sprintf("calls %s through the interface %s, which the analysis cannot resolve to analysable bodies", m.Name(), shortName(iface))
	if e.methodOnParam(recv, m.Name(), reason, args, pos, fr, out) {
		return
	}
	if k, ok := rootTypeParam(c.Value.Type(), fr); ok {
		// A value of a type parameter in a generic body summarised for
		// other packages: each instance's type argument has the method.
		p := Pending{Op: OpCallMethod, Param: typeArgBase + k, Name: m.Name(), Reason: reason, InTx: e.inTransaction(fr), Pos: e.pos(pos), Module: e.Module}
		for _, a := range args {
			rec := e.recordArg(a)
			if rec.Param == 0 {
				e.handOffValue(a, nil, pos, fr, out, callFlags{})
			}
			p.Args = append(p.Args, rec)
		}
		out.addPending(p)
		return
	}
	u := e.unprovable(pos, reason, dynamicFix)
	u.Slot = methodSlot(c.Value.Type(), m.Name())
	out.add(u)
}

// methodSlot names method name of the named interface t as Effect.Slot
// does ("pkgpath.Iface.Method()"), or "" for an unnamed interface.
func methodSlot(t types.Type, name string) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !types.IsInterface(n) {
		return ""
	}
	n = n.Origin()
	return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + name + "()"
}

// methodOnParam leaves a call of method name on recv to the caller when
// recv is a parameter of the function being summarised, or a field or
// element of one (opts.Store, items[i]): the caller may know the concrete
// value. With reason "", a caller that cannot resolve it either drops it.
// Function values handed to the method count here (it may call them).
func (e *Engine) methodOnParam(recv binding, name, reason string, args []binding, pos token.Pos, fr *frame, out *collector) bool {
	vfr := fr // the frame recv is read in
	if recv = unfree(recv); recv.fr != nil {
		// A closure's captured variable is the value it was bound to: a
		// parameter of the function that made the closure.
		vfr = recv.fr
	}
	if ld, ok := recv.v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		// A parameter the closure captures through its cell (a
		// middleware's next, read by the handler literal it returns).
		if st := storedValues(ld.X, vfr); len(st) == 1 {
			if _, isParam := st[0].v.(*ssa.Parameter); isParam && st[0].fr != nil {
				recv, vfr = st[0], st[0].fr
			}
		}
	}
	pf, ok := paramFieldOf(recv.v, vfr)
	if idx, isParam := rootParam(assertedParam(recv)); isParam {
		pf, ok = paramField{param: idx}, true
	}
	pfs := []paramField{pf}
	if !ok {
		// A field of a struct built where the analysis sees it, holding a
		// parameter (a status-recording wrapper around the handler's own
		// ResponseWriter, whose promoted Write calls the wrapped one).
		base, path := fieldPath(recv.v)
		if len(path) == 0 {
			return false
		}
		// The struct is handed to the call the walk is inside of (its
		// frame's current instruction): that call reads it.
		var except ssa.Instruction
		if _, afr, ok := allocOf(base, vfr, 0); ok {
			except = afr.cur
		}
		done, up, found := e.fieldsOf(binding{v: base, fr: vfr}, path, except)
		if !found {
			return false
		}
		// The field holds a parameter of a function walked inline (a
		// wrapper's constructor): the value that parameter is bound to.
		for _, d := range done {
			d = boundArg(d)
			idx, isParam := rootParam(follow(d))
			if !isParam {
				return false
			}
			up = append(up, paramField{param: idx})
		}
		if len(up) == 0 {
			return false
		}
		pfs = up
	}
	var recs []Arg
	for _, a := range args {
		rec := e.recordArg(a)
		if rec.Param == 0 {
			e.handOffValue(a, nil, pos, fr, out, callFlags{})
		}
		recs = append(recs, rec)
	}
	if vfr != nil && vfr.ctor && vfr.retParams && len(pfs) == 1 && pfs[0].param >= retBase && len(pfs[0].path) == 0 {
		if m := lookupMethod(recv.v.Type(), name); m != nil && requestShaped(m.Signature()) {
			// A middleware's call of the handler it wraps (next.ServeHTTP):
			// that handler is the constructor's, walked where it is made;
			// unresolved here, it adds nothing of its own.
			reason = ""
		}
	}
	q, _ := recv.v.(*ssa.Parameter)
	invoked := q != nil && len(pfs) == 1 && len(pfs[0].path) == 0 && onlyInvokedParam(q)
	for _, pf := range pfs {
		p := Pending{Op: OpCallMethod, Param: pf.param, Fields: pf.path, Name: name, Reason: reason, InTx: e.inTransaction(fr), Pos: e.pos(pos), Module: e.Module, Args: recs, Invoked: invoked}
		if reason != "" {
			p.Slot = methodSlot(recv.v.Type(), name)
		}
		out.addPending(p)
	}
	return true
}

// fieldPath peels the struct field reads off v: the value they start
// from, and the fields read, outermost first.
func fieldPath(v ssa.Value) (ssa.Value, []int) {
	var path []int
	for i := 0; i < 8; i++ {
		switch x := v.(type) {
		case *ssa.Field:
			path = append(path, x.Field)
			v = x.X
			continue
		case *ssa.UnOp:
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
				path = append(path, fa.Field)
				v = fa.X
				continue
			}
		}
		break
	}
	slices.Reverse(path)
	return v, path
}

// benignUnresolved handles a call through a benign interface (io.Closer,
// io.Writer) whose value the analysis cannot see. Benign means the
// implementations the program gets from elsewhere are harmless; the
// program's own may not be. On a parameter, the caller resolves what it
// hands over (closeAll(locks...)), and drops the call if it cannot
// either. Elsewhere, if a type of this package implements the interface
// with an effect in that method, the value may be one of those: the call
// is unprovable.
func (e *Engine) benignUnresolved(t types.Type, m *types.Func, recv binding, args []binding, pos token.Pos, fr *frame, out *collector) {
	if e.methodOnParam(recv, m.Name(), "", args, pos, fr, out) {
		return
	}
	if impl := e.effectfulImpl(t, m.Name()); impl != "" {
		name := shortName(qualifiedName(t))
		if name == "" {
			name = types.TypeString(t, func(p *types.Package) string { return p.Name() })
		}
		out.add(e.unprovable(pos, fmt.Sprintf("calls %s through the interface %s, which %s of this package implements with effects, and the analysis cannot tell which value it holds",
			m.Name(), name, impl), dynamicFix))
	}
}

// effectfulImpl names a type of this package that implements the
// interface t and whose method name has an effect, or returns "".
func (e *Engine) effectfulImpl(t types.Type, name string) string {
	it, ok := t.Underlying().(*types.Interface)
	if !ok || e.Prog == nil || e.Pkg == nil || lib().modelled(e.Pkg.Path()) {
		return "" // a modelled library's own types are its models' business
	}
	for _, cand := range e.implementersOf(it) {
		_, fn := e.methodOf(cand, name)
		if fn == nil || pkgOf(fn) != e.Pkg {
			continue
		}
		if s := e.local(fn); s != nil && acts(s) {
			return types.TypeString(cand, func(p *types.Package) string { return "" })
		}
	}
	return ""
}

// acts reports whether a summary has a site that counts on its own: an
// effect, or a pending site other than a method call on a parameter that
// its caller drops when it cannot resolve it either (a wrapper's
// WriteHeader calling the ResponseWriter it wraps, which is itself
// judged where it is made).
func acts(s *Summary) bool {
	if len(s.Effects) > 0 {
		return true
	}
	for i := range s.Pending {
		if p := &s.Pending[i]; p.Op != OpCallMethod || p.Reason != "" {
			return true
		}
	}
	return false
}

// implementersOf lists the types of this package that implement it: its
// named types and pointers to them, then the types its code converts to
// an interface. It is computed once per interface: a benign call on a
// large package would otherwise test every type each time.
func (e *Engine) implementersOf(it *types.Interface) []types.Type {
	if impls, ok := e.implementers[it]; ok {
		return impls
	}
	impls := []types.Type{}
	for _, cands := range [][]types.Type{e.namedTypes(), e.convertedTypes()} {
		for _, cand := range cands {
			if !types.IsInterface(cand) && types.Implements(cand, it) {
				impls = append(impls, cand)
			}
		}
	}
	if e.implementers == nil {
		e.implementers = map[*types.Interface][]types.Type{}
	}
	e.implementers[it] = impls
	return impls
}

// namedTypes lists the package's named non-interface types, each
// followed by its pointer, in scope order.
func (e *Engine) namedTypes() []types.Type {
	if e.scopeTypes == nil {
		e.scopeTypes = []types.Type{}
		sc := e.Pkg.Scope()
		for _, n := range sc.Names() {
			if tn, ok := sc.Lookup(n).(*types.TypeName); ok && !tn.IsAlias() && !types.IsInterface(tn.Type()) {
				e.scopeTypes = append(e.scopeTypes, tn.Type(), types.NewPointer(tn.Type()))
			}
		}
	}
	return e.scopeTypes
}

// resultMethod resolves a call through an interface value another
// package's function returned, by that function's ResultMethods: every
// value it may return is known there. It reports whether it did.
func (e *Engine) resultMethod(recv binding, name string, args []binding, pos token.Pos, fr *frame, out *collector) bool {
	return e.resultMethods(recv, []string{name}, args, pos, fr, out)
}

// resultMethods is resultMethod for each of names, the values found once.
func (e *Engine) resultMethods(recv binding, names []string, args []binding, pos token.Pos, fr *frame, out *collector) bool {
	recv = follow(recv)
	if !recv.live() {
		return false
	}
	type found struct {
		call *ssa.Call
		sum  *Summary
		fr   *frame
	}
	var all []found
	// Through a function of this package that returns what another
	// package's function returned (func errFrom(a) error { return
	// service.Fail(a.db, "x") }): every value it returns must be one.
	var walk func(v ssa.Value, vfr *frame, depth int) bool
	walk = func(v ssa.Value, vfr *frame, depth int) bool {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			return true
		}
		if call, s := e.importedResult(v); s != nil {
			all = append(all, found{call, s, vfr})
			return true
		}
		call, idx := resultOf(v)
		if depth > 4 || call == nil || call.Call.IsInvoke() {
			return false
		}
		callee := call.Call.StaticCallee()
		if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != e.Pkg || len(callee.Blocks) == 0 || vfr.onStack(callee) {
			return false
		}
		cf := &frame{fn: callee, args: bind(call.Call.Args, vfr), parent: vfr, depth: vfr.depth + 1, visiting: map[ssa.Value]bool{}}
		any := false
		for _, b := range callee.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && idx < len(ret.Results) {
				if !walk(ret.Results[idx], cf, depth+1) {
					return false
				}
				any = true
			}
		}
		return any
	}
	v := recv.v
	for {
		ci, ok := v.(*ssa.ChangeInterface)
		if !ok {
			break
		}
		v = ci.X
	}
	if !walk(v, recv.fr, 0) || len(all) == 0 {
		return false
	}
	e.handOff(nil, args, pos, fr, out)
	for _, f := range all {
		for _, ms := range f.sum.ResultMethods {
			if slices.Contains(names, ms.Name) {
				e.instantiateAt(ms.Sum, &instCtx{args: bind(f.call.Call.Args, f.fr)}, pos, fr, out)
			}
		}
	}
	return true
}

// importedResult returns the call into another analysed package whose
// result v is (through interface changes), and that function's summary,
// when the summary lists the methods of that result (ResultMethods).
func (e *Engine) importedResult(v ssa.Value) (*ssa.Call, *Summary) {
	if e.Import == nil {
		return nil, nil
	}
	for {
		ci, ok := v.(*ssa.ChangeInterface)
		if !ok {
			break
		}
		v = ci.X
	}
	call, idx := resultOf(v)
	if call == nil || call.Call.IsInvoke() || call.Call.StaticCallee() == nil {
		return nil, nil
	}
	obj := funcObject(call.Call.StaticCallee())
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == e.Pkg || e.Analysed == nil || !e.Analysed(obj.Pkg()) {
		return nil, nil
	}
	s := e.Import(obj)
	if s == nil || s.ResultMethodsAt != idx+1 {
		return nil, nil
	}
	return call, s
}

// closedIface resolves a call through an interface only this package can
// implement (unexported, or with an unexported method): every type of the
// package that implements it, with the receiver unknown. It reports
// whether it did.
func (e *Engine) closedIface(t types.Type, m *types.Func, args []binding, pos token.Pos, fr *frame, out *collector) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != e.Pkg || e.Prog == nil {
		return false
	}
	it, ok := n.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	closed := false
	for i := 0; i < it.NumMethods() && !closed; i++ {
		closed = !it.Method(i).Exported()
	}
	// An unexported interface whose methods are all exported is closed
	// only while no other package can hand in a value of it: it is in no
	// parameter of an exported function or method, and no exported field
	// or variable. Otherwise a type of any package may fit it
	// (h.New(db, evil.Purge{})).
	if !closed && !n.Obj().Exported() {
		closed = !e.ifaceExposed(n)
	}
	if !closed {
		return false
	}
	impls := e.closedImpls(n, it)
	if len(impls) > maxTargets {
		return false
	}
	for _, impl := range impls {
		if e.delegates(impl, m) {
			continue // it forwards to another implementation, walked in its own right
		}
		obj, fn := e.methodOf(impl, m.Name())
		if obj == nil {
			return false
		}
		e.callObjOrWrapper(obj, fn, append([]binding{{}}, args...), pos, fr, out)
	}
	return true
}

// closedImpls lists the package's implementations of its own closed
// interface n: its named types (and pointers to them), and the types
// its code converts to an interface.
func (e *Engine) closedImpls(n *types.Named, it *types.Interface) []types.Type {
	if impls, ok := e.impls[n]; ok {
		return impls
	}
	var impls []types.Type
	seen := map[types.Type]bool{}
	consider := func(cands ...types.Type) {
		for _, cand := range cands {
			if !seen[cand] && !types.IsInterface(cand) && types.Implements(cand, it) {
				seen[cand] = true
				impls = append(impls, cand)
				return
			}
		}
	}
	named := e.namedTypes()
	for i := 0; i+1 < len(named); i += 2 {
		consider(named[i], named[i+1])
	}
	// Types declared inside functions are converted where they are used.
	for _, t := range e.convertedTypes() {
		consider(t)
	}
	if e.impls == nil {
		e.impls = map[*types.Named][]types.Type{}
	}
	e.impls[n] = impls
	return impls
}

// delegates reports whether method m of t is promoted from an embedded
// interface (a decorator forwarding to what it wraps).
func (e *Engine) delegates(t types.Type, m *types.Func) bool {
	sel := e.Prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name())
	if sel == nil || len(sel.Index()) < 2 {
		return false
	}
	cur := t
	for _, idx := range sel.Index()[:len(sel.Index())-1] {
		if p, ok := cur.(*types.Pointer); ok {
			cur = p.Elem()
		}
		st, ok := cur.Underlying().(*types.Struct)
		if !ok || idx >= st.NumFields() {
			return false
		}
		cur = st.Field(idx).Type()
		if types.IsInterface(cur) {
			return true
		}
	}
	return false
}

// convertedTypes lists the concrete types the package's code converts to
// an interface.
func (e *Engine) convertedTypes() []types.Type {
	if e.converted != nil {
		return e.converted
	}
	e.converted = []types.Type{}
	seen := map[types.Type]bool{}
	for _, mi := range Conversions(e.packageFuncs()) {
		if t := mi.X.Type(); !seen[t] && !types.IsInterface(t) {
			seen[t] = true
			e.converted = append(e.converted, t)
		}
	}
	return e.converted
}

// members lists the package's members in name order: ssa.Package's
// Members is a map, and the order the walk meets functions and types in
// decides, past a budget or a recursion cut, which of two chains a site
// is reported through. Output must not depend on map order.
func members(pkg *ssa.Package) []ssa.Member {
	names := make([]string, 0, len(pkg.Members))
	for n := range pkg.Members {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]ssa.Member, len(names))
	for i, n := range names {
		out[i] = pkg.Members[n]
	}
	return out
}

// packageFuncs lists the package's functions and the methods of its
// types (their closures are reached through AnonFuncs).
func (e *Engine) packageFuncs() []*ssa.Function {
	spkg := e.Prog.Package(e.Pkg)
	if spkg == nil {
		return nil
	}
	var fns []*ssa.Function
	for _, m := range members(spkg) {
		switch m := m.(type) {
		case *ssa.Function:
			fns = append(fns, m)
		case *ssa.Type:
			for _, t := range []types.Type{m.Type(), types.NewPointer(m.Type())} {
				ms := e.Prog.MethodSets.MethodSet(t)
				for i := 0; i < ms.Len(); i++ {
					if fn := e.Prog.MethodValue(ms.At(i)); fn != nil && fn.Pkg == spkg {
						fns = append(fns, fn)
					}
				}
			}
		}
	}
	return fns
}

// dynamicFix is the fix of an unresolved call through an interface.
const dynamicFix = "declare the statement with //agent:effect, add an effect contract to the interface method, or list the interface in benign_interfaces"

// callMethodOn calls method name, with args, on each concrete value recv
// may hold, when the analysis sees them all; it reports whether it did.
// A value of a modelled type (a *sql.DB handed as a repository's DBTX)
// goes through the model of its method.
func (e *Engine) callMethodOn(recv binding, name string, args []binding, pos token.Pos, fr *frame, out *collector) bool {
	recv = follow(recv)
	if !recv.live() || e.Prog == nil {
		return false
	}
	var ts []target
	if !types.IsInterface(recv.v.Type()) {
		if _, isTP := recv.v.Type().(*types.TypeParam); !isTP {
			ts = []target{{x: recv.v, fr: recv.fr}} // a concrete value handed as itself
		}
	}
	if ts == nil && (!e.concretes(recv.v, recv.fr, 0, &ts) || len(ts) == 0 || len(ts) > maxTargets) {
		return false
	}
	type call struct {
		obj *types.Func
		fn  *ssa.Function
		t   target
	}
	var calls []call
	sinkIface := e.isSinkInterface(qualifiedName(recv.v.Type()))
	for _, t := range ts {
		if t.typeOf() == nil {
			if sinkIface {
				// A sink interface a library made (gorm's Migrator): what
				// it holds is not known to be harmless.
				return false
			}
			calls = append(calls, call{t: t}) // made by the standard library, type unknown
			continue
		}
		obj, fn := e.methodOf(t.typeOf(), name)
		if obj == nil {
			// No such method: only a type assertion that fails at run
			// time could have asked for it.
			continue
		}
		calls = append(calls, call{obj: obj, fn: fn, t: t})
	}
	for _, cl := range calls {
		if cl.obj == nil {
			for _, w := range cl.t.wrapped {
				e.callArg(w, pos, fr, out, callFlags{})
			}
			e.handOff(nil, args, pos, fr, out)
			continue
		}
		recvB := binding{}
		if cl.t.x != nil {
			recvB = binding{v: cl.t.x, fr: cl.t.fr}
		}
		bs := append([]binding{recvB}, args...)
		e.callObjOrWrapper(cl.obj, cl.fn, bs, pos, fr, out)
	}
	return true
}

// methodOf finds method name of type t: its declared object and, when the
// program has it, its SSA function (a promoted method's wrapper included).
func (e *Engine) methodOf(t types.Type, name string) (*types.Func, *ssa.Function) {
	ms := e.Prog.MethodSets.MethodSet(t)
	var sel *types.Selection
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == name {
			sel = ms.At(i)
			break
		}
	}
	if sel == nil {
		return nil, nil
	}
	obj, _ := sel.Obj().(*types.Func)
	if obj == nil {
		return nil, nil
	}
	fn := e.Prog.MethodValue(sel)
	if fn != nil && fn.Synthetic != "" && len(sel.Index()) > 1 {
		// A method promoted through an embedded field: the wrapper
		// selects the field and calls the embedded type's method.
		return obj, fn
	}
	if o := obj.Origin(); o != nil {
		obj = o
	}
	return obj, fn
}

// shortName shortens "example.com/shop/store.Store" to "store.Store".
func shortName(qualified string) string {
	if i := strings.LastIndex(qualified, "/"); i >= 0 {
		return qualified[i+1:]
	}
	return qualified
}

// lookupMethod returns the method name of type t, or nil.
func lookupMethod(t types.Type, name string) *types.Func {
	sel := types.NewMethodSet(t).Lookup(nil, name)
	if sel == nil {
		return nil
	}
	f, _ := sel.Obj().(*types.Func)
	return f
}

// embeddedIfaces names the interface t and every named interface it
// embeds, at any depth, then decl: a sink configured on
// redis.Cmdable.XAdd matches a call through redis.UniversalClient, which
// embeds Cmdable, which embeds StreamCmdable, which declares XAdd.
func embeddedIfaces(t types.Type, decl string, any bool) []string {
	if !any {
		return nil
	}
	var names []string
	seen := map[types.Type]bool{}
	var walk func(t types.Type, depth int)
	walk = func(t types.Type, depth int) {
		if seen[t] || depth > 8 {
			return
		}
		seen[t] = true
		if q := qualifiedName(t); q != "" {
			names = append(names, q)
		}
		it, ok := t.Underlying().(*types.Interface)
		if !ok {
			return
		}
		for i := 0; i < it.NumEmbeddeds(); i++ {
			walk(it.EmbeddedType(i), depth+1)
		}
	}
	walk(t, 0)
	if decl != "" {
		names = append(names, decl)
	}
	return names
}

// librarySink finds a sink configured on a concrete method of a modelled
// library's package for a call through one of that package's
// interfaces: redis.Pipeliner.LPush runs the configured
// (*redis.Client).LPush (or cmdable.LPush), since the library's own types
// implement its interfaces.
func (e *Engine) librarySink(m *types.Func) (Sink, bool) {
	if len(e.Opts.Sinks) == 0 || m.Pkg() == nil || !lib().modelled(m.Pkg().Path()) {
		return Sink{}, false
	}
	prefix, suffix := m.Pkg().Path()+".", "."+m.Name()
	var keys []string
	for k := range e.Opts.Sinks {
		if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, suffix) && strings.Count(k[len(prefix):], ".") == 1 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return Sink{}, false
	}
	slices.Sort(keys)
	return e.Opts.Sinks[keys[0]], true
}

// benignShape reports whether t, an unnamed interface
// (v.(interface{ Flush() })), asks for no more than a benign interface
// of a package in reach provides (http.Flusher): a call through it is
// judged as a call through that interface would be.
func (e *Engine) benignShape(t types.Type) bool {
	it, ok := t.(*types.Interface)
	if !ok || it.NumMethods() == 0 || e.Pkg == nil {
		return false
	}
	if b, ok := e.benignShapes[it]; ok {
		return b
	}
	if e.reachable == nil {
		e.reachable = map[string]*types.Package{}
		stack := []*types.Package{e.Pkg}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if e.reachable[p.Path()] != nil {
				continue
			}
			e.reachable[p.Path()] = p
			stack = append(stack, p.Imports()...)
		}
	}
	satisfies := func(o types.Object) bool {
		tn, ok := o.(*types.TypeName)
		return ok && types.IsInterface(tn.Type()) && types.Implements(tn.Type(), it)
	}
	found := false
	for name := range lib().benign {
		i := strings.LastIndex(name, ".")
		if i <= 0 {
			continue
		}
		p := e.reachable[name[:i]]
		if p == nil {
			continue
		}
		if name[i+1:] == "*" {
			for _, n := range p.Scope().Names() {
				if o := p.Scope().Lookup(n); o.Exported() && satisfies(o) {
					found = true
					break
				}
			}
		} else if o := p.Scope().Lookup(name[i+1:]); o != nil && satisfies(o) {
			found = true
		}
		if found {
			break
		}
	}
	if e.benignShapes == nil {
		e.benignShapes = map[*types.Interface]bool{}
	}
	e.benignShapes[it] = found
	return found
}

// ifaceExposed reports whether another package can hand this package a
// value of its unexported interface n: through a parameter of an
// exported function or method, or an exported field or variable. (A
// value the package asserts to n from any, as go-querystring asserts a
// field to its zeroable, counts the package's own implementations, as
// contracts do: README, Limits.)
func (e *Engine) ifaceExposed(n *types.Named) bool {
	if v, ok := e.exposed[n]; ok {
		return v
	}
	seen := map[types.Type]bool{}
	var mentions func(t types.Type, depth int) bool
	mentions = func(t types.Type, depth int) bool {
		if depth > 6 || seen[t] {
			return false
		}
		if types.Identical(t, n) {
			return true
		}
		switch u := t.(type) {
		case *types.Pointer:
			return mentions(u.Elem(), depth+1)
		case *types.Slice:
			return mentions(u.Elem(), depth+1)
		case *types.Array:
			return mentions(u.Elem(), depth+1)
		case *types.Map:
			return mentions(u.Key(), depth+1) || mentions(u.Elem(), depth+1)
		case *types.Chan:
			return mentions(u.Elem(), depth+1)
		case *types.Signature:
			// A callback's result is handed in when the package calls it.
			for i := 0; i < u.Results().Len(); i++ {
				if mentions(u.Results().At(i).Type(), depth+1) {
					return true
				}
			}
		case *types.Named:
			if u.Obj().Pkg() != e.Pkg {
				return false
			}
			seen[t] = true
			return mentions(u.Underlying(), depth+1)
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if f := u.Field(i); (f.Exported() || f.Embedded()) && mentions(f.Type(), depth+1) {
					return true
				}
			}
		}
		return false
	}
	params := func(sig *types.Signature) bool {
		for i := 0; i < sig.Params().Len(); i++ {
			if mentions(sig.Params().At(i).Type(), 0) {
				return true
			}
		}
		return false
	}
	exposed := false
	scope := e.Pkg.Scope()
	for _, name := range scope.Names() {
		switch o := scope.Lookup(name).(type) {
		case *types.Func:
			exposed = o.Exported() && params(o.Signature())
		case *types.Var:
			exposed = o.Exported() && mentions(o.Type(), 0)
		case *types.TypeName:
			if o.Exported() {
				if st, ok := o.Type().Underlying().(*types.Struct); ok {
					exposed = mentions(st, 0)
				}
			}
			if nt, ok := o.Type().(*types.Named); ok {
				for i := 0; i < nt.NumMethods() && !exposed; i++ {
					m := nt.Method(i)
					exposed = m.Exported() && params(m.Signature())
				}
			}
		}
		if exposed {
			break
		}
	}
	if e.exposed == nil {
		e.exposed = map[*types.Named]bool{}
	}
	e.exposed[n] = exposed
	return exposed
}

// onlyInvokedParam reports whether the interface-typed parameter q is
// only called through in its function: never asserted, stored, compared,
// captured or handed on.
func onlyInvokedParam(q *ssa.Parameter) bool {
	if !types.IsInterface(q.Type()) {
		return false
	}
	for _, r := range *q.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			if !r.Call.IsInvoke() || r.Call.Value != ssa.Value(q) || slices.Contains(r.Call.Args, ssa.Value(q)) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}
