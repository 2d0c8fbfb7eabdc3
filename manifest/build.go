package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/authvet/authvet/analyzer"
	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/grant"
	"github.com/authvet/authvet/internal/config"
)

// Options say what to load.
type Options struct {
	Dir      string   // the directory to load from (-C)
	Patterns []string // default ./...
	Tags     []string // build tags
}

// LoadError is a package that does not load or type-check: the manifest
// of a module that does not build would be a guess.
type LoadError struct{ Msgs []string }

func (e *LoadError) Error() string { return strings.Join(e.Msgs, "\n") }

// Build loads the packages, runs the analyzer over them with facts, reads
// the registrations of tools and routes from the module's SSA, and
// returns the manifest.
func Build(opts Options) (*Manifest, error) {
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: opts.Dir, Tests: false}
	if len(opts.Tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(opts.Tags, ",")}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	root, module := moduleOf(pkgs)
	if root == "" {
		root = opts.Dir
	}
	var loadErrs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, relPos(root, e.Pos)+": "+e.Msg)
		}
	})
	if len(loadErrs) > 0 {
		slices.Sort(loadErrs)
		return nil, &LoadError{Msgs: slices.Compact(loadErrs)}
	}
	prevKeep, prevModule, prevRewired, prevTransport := analyzer.KeepResults, analyzer.KeepModule, analyzer.DefaultClientRewired, analyzer.DefaultTransportRewired
	analyzer.KeepResults, analyzer.KeepModule = true, module
	analyzer.DefaultClientRewired, analyzer.DefaultTransportRewired = analyzer.ProgramRewiresDefaultClient(pkgs)
	defer func() {
		analyzer.KeepResults, analyzer.KeepModule, analyzer.DefaultClientRewired, analyzer.DefaultTransportRewired = prevKeep, prevModule, prevRewired, prevTransport
	}()
	analyzer.TakeSlots() // none of an earlier run's
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, pkgs, nil)
	slots := analyzer.TakeSlots()
	if err != nil {
		return nil, err
	}
	results := map[*types.Package]*analyzer.Result{}
	acts := map[*types.Package]*checker.Action{}
	var errs []string
	for act := range graph.All() {
		if act.Analyzer != analyzer.Analyzer {
			continue
		}
		acts[act.Package.Types] = act
		if act.Err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", act.Package.PkgPath, act.Err))
			continue
		}
		if r, ok := act.Result.(*analyzer.Result); ok {
			results[act.Package.Types] = r
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return nil, &LoadError{Msgs: errs}
	}
	b := &builder{root: root, module: module, results: results, acts: acts, fset: pkgs[0].Fset, slots: slots}
	cfgPath := analyzer.Analyzer.Flags.Lookup("config").Value.String()
	if cfgPath == "" {
		cfgPath = config.Find(root)
	}
	if cfgPath != "" {
		if b.cfg, err = config.Load(cfgPath); err != nil {
			return nil, err
		}
	}
	return b.build(pkgs), nil
}

type builder struct {
	root, module string
	acts         map[*types.Package]*checker.Action
	cfg          *config.Config
	modulePkgs   map[*types.Package]bool
	results      map[*types.Package]*analyzer.Result
	fset         *token.FileSet
	slots        analyzer.Slots // every store into function fields in the program
}

