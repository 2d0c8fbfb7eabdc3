package analyzer

import (
	"go/ast"
	"go/build"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/authvet/authvet/config"
	"github.com/authvet/authvet/effects"
)

// A package is analysed (SSA, summaries exported as facts) unless it is
// provably unable to reach a sink by itself: it uses no sink (a modelled
// call, a call into a modelled library, a method of a handle type, a
// configured sink), no object of an analysed package, and, in source
// under development, has no directive, no go statement and no function
// without a body. Such a package is modelled like the standard library:
// what a caller hands it counts at the call (SPEC §4.1), and whether it
// may run a handed callback after it returns is exported as a
// RetainsFact, read from its syntax. The decision is the same for every
// module: a sibling wired with replace is judged like any dependency.

// relevant reports whether the package must be analysed.
func relevant(pass *analysis.Pass, cfg *config.Config) bool {
	sinks := configuredSinks(cfg)
	for id, obj := range pass.TypesInfo.Uses {
		_ = id
		if obj == nil || obj.Pkg() == nil || obj.Pkg() == pass.Pkg {
			continue
		}
		if usesSink(pass, obj, sinks) {
			return true
		}
	}
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//agent:") {
					return true
				}
			}
		}
	}
	if localSource(pass) {
		found := false
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					found = true
				case *ast.FuncDecl:
					if n.Body == nil {
						found = true
					}
				}
				return !found
			})
		}
		if found {
			return true
		}
	}
	return false
}

func configuredSinks(cfg *config.Config) map[string]bool {
	m := map[string]bool{}
	for _, s := range cfg.Sinks {
		key := s.PkgPath + "." + s.Name
		if s.Recv != "" {
			key = s.PkgPath + "." + s.Recv + "." + s.Name
		}
		m[key] = true
	}
	return m
}

// usesSink reports whether a used object of another package can reach a
// sink.
func usesSink(pass *analysis.Pass, obj types.Object, sinks map[string]bool) bool {
	if obj.Pkg().Path() == grantPkgPath {
		return true
	}
	if pass.ImportPackageFact(obj.Pkg(), new(analysedFact)) {
		return true
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	return effects.ReachesSink(fn) || sinks[effects.FuncKey(fn)]
}

// localSource reports whether the package's source is under development
// (not in the module cache, GOROOT or a vendor directory).
func localSource(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	name := filepath.ToSlash(pass.Fset.File(pass.Files[0].Pos()).Name())
	if strings.Contains(name, "/vendor/") {
		return false
	}
	for _, dir := range modCaches() {
		if strings.HasPrefix(name, dir) {
			return false
		}
	}
	return !strings.Contains(name, "/pkg/mod/")
}

var modCaches = sync.OnceValue(func() []string {
	var dirs []string
	if d := os.Getenv("GOMODCACHE"); d != "" {
		dirs = append(dirs, filepath.ToSlash(d)+"/")
	}
	for _, gp := range filepath.SplitList(build.Default.GOPATH) {
		dirs = append(dirs, filepath.ToSlash(filepath.Join(gp, "pkg", "mod"))+"/")
	}
	return dirs
})

// RetainsFact marks a function of a package that is not analysed that
// may keep a function- or interface-valued parameter and run it after it
// returns (a worker pool's Submit, a router's Handle): what a caller
// hands it there is detached work.
type RetainsFact struct{ Params []int }

// AFact marks RetainsFact as an analysis fact.
func (*RetainsFact) AFact() {}

func (f *RetainsFact) String() string { return "retains" }

// exportRetains computes, from the syntax of a package that is not
// analysed, which callback parameters each function may keep.
func exportRetains(pass *analysis.Pass) {
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
	r := &retainer{pass: pass, decls: decls, memo: map[*types.Func][]bool{}}
	for obj := range decls {
		var params []int
		for i, kept := range r.retained(obj) {
			if kept {
				params = append(params, i)
			}
		}
		if len(params) > 0 {
			pass.ExportObjectFact(obj, &RetainsFact{Params: params})
		}
	}
}

// retainer finds, in a function's syntax, the callback parameters it
// may keep: any use other than calling it (or its methods) now, handing
// it to a callee that does not keep it, or deferring it.
type retainer struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
	memo  map[*types.Func][]bool
}

