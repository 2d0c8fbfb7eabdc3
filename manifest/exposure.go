package manifest

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/authvet/authvet/effects"
)

// registration is one place the module exposes a handler: an MCP tool
// or an HTTP route.
type registration struct {
	handlers []*types.Func // the declared functions the registered value runs
	pos      token.Pos     // the registering call
	route    *Route
	tool     *toolDecl
	// carriers: for a tool registration whose handler is not resolved
	// here, the module's types its tool and handler are read from.
	carriers map[types.Type]bool
	carrier  types.Type    // a pair: the type that carries it to AddTool
	literal  *ssa.Function // a pair: the handler literal, when it is one
}

// toolDecl is an MCP tool as its literal declares it.
type toolDecl struct {
	name      string
	resolved  bool // the name is a constant
	ann       *Annotations
	nameParam *ssa.Parameter // the name is this parameter of the function that builds the literal
}

// Registration tables: library knowledge as data. A key is
// "pkgpath.Func" or "pkgpath.Type.Method" (receiver named or interface).
const (
	goSDK  = "github.com/modelcontextprotocol/go-sdk/mcp"
	mcpGo  = "github.com/mark3labs/mcp-go"
	chiPkg = "github.com/go-chi/chi/v5"
	ginPkg = "github.com/gin-gonic/gin"
	echo4  = "github.com/labstack/echo/v4"
)

// toolRegs: the argument (receiver first for methods) holding the tool and the
// handler, and how the tool is declared.
var toolRegs = map[string]struct {
	tool, handler int
	shape         string // "sdk": *mcp.Tool literal; "mcpgo": mcp.NewTool(...)
}{
	goSDK + ".AddTool":                  {1, 2, "sdk"},
	goSDK + ".Server.AddTool":           {1, 2, "sdk"},
	mcpGo + "/server.MCPServer.AddTool": {1, 2, "mcpgo"},
	// AddTools(tools ...ServerTool): each element is a tool and its
	// handler together.
	mcpGo + "/server.MCPServer.AddTools": {1, 1, "mcpgo-many"},
}

// routeRegs: the argument (receiver first for methods) holding the pattern and the
// handler; method is the HTTP method ("" read from a Go 1.22 pattern).
type routeReg struct {
	pattern, handler int // handler -1: the last argument (gin's variadic chain)
	method           string
}

var routeRegs = func() map[string]routeReg {
	m := map[string]routeReg{
		"net/http.ServeMux.HandleFunc": {1, 2, ""},
		"net/http.ServeMux.Handle":     {1, 2, ""},
		"net/http.HandleFunc":          {0, 1, ""},
		"net/http.Handle":              {0, 1, ""},
	}
	verbs := []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE"}
	for _, v := range verbs {
		title := v[:1] + strings.ToLower(v[1:])
		for _, t := range []string{"Router", "Mux"} {
			m[chiPkg+"."+t+"."+title] = routeReg{1, 2, v}
		}
		for _, t := range []string{"RouterGroup", "Engine", "IRoutes", "IRouter"} {
			m[ginPkg+"."+t+"."+v] = routeReg{1, -1, v}
		}
		for _, t := range []string{"Echo", "Group"} {
			m[echo4+"."+t+"."+v] = routeReg{1, 2, v}
		}
	}
	for _, t := range []string{"Router", "Mux"} {
		m[chiPkg+"."+t+".Handle"] = routeReg{1, 2, "*"}
		m[chiPkg+"."+t+".HandleFunc"] = routeReg{1, 2, "*"}
	}
	return m
}()

