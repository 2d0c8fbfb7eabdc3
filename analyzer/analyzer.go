// Package analyzer wires authvet's parts into one go/analysis Analyzer:
// grant declarations, directives, the effects engine and diagnostics.
package analyzer

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/internal/config"
)

//go:embed doc.go
var docFile string

// Analyzer is authvet's analysis pass.
var Analyzer = &analysis.Analyzer{
	Name:      "authvet",
	Doc:       analysisDoc(),
	URL:       "https://pkg.go.dev/github.com/authvet/authvet/analyzer",
	Run:       runPass,
	FactTypes: []analysis.Fact{new(effects.Summary), new(GrantFact), new(analysedFact), new(errorActsFact), new(contextActsFact), new(entFact), new(effects.ConstString), new(effects.Contract), new(RetainsFact), new(KeepsFact), new(ReqWritesFact), new(checkedFact)},
}

// Flags of the analyzer (under go vet: -authvet.config, -authvet.config_sha256).
var (
	configPath string
	configHash string
)

func init() {
	Analyzer.Flags.StringVar(&configPath, "config", "", "path to authvet.yaml (default: the one at the module root, if any)")
	Analyzer.Flags.StringVar(&configHash, "config_sha256", "", "sha256 of the config file's content; go vet caches results by flag strings, so pass this to re-run when the file changes")
}