func (b *builder) build(pkgs []*packages.Package) *Manifest {
	m := &Manifest{SchemaVersion: SchemaVersion, Module: b.module, Provenance: "provable",
		Actions: []Action{}, Grants: []GrantEntry{}, UngovernedTools: []Ungoverned{}, AnnotationConflicts: []Conflict{}}
	handlers := map[*types.Func]*analyzer.Handler{}
	actions := map[*types.Func]*Action{}
	usedGrants := map[string]bool{}
	var order []*types.Func
	for _, p := range pkgs {
		r := b.results[p.Types]
		if r == nil {
			continue
		}
		for i := range r.Handlers {
			h := &r.Handlers[i]
			if h.Func == nil || handlers[h.Func] != nil {
				continue
			}
			handlers[h.Func] = h
			order = append(order, h.Func)
		}
	}
	// Exposure, from the module's SSA.
	prog, _ := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	inModule := map[*types.Package]bool{}
	for _, p := range pkgs {
		inModule[p.Types] = true
	}
	b.modulePkgs = inModule
	// fns are the module's functions; instances, the bodies of its
	// generic functions' instances (which have no package), whose calls
	// the call graph resolves per instance.
	var fns, instances []*ssa.Function
	for fn := range ssautil.AllFunctions(prog) {
		if len(fn.Blocks) == 0 {
			continue
		}
		if fn.Pkg != nil && inModule[fn.Pkg.Pkg] {
			fns = append(fns, fn)
		} else if fn.Pkg == nil && instanceIn(fn, inModule) {
			instances = append(instances, fn)
		}
	}
	byPos := func(x, y *ssa.Function) int {
		if c := int(x.Pos() - y.Pos()); c != 0 {
			return c
		}
		return strings.Compare(x.String(), y.String())
	}
	slices.SortFunc(fns, byPos)
	slices.SortFunc(instances, byPos)
	isHandler := func(f *types.Func) bool { return handlers[f] != nil }
	ungoverned := map[string]bool{}
	regs := scan(fns, isHandler, inModule)
	// Tools paired with their handlers where they are made, registered
	// through the types an unresolved AddTool reads them from.
	carriers := map[types.Type]bool{}
	for _, r := range regs {
		for t := range r.carriers {
			carriers[t] = true
		}
	}
	paired := pairs(fns, isHandler, carriers)
	explained := map[types.Type]bool{}
	for _, p := range paired {
		if n := p.carrier; n != nil {
			explained[n] = true
		}
	}
	regs = slices.DeleteFunc(regs, func(r registration) bool {
		for t := range r.carriers {
			if explained[t] {
				return true // its tools are the pairs made of that type
			}
		}
		return false
	})
	regs = append(regs, paired...)
	// A handler literal a helper made, registered for the function that
	// returns it: its effects are that function's too.
	extra := map[*types.Func][]effects.Effect{}
	for _, reg := range regs {
		if reg.literal == nil {
			continue
		}
		for _, f := range reg.handlers {
			if top := topDeclared(reg.literal); top != nil && top != f {
				if effs, ok := b.results[top.Pkg()].EffectsAt(reg.literal.Pos()); ok {
					extra[f] = append(extra[f], effs...)
				} else {
					extra[f] = append(extra[f], effects.Effect{Kind: effects.Unprovable, Reason: "the tool's handler is a literal the analysis did not summarise", Pos: effects.PositionOf(b.fset, reg.literal.Pos())})
				}
			}
		}
	}
	res := newResolver(b, prog, append(slices.Clone(fns), instances...))
	for _, fn := range order {
		h := handlers[fn]
		if more := extra[fn]; len(more) > 0 {
			h.Effects = withExtra(h.Effects, more)
		}
		h.Effects = res.resolve(h.Effects, 0)
		sortEffectList(h.Effects)
		a := b.action(h)
		if h.Grant != nil {
			usedGrants[grantKey(h.Grant)] = true
		}
		actions[fn] = a
	}
	for _, reg := range regs {
		var ops, others []*types.Func
		for _, f := range reg.handlers {
			if isHandler(f) {
				ops = append(ops, f)
			} else {
				others = append(others, f)
			}
		}
		for _, f := range ops {
			a := actions[f]
			if reg.route != nil {
				a.Routes = append(a.Routes, *reg.route)
				if a.Exposure == "not-exposed" {
					a.Exposure = "http-route"
				}
			}
			if reg.tool != nil {
				a.Exposure = "mcp-tool"
				sig := f.Signature()
				if reg.literal != nil {
					sig = reg.literal.Signature
				}
				a.Tool = b.tool(reg.tool, a, handlers[f], sig)
			}
		}
		if reg.tool == nil {
			continue
		}
		if len(ops) == 0 && len(others) == 0 {
			u := Ungoverned{Tool: reg.tool.name, Location: b.loc(reg.pos), Mutating: true, Effects: []EffectEntry{},
				DeclaredAnnotations: reg.tool.ann,
				Caveat:              "the handler registered here could not be resolved to a function; it is taken as mutating"}
			b.addUngoverned(m, u, ungoverned)
			continue
		}
		for _, f := range others {
			u := Ungoverned{Tool: reg.tool.name, Handler: funcName(f), Location: b.loc(f.Pos()), Effects: []EffectEntry{}, DeclaredAnnotations: reg.tool.ann}
			if !reg.tool.resolved {
				u.Caveat = "the tool's name is not a constant"
			}
			effs, ok := b.results[f.Pkg()].EffectsOf(f)
			if !ok {
				effs, ok = b.factEffects(f)
			}
			effs = res.resolve(withExtra(effs, extra[f]), 0)
			sortEffectList(effs)
			if r := b.results[f.Pkg()]; !ok && (r == nil || !r.NoSinks) {
				// Not computed here (a dependency's handler, or a package
				// not analysed): nothing proves it does not mutate.
				u.Mutating, u.Caveat = true, joinCaveat(u.Caveat, "the handler's effects were not computed (its package is not the module's, or was not analysed); it is taken as mutating")
			}
			for _, e := range effs {
				if e.Kind == effects.AssertedEffectFree {
					continue
				}
				u.Effects = append(u.Effects, b.effect(e))
				if mutates(e) {
					u.Mutating = true
				}
			}
			u.Effects = sortEffects(u.Effects)
			b.addUngoverned(m, u, ungoverned)
			if u.DeclaredAnnotations != nil && u.DeclaredAnnotations.ReadOnlyHint != nil && *u.DeclaredAnnotations.ReadOnlyHint {
				for _, e := range effs {
					if e.Kind != effects.AssertedEffectFree && mutates(e) {
						m.AnnotationConflicts = append(m.AnnotationConflicts, Conflict{Tool: u.Tool, Claim: "readOnlyHint: true", ContradictedBy: b.effect(e)})
						break
					}
				}
			}
		}
	}
	for _, fn := range order {
		a := actions[fn]
		if a.Tool != nil {
			m.AnnotationConflicts = append(m.AnnotationConflicts, b.conflicts(a, handlers[fn])...)
		}
		slices.SortFunc(a.Routes, func(x, y Route) int { return strings.Compare(x.Method+" "+x.Path, y.Method+" "+y.Path) })
		a.Routes = slices.Compact(a.Routes)
		if a.Provenance == "declared" {
			m.Provenance = "declared"
		}
		m.Actions = append(m.Actions, *a)
	}
	slices.SortFunc(m.Actions, func(x, y Action) int {
		if c := strings.Compare(x.Function, y.Function); c != 0 {
			return c
		}
		return strings.Compare(x.Location, y.Location)
	})

	// Grants: the module's, and those its actions name.
	seen := map[string]bool{}
	for _, p := range pkgs {
		r := b.results[p.Types]
		if r == nil {
			continue
		}
		for _, g := range r.Grants {
			k := grantKey(g.Fact)
			if seen[k] {
				continue
			}
			seen[k] = true
			m.Grants = append(m.Grants, b.grantEntry(g, usedGrants[k]))
		}
	}
	slices.SortFunc(m.Grants, func(x, y GrantEntry) int {
		return strings.Compare(x.Package+"."+x.Name, y.Package+"."+y.Name)
	})
	slices.SortFunc(m.UngovernedTools, func(x, y Ungoverned) int {
		return strings.Compare(x.Tool+"\x00"+x.Handler+"\x00"+x.Location, y.Tool+"\x00"+y.Handler+"\x00"+y.Location)
	})
	slices.SortFunc(m.AnnotationConflicts, func(x, y Conflict) int {
		return strings.Compare(x.Tool+"\x00"+x.Claim+"\x00"+x.ContradictedBy.Location, y.Tool+"\x00"+y.Claim+"\x00"+y.ContradictedBy.Location)
	})
	m.AnnotationConflicts = slices.CompactFunc(m.AnnotationConflicts, func(x, y Conflict) bool {
		return x.Tool == y.Tool && x.Claim == y.Claim
	})
	m.Excluded = excluded()
	return m
}