// calleeKey names the function a call reaches: static, or the interface
// method an invoke calls.
func calleeKey(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return typeKey(c.Value.Type()) + "." + c.Method.Name()
	}
	fn := c.StaticCallee()
	if fn == nil {
		return ""
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	if recv := obj.Signature().Recv(); recv != nil {
		return typeKey(recv.Type()) + "." + obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

func typeKey(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path() + "." + n.Obj().Name()
	}
	return ""
}

// args returns the call's arguments with the receiver first (a static
// method call already has it in Args).
func args(c *ssa.CallCommon) []ssa.Value {
	if c.IsInvoke() {
		return append([]ssa.Value{c.Value}, c.Args...)
	}
	return c.Args
}

// scan finds every registration in fns.
func scan(fns []*ssa.Function, isHandler func(*types.Func) bool, module map[*types.Package]bool) []registration {
	var regs []registration
	px := &prefixer{fns: fns}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				c := call.Common()
				key := calleeKey(c)
				if key == "" {
					continue
				}
				as := args(c)
				if tr, ok := toolRegs[key]; ok {
					if tr.handler >= len(as) {
						continue
					}
					if tr.shape == "mcpgo-many" {
						sl, _ := as[1].(*ssa.Slice)
						if sl == nil {
							continue
						}
						for _, el := range sliceElems(sl) {
							td := &toolDecl{}
							// A constructor of the ServerTool: the handler is
							// the constructor (SPEC §3); a ServerTool literal:
							// the function its Handler field holds.
							hs := handlerFuncs(el, isHandler, 0)
							if a := allocOf(el, 0); a != nil {
								for _, st := range fieldStores(a) {
									switch st.field {
									case "Tool":
										td = mcpGoTool(st.val)
									case "Handler":
										if len(hs) == 0 {
											hs = handlerFuncs(st.val, isHandler, 0)
										}
									}
								}
							}
							regs = append(regs, registration{pos: call.Pos(), handlers: hs, tool: td})
						}
						continue
					}
					if tr.shape == "sdk" {
						if each := rangedCtors(call.Pos(), as[tr.tool], as[tr.handler], isHandler); each != nil {
							regs = append(regs, each...)
							continue
						}
					}
					r := registration{pos: call.Pos(), handlers: handlerFuncs(as[tr.handler], isHandler, 0)}
					if tr.shape == "sdk" {
						r.tool = sdkTool(as[tr.tool])
					} else {
						r.tool = mcpGoTool(as[tr.tool])
					}
					if tr.shape == "sdk" && len(r.handlers) == 0 {
						if each := helperRegs(fns, fn, as[tr.tool], as[tr.handler], isHandler); each != nil {
							regs = append(regs, each...)
							continue
						}
					}
					if len(r.handlers) == 0 {
						r.carriers = map[types.Type]bool{}
						carrierTypes(as[tr.tool], module, r.carriers, 0)
						carrierTypes(as[tr.handler], module, r.carriers, 0)
					}
					regs = append(regs, r)
					continue
				}
				if rr, ok := routeRegs[key]; ok {
					p, h := rr.pattern, rr.handler
					if h < 0 {
						h = len(as) - 1
						if sl, ok := as[h].(*ssa.Slice); ok {
							if els := sliceElems(sl); len(els) > 0 {
								r := registration{pos: call.Pos(), handlers: handlerFuncs(els[len(els)-1], isHandler, 0)}
								r.route = route(as[p], rr.method)
								r.route.Path = joinPath(px.prefixOf(as[0], 0), r.route.Path)
								regs = append(regs, r)
							}
							continue
						}
					}
					if p >= len(as) || h >= len(as) {
						continue
					}
					r := registration{pos: call.Pos(), handlers: handlerFuncs(as[h], isHandler, 0), route: route(as[p], rr.method)}
					if p > 0 { // a router's method: its groups' prefixes
						r.route.Path = joinPath(px.prefixOf(as[0], 0), r.route.Path)
					}
					regs = append(regs, r)
				}
			}
		}
	}
	return regs
}

// route reads a registration's pattern: "POST /api/refunds" (Go 1.22),
// or a path with the method the registering call names.
func route(pattern ssa.Value, method string) *Route {
	s, ok := constString(pattern)
	if !ok {
		return &Route{Method: orAny(method), Path: ""}
	}
	if method == "" {
		if m, rest, ok := strings.Cut(s, " "); ok && m != "" && !strings.Contains(m, "/") {
			method, s = m, strings.TrimSpace(rest)
		}
	}
	return &Route{Method: orAny(method), Path: s}
}

