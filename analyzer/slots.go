package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/authvet/authvet/effects"
)

// Vet mode cannot say what a function-typed field holds when the struct
// was built out of its sight (go-github's WithAuthToken copies the
// client's CheckRedirect; the client came from NewClient, another
// package's body). Such a site is unprovable with the field named
// (effects.Effect.Slot). The manifest links every package of the
// program, so it can read every store into that field instead: each
// package's Result lists what the package stores into function-typed
// fields, read from its syntax (the standard library included).

// SlotStore is one value a package stores into a function-typed field
// of a named struct.
type SlotStore struct {
	Pkg   *types.Package
	Func  *types.Func // a declared function or method, as a value
	Lit   token.Pos   // a function literal
	Inert bool        // Func or Lit calls nothing and writes only its own variables
	From  string      // a copy of another function field (its effects.SlotName)
	// Unknown: a value this syntax cannot name (a parameter, a call's
	// result): whoever reads the field may call anything.
	Unknown bool
	// Known: Effects is what Func or Lit does, called with unknown
	// arguments, finalized by its own package's pass.
	Known   bool
	Effects []effects.Effect
}

// Slots is every store into function-typed fields that the passes of
// a run with KeepResults read, from every package (a checker shows a
// driver only its root packages' Results).
type Slots struct {
	// Stores: by effects.SlotName, in no particular order.
	Stores map[string][]SlotStore
	// Unread: a package's syntax could not be read, so any field may
	// hold anything.
	Unread bool
}

var kept struct {
	sync.Mutex
	slots Slots
}

// readSlots is slotStores, reporting failure instead of crashing.
func readSlots(pass *analysis.Pass) (m map[string][]SlotStore, failed bool) {
	defer func() {
		if recover() != nil {
			m, failed = nil, true
		}
	}()
	return slotStores(pass), false
}

// own reports whether the stored function is declared in pkg (a literal
// always is).
func (s *SlotStore) own(pkg *types.Package) bool {
	if s.Unknown || s.From != "" || s.Inert {
		return false
	}
	return s.Lit.IsValid() || (s.Func != nil && s.Func.Pkg() == pkg)
}

// slotEffects finalizes, while the package's engine is alive, what each
// of its own functions stored into a field does: a dependency's engine
// is not kept for the manifest, which would otherwise leave every such
// field unprovable.
func (a *run) slotEffects(eng *effects.Engine, prog *ssa.Program, fns []*ssa.Function) {
	module := KeepModule
	if module == "" {
		module = a.module
	}
	lits := map[token.Pos]*ssa.Function{}
	var all func(fs []*ssa.Function)
	all = func(fs []*ssa.Function) {
		for _, f := range fs {
			if f.Parent() != nil {
				lits[f.Pos()] = f
			}
			all(f.AnonFuncs)
		}
	}
	all(fns)
	if init := prog.Package(a.pass.Pkg); init != nil && init.Func("init") != nil {
		all(init.Func("init").AnonFuncs)
	}
	for _, ss := range a.slots {
		for i := range ss {
			s := &ss[i]
			if !s.own(a.pass.Pkg) {
				continue
			}
			var fn *ssa.Function
			if s.Lit.IsValid() {
				fn = lits[s.Lit]
			} else {
				fn = prog.FuncValue(s.Func)
			}
			if fn == nil {
				continue
			}
			s.Effects, s.Known = eng.Finalize(eng.CallSummary(fn), module), true
		}
	}
}

// TakeSlots returns the stores kept since the last call, and forgets them.
func TakeSlots() Slots {
	kept.Lock()
	defer kept.Unlock()
	s := kept.slots
	kept.slots = Slots{}
	return s
}

// keepSlots adds a package's stores to those TakeSlots returns.
func keepSlots(m map[string][]SlotStore, failed bool) {
	kept.Lock()
	defer kept.Unlock()
	if kept.slots.Stores == nil {
		kept.slots.Stores = map[string][]SlotStore{}
	}
	kept.slots.Unread = kept.slots.Unread || failed
	for k, ss := range m {
		kept.slots.Stores[k] = append(kept.slots.Stores[k], ss...)
	}
}

