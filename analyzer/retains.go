package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/authvet/authvet/effects"
)

// RetainsFact marks a function of a package that is not analysed that
// may keep a function- or interface-valued parameter and run it after it
// returns. Params are kept for good (a package variable, a channel, a
// goroutine); Into are kept in the structure of another argument (a
// worker pool's queue, a router's table: the receiver), which outlives
// the request only if that argument does.
type RetainsFact struct {
	Params []int    // receiver not counted
	Into   [][2]int // {param, argument kept into}; arguments count the receiver first
}

// AFact marks RetainsFact as an analysis fact.
func (*RetainsFact) AFact() {}

func (f *RetainsFact) String() string { return "retains" }

// keep is how a function may keep one of its callback parameters.
type keep struct {
	long bool  // for good
	into []int // in these arguments' structures (receiver first)
}

func (k keep) kept() bool { return k.long || len(k.into) > 0 }

func (k *keep) add(o keep) {
	k.long = k.long || o.long
	for _, i := range o.into {
		if !slices.Contains(k.into, i) {
			k.into = append(k.into, i)
		}
	}
}

// exportRetains computes, from the syntax of a package that is not
// analysed, which callback parameters each function may keep.
func exportRetains(pass *analysis.Pass) {
	decls := funcDecls(pass)
	r := &retainer{pass: pass, decls: decls, memo: map[*types.Func][]keep{}}
	keptTypes := map[string]bool{}
	for obj := range decls {
		f := &RetainsFact{}
		for i, k := range r.retained(obj) {
			if k.long {
				f.Params = append(f.Params, i)
			}
			for _, into := range k.into {
				f.Into = append(f.Into, [2]int{i, into})
			}
			if k.kept() {
				for _, s := range keptTypeKeys(obj.Signature().Params().At(i).Type()) {
					keptTypes[s] = true
				}
			}
		}
		if len(f.Params)+len(f.Into) > 0 {
			pass.ExportObjectFact(obj, f)
		}
	}
	if len(keptTypes) > 0 {
		kf := &KeepsFact{}
		for s := range keptTypes {
			kf.Types = append(kf.Types, s)
		}
		slices.Sort(kf.Types)
		pass.ExportPackageFact(kf)
	}
}

// KeepsFact marks a package that is not analysed and keeps function or
// interface values the program hands it (a plugin table, a registry, a
// setter): values of these types that it returns may be ones the program
// put in, not ones it made (plug.Get(name) returning what another
// package's init registered). Types are keyed by keptTypeKeys.
type KeepsFact struct {
	Types []string
}

// AFact marks KeepsFact as an analysis fact.
func (*KeepsFact) AFact() {}

func (f *KeepsFact) String() string { return "keeps " + strings.Join(f.Types, ", ") }

// keptTypeKeys are the keys under which a kept value of type t is found
// again: its type, and for a function type its signature (a named Op and
// the func literal type it stands for); an empty interface matches any
// interface result.
func keptTypeKeys(t types.Type) []string {
	keys := []string{types.TypeString(t, nil)}
	if u := t.Underlying(); u != t {
		keys = append(keys, types.TypeString(u, nil))
	}
	return keys
}

// resultKept reports whether a result of type t of a function of pkg may
// be a value the program handed the package to keep.
func resultKept(f *KeepsFact, t types.Type) bool {
	for _, k := range keptTypeKeys(t) {
		if slices.Contains(f.Types, k) || slices.Contains(f.Types, "any") || slices.Contains(f.Types, "interface{}") {
			return true
		}
	}
	return false
}

// funcDecls maps the package's functions with a body to their syntax.
func funcDecls(pass *analysis.Pass) map[*types.Func]*ast.FuncDecl {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[obj] = fd
				}
			}
		}
	}
	return decls
}

// retainer reads, in a function's syntax, where its callback parameters
// may go: anything but calling them (or their methods) now, handing them
// to a callee that does not keep them, deferring, returning them, or
// comparing them keeps them.
type retainer struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
	memo  map[*types.Func][]keep
}