func orAny(m string) string {
	if m == "" {
		return "*"
	}
	return m
}

func constString(v ssa.Value) (string, bool) {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
		return constant.StringVal(c.Value), true
	}
	return "", false
}

func constBool(v ssa.Value) (bool, bool) {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
		return constant.BoolVal(c.Value), true
	}
	return false, false
}

// handlerFuncs resolves a registered value to the declared functions it
// runs: a function or method value, a conversion (http.HandlerFunc(f)),
// a closure's calls of declared handlers, or what a constructor returns
// (the constructor itself when it is a handler: SPEC §3).
func handlerFuncs(v ssa.Value, isHandler func(*types.Func) bool, depth int) []*types.Func {
	if depth > 8 {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Function:
		return funcOf(v, isHandler, depth)
	case *ssa.MakeClosure:
		return funcOf(v.Fn.(*ssa.Function), isHandler, depth)
	case *ssa.ChangeType:
		return handlerFuncs(v.X, isHandler, depth+1)
	case *ssa.MakeInterface:
		return handlerFuncs(v.X, isHandler, depth+1)
	case *ssa.Convert:
		return handlerFuncs(v.X, isHandler, depth+1)
	case *ssa.Phi:
		var out []*types.Func
		for _, e := range v.Edges {
			out = append(out, handlerFuncs(e, isHandler, depth+1)...)
		}
		return out
	case *ssa.Call:
		return resultFuncs(v, 0, isHandler, depth)
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			return resultFuncs(call, v.Index, isHandler, depth)
		}
	}
	// A value taken out of what a handler constructor returned (a slice
	// of tool definitions ranged over, a field of its struct).
	if ctor := ctorOf(v, isHandler, 0); ctor != nil {
		return []*types.Func{ctor}
	}
	return nil
}

// resultFuncs resolves result i of a call: a handler constructor is the
// handler; a function of the module is followed to what it returns; a
// library's adapter (mcp-go's NewTypedToolHandler(f)) runs the
// functions it is handed.
func resultFuncs(call *ssa.Call, i int, isHandler func(*types.Func) bool, depth int) []*types.Func {
	fn := call.Call.StaticCallee()
	if fn == nil {
		return nil
	}
	return calleeResults(fn, call.Call.Args, i, isHandler, depth)
}

// calleeResults is resultFuncs for a call of fn with args (nil when
// the call's arguments are not at hand).
func calleeResults(fn *ssa.Function, args []ssa.Value, i int, isHandler func(*types.Func) bool, depth int) []*types.Func {
	if obj := declared(fn); obj != nil && isHandler(obj) {
		return []*types.Func{obj} // a handler constructor
	}
	var out []*types.Func
	if len(fn.Blocks) == 0 {
		for _, a := range args {
			if _, isFunc := a.Type().Underlying().(*types.Signature); isFunc {
				out = append(out, handlerFuncs(a, isHandler, depth+1)...)
			}
		}
		return out
	}
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
			out = append(out, handlerFuncs(ret.Results[i], isHandler, depth+1)...)
		}
	}
	if obj := declared(fn); len(out) == 0 && obj != nil && len(fn.AnonFuncs) > 0 {
		// A constructor with no directive that returns a literal it made
		// (directly, or through a helper it hands it to): the handler is
		// the constructor, whose effects count its literals as called.
		return []*types.Func{obj}
	}
	return out
}