// factEffects returns the effects of a function of another module from
// the summary fact its package exported, when that package was
// analysed: no fact is no effect of its own.
func (b *builder) factEffects(f *types.Func) ([]effects.Effect, bool) {
	act := b.acts[f.Pkg()]
	if act == nil || !f.Exported() {
		return nil, false
	}
	if !analyzer.WasAnalysed(act.PackageFact, f.Pkg()) {
		return nil, true // it reaches no sink by itself
	}
	var s effects.Summary
	if !act.ObjectFact(f, &s) {
		return nil, true // analysed, and its summary is empty
	}
	return analyzer.FactEffects(b.cfg, b.module, f, &s), true
}

// withExtra adds to a handler's effects those of a literal a helper made
// for it, but not a site vet mode already saw through the helper's call
// (Summary.Made), which differs only in its chain.
func withExtra(effs, more []effects.Effect) []effects.Effect {
	if len(more) == 0 {
		return effs
	}
	type site struct {
		kind, subject, method, reason string
		pos                           effects.Position
	}
	have := map[site]bool{}
	for _, e := range effs {
		have[site{e.Kind, e.Subject, e.Method, e.Reason, e.Pos}] = true
	}
	out := slices.Clone(effs)
	for _, e := range more {
		if !have[site{e.Kind, e.Subject, e.Method, e.Reason, e.Pos}] {
			out = append(out, e)
		}
	}
	return out
}

