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

	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/internal/config"
)

// A package is analysed (SSA, summaries exported as facts) unless it is
// provably unable to reach a sink by itself: it uses no sink (a modelled
// call, a call into a modelled library, a method of a handle type, a
// configured sink), no object of an analysed package, declares no
// handler adapter or middleware (effects.HandlerMaker), and, in source
// under development, has no directive, no go statement and no function
// without a body. Such a package is modelled like the standard library:
// what a caller hands it counts at the call (SPEC §4.1), and whether it
// may run a handed callback after it returns is exported as a
// RetainsFact, read from its syntax. The decision is the same for every
// module: a sibling wired with replace is judged like any dependency.

// relevant reports whether the package must be analysed.
func relevant(pass *analysis.Pass, cfg *config.Config) bool {
	sinks := configuredSinks(cfg)
	for _, obj := range pass.TypesInfo.Uses {
		if obj == nil || obj.Pkg() == nil {
			continue
		}
		if obj.Pkg() == pass.Pkg {
			// A call through the package's own interface shaped like a SQL
			// handle (sqlc's DBTX) runs SQL on what it is handed.
			if fn, ok := obj.(*types.Func); ok && fn.Signature().Recv() != nil && types.IsInterface(fn.Signature().Recv().Type()) && effects.SQLShaped(fn) {
				return true
			}
			continue
		}
		if usesSink(pass, obj, sinks) {
			return true
		}
	}
	for _, obj := range pass.TypesInfo.Defs {
		// A handler adapter or middleware: what it returns calls what
		// it is handed, within the caller's request.
		if fn, ok := obj.(*types.Func); ok && effects.HandlerMaker(fn.Signature()) {
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
	if dynamicCalls(pass, cfg) {
		return true
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

// dynamicCalls reports whether the package calls methods through a
// non-benign interface, or function values it did not receive as
// parameters: such a call may run what other code stored (a handler
// registered at start-up), so the package is analysed and the call, if
// it cannot be resolved, is unprovable (SPEC §4.1).
func dynamicCalls(pass *analysis.Pass, cfg *config.Config) bool {
	benign := map[string]bool{}
	for _, b := range cfg.BenignInterfaces {
		benign[b] = true
	}
	params := map[types.Object]bool{}
	// Local function variables that are only ever assigned a literal, a
	// declared function or a parameter call nothing stored elsewhere.
	localOK := map[types.Object]bool{}
	localBad := map[types.Object]bool{}
	plain := func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.FuncLit:
			return true
		case *ast.Ident:
			switch o := pass.TypesInfo.Uses[e].(type) {
			case *types.Func:
				return true
			case *types.Var:
				return params[o] || localOK[o]
			}
		}
		return false
	}
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncType:
				if n.Params != nil {
					for _, fld := range n.Params.List {
						for _, nm := range fld.Names {
							params[pass.TypesInfo.Defs[nm]] = true
						}
					}
				}
			case *ast.FuncDecl:
				if n.Recv != nil {
					for _, fld := range n.Recv.List {
						for _, nm := range fld.Names {
							params[pass.TypesInfo.Defs[nm]] = true
						}
					}
				}
			}
			return true
		})
	}
	note := func(lhs ast.Expr, rhs ast.Expr) {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return
		}
		obj := pass.TypesInfo.ObjectOf(id)
		if v, ok := obj.(*types.Var); !ok || v.Parent() == v.Pkg().Scope() {
			return
		}
		if _, isFunc := obj.Type().Underlying().(*types.Signature); !isFunc {
			return
		}
		if rhs != nil && plain(rhs) {
			localOK[obj] = true
		} else {
			localBad[obj] = true
		}
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					var r ast.Expr
					if len(n.Rhs) == len(n.Lhs) {
						r = n.Rhs[i]
					}
					note(l, r)
				}
			case *ast.ValueSpec:
				for i, nm := range n.Names {
					var r ast.Expr
					if i < len(n.Values) {
						r = n.Values[i]
					}
					if r != nil {
						note(nm, r)
					}
				}
			}
			return true
		})
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if found {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fun := ast.Unparen(call.Fun).(type) {
			case *ast.SelectorExpr:
				sel, ok := pass.TypesInfo.Selections[fun]
				if !ok {
					return true
				}
				switch sel.Kind() {
				case types.MethodVal:
					if recv := sel.Recv(); types.IsInterface(recv) && !benignType(recv, benign) {
						found = true
					}
				case types.FieldVal:
					found = true // a function stored in a field
				}
			case *ast.IndexExpr:
				if _, isFunc := pass.TypesInfo.TypeOf(fun).Underlying().(*types.Signature); isFunc {
					found = true // a function stored in a map or slice
				}
			case *ast.Ident:
				if v, ok := pass.TypesInfo.Uses[fun].(*types.Var); ok && !params[v] && (!localOK[v] || localBad[v]) {
					found = true // a function value from a variable set from elsewhere
				}
			}
			return true
		})
	}
	return found
}

// benignType reports whether calls through the interface type t are
// effect-free (context.Context, error, io.Writer, ...).
func benignType(t types.Type, extra map[string]bool) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		t = tp.Constraint()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false // an anonymous interface or a constraint literal
	}
	name := n.Obj().Name()
	if n.Obj().Pkg() != nil {
		name = n.Obj().Pkg().Path() + "." + name
	}
	return effects.BenignInterface(name, extra)
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
	if tn, ok := obj.(*types.TypeName); ok {
		// A package that builds *http.Clients: its constructors say
		// whether the client they return sends as the default one
		// (Summary.StdClient).
		return tn.Pkg().Path() == "net/http" && tn.Name() == "Client"
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