// slotStores reads the stores into function-typed fields of named
// structs in the package: assignments, and composite literals. A
// conversion between two named struct types with function fields makes
// both unknown: a value stored under one name is read under the other.
func slotStores(pass *analysis.Pass) map[string][]SlotStore {
	info := pass.TypesInfo
	out := map[string][]SlotStore{}
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
					decls[obj] = fd
				}
			}
		}
	}
	// The parameters of declared functions, for what a parameter holds
	// (paramSlot).
	type paramPos struct {
		fn *types.Func
		i  int
	}
	paramOf := map[*types.Var]paramPos{}
	for obj := range decls {
		sig := obj.Type().(*types.Signature)
		for i := range sig.Params().Len() {
			if !sig.Variadic() || i < sig.Params().Len()-1 {
				paramOf[sig.Params().At(i)] = paramPos{obj, i}
			}
		}
	}
	// Local variables' assignments: a field saved to a variable and
	// restored (save := c.CheckRedirect; ...; c.CheckRedirect = save).
	// A variable assigned any other way (a, b := f(), &v) is unknown.
	defs := map[*types.Var][]ast.Expr{}
	badVar := map[*types.Var]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					id, ok := ast.Unparen(lhs).(*ast.Ident)
					if !ok {
						continue
					}
					v, ok := info.ObjectOf(id).(*types.Var)
					if !ok || !isFunc(v.Type()) {
						continue
					}
					if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.ASSIGN || n.Tok == token.DEFINE) {
						defs[v] = append(defs[v], n.Rhs[i])
					} else {
						badVar[v] = true
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if v, ok := info.Defs[id].(*types.Var); ok && isFunc(v.Type()) && len(n.Values) == len(n.Names) {
						defs[v] = append(defs[v], n.Values[i])
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
					if v, ok := info.Uses[id].(*types.Var); ok {
						badVar[v] = true
					}
				}
			case *ast.RangeStmt:
				// Each element is a value the syntax cannot name.
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						if v, ok := info.ObjectOf(id).(*types.Var); ok {
							badVar[v] = true
						}
					}
				}
			case *ast.CaseClause:
				// switch f := x.(type): each clause's own f.
				if v, ok := info.Implicits[n].(*types.Var); ok {
					badVar[v] = true
				}
			}
			return true
		})
	}
	var classify func(e ast.Expr, depth int) []SlotStore
	classify = func(e ast.Expr, depth int) []SlotStore {
		s := SlotStore{Pkg: pass.Pkg}
		if depth > 4 {
			s.Unknown = true
			return []SlotStore{s}
		}
		for {
			e = ast.Unparen(e)
			call, ok := e.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || !info.Types[call.Fun].IsType() {
				break
			}
			e = call.Args[0] // a conversion: http.HandlerFunc(f)
		}
		if tv, ok := info.Types[e]; ok && tv.IsNil() {
			return nil // nothing stored
		}
		switch x := e.(type) {
		case *ast.FuncLit:
			s.Lit = x.Pos()
			s.Inert = inertBody(info, x.Body, x.Pos(), x.End())
			return []SlotStore{s}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && v.Kind() == types.LocalVar && !badVar[v] && len(defs[v]) > 0 {
				// A local variable: what is assigned to it.
				var out []SlotStore
				for _, d := range defs[v] {
					out = append(out, classify(d, depth+1)...)
				}
				return out
			}
			if fn, ok := info.Uses[x].(*types.Func); ok {
				s.Func = fn
				if fd := decls[fn]; fd != nil {
					s.Inert = inertBody(info, fd.Body, fd.Pos(), fd.End())
				}
				return []SlotStore{s}
			}
			if v, ok := info.Uses[x].(*types.Var); ok && !badVar[v] && len(defs[v]) == 0 {
				if p, ok := paramOf[v]; ok {
					// A parameter never assigned: what every call
					// passes (through an interface too, for a method).
					out := []SlotStore{{Pkg: pass.Pkg, From: paramSlot(p.fn, p.i)}}
					if p.fn.Type().(*types.Signature).Recv() != nil {
						out = append(out, SlotStore{Pkg: pass.Pkg, From: ifaceSlot(p.fn.Name(), p.i)})
					}
					return out
				}
			}
		case *ast.SelectorExpr:
			if sel := info.Selections[x]; sel != nil {
				switch sel.Kind() {
				case types.FieldVal:
					if k := selSlot(sel); k != "" {
						s.From = k
						return []SlotStore{s}
					}
				case types.MethodVal, types.MethodExpr:
					s.Func = sel.Obj().(*types.Func)
					return []SlotStore{s}
				}
			} else if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
				s.Func = fn // pkg.Func
				return []SlotStore{s}
			}
		case *ast.CallExpr:
			// What the callee returns (css.GetDefaultHandler(attr)).
			if k := resultSlotOf(info, x); k != "" {
				s.From = k
				return []SlotStore{s}
			}
		case *ast.IndexExpr:
			// An element of the package's own map or slice of
			// functions (defaultStyleHandlers[attr]).
			if v := elemVar(info, pass.Pkg, x.X); v != nil {
				s.From = elemSlot(v)
				return []SlotStore{s}
			}
		}
		s.Unknown = true
		return []SlotStore{s}
	}
	add := func(k string, e ast.Expr) {
		out[k] = append(out[k], classify(e, 0)...)
	}
	unknown := func(k string) {
		out[k] = append(out[k], SlotStore{Pkg: pass.Pkg, Unknown: true})
	}
	// containerValue records the functions a container value stored into
	// the elements' pseudo-slot k holds: a literal's elements, what an
	// append adds to self (the very elements being stored back: f[k] =
	// append(f[k], g)); nothing for nil or make; unknown otherwise.
	var containerValue func(k string, v ast.Expr, self string)
	containerValue = func(k string, v ast.Expr, self string) {
		v = ast.Unparen(v)
		if tv, ok := info.Types[v]; ok && tv.IsNil() {
			return
		}
		if self != "" && types.ExprString(v) == self {
			return
		}
		switch x := v.(type) {
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				if isFunc(info.TypeOf(el)) {
					add(k, el)
				} else {
					containerValue(k, el, "")
				}
			}
			return
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				if b, ok := info.Uses[id].(*types.Builtin); ok {
					switch b.Name() {
					case "make":
						return
					case "append":
						if len(x.Args) == 0 {
							return
						}
						containerValue(k, x.Args[0], self)
						for i, a := range x.Args[1:] {
							if x.Ellipsis.IsValid() && i == len(x.Args)-2 {
								containerValue(k, a, "")
							} else if isFunc(info.TypeOf(a)) {
								add(k, a)
							} else {
								containerValue(k, a, "")
							}
						}
						return
					}
				}
			}
		}
		unknown(k)
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					se, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
					if !ok {
						continue
					}
					sel := info.Selections[se]
					if sel == nil || sel.Kind() != types.FieldVal {
						continue
					}
					k := selSlot(sel)
					if k == "" {
						continue
					}
					if len(n.Lhs) == len(n.Rhs) {
						add(k, n.Rhs[i])
					} else {
						unknown(k) // a, b = f()
					}
				}
			case *ast.CompositeLit:
				n2 := namedStruct(info.TypeOf(n))
				if n2 == nil {
					return true
				}
				st := n2.Underlying().(*types.Struct)
				for i, el := range n.Elts {
					field, val := -1, el
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							for j := range st.NumFields() {
								if st.Field(j).Name() == id.Name {
									field = j
								}
							}
						}
						val = kv.Value
					} else {
						field = i
					}
					if field < 0 || field >= st.NumFields() {
						continue
					}
					if ft := st.Field(field).Type(); isFunc(ft) {
						add(effects.SlotName(n2, st.Field(field).Name()), val)
					} else if funcContainer(ft, 0) {
						containerValue(effects.SlotName(n2, st.Field(field).Name())+"[]", val, "")
					}
				}
			case *ast.CallExpr:
				if len(n.Args) == 1 && info.Types[n.Fun].IsType() {
					from, to := info.TypeOf(n.Args[0]), info.TypeOf(n.Fun)
					a, b := namedStruct(from), namedStruct(to)
					if !isStruct(from) || !isStruct(to) || (a != nil && b != nil && a.Origin() == b.Origin()) {
						return true
					}
					// Another struct type (named, or not: a struct
					// literal type's fields are keyed by no name).
					for _, t := range []*types.Named{a, b} {
						if t == nil {
							continue
						}
						st := t.Underlying().(*types.Struct)
						for j := range st.NumFields() {
							if isFunc(st.Field(j).Type()) {
								unknown(effects.SlotName(t, st.Field(j).Name()))
							} else if funcContainer(st.Field(j).Type(), 0) {
								unknown(effects.SlotName(t, st.Field(j).Name()) + "[]")
							}
						}
					}
				}
			}
			return true
		})
	}
	pseudoSlots(pass, add, unknown, containerValue)
	return out
}