func (r *retainer) retained(fn *types.Func) []keep {
	if kept, ok := r.memo[fn]; ok {
		return kept
	}
	sig := fn.Signature()
	kept := make([]keep, sig.Params().Len())
	r.memo[fn] = kept // recursion: assume not kept
	fd := r.decls[fn]
	if fd == nil {
		return kept
	}
	// Arguments, receiver first, by object: where a kept value lands.
	args := map[types.Object]int{}
	off := 0
	if recv := sig.Recv(); recv != nil {
		args[recv] = 0
		off = 1
	}
	tracked := map[types.Object]int{}
	for i := 0; i < sig.Params().Len(); i++ {
		args[sig.Params().At(i)] = i + off
		if callbackParam(sig.Params().At(i).Type()) {
			tracked[sig.Params().At(i)] = i
		}
	}
	if len(tracked) == 0 {
		return kept
	}
	w := &keepWalk{r: r, args: args, tracked: tracked, recv: sig.Recv()}
	// Local variables assigned a tracked value are tracked too; iterate
	// until no new alias appears.
	for round := 0; round < 4; round++ {
		before := len(tracked)
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			stack = append(stack, n)
			if id, ok := n.(*ast.Ident); ok {
				if i, ok := tracked[r.pass.TypesInfo.Uses[id]]; ok {
					kept[i].add(w.use(stack))
				}
			}
			return true
		})
		if len(tracked) == before {
			break
		}
	}
	return kept
}

// keepWalk classifies the uses of tracked values in one function.
type keepWalk struct {
	r       *retainer
	args    map[types.Object]int
	tracked map[types.Object]int
	recv    *types.Var
}

// use classifies the use at the top of stack: the identifier itself, or a
// function literal capturing it.
func (w *keepWalk) use(stack []ast.Node) keep {
	i := len(stack) - 1
	for j := i - 1; j >= 0; j-- {
		if lit, ok := stack[j].(*ast.FuncLit); ok {
			return w.value(stack[:j+1], lit, w.tracked[w.r.pass.TypesInfo.Uses[stack[i].(*ast.Ident)]])
		}
	}
	id := stack[i].(*ast.Ident)
	return w.value(stack, id, w.tracked[w.r.pass.TypesInfo.Uses[id]])
}

// value classifies how the value expr (at the top of stack) is used by
// its parent; param is the tracked parameter it carries.
func (w *keepWalk) value(stack []ast.Node, expr ast.Expr, param int) keep {
	if len(stack) < 2 {
		return keep{long: true}
	}
	parent := stack[len(stack)-2]
	up := func() keep { return w.value(stack[:len(stack)-1], parent.(ast.Expr), param) }
	switch p := parent.(type) {
	case *ast.ParenExpr, *ast.CompositeLit, *ast.StarExpr:
		return up()
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return up()
		}
		return keep{}
	case *ast.KeyValueExpr:
		if p.Value == expr && len(stack) >= 3 {
			return w.value(stack[:len(stack)-2], stack[len(stack)-3].(ast.Expr), param)
		}
		return keep{long: true}
	case *ast.CallExpr:
		if p.Fun == expr {
			if len(stack) >= 3 {
				if _, isGo := stack[len(stack)-3].(*ast.GoStmt); isGo {
					return keep{long: true}
				}
			}
			return keep{}
		}
		if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
			if b, ok := w.r.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
				return up() // it lives where the appended slice goes
			}
		}
		if len(stack) >= 3 {
			if _, isGo := stack[len(stack)-3].(*ast.GoStmt); isGo {
				return keep{long: true} // go f(x): the call runs after we return
			}
		}
		return w.handed(stack[:len(stack)-1], p, expr)
	case *ast.SelectorExpr:
		// p.Method(...) on an interface value: called now.
		if len(stack) >= 3 {
			if call, ok := stack[len(stack)-3].(*ast.CallExpr); ok && call.Fun == p {
				if len(stack) >= 4 {
					if _, isGo := stack[len(stack)-4].(*ast.GoStmt); isGo {
						return keep{long: true}
					}
				}
				return keep{}
			}
		}
		return keep{long: true}
	case *ast.TypeAssertExpr, *ast.BinaryExpr, *ast.DeferStmt, *ast.ReturnStmt, *ast.IfStmt:
		return keep{}
	case *ast.AssignStmt:
		for i, rhs := range p.Rhs {
			if rhs != expr || i >= len(p.Lhs) {
				continue
			}
			return w.into(p.Lhs[i], param)
		}
		return keep{} // on the left: written, not kept
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if v == expr && i < len(p.Names) {
				if obj := w.r.pass.TypesInfo.Defs[p.Names[i]]; obj != nil {
					w.tracked[obj] = param
				}
			}
		}
		return keep{}
	case *ast.SendStmt, *ast.GoStmt:
		return keep{long: true}
	case *ast.RangeStmt, *ast.ExprStmt, *ast.IncDecStmt:
		return keep{}
	}
	return keep{long: true}
}