// analysisDoc extracts the package comment of doc.go.
func analysisDoc() string {
	var lines []string
	for _, l := range strings.Split(docFile, "\n") {
		if strings.HasPrefix(l, "package ") {
			break
		}
		l = strings.TrimPrefix(l, "//")
		lines = append(lines, strings.TrimPrefix(l, " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// analysedFact marks a package authvet analysed; functions of packages
// without it (the standard library) are modelled instead.
// checkedFact lists the concrete types a package converts to interfaces
// and checked there against the contracts they fall under: an assertion
// in an importer need not report them again.
type checkedFact struct{ Types []string }

func (*checkedFact) AFact()         {}
func (*checkedFact) String() string { return "checked conversions" }

type analysedFact struct{}

func (*analysedFact) AFact()         {}
func (*analysedFact) String() string { return "analysed" }

// errorActsFact marks a package with a type whose Error method has an
// effect (an error that audits itself when printed). Error values are
// ignored in the packages that cannot reach one, and followed like a
// benign interface's in those that can (an importer, directly or not).
type errorActsFact struct{}

func (*errorActsFact) AFact()         {}
func (*errorActsFact) String() string { return "error acts" }

// contextActsFact marks a package with a type that implements
// context.Context with an effect (a context that audits every Value
// lookup). Context values are followed, like errors, only where one is
// in reach.
type contextActsFact struct{}

func (*contextActsFact) AFact()         {}
func (*contextActsFact) String() string { return "context acts" }

// entFact is, for an ent client package, each entity package's string
// constants (Table, <Edge>Table, ...): an importer under go vet may not
// see the client's import of its entity packages in export data.
type entFact struct {
	Entities []entEntity // sorted by Name
}

type entEntity struct {
	Name   string
	Consts [][2]string // sorted by name
}

func (*entFact) AFact()           {}
func (f *entFact) String() string { return fmt.Sprintf("ent entities %d", len(f.Entities)) }

// exportEnt exports the package's entFact, if it is an ent client.
func exportEnt(pass *analysis.Pass) {
	ents := effects.EntEntities(pass.Pkg)
	if len(ents) == 0 {
		return
	}
	f := &entFact{}
	for _, name := range slices.Sorted(maps.Keys(ents)) {
		e := entEntity{Name: name}
		for _, k := range slices.Sorted(maps.Keys(ents[name])) {
			e.Consts = append(e.Consts, [2]string{k, ents[name][k]})
		}
		f.Entities = append(f.Entities, e)
	}
	pass.ExportPackageFact(f)
}

// entConsts reads an ent client package's entFact.
func entConsts(pass *analysis.Pass) func(pkg *types.Package) map[string]map[string]string {
	return func(pkg *types.Package) map[string]map[string]string {
		var f entFact
		if pkg == pass.Pkg || !pass.ImportPackageFact(pkg, &f) {
			return nil
		}
		out := map[string]map[string]string{}
		for _, e := range f.Entities {
			m := map[string]string{}
			for _, kv := range e.Consts {
				m[kv[0]] = kv[1]
			}
			out[e.Name] = m
		}
		return out
	}
}

// actsDeps reports whether a package pass imports, directly or not, has
// an errorActsFact, and one with a contextActsFact.
func actsDeps(pass *analysis.Pass) (errs, ctxs bool) {
	for _, f := range pass.AllPackageFacts() {
		if f.Package == pass.Pkg {
			continue
		}
		switch f.Fact.(type) {
		case *errorActsFact:
			errs = true
		case *contextActsFact:
			ctxs = true
		}
	}
	return errs, ctxs
}

// run is the state of one pass.
type run struct {
	pass      *analysis.Pass
	cfg       *config.Config
	module    string
	grants    map[types.Object]*GrantFact
	handlers  []*operable
	hatches   []*effects.Hatch
	contracts []*contract
	diags     []analysis.Diagnostic
	result    *Result
	slots     map[string][]SlotStore // with KeepResults: stores into function fields
}

func runPass(pass *analysis.Pass) (result any, err error) {
	res := &Result{}
	var slots map[string][]SlotStore
	if KeepResults {
		var failed bool
		slots, failed = readSlots(pass)
		defer func() { keepSlots(slots, failed) }()
	}
	if isStandard(pass) {
		return res, nil
	}
	if BoundMemory {
		boundMemory()
	}
	defer func() {
		// Never crash the build over a bug in authvet: report it as
		// the analysis error it is, naming the package.
		if r := recover(); r != nil {
			result, err = res, fmt.Errorf("internal error analysing %s: %v (please report this)", pass.Pkg.Path(), r)
		}
	}()
	cfg, err := loadConfig(pass)
	if err != nil {
		return res, err
	}
	if err := checkSinks(pass, cfg); err != nil {
		return res, err
	}
	if !relevant(pass, cfg) {
		// A package that can reach no sink by itself is modelled like
		// the standard library: no SSA, no summaries; what it is handed
		// counts at the call (relevance.go).
		exportRetains(pass)
		exportReqWrites(pass)
		exportConstReturns(pass)
		res.NoSinks = true
		// Its own functions stored into fields have no effect either.
		for _, ss := range slots {
			for i := range ss {
				if ss[i].own(pass.Pkg) {
					ss[i].Known = true
				}
			}
		}
		return res, nil
	}
	pass.ExportPackageFact(&analysedFact{})
	a := &run{pass: pass, cfg: cfg, grants: map[types.Object]*GrantFact{}, result: res, slots: slots}
	if pass.Module != nil {
		a.module = pass.Module.Path
	}
	a.readGrants()
	a.checkGrantMutations()
	a.readDirectives()
	if len(pass.Files) > 0 {
		a.analyse()
	}
	slices.SortStableFunc(a.diags, func(x, y analysis.Diagnostic) int { return int(x.Pos - y.Pos) })
	for _, d := range a.diags {
		pass.Report(d)
	}
	return res, nil
}

// minDataTable is the number of syntax nodes from which a package
// variable's literal of constants is a data table, left out of SSA.
const minDataTable = 4096

// withoutDataTables returns info's InitOrder without the initializers
// that are large composite literals of constants only (no call but a
// conversion, no function literal, no variable or function named), and
// whether it dropped any.
func withoutDataTables(info *types.Info) ([]*types.Initializer, bool) {
	var out []*types.Initializer
	dropped := false
	for i, in := range info.InitOrder {
		if dataTable(info, in.Rhs) {
			if !dropped {
				out = append(out, info.InitOrder[:i]...)
				dropped = true
			}
			continue
		}
		if dropped {
			out = append(out, in)
		}
	}
	return out, dropped
}

func dataTable(info *types.Info, rhs ast.Expr) bool {
	if _, ok := ast.Unparen(rhs).(*ast.CompositeLit); !ok {
		return false
	}
	n, pure := 0, true
	ast.Inspect(rhs, func(x ast.Node) bool {
		if !pure || x == nil {
			return false
		}
		n++
		switch x := x.(type) {
		case *ast.FuncLit:
			pure = false
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; !ok || !tv.IsType() {
				pure = false
			}
		case *ast.Ident:
			switch info.Uses[x].(type) {
			case *types.Var, *types.Func:
				pure = false
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				pure = false // &T{...}: a pointer the program may write through
			}
		}
		return pure
	})
	return pure && n >= minDataTable
}

// analyse builds the package's SSA, computes and exports every function's
// summary, and checks each handler against its grant.
func (a *run) analyse() {
	prog := ssa.NewProgram(a.pass.Fset, ssa.InstantiateGenerics)
	created := map[*types.Package]bool{}
	create := func(p *types.Package) {
		if created[p] {
			return
		}
		created[p] = true
		prog.CreatePackage(p, nil, nil, true)
	}
	for _, p := range a.pass.Pkg.Imports() {
		create(p)
	}
	info := a.pass.TypesInfo
	if order, dropped := withoutDataTables(info); dropped {
		// Large literal tables of constants (brotli's dictionary, a
		// lookup table) are data, not code: their stores would be most
		// of the package's SSA. The variables stay, uninitialised, so
		// reading one is reading a value out of sight.
		c := *info
		c.InitOrder = order
		info = &c
	}
	spkg := prog.CreatePackage(a.pass.Pkg, a.pass.Files, info, false)
	spkg.Build()

	var fns []*ssa.Function
	objs := map[*ssa.Function]*types.Func{}
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, _ := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			if fn := prog.FuncValue(obj); fn != nil {
				fns = append(fns, fn)
				objs[fn] = obj
			}
		}
	}
	initGlobals := effects.InitGlobals(spkg, fns)
	globals := effects.ConstGlobals(initGlobals)
	for v, c := range globals {
		a.pass.ExportObjectFact(v, &effects.ConstString{Value: c})
	}
	globalConst := func(v *types.Var) (string, bool) {
		if c, ok := globals[v]; ok {
			return c, true
		}
		var c effects.ConstString
		if v.Pkg() != a.pass.Pkg && a.pass.ImportObjectFact(v, &c) {
			return c.Value, true
		}
		return "", false
	}
	for _, fn := range fns {
		if v, ok := effects.ConstResult(fn, globalConst); ok {
			a.pass.ExportObjectFact(objs[fn], &effects.ConstString{Value: v})
		}
	}
	contracts := a.exportContracts()
	eng := &effects.Engine{
		Fset:        a.pass.Fset,
		Pkg:         a.pass.Pkg,
		Module:      a.module,
		Opts:        engineOptions(a.cfg),
		Hatches:     a.hatches,
		Prog:        prog,
		InitGlobals: initGlobals,
		Generated:   a.generatedFiles(),
		ImportConst: func(fn *types.Func) (string, bool) {
			var c effects.ConstString
			if a.pass.ImportObjectFact(fn, &c) {
				return c.Value, true
			}
			return "", false
		},
		GlobalConst: globalConst,
		Contract: func(m *types.Func) *effects.Contract {
			if c, ok := contracts[m]; ok {
				return c
			}
			var c effects.Contract
			if m.Pkg() != nil && m.Pkg() != a.pass.Pkg && a.pass.ImportObjectFact(m, &c) {
				return &c
			}
			return nil
		},
		Import: func(fn *types.Func) *effects.Summary {
			var s effects.Summary
			if a.pass.ImportObjectFact(fn, &s) {
				return loaded(&s, fn)
			}
			return nil
		},
		Analysed: func(p *types.Package) bool {
			return a.pass.ImportPackageFact(p, new(analysedFact))
		},
		Retains: func(fn *types.Func, i int) (bool, []int) {
			var f RetainsFact
			if fn.Pkg() == a.pass.Pkg || !a.pass.ImportObjectFact(fn, &f) {
				return false, nil
			}
			var into []int
			for _, in := range f.Into {
				if in[0] == i {
					into = append(into, in[1])
				}
			}
			return slices.Contains(f.Params, i), into
		},
		WritesReq: func(fn *types.Func, i int) bool {
			var f ReqWritesFact
			return fn.Pkg() != a.pass.Pkg && a.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
		},
		ResultKept: func(fn *types.Func, t types.Type) bool {
			var f KeepsFact
			return fn.Pkg() != a.pass.Pkg && a.pass.ImportPackageFact(fn.Pkg(), &f) && resultKept(&f, t)
		},
		LocalSource: localSource(a.pass),
		// The whole program's rewiring (a driver that loads it), or this
		// package's own (under go vet, what the package itself does).
	}
	client, transport := RewiresDefaultClient(a.pass.Files, a.pass.TypesInfo)
	eng.DefaultClientRewired = DefaultClientRewired || client
	eng.DefaultTransportRewired = DefaultTransportRewired || transport
	eng.ErrorsActDeps, eng.ContextsActDeps = actsDeps(a.pass)
	eng.EntConsts = entConsts(a.pass)
	contracted := a.contractedIfaces()
	eng.Coarse = len(a.handlers) == 0 && len(contracted) == 0 && !KeepResults
	roots := fns
	if eng.Coarse {
		// Nothing here is reported: only what another package can call
		// needs a summary (the loop below), and what it calls is
		// summarised on the way. A function nothing exported reaches
		// is never walked.
		roots = nil
		for _, fn := range fns {
			if objs[fn].Exported() {
				roots = append(roots, fn)
			}
		}
	}
	sums := eng.Summaries(roots)
	if eng.OwnErrorActs() {
		a.pass.ExportPackageFact(&errorActsFact{})
	}
	if eng.OwnContextActs() {
		a.pass.ExportPackageFact(&contextActsFact{})
	}
	exportEnt(a.pass)
	for _, fn := range fns {
		// Only what another package can call needs a fact: an exported
		// function, or an exported method (of any type: an unexported
		// type's value reaches other packages through interfaces). An
		// unexported function or method is called only here, where its
		// summary is inside its callers'. Facts travel to every importer,
		// so this is most of a package's facts file.
		if !objs[fn].Exported() {
			continue
		}
		s := sums[fn]
		if s == nil {
			s = &effects.Summary{}
		}
		if m := eng.MadeSummary(fn, s); m != nil {
			// The handlers it makes, for a handler constructor in
			// another package that returns them (Summary.Made).
			c := *s
			c.Made = m
			s = &c
		}
		if !s.Empty() {
			a.pass.ExportObjectFact(objs[fn], s.Exported())
		}
	}
	a.checkConversions(eng, prog, spkg, fns, sums, contracted)
	for _, h := range a.handlers {
		obj, _ := a.pass.TypesInfo.Defs[h.decl.Name].(*types.Func)
		fn := prog.FuncValue(obj)
		if fn == nil {
			continue
		}
		a.checkHandler(h, eng, eng.HandlerSummary(fn))
	}
	if KeepResults {
		a.slotEffects(eng, prog, fns)
	}
	if KeepResults && (KeepModule == "" || a.module == KeepModule) {
		summary := func(fn *ssa.Function, call bool) *effects.Summary {
			if call {
				return eng.CallSummary(fn)
			}
			return eng.HandlerSummary(fn)
		}
		a.result.effectsOf = func(obj *types.Func, call bool) ([]effects.Effect, bool) {
			if obj.Pkg() != a.pass.Pkg {
				return nil, false
			}
			fn := prog.FuncValue(obj)
			if fn == nil {
				return nil, false
			}
			return eng.Finalize(summary(fn, call), a.module), true
		}
		a.result.effectsAt = func(pos token.Pos, call bool) ([]effects.Effect, bool) {
			var lit *ssa.Function
			var find func(fs []*ssa.Function)
			find = func(fs []*ssa.Function) {
				for _, f := range fs {
					if lit != nil {
						return
					}
					if f.Pos() == pos && f.Parent() != nil {
						lit = f
						return
					}
					find(f.AnonFuncs)
				}
			}
			find(fns)
			if lit == nil {
				return nil, false
			}
			return eng.Finalize(summary(lit, call), a.module), true
		}
	}
}

// loaded decodes an imported summary. One that cannot be decoded (a
// facts file written by another authvet version) is unprovable: calling
// the function may do anything.
func loaded(s *effects.Summary, fn *types.Func) *effects.Summary {
	if err := s.Load(); err != nil {
		return effects.Unreadable(fn.FullName(), err)
	}
	return s
}

// generatedFiles lists the package's generated files ("Code generated
// ... DO NOT EDIT.").
func (a *run) generatedFiles() map[string]bool {
	m := map[string]bool{}
	for _, f := range a.pass.Files {
		if ast.IsGenerated(f) {
			m[a.pass.Fset.File(f.Pos()).Name()] = true
		}
	}
	return m
}

func engineOptions(cfg *config.Config) effects.Options {
	o := effects.Options{TenantColumns: cfg.TenantColumns, Sinks: map[string]effects.Sink{}, Benign: map[string]bool{}}
	for _, s := range cfg.Sinks {
		key := s.PkgPath + "." + s.Name
		if s.Recv != "" {
			key = s.PkgPath + "." + s.Recv + "." + s.Name
		}
		o.Sinks[key] = effects.Sink{Effect: s.Effect, SubjectArg: s.SubjectArg, Subject: s.Subject, Method: s.Method, Safe: s.Safe}
	}
	if len(cfg.Clients) > 0 {
		o.Client = func(pkg string) string {
			if c := cfg.ClientFor(pkg); c != nil {
				return c.Outbound
			}
			return ""
		}
	}
	for _, b := range cfg.BenignInterfaces {
		o.Benign[b] = true
	}
	return o
}

func (a *run) reportf(n ast.Node, category, format string, args ...any) {
	a.diags = append(a.diags, analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Category: category, Message: fmt.Sprintf(format, args...)})
}

// checkSinks verifies, in the package that declares each configured sink,
// that the function exists and has the subject argument: a misspelt sink
// would silently drop every effect through the real one.
func checkSinks(pass *analysis.Pass, cfg *config.Config) error {
	for _, s := range cfg.Sinks {
		// In the package that declares it, or in a package of the module
		// that imports it (under go vet, a dependency's pass does not
		// read the module's authvet.yaml).
		pkg := pass.Pkg
		if s.PkgPath != pass.Pkg.Path() {
			pkg = nil
			for _, imp := range pass.Pkg.Imports() {
				if imp.Path() == s.PkgPath {
					pkg = imp
				}
			}
			if pkg == nil {
				continue
			}
		}
		var fn *types.Func
		if s.Recv == "" {
			fn, _ = pkg.Scope().Lookup(s.Name).(*types.Func)
		} else if tn, ok := pkg.Scope().Lookup(s.Recv).(*types.TypeName); ok {
			t := tn.Type()
			if !types.IsInterface(t) {
				t = types.NewPointer(t) // methods of either receiver, promoted ones too
			}
			obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, s.Name)
			fn, _ = obj.(*types.Func)
		}
		where := fmt.Sprintf("%s:%d", cfg.Path, s.Line)
		if fn == nil {
			return fmt.Errorf("%s: sink %s: package %s has no such function or method", where, s.Func, s.PkgPath)
		}
		if n := fn.Signature().Params().Len(); s.SubjectArg >= n && !fn.Signature().Variadic() {
			return fmt.Errorf("%s: sink %s: subject_arg %d, but it takes %d arguments (0-based, receiver not counted)", where, s.Func, s.SubjectArg, n)
		}
	}
	return nil
}