// Pseudo-slots carry a function value through a parameter, a result or
// a package variable's elements, as a field carries it from its stores
// to its reads: a field a parameter is stored into holds what every call
// passes there; one a call's result is stored into holds what the
// callee returns; one an element of an unexported map or slice of the
// package is stored into holds what the package puts in it. Each is
// unknown where the syntax cannot see every value: a function used as a
// value (called where this syntax does not see it), a result returned
// bare, a variable used any other way.

func paramSlot(fn *types.Func, i int) string {
	return "param:" + fn.Origin().FullName() + "#" + strconv.Itoa(i)
}

func resultSlot(fn *types.Func, i int) string {
	return "result:" + fn.Origin().FullName() + "#" + strconv.Itoa(i)
}

func elemSlot(v *types.Var) string {
	return "elem:" + v.Pkg().Path() + "." + v.Name()
}

// ifaceSlot is the pseudo-slot of what calls of any interface (or type
// parameter) method of that name pass as its parameter i: a method's
// parameter holds those too.
func ifaceSlot(method string, i int) string {
	return "iface:" + method + "#" + strconv.Itoa(i)
}

// callTarget is what a call calls: a declared function or method
// (static), or an interface or type parameter's method (iface, by
// name); shift is 1 for a method expression, whose receiver is the
// first argument.
func callTarget(info *types.Info, call *ast.CallExpr) (fn *types.Func, iface bool, shift int) {
	fn, _ = typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil, false, 0
	}
	if sel, ok := unindex(call.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			shift = 1
		}
	}
	sig := fn.Type().(*types.Signature)
	return fn, sig.Recv() != nil && types.IsInterface(sig.Recv().Type()), shift
}