// ctorOf follows a value back through fields, elements, loads and
// conversions to the call of a handler constructor that made it.
func ctorOf(v ssa.Value, isHandler func(*types.Func) bool, depth int) *types.Func {
	if depth > 12 {
		return nil
	}
	switch x := v.(type) {
	case *ssa.Call:
		if fn := x.Call.StaticCallee(); fn != nil {
			if obj := declared(fn); obj != nil && isHandler(obj) {
				return obj
			}
		}
		return nil
	case *ssa.Extract:
		return ctorOf(x.Tuple, isHandler, depth+1)
	case *ssa.Field:
		return ctorOf(x.X, isHandler, depth+1)
	case *ssa.FieldAddr:
		return ctorOf(x.X, isHandler, depth+1)
	case *ssa.Index:
		return ctorOf(x.X, isHandler, depth+1)
	case *ssa.IndexAddr:
		return ctorOf(x.X, isHandler, depth+1)
	case *ssa.Slice:
		return ctorOf(x.X, isHandler, depth+1)
	case *ssa.UnOp:
		return ctorOf(x.X, isHandler, depth+1)
	case *ssa.ChangeType:
		return ctorOf(x.X, isHandler, depth+1)
	case *ssa.MakeInterface:
		return ctorOf(x.X, isHandler, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if c := ctorOf(e, isHandler, depth+1); c != nil {
				return c
			}
		}
	case *ssa.Alloc:
		// A local copy (the range variable): what is stored into it whole.
		for _, r := range *x.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == x {
				if c := ctorOf(st.Val, isHandler, depth+1); c != nil {
					return c
				}
			}
		}
	}
	return nil
}

// funcOf maps an SSA function to the declared function it is: itself, the
// method a bound-method wrapper calls, or for a closure the declared
// handlers it calls (a wrapper around s.DraftRefund); a closure that calls
// no handler is its enclosing declared function's.
func funcOf(fn *ssa.Function, isHandler func(*types.Func) bool, depth int) []*types.Func {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if obj := declared(fn); obj != nil && sourceFunc(fn) {
		return []*types.Func{obj}
	}
	var out []*types.Func
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil {
				continue
			}
			if obj := declared(callee); obj != nil && (!sourceFunc(fn) || isHandler(obj)) {
				out = append(out, obj)
			}
		}
	}
	return out
}

// sourceFunc reports whether fn is a function as declared (with its body
// here, or a dependency's known only from its types), not a wrapper.
func sourceFunc(fn *ssa.Function) bool {
	return fn.Synthetic == "" || strings.HasPrefix(fn.Synthetic, "from type information")
}

// declared returns the source function fn is, or nil for closures and
// wrappers.
func declared(fn *ssa.Function) *types.Func {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || fn.Parent() != nil {
		return nil
	}
	return obj
}

// sliceElems returns the values stored into the array behind a slice
// literal (a variadic call's arguments).
func sliceElems(sl *ssa.Slice) []ssa.Value { return effects.SliceElems(sl) }