func (r *retainer) retained(fn *types.Func) []bool {
	if kept, ok := r.memo[fn]; ok {
		return kept
	}
	fd := r.decls[fn]
	sig := fn.Signature()
	kept := make([]bool, sig.Params().Len())
	r.memo[fn] = kept // recursion: assume not kept
	if fd == nil {
		return kept
	}
	params := map[types.Object]int{}
	for i := 0; i < sig.Params().Len(); i++ {
		if callbackParam(sig.Params().At(i).Type()) {
			params[sig.Params().At(i)] = i
		}
	}
	if len(params) == 0 {
		return kept
	}
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		i, isParam := params[r.pass.TypesInfo.Uses[id]]
		if isParam && !kept[i] && r.keeps(stack) {
			kept[i] = true
		}
		return true
	})
	return kept
}

// keeps reports whether the expression at the top of stack (a
// parameter, or a function literal capturing one) may outlive the call.
func (r *retainer) keeps(stack []ast.Node) bool {
	i := len(stack) - 1
	expr := stack[i].(ast.Expr)
	// A literal that captures the parameter is itself the value.
	for j := i - 1; j >= 0; j-- {
		if lit, ok := stack[j].(*ast.FuncLit); ok {
			return r.valueKept(stack[:j+1], lit)
		}
	}
	return r.valueKept(stack, expr)
}

// valueKept classifies how the value at stack[len-1] is used by its parent.
func (r *retainer) valueKept(stack []ast.Node, expr ast.Expr) bool {
	if len(stack) < 2 {
		return true
	}
	parent := stack[len(stack)-2]
	switch p := parent.(type) {
	case *ast.ParenExpr:
		return r.valueKept(stack[:len(stack)-1], p)
	case *ast.CallExpr:
		if p.Fun == expr {
			// Called now; a go statement runs it later.
			if len(stack) >= 3 {
				if _, isGo := stack[len(stack)-3].(*ast.GoStmt); isGo {
					return true
				}
			}
			return false
		}
		return r.handedKept(p, expr)
	case *ast.SelectorExpr:
		// p.Method(...) on an interface value: called now.
		if len(stack) >= 3 {
			if call, ok := stack[len(stack)-3].(*ast.CallExpr); ok && call.Fun == p {
				if len(stack) >= 4 {
					if _, isGo := stack[len(stack)-4].(*ast.GoStmt); isGo {
						return true
					}
				}
				return false
			}
		}
		return true
	case *ast.TypeAssertExpr, *ast.BinaryExpr:
		return false
	case *ast.DeferStmt:
		return false
	}
	return true
}

// handedKept reports whether the callee of call may keep expr, one of its
// arguments.
func (r *retainer) handedKept(call *ast.CallExpr, expr ast.Expr) bool {
	idx := -1
	for i, a := range call.Args {
		if a == expr {
			idx = i
		}
	}
	if idx < 0 {
		return true
	}
	var callee *types.Func
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		callee, _ = r.pass.TypesInfo.Uses[fun].(*types.Func)
	case *ast.SelectorExpr:
		if sel, ok := r.pass.TypesInfo.Selections[fun]; ok {
			if sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) {
				return true // a call through an interface or a func field
			}
			callee, _ = sel.Obj().(*types.Func)
		} else {
			callee, _ = r.pass.TypesInfo.Uses[fun.Sel].(*types.Func)
		}
	}
	if callee == nil {
		if tv, ok := r.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			return true // a conversion: the value lives on in the result
		}
		return true
	}
	if sig := callee.Signature(); sig.Variadic() && idx >= sig.Params().Len()-1 {
		idx = sig.Params().Len() - 1
	}
	if callee.Pkg() == r.pass.Pkg {
		if o := callee.Origin(); o != nil {
			callee = o
		}
		kept := r.retained(callee)
		return idx < len(kept) && kept[idx]
	}
	if effects.StdRetains(callee, idx) {
		return true
	}
	var f RetainsFact
	if r.pass.ImportObjectFact(callee, &f) {
		for _, p := range f.Params {
			if p == idx {
				return true
			}
		}
	}
	return false
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