// unindex strips parentheses and a generic instantiation from a callee
// expression.
func unindex(e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.IndexExpr:
		return ast.Unparen(x.X)
	case *ast.IndexListExpr:
		return ast.Unparen(x.X)
	}
	return e
}

// resultSlotOf names the pseudo-slot of what call returns, when it
// calls a declared function or method with one result ("" otherwise).
func resultSlotOf(info *types.Info, call *ast.CallExpr) string {
	fn, iface, _ := callTarget(info, call)
	if fn == nil || iface {
		return ""
	}
	if fn.Type().(*types.Signature).Results().Len() != 1 {
		return ""
	}
	return resultSlot(fn, 0)
}

// elemVar is the unexported package variable of pkg, a map, slice or
// array of functions, that x names (nil otherwise).
func elemVar(info *types.Info, pkg *types.Package, x ast.Expr) *types.Var {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		v, ok = info.Defs[id].(*types.Var)
	}
	if !ok || v.Pkg() != pkg || v.Parent() != pkg.Scope() || v.Exported() {
		return nil
	}
	if elem := containerElem(v.Type()); elem == nil || !isFunc(elem) {
		return nil
	}
	return v
}

// pseudoSlots records the stores into pseudo-slots the package's syntax
// makes: the function arguments of every call, what each function with
// a function result returns, and the elements of the package's maps and
// slices of functions; and marks unknown each one the syntax cannot see
// every value of.
func pseudoSlots(pass *analysis.Pass, add func(string, ast.Expr), unknown func(string), containerValue func(string, ast.Expr, string)) {
	info := pass.TypesInfo
	funcParams := func(fn *types.Func, key func(i int) string) {
		sig := fn.Type().(*types.Signature)
		for i := range sig.Params().Len() {
			if isFunc(sig.Params().At(i).Type()) {
				unknown(key(i))
			}
		}
	}
	called := map[*ast.Ident]bool{}
	// Local variables a field's container is copied to (urlPolicies :=
	// p.allowURLSchemes[scheme]), by the pseudo-slot of the field's
	// elements, and every use of such a variable with its parents.
	aliases := map[*types.Var][]string{}
	type use struct {
		id            *ast.Ident
		parent, grand ast.Node
	}
	uses := map[*types.Var][]use{}
	localContainer := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.Pkg() != pass.Pkg || v.Parent() == pass.Pkg.Scope() || !funcContainer(v.Type(), 0) {
			return nil
		}
		return v
	}
	builtinCall := func(n ast.Node, names ...string) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := info.Uses[id].(*types.Builtin)
		return ok && slices.Contains(names, b.Name())
	}
	// elemStore judges one use of a field holding functions in its
	// elements (sel, with stack its ancestors, sel last): what it
	// stores there, or unknown where the elements may change unseen.
	elemStore := func(k string, sel ast.Expr, stack []ast.Node, aliases map[*types.Var][]string) {
		cur := sel
		i := len(stack) - 2
		for ; i >= 0; i-- {
			if pe, ok := stack[i].(*ast.ParenExpr); ok {
				cur = pe
				continue
			}
			if ix, ok := stack[i].(*ast.IndexExpr); ok && ix.X == cur && !isFunc(info.TypeOf(cur)) {
				cur = ix
				continue
			}
			break
		}
		var parent, grand ast.Node
		if i >= 0 {
			parent = stack[i]
		}
		if i >= 1 {
			grand = stack[i-1]
		}
		lhsIndex := func(a *ast.AssignStmt) int {
			for j, l := range a.Lhs {
				if l == cur {
					return j
				}
			}
			return -1
		}
		if isFunc(info.TypeOf(cur)) {
			// An element itself: read, or stored to.
			switch p := parent.(type) {
			case *ast.AssignStmt:
				if j := lhsIndex(p); j >= 0 {
					if len(p.Lhs) == len(p.Rhs) {
						add(k, p.Rhs[j])
					} else {
						unknown(k)
					}
				}
			case *ast.UnaryExpr:
				if p.Op == token.AND {
					unknown(k) // its address taken
				}
			}
			return
		}
		switch p := parent.(type) {
		case *ast.RangeStmt:
			if p.X == cur {
				return
			}
		case *ast.CallExpr:
			if builtinCall(p, "len", "cap", "delete", "clear") {
				return
			}
			if builtinCall(p, "append") && len(p.Args) > 0 && p.Args[0] == cur {
				// f[k] = append(f[k], g): the assignment records g.
				if a, ok := grand.(*ast.AssignStmt); ok && len(a.Lhs) == len(a.Rhs) {
					for j, r := range a.Rhs {
						if r == p && types.ExprString(a.Lhs[j]) == types.ExprString(cur) {
							return
						}
					}
				}
			}
		case *ast.AssignStmt:
			if j := lhsIndex(p); j >= 0 {
				if len(p.Lhs) == len(p.Rhs) {
					containerValue(k, p.Rhs[j], types.ExprString(cur))
				} else {
					unknown(k)
				}
				return
			}
			for j, r := range p.Rhs {
				if r != cur {
					continue
				}
				lhs := p.Lhs[0]
				if len(p.Lhs) == len(p.Rhs) {
					lhs = p.Lhs[j]
				}
				if v := localContainer(lhs); v != nil {
					aliases[v] = append(aliases[v], k)
					return
				}
			}
		case *ast.ValueSpec:
			for j, val := range p.Values {
				if val == cur && j < len(p.Names) {
					if v := localContainer(p.Names[j]); v != nil {
						aliases[v] = append(aliases[v], k)
						return
					}
				}
			}
		}
		unknown(k) // handed on, copied or addressed
	}
	for _, f := range pass.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			var parent ast.Node
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			stack = append(stack, n)
			if id, ok := n.(*ast.Ident); ok {
				if v := localContainer(id); v != nil && info.Uses[id] == v {
					var grand ast.Node
					if len(stack) > 2 {
						grand = stack[len(stack)-3]
					}
					uses[v] = append(uses[v], use{id, parent, grand})
				}
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				sel := info.Selections[n]
				if sel == nil || sel.Kind() != types.FieldVal {
					return true
				}
				k := elemSlotOf(sel)
				if k == "" {
					return true
				}
				elemStore(k, n, stack, aliases)
			case *ast.CallExpr:
				switch fun := unindex(n.Fun).(type) {
				case *ast.Ident:
					called[fun] = true
				case *ast.SelectorExpr:
					called[fun.Sel] = true
				}
				fn, iface, shift := callTarget(info, n)
				if fn == nil {
					return true
				}
				sig := fn.Type().(*types.Signature)
				for i, arg := range n.Args {
					j := i - shift
					if j < 0 || j >= sig.Params().Len() || sig.Variadic() && j >= sig.Params().Len()-1 || !isFunc(sig.Params().At(j).Type()) {
						continue
					}
					if n.Ellipsis.IsValid() {
						continue
					}
					if iface {
						add(ifaceSlot(fn.Name(), j), arg)
					} else {
						add(paramSlot(fn, j), arg)
					}
				}
			case *ast.Ident:
				switch obj := info.Uses[n].(type) {
				case *types.Func:
					if called[n] {
						return true
					}
					// Used as a value: called out of this syntax's sight.
					sig := obj.Type().(*types.Signature)
					if sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
						funcParams(obj, func(i int) string { return ifaceSlot(obj.Name(), i) })
					} else {
						funcParams(obj, func(i int) string { return paramSlot(obj, i) })
					}
				case *types.Var:
					v := elemVar(info, pass.Pkg, n)
					if v == nil {
						return true
					}
					switch p := parent.(type) {
					case *ast.IndexExpr:
						var grand ast.Node
						if len(stack) > 2 {
							grand = stack[len(stack)-3]
						}
						if u, ok := grand.(*ast.UnaryExpr); p.X == n && !(ok && u.Op == token.AND) {
							return true // read, or a store the assignment records
						}
					case *ast.RangeStmt:
						if p.X == n {
							return true
						}
					case *ast.CallExpr:
						if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
							if b, ok := info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "delete") {
								return true
							}
						}
					}
					unknown(elemSlot(v)) // handed on, aliased or reassigned
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
					if !ok {
						continue
					}
					if v := elemVar(info, pass.Pkg, ix.X); v != nil {
						if len(n.Lhs) == len(n.Rhs) && n.Tok == token.ASSIGN {
							add(elemSlot(v), n.Rhs[i])
						} else {
							unknown(elemSlot(v))
						}
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					v := elemVar(info, pass.Pkg, id)
					if v == nil || len(n.Values) == 0 {
						continue
					}
					if len(n.Values) != len(n.Names) {
						unknown(elemSlot(v))
						continue
					}
					lit, ok := ast.Unparen(n.Values[i]).(*ast.CompositeLit)
					if !ok {
						unknown(elemSlot(v))
						continue
					}
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							el = kv.Value
						}
						add(elemSlot(v), el)
					}
				}
			}
			return true
		})
	}
	// A container copied to a local variable: its elements hold only
	// what the field's do while the variable is only read.
	for v, keys := range aliases {
		ok := true
		for _, u := range uses[v] {
			switch p := u.parent.(type) {
			case *ast.RangeStmt:
				ok = ok && ast.Unparen(p.X) == u.id
			case *ast.IndexExpr:
				// An element read, not written or addressed.
				if p.X != u.id || !isFunc(info.TypeOf(p)) {
					ok = false
				}
				switch g := u.grand.(type) {
				case *ast.AssignStmt:
					if slices.Contains(g.Lhs, ast.Expr(p)) {
						ok = false
					}
				case *ast.UnaryExpr:
					ok = false
				}
			case *ast.AssignStmt:
				// The variable itself assigned (urlPolicies, ok := ...).
				for _, r := range p.Rhs {
					if localContainer(r) == v {
						ok = false // copied on
					}
				}
			default:
				if !builtinCall(p, "len", "cap") {
					ok = false
				}
			}
		}
		if !ok {
			for _, k := range keys {
				unknown(k)
			}
		}
	}
	// What each function returns.
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			res := obj.Type().(*types.Signature).Results()
			var funcResults []int
			for i := range res.Len() {
				if isFunc(res.At(i).Type()) {
					funcResults = append(funcResults, i)
				}
			}
			if len(funcResults) == 0 {
				continue
			}
			if fd.Body == nil {
				for _, i := range funcResults {
					unknown(resultSlot(obj, i)) // no Go body
				}
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false // its returns are its own
				case *ast.ReturnStmt:
					for _, i := range funcResults {
						if len(n.Results) == res.Len() {
							add(resultSlot(obj, i), n.Results[i])
						} else {
							unknown(resultSlot(obj, i)) // bare, or a call's results
						}
					}
				}
				return true
			})
		}
	}
}