// instanceIn reports whether fn is (a literal in) an instance of a
// generic function of the module.
func instanceIn(fn *ssa.Function, inModule map[*types.Package]bool) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	o := fn.Origin()
	return o != nil && o.Pkg != nil && inModule[o.Pkg.Pkg]
}

// topDeclared is the declared function a literal is defined in.
func topDeclared(fn *ssa.Function) *types.Func {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return declared(fn)
}

func (b *builder) inModule(p *types.Package) bool { return b.modulePkgs[p] }

func (b *builder) addUngoverned(m *Manifest, u Ungoverned, seen map[string]bool) {
	k := u.Tool + "\x00" + u.Handler + "\x00" + u.Location
	if seen[k] {
		return
	}
	seen[k] = true
	m.UngovernedTools = append(m.UngovernedTools, u)
}

func joinCaveat(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// excluded lists the dimensions recorded but not enforced from the code.
func excluded() []Excluded {
	return []Excluded{
		{Dimension: "jobs", EventualProvenance: "declared", RuntimeCaveat: "the job kinds a handler enqueues are proved; what each job does when it runs is out of scope"},
		{Dimension: "outbound", EventualProvenance: "partial", RuntimeCaveat: "alias entries and URL prefixes are declared; a prefix covers every path under it"},
		{Dimension: "rate", EventualProvenance: "runtime-only", RuntimeCaveat: "a declared rate is recorded, not enforced; enforce it where the handler is served"},
		{Dimension: "spend", EventualProvenance: "runtime-only", RuntimeCaveat: "a declared spend limit is recorded, not enforced; enforce it where the handler is served"},
	}
}

func grantKey(g *analyzer.GrantFact) string {
	return g.Pos.File + ":" + fmt.Sprint(g.Pos.Line) + ":" + g.Name
}

// action makes the row of one handler.
func (b *builder) action(h *analyzer.Handler) *Action {
	a := &Action{Action: h.Name, Function: funcName(h.Func), Location: b.loc(h.Pos), Exposure: "not-exposed",
		Provenance: "provable", Effects: []EffectEntry{}, UnusedGrantEntries: []string{}, AssertedEffectFree: []AssertedFree{}}
	for _, e := range h.Effects {
		if e.Kind == effects.AssertedEffectFree {
			a.AssertedEffectFree = append(a.AssertedEffectFree, AssertedFree{Location: b.pos(e.Pos), Reason: e.Reason})
			a.Provenance = "declared"
			continue
		}
		if e.Provenance == effects.Declared {
			a.Provenance = "declared"
		}
		a.Effects = append(a.Effects, b.effect(e))
	}
	a.Effects = sortEffects(a.Effects)
	slices.SortFunc(a.AssertedEffectFree, func(x, y AssertedFree) int { return strings.Compare(x.Location+x.Reason, y.Location+y.Reason) })
	a.AssertedEffectFree = slices.Compact(a.AssertedEffectFree)
	if g := h.Grant; g != nil {
		a.Grant = &ActionGrant{Name: g.Name, Reversibility: string(g.Grant.Reversibility), TenantScope: scope(g.Grant.TenantScope), Rate: g.Grant.Rate, Spend: g.Grant.Spend}
		a.UnusedGrantEntries = unused(g.Grant, h.Effects)
	} else {
		a.Grant = &ActionGrant{Name: h.GrantName}
	}
	return a
}

func scope(s grant.TenantScope) string {
	if s == "" {
		return string(grant.Scoped)
	}
	return string(s)
}

// unused lists the grant's entries no effect of the handler needs.
func unused(g grant.Grant, effs []effects.Effect) []string {
	out := []string{}
	check := func(field string, entries []string, kinds ...string) {
		for _, entry := range entries {
			one := grant.Grant{}
			switch field {
			case "Writes":
				one.Writes = []string{entry}
			case "UnboundedWrites":
				one.UnboundedWrites = []string{entry}
			case "Outbound":
				one.Outbound = []string{entry}
			case "Webhooks":
				one.Webhooks = []string{entry}
			case "Jobs":
				one.Jobs = []string{entry}
			}
			used := false
			for _, e := range effs {
				if slices.Contains(kinds, e.Kind) && one.Allows(e.Kind, e.Subject) {
					used = true
					break
				}
			}
			if !used {
				out = append(out, field+": "+entry)
			}
		}
	}
	check("Writes", g.Writes, effects.Write)
	check("UnboundedWrites", g.UnboundedWrites, effects.UnboundedWrite, effects.Write)
	check("Outbound", g.Outbound, effects.Outbound)
	check("Webhooks", g.Webhooks, effects.Webhook)
	check("Jobs", g.Jobs, effects.Job)
	slices.Sort(out)
	return slices.Compact(out)
}

func (b *builder) effect(e effects.Effect) EffectEntry {
	ee := EffectEntry{Kind: e.Kind, Subject: e.Subject, Method: e.Method, Provenance: string(e.Provenance), Location: b.pos(e.Pos)}
	for _, v := range e.Via {
		ee.Via = append(ee.Via, b.pos(v))
	}
	if e.Kind == effects.Unprovable || e.Kind == effects.Detached {
		ee.Reason = e.Reason
	}
	return ee
}

func sortEffects(es []EffectEntry) []EffectEntry {
	key := func(e EffectEntry) string {
		return strings.Join([]string{e.Kind, e.Subject, e.Method, e.Location, strings.Join(e.Via, ","), e.Reason, e.Provenance}, "\x00")
	}
	slices.SortFunc(es, func(x, y EffectEntry) int { return strings.Compare(key(x), key(y)) })
	return slices.CompactFunc(es, func(x, y EffectEntry) bool { return key(x) == key(y) })
}

func (b *builder) grantEntry(g analyzer.Grant, used bool) GrantEntry {
	gr := g.Fact.Grant
	list := func(s []string) []string {
		out := append([]string{}, s...)
		slices.Sort(out)
		return out
	}
	return GrantEntry{Name: g.Fact.Name, Package: g.Var.Pkg().Path(), Location: b.pos(g.Fact.Pos),
		Reversibility: string(gr.Reversibility), TenantScope: scope(gr.TenantScope),
		Writes: list(gr.Writes), UnboundedWrites: list(gr.UnboundedWrites), Outbound: list(gr.Outbound),
		Webhooks: list(gr.Webhooks), Jobs: list(gr.Jobs), Rate: gr.Rate, Spend: gr.Spend, Used: used}
}

// funcName is the function's full name as SPEC §9 spells it:
// "example.com/shop/billing.(*Server).DraftRefund".
func funcName(f *types.Func) string {
	name := f.Name()
	if recv := f.Signature().Recv(); recv != nil {
		t := recv.Type()
		star := ""
		if p, ok := t.(*types.Pointer); ok {
			t, star = p.Elem(), "*"
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			if star != "" {
				name = "(*" + n.Obj().Name() + ")." + name
			} else {
				name = n.Obj().Name() + "." + name
			}
		}
	}
	if f.Pkg() == nil {
		return name
	}
	return f.Pkg().Path() + "." + name
}

func (b *builder) loc(p token.Pos) string {
	pos := b.fset.Position(p)
	return fmt.Sprintf("%s:%d", relTo(b.root, pos.Filename), pos.Line)
}

func (b *builder) pos(p effects.Position) string {
	if p.File == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", relTo(b.root, p.File), p.Line)
}

func relPos(root, pos string) string {
	if pos == "" || pos == "-" {
		return "-"
	}
	return relTo(root, pos)
}

func relTo(root, file string) string { return RelTo(root, file) }

// RelTo makes file relative to the module root with '/' (a sibling
// module's with "../"), or to the module cache for dependencies.
func RelTo(root, file string) string {
	r, err := filepath.Rel(root, file)
	if err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	if i := strings.Index(filepath.ToSlash(file), "/pkg/mod/"); i >= 0 {
		return filepath.ToSlash(file)[i+len("/pkg/mod/"):]
	}
	if err == nil {
		// A sibling module wired with replace: relative still, so the
		// output does not depend on where the checkout is.
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(file)
}

func moduleOf(pkgs []*packages.Package) (root, path string) {
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Main {
			return p.Module.Dir, p.Module.Path
		}
	}
	for _, p := range pkgs {
		if p.Module != nil {
			return p.Module.Dir, p.Module.Path
		}
	}
	return "", ""
}

// Marshal writes the manifest as SPEC §9 prints it: two-space indented,
// keys in order, a final newline.
func Marshal(m *Manifest) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		panic(err) // plain structs of strings: cannot fail
	}
	return buf.Bytes()
}