// rangedCtors reads a registration of a tool and handler that one call
// of a function value returns (t, h := ctor(); AddTool(srv, &t, h)),
// the value ranging over a slice literal of declared constructors
// (for _, ctor := range []func() (mcp.Tool, Handler){a, b}): one
// registration per constructor, its tool and handler read from what
// that constructor returns. Nil when the call is not of that shape.
func rangedCtors(pos token.Pos, tool, handler ssa.Value, isHandler func(*types.Func) bool) []registration {
	hx, ok := handler.(*ssa.Extract)
	if !ok {
		return nil
	}
	call, ok := hx.Tuple.(*ssa.Call)
	if !ok || call.Call.IsInvoke() || call.Call.StaticCallee() != nil {
		return nil
	}
	tx, ok := wholeStore(tool).(*ssa.Extract)
	if !ok || tx.Tuple != call {
		return nil
	}
	load, ok := call.Call.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	ia, ok := load.X.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	sl, ok := ia.X.(*ssa.Slice)
	if !ok {
		return nil
	}
	elems := sliceElems(sl)
	if len(elems) == 0 {
		return nil
	}
	var out []registration
	for _, el := range elems {
		fn, ok := el.(*ssa.Function)
		if !ok || len(fn.Blocks) == 0 {
			return nil // not every element is a constructor here
		}
		r := registration{pos: pos, handlers: calleeResults(fn, nil, hx.Index, isHandler, 1), tool: &toolDecl{}}
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && tx.Index < len(ret.Results) {
				r.tool = sdkTool(ret.Results[tx.Index])
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// helperRegs reads a registration inside a helper handed both the tool
// and the handler (func withLog(srv, t *mcp.Tool, h Handler) {
// mcp.AddTool(srv, t, wrap(h)) }): one registration per call of the
// helper in the module, with that call's tool and handler. A wrapper
// literal that does more than call the handler it captures adds its own
// effects. Nil when the registration is not of that shape, or the
// helper is called out of sight (used as a value).
func helperRegs(fns []*ssa.Function, helper *ssa.Function, tool, handler ssa.Value, isHandler func(*types.Func) bool) []registration {
	tp, ok := tool.(*ssa.Parameter)
	if !ok || helper.Parent() != nil {
		return nil
	}
	ti := slices.Index(helper.Params, tp)
	hi := -1
	var wrapper *ssa.Function
	for {
		if ct, ok := handler.(*ssa.ChangeType); ok {
			handler = ct.X // mcp.ToolHandlerFor[In, Out](literal)
			continue
		}
		break
	}
	switch h := handler.(type) {
	case *ssa.Parameter:
		hi = slices.Index(helper.Params, h)
	case *ssa.MakeClosure:
		if len(h.Bindings) != 1 {
			return nil
		}
		// The captured parameter, through its cell.
		p, ok := wholeStore(h.Bindings[0]).(*ssa.Parameter)
		if !ok {
			return nil
		}
		hi = slices.Index(helper.Params, p)
		wrapper = h.Fn.(*ssa.Function)
	}
	if ti < 0 || hi < 0 {
		return nil
	}
	isHelper := func(v ssa.Value) bool {
		// The helper, an instance of it, or a wrapper of it (a method
		// value's bound wrapper, a thunk).
		f, ok := v.(*ssa.Function)
		return ok && (f == helper || f.Origin() == helper || f.Object() != nil && f.Object() == helper.Object())
	}
	var out []registration
	var ops []*ssa.Value
	for _, caller := range fns {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				call, isCall := instr.(ssa.CallInstruction)
				ops = instr.Operands(ops[:0])
				for i, op := range ops {
					if *op == nil || !isHelper(*op) {
						continue
					}
					if !isCall || i != 0 || call.Common().IsInvoke() {
						return nil // used as a value: called out of sight
					}
				}
				if !isCall || !isHelper(call.Common().Value) {
					continue
				}
				args := call.Common().Args
				if ti >= len(args) || hi >= len(args) {
					return nil
				}
				r := registration{pos: call.Pos(), tool: sdkTool(args[ti]), handlers: handlerFuncs(args[hi], isHandler, 0)}
				if wrapper != nil && !onlyForwards(wrapper) {
					r.literal = wrapper
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// onlyForwards reports whether a wrapper literal does nothing but call
// the function it captures and return what it returns.
func onlyForwards(fn *ssa.Function) bool {
	if len(fn.FreeVars) != 1 {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case ssa.CallInstruction:
				v := x.Common().Value
				if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
					v = ld.X // the captured cell, loaded
				}
				if v != ssa.Value(fn.FreeVars[0]) {
					return false
				}
			case *ssa.UnOp:
				if x.Op != token.MUL || x.X != ssa.Value(fn.FreeVars[0]) {
					return false
				}
			case *ssa.Return, *ssa.Extract, *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

// wholeStore is, for the address of a local variable a value is stored
// into whole and only once (t, h := ctor(); &t), that value; v otherwise.
func wholeStore(v ssa.Value) ssa.Value {
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return v
	}
	var val ssa.Value
	for _, r := range *alloc.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
			if val != nil {
				return v
			}
			val = st.Val
		}
	}
	if val == nil {
		return v
	}
	return val
}

// sdkTool reads a go-sdk *mcp.Tool: the struct literal it points to,
// where it is built or in the constructor that returns it.
func sdkTool(v ssa.Value) *toolDecl {
	t := &toolDecl{}
	if w := wholeStore(v); w != v {
		// A variable holding a constructor's result (t, h := newTool()).
		return sdkTool(w)
	}
	alloc := allocOf(v, 0)
	if alloc == nil {
		return t
	}
	for _, st := range fieldStores(alloc) {
		switch st.field {
		case "Name":
			t.name, t.resolved = constString(st.val)
			t.nameParam, _ = st.val.(*ssa.Parameter)
		case "Annotations":
			if a := allocOf(st.val, 0); a != nil {
				t.ann = sdkAnnotations(a)
			}
		}
	}
	return t
}

// sdkAnnotations reads an annotations literal: go-sdk's ToolAnnotations
// (plain bools, and pointers for the hints whose default is true) or
// mcp-go's ToolAnnotation (every hint a pointer).
func sdkAnnotations(alloc *ssa.Alloc) *Annotations {
	ann := &Annotations{}
	hint := func(v ssa.Value) *bool {
		if _, isPtr := v.Type().Underlying().(*types.Pointer); isPtr {
			return boolPtr(ptrBool(v))
		}
		return boolPtr(constBool(v))
	}
	for _, st := range fieldStores(alloc) {
		switch st.field {
		case "ReadOnlyHint":
			ann.ReadOnlyHint = hint(st.val)
		case "IdempotentHint":
			ann.IdempotentHint = hint(st.val)
		case "DestructiveHint":
			ann.DestructiveHint = hint(st.val)
		case "OpenWorldHint":
			ann.OpenWorldHint = hint(st.val)
		case "Title":
			ann.Title, _ = constString(st.val)
		}
	}
	return ann
}

func boolPtr(b, ok bool) *bool {
	if !ok {
		return nil
	}
	return &b
}

// ptrBool folds a *bool to its constant: &b with one constant store, or
// a call of a helper (a generic Ptr[T]) that returns the address of its
// parameter, called with a constant.
func ptrBool(v ssa.Value) (bool, bool) {
	switch v := v.(type) {
	case *ssa.Alloc:
		var vals []ssa.Value
		for _, r := range *v.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == v {
				vals = append(vals, st.Val)
			}
		}
		if len(vals) == 1 {
			return constBool(vals[0])
		}
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil {
			return false, false
		}
		if len(fn.Blocks) == 0 && len(v.Call.Args) == 1 && ptrToParam(fn) {
			// A dependency's func Ptr[T any](v T) *T, whose body is not
			// built here: its signature says it returns the address of
			// its argument.
			return constBool(v.Call.Args[0])
		}
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			a, ok := ret.Results[0].(*ssa.Alloc)
			if !ok {
				return false, false
			}
			for _, r := range *a.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == a {
					if p, ok := st.Val.(*ssa.Parameter); ok {
						for i, fp := range fn.Params {
							if fp == p && i < len(v.Call.Args) {
								return constBool(v.Call.Args[i])
							}
						}
					}
					return constBool(st.Val)
				}
			}
		}
	}
	return false, false
}

// ptrToParam reports whether fn's generic origin is func[T any](v T) *T.
func ptrToParam(fn *ssa.Function) bool {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		return false
	}
	sig := obj.Origin().Signature()
	if sig.TypeParams().Len() != 1 || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return false
	}
	tp, ok := sig.Params().At(0).Type().(*types.TypeParam)
	ptr, isPtr := sig.Results().At(0).Type().(*types.Pointer)
	return ok && isPtr && types.Identical(ptr.Elem(), tp)
}