// selSlot names the function-typed field a selection reads, on the named
// struct that declares it (through embedded fields).
func selSlot(sel *types.Selection) string {
	if !isFunc(sel.Type()) {
		return ""
	}
	return selName(sel)
}

// elemSlotOf names the pseudo-slot of the functions held in the
// elements of the field a selection reads, a map, slice or array (of
// such, at any depth) of functions: its slot name and "[]"
// (p.allowURLSchemes: map[string][]urlPolicy). "" for another field.
func elemSlotOf(sel *types.Selection) string {
	if !funcContainer(sel.Type(), 0) {
		return ""
	}
	if k := selName(sel); k != "" {
		return k + "[]"
	}
	return ""
}

// funcContainer reports whether t is a map, slice or array whose
// elements are functions, or such containers, to a bounded depth.
func funcContainer(t types.Type, depth int) bool {
	if depth > 4 {
		return false
	}
	elem := containerElem(t)
	return elem != nil && (isFunc(elem) || funcContainer(elem, depth+1))
}

// containerElem is the element type of a map, slice or array type, or
// nil.
func containerElem(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Map:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	return nil
}

// selName names the field a selection reads, on the named struct that
// declares it (through embedded fields).
func selName(sel *types.Selection) string {
	t := sel.Recv()
	idx := sel.Index()
	for i, fi := range idx {
		n := namedStruct(t)
		var st *types.Struct
		if n != nil {
			st = n.Underlying().(*types.Struct)
		} else if p, ok := t.Underlying().(*types.Pointer); ok {
			st, _ = p.Elem().Underlying().(*types.Struct)
		} else {
			st, _ = t.Underlying().(*types.Struct)
		}
		if st == nil || fi >= st.NumFields() {
			return ""
		}
		if i == len(idx)-1 {
			if n == nil {
				return ""
			}
			return effects.SlotName(n, st.Field(fi).Name())
		}
		t = st.Field(fi).Type()
	}
	return ""
}