// into classifies a store of a tracked value into lhs: a local variable
// becomes an alias; a field or element of an argument keeps it in that
// argument's structure; anything else keeps it for good.
func (w *keepWalk) into(lhs ast.Expr, param int) keep {
	root := lhs
	for {
		switch x := ast.Unparen(root).(type) {
		case *ast.SelectorExpr:
			if _, isPkg := w.r.pass.TypesInfo.Uses[identOf(x.X)].(*types.PkgName); isPkg {
				return keep{long: true} // pkg.Var = ...
			}
			root = x.X
			continue
		case *ast.IndexExpr:
			root = x.X
			continue
		case *ast.StarExpr:
			root = x.X
			continue
		case *ast.Ident:
			obj := w.r.pass.TypesInfo.ObjectOf(x)
			if obj == nil {
				return keep{long: true}
			}
			if i, ok := w.args[obj]; ok {
				if root == lhs {
					return keep{} // the parameter variable itself is reassigned
				}
				return keep{into: []int{i}}
			}
			if v, ok := obj.(*types.Var); ok && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
				if root == lhs {
					w.tracked[obj] = param // a local alias
					return keep{}
				}
				// A field of a local value: in a method, most likely a
				// node of the receiver's own structure (a list's element
				// found by walking it); elsewhere, unknown.
				if w.recv != nil {
					return keep{into: []int{0}}
				}
				return keep{long: true}
			}
			return keep{long: true} // a package variable
		}
		return keep{long: true}
	}
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// handed classifies a tracked value handed to call as an argument.
func (w *keepWalk) handed(stack []ast.Node, call *ast.CallExpr, expr ast.Expr) keep {
	idx := -1
	for i, a := range call.Args {
		if a == expr {
			idx = i
		}
	}
	if idx < 0 {
		return keep{long: true}
	}
	var callee *types.Func
	var recvExpr ast.Expr
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		callee, _ = w.r.pass.TypesInfo.Uses[fun].(*types.Func)
	case *ast.SelectorExpr:
		if sel, ok := w.r.pass.TypesInfo.Selections[fun]; ok {
			if sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) {
				return keep{long: true} // a call through an interface or a func field
			}
			callee, _ = sel.Obj().(*types.Func)
			recvExpr = fun.X
		} else {
			callee, _ = w.r.pass.TypesInfo.Uses[fun.Sel].(*types.Func)
		}
	}
	if callee == nil {
		return keep{long: true} // a conversion, a function value: it lives on
	}
	if sig := callee.Signature(); sig.Variadic() && idx >= sig.Params().Len()-1 {
		idx = sig.Params().Len() - 1
	}
	var k keep
	if callee.Pkg() == w.r.pass.Pkg {
		if o := callee.Origin(); o != nil {
			callee = o
		}
		if kept := w.r.retained(callee); idx < len(kept) {
			k = kept[idx]
		}
	} else {
		if effects.StdRetains(callee, idx) {
			return keep{long: true}
		}
		var f RetainsFact
		if w.r.pass.ImportObjectFact(callee, &f) {
			k.long = slices.Contains(f.Params, idx)
			for _, in := range f.Into {
				if in[0] == idx {
					k.into = append(k.into, in[1])
				}
			}
		}
	}
	if !k.kept() {
		return keep{}
	}
	out := keep{long: k.long}
	// Kept into the callee's argument j: where does our expression for j
	// live?
	recvOff := 0
	if callee.Signature().Recv() != nil {
		recvOff = 1
	}
	for _, j := range k.into {
		var arg ast.Expr
		switch {
		case j < recvOff:
			arg = recvExpr
		case j-recvOff < len(call.Args):
			arg = call.Args[j-recvOff]
		}
		if arg == nil {
			out.long = true
			continue
		}
		out.add(w.into(&ast.SelectorExpr{X: arg, Sel: ast.NewIdent("_")}, -1))
	}
	return out
}

func callbackParam(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Signature, *types.Interface:
		return qualified(t) != "context.Context" && qualified(t) != "error"
	}
	return false
}

func qualified(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return ""
	}
	if n.Obj().Pkg() == nil {
		return n.Obj().Name()
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}