// isStandard reports whether the pass is over a standard-library package:
// those are modelled, never analysed, so the facts-only pass over them
// costs nothing.
func isStandard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return true
	}
	return StandardFile(pass.Fset.File(pass.Files[0].Pos()).Name())
}

// StandardFile reports whether a Go file belongs to the standard library
// (it is under GOROOT/src). The analyzer does nothing on such a package,
// so the vet driver skips it without parsing it (cmd/authvet).
func StandardFile(name string) bool {
	for _, root := range goroots() {
		if strings.HasPrefix(name, root) {
			return true
		}
	}
	return false
}

var goroots = sync.OnceValue(func() []string {
	var roots []string
	for _, r := range []string{build.Default.GOROOT, os.Getenv("GOROOT")} {
		if r == "" {
			continue
		}
		r = filepath.Join(r, "src") + string(filepath.Separator)
		roots = append(roots, r)
		if real, err := filepath.EvalSymlinks(r); err == nil && real != r {
			roots = append(roots, real+string(filepath.Separator))
		}
	}
	return roots
})

// Configs are read once per process and path.
var configs sync.Map // path -> *configResult

type configResult struct {
	once sync.Once
	cfg  *config.Config
	err  error
}

func loadConfig(pass *analysis.Pass) (*config.Config, error) {
	path := configPath
	if path == "" {
		dir := filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name())
		path = config.Find(dir)
	}
	if path == "" {
		return config.Default(), nil
	}
	v, _ := configs.LoadOrStore(path, &configResult{})
	r := v.(*configResult)
	r.once.Do(func() {
		r.cfg, r.err = config.Load(path)
		if r.err == nil && configHash != "" && !strings.EqualFold(configHash, r.cfg.Hash) {
			r.err = fmt.Errorf("%s: content sha256 is %s, but -config_sha256 says %s; pass the new hash so go vet re-runs", path, r.cfg.Hash, configHash)
		}
	})
	return r.cfg, r.err
}

// exportConstReturns exports, for a package not analysed, the constant
// string each function or method whose body is one return of a constant
// returns (an entity's Table(), a job args type's Kind()): read from the
// syntax, as no SSA is built. An analysed package exports them from SSA
// (effects.ConstResult).
func exportConstReturns(pass *analysis.Pass) {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || len(fd.Body.List) != 1 {
				continue
			}
			ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			tv, ok := pass.TypesInfo.Types[ret.Results[0]]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
				continue
			}
			if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				pass.ExportObjectFact(obj, &effects.ConstString{Value: constant.StringVal(tv.Value)})
			}
		}
	}
}