// isStruct reports whether t (or what t points to) is a struct.
func isStruct(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// namedStruct is t (or what t points to) when it is a named struct.
func namedStruct(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	return n
}

// pureBuiltins write no memory the function did not allocate.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "append": true, "make": true, "new": true,
	"min": true, "max": true, "complex": true, "real": true, "imag": true, "panic": true}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// inertBody reports whether a function body can have no effect: it
// calls nothing but builtins and conversions, starts nothing, sends
// nothing, and assigns only variables declared in [from, to). A
// redirect policy returning http.ErrUseLastResponse is inert.
func inertBody(info *types.Info, body *ast.BlockStmt, from, to token.Pos) bool {
	inert := true
	local := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		if id.Name == "_" {
			return true
		}
		obj := info.ObjectOf(id)
		return obj != nil && obj.Pos() >= from && obj.Pos() < to
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if !inert {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if info.Types[n.Fun].IsType() {
				return true
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if _, builtin := info.Uses[id].(*types.Builtin); builtin && pureBuiltins[id.Name] {
					return true
				}
			}
			inert = false
		case *ast.GoStmt, *ast.DeferStmt, *ast.SendStmt, *ast.FuncLit:
			inert = false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if !local(l) {
					inert = false
				}
			}
		case *ast.IncDecStmt:
			if !local(n.X) {
				inert = false
			}
		}
		return true
	})
	return inert
}