// allocOf follows a pointer to the allocation of its struct literal.
func allocOf(v ssa.Value, depth int) *ssa.Alloc {
	if depth > 6 {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Alloc:
		return v
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil {
			return nil
		}
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
				if a := allocOf(ret.Results[0], depth+1); a != nil {
					return a
				}
			}
		}
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		if !ok || call.Call.StaticCallee() == nil {
			return nil
		}
		for _, b := range call.Call.StaticCallee().Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && v.Index < len(ret.Results) {
				if a := allocOf(ret.Results[v.Index], depth+1); a != nil {
					return a
				}
			}
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			// a struct value loaded from its variable: the literal
			return allocOf(v.X, depth+1)
		}
	}
	return nil
}

type fieldStore struct {
	field string
	val   ssa.Value
}

// fieldStores lists the constant-position stores into the fields of a
// struct allocation.
func fieldStores(alloc *ssa.Alloc) []fieldStore {
	var out []fieldStore
	st, _ := types.Unalias(alloc.Type().(*types.Pointer).Elem()).Underlying().(*types.Struct)
	if st == nil {
		return nil
	}
	for _, r := range *alloc.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		for _, r2 := range *fa.Referrers() {
			if s, ok := r2.(*ssa.Store); ok && s.Addr == fa {
				out = append(out, fieldStore{st.Field(fa.Field).Name(), s.Val})
			}
		}
	}
	return out
}

