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