// mcpGoTool reads mcp-go's mcp.NewTool(name, opts...): the name, and the
// hint options over the library's explicit defaults.
// mcpGoToolLiteral reads an mcp-go tool written as a literal,
// mcp.Tool{Name: "x", Annotations: mcp.ToolAnnotation{ReadOnlyHint:
// ptr(true)}}: its hints are *bool, and one left nil is not declared. Nil
// when v is not such a literal.
func mcpGoToolLiteral(v ssa.Value) *toolDecl {
	alloc := allocOf(v, 0)
	if alloc == nil || typeKey(alloc.Type()) != mcpGo+"/mcp.Tool" {
		return nil
	}
	t := &toolDecl{}
	named := false
	for _, st := range fieldStores(alloc) {
		switch st.field {
		case "Name":
			t.name, t.resolved = constString(st.val)
			t.nameParam, _ = st.val.(*ssa.Parameter)
			named = true
		case "Annotations":
			a := allocOf(st.val, 0)
			if a == nil {
				continue
			}
			t.ann = sdkAnnotations(a)
		}
	}
	if !named {
		return nil
	}
	return t
}

// isNewTool reports whether v is a call of mcp-go's mcp.NewTool: the
// SDK's way to write a tool literal.
func isNewTool(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	return ok && calleeKey(&call.Call) == mcpGo+"/mcp.NewTool"
}

func mcpGoTool(v ssa.Value) *toolDecl {
	if lit := mcpGoToolLiteral(v); lit != nil {
		return lit
	}
	t := &toolDecl{}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if a, ok := load.X.(*ssa.Alloc); ok {
			var vals []ssa.Value
			for _, r := range *a.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == a {
					vals = append(vals, st.Val)
				}
			}
			if len(vals) == 1 {
				v = vals[0]
			}
		}
	}
	call, ok := v.(*ssa.Call)
	if !ok || calleeKey(&call.Call) != mcpGo+"/mcp.NewTool" || len(call.Call.Args) < 1 {
		return t
	}
	t.name, t.resolved = constString(call.Call.Args[0])
	f, tr := false, true
	t.ann = &Annotations{ReadOnlyHint: &f, DestructiveHint: &tr, IdempotentHint: &f, OpenWorldHint: &tr}
	set := func(p **bool, arg ssa.Value) {
		if b, ok := constBool(arg); ok {
			*p = &b
		} else {
			*p = nil // not constant: not a claim the manifest can state
		}
	}
	if len(call.Call.Args) > 1 {
		if sl, ok := call.Call.Args[1].(*ssa.Slice); ok {
			for _, el := range sliceElems(sl) {
				oc, ok := el.(*ssa.Call)
				if !ok || len(oc.Call.Args) != 1 {
					continue
				}
				switch calleeKey(&oc.Call) {
				case mcpGo + "/mcp.WithReadOnlyHintAnnotation":
					set(&t.ann.ReadOnlyHint, oc.Call.Args[0])
				case mcpGo + "/mcp.WithDestructiveHintAnnotation":
					set(&t.ann.DestructiveHint, oc.Call.Args[0])
				case mcpGo + "/mcp.WithIdempotentHintAnnotation":
					set(&t.ann.IdempotentHint, oc.Call.Args[0])
				case mcpGo + "/mcp.WithOpenWorldHintAnnotation":
					set(&t.ann.OpenWorldHint, oc.Call.Args[0])
				case mcpGo + "/mcp.WithTitleAnnotation":
					t.ann.Title, _ = constString(oc.Call.Args[0])
				}
			}
		}
	}
	return t
}
