package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/authvet/authvet/effects"
)

// exportContracts turns //agent:effect directives on interface methods
// into contracts, exported as facts on the methods.
func (a *run) exportContracts() map[*types.Func]*effects.Contract {
	out := map[*types.Func]*effects.Contract{}
	for _, c := range a.contracts {
		m, _ := a.pass.TypesInfo.Defs[c.method.Names[0]].(*types.Func)
		if m == nil {
			continue
		}
		ct := &effects.Contract{
			None:     c.hatch.None,
			Scoped:   c.hatch.Scoped,
			Declared: declaredEffects(c.hatch),
			Reason:   c.hatch.Reason,
			Pos:      effects.PositionOf(a.pass.Fset, c.method.Pos()),
		}
		out[m] = ct
		a.pass.ExportObjectFact(m, ct)
	}
	return out
}

// checkConversions checks, wherever a concrete type is converted to an
// interface whose methods carry contracts (var _ I = (*T)(nil) included),
// that each implementation's proved effects fit the contract.
func (a *run) checkConversions(eng *effects.Engine, prog *ssa.Program, spkg *ssa.Package, fns []*ssa.Function, sums map[*ssa.Function]*effects.Summary, contracted map[types.Type]bool) {
	all := append([]*ssa.Function(nil), fns...)
	if init := spkg.Func("init"); init != nil {
		all = append(all, init)
	}
	type key struct {
		line int
		impl *types.Func
	}
	done := map[key]bool{}
	asserting, instantiating, convertedHere := false, false, map[string]bool{}
	var check func(pos token.Pos, concrete, ifaceType types.Type, mi *ssa.MakeInterface)
	check = func(pos token.Pos, concrete, ifaceType types.Type, mi *ssa.MakeInterface) {
		iface, ok := ifaceType.Underlying().(*types.Interface)
		if !ok || types.IsInterface(concrete) {
			return
		}
		// A conversion to any interface (any, a registry's value type,
		// another interface) is a way in to every contracted interface
		// the type implements: a type assertion can recover it.
		if !contracted[ifaceType] {
			for it := range contracted {
				if u, ok := it.Underlying().(*types.Interface); ok && !types.Identical(it, ifaceType) && types.Implements(concrete, u) {
					check(pos, concrete, it, mi)
				}
			}
		}
		for i := 0; i < iface.NumMethods(); i++ {
			m := iface.Method(i)
			ct := eng.Contract(m)
			if ct == nil {
				continue
			}
			sel := types.NewMethodSet(concrete).Lookup(m.Pkg(), m.Name())
			if sel == nil {
				continue
			}
			impl, _ := sel.Obj().(*types.Func)
			k := key{a.pass.Fset.Position(pos).Line, impl}
			ck := types.TypeString(concrete, nil)
			if impl == nil || done[k] || asserting && convertedHere[ck] {
				continue // (at an assertion: checked where this package converts it)
			}
			if !asserting && !instantiating {
				convertedHere[ck] = true
			}
			done[k] = true
			var sum *effects.Summary
			if impl.Pkg() == a.pass.Pkg {
				if fn := prog.FuncValue(impl); fn != nil {
					sum = sums[fn]
					if _, isFunc := concrete.Underlying().(*types.Signature); isFunc && mi != nil {
						// An adapter (NotesFunc(f)): its method calls the
						// very function converted here.
						sum = eng.ConversionSummary(mi, fn)
					}
				}
			} else {
				var s effects.Summary
				if a.pass.ImportObjectFact(impl, &s) {
					sum = loaded(&s, impl)
				}
			}
			for _, e := range eng.Finalize(sum, a.module) {
				if !ct.Allows(e) {
					a.diags = append(a.diags, a.contractDiagnostic(pos, implName(concrete, impl), m, &e))
				}
			}
		}
	}
	for _, mi := range effects.Conversions(all) {
		check(conversionPos(mi), mi.X.Type(), mi.Type(), mi)
	}
	// var _ I = (*T)(nil) has no effect, so SSA drops it; read it from
	// the syntax.
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || vs.Type == nil {
				return true
			}
			it := a.pass.TypesInfo.TypeOf(vs.Type)
			for _, v := range vs.Values {
				if tv, ok := a.pass.TypesInfo.Types[v]; ok && it != nil {
					check(v.Pos(), tv.Type, it, nil)
				}
			}
			return true
		})
	}
	// A generic instantiated with a concrete type (NotesPool[*Archive])
	// calls the type's methods through its constraint, with no
	// conversion: the instantiation is the way in. Whatever its
	// constraint (any too), the generic body may also convert the value
	// to an interface (a registry's AddAny[T any](v T) appending to a
	// []any): every contracted interface the type implements is checked
	// there as well.
	ids := make([]*ast.Ident, 0, len(a.pass.TypesInfo.Instances))
	for id := range a.pass.TypesInfo.Instances {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Pos() < ids[j].Pos() })
	instantiating = true // checked here, but only through the constraint's methods
	for _, id := range ids {
		inst := a.pass.TypesInfo.Instances[id]
		var tparams *types.TypeParamList
		switch t := inst.Type.(type) {
		case *types.Named:
			tparams = t.Origin().TypeParams()
		case *types.Signature:
			if f, ok := a.pass.TypesInfo.Uses[id].(*types.Func); ok {
				tparams = f.Origin().Signature().TypeParams()
			}
		}
		for i := 0; tparams != nil && i < tparams.Len() && i < inst.TypeArgs.Len(); i++ {
			if _, ok := tparams.At(i).Constraint().Underlying().(*types.Interface); ok {
				check(id.Pos(), inst.TypeArgs.At(i), tparams.At(i).Constraint(), nil)
			}
		}
	}
	instantiating = false
	// A type assertion (or an interface-to-interface conversion) to a
	// contracted interface may recover a value converted where the
	// contract is not visible (Go's interfaces are structural: a plugin
	// package need not import the interface). Every type this package
	// can see, in itself and its imports, that implements the interface
	// is checked at the assertion.
	if len(convertedHere) > 0 {
		var ts []string
		for t := range convertedHere {
			ts = append(ts, t)
		}
		sort.Strings(ts)
		a.pass.ExportPackageFact(&checkedFact{Types: ts})
	}
	for _, f := range a.pass.AllPackageFacts() {
		if c, ok := f.Fact.(*checkedFact); ok {
			for _, t := range c.Types {
				convertedHere[t] = true // checked where that package converts it
			}
		}
	}
	var visible []types.Type
	asserting = true
	for _, as := range effects.Assertions(all) {
		var target types.Type
		switch x := as.(type) {
		case *ssa.TypeAssert:
			target = x.AssertedType
		case *ssa.ChangeInterface:
			target = x.Type()
		}
		if !contracted[target] {
			continue
		}
		if visible == nil {
			visible = a.visibleTypes()
		}
		iface, _ := target.Underlying().(*types.Interface)
		for _, t := range visible {
			for _, cand := range []types.Type{t, types.NewPointer(t)} {
				if iface != nil && types.Implements(cand, iface) {
					check(as.Pos(), cand, target, nil)
					break
				}
			}
		}
	}
}

// contractedIfaces lists the interfaces with an effect contract on some
// method that this package can see: its own, and those of its imports.
func (a *run) contractedIfaces() map[types.Type]bool {
	out := map[types.Type]bool{}
	add := func(m *types.Func) {
		if recv := m.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
			out[recv.Type()] = true
		}
	}
	for _, c := range a.contracts {
		if m, ok := a.pass.TypesInfo.Defs[c.method.Names[0]].(*types.Func); ok {
			add(m)
		}
	}
	for _, f := range a.pass.AllObjectFacts() {
		if _, ok := f.Fact.(*effects.Contract); ok {
			if m, ok := f.Object.(*types.Func); ok {
				add(m)
			}
		}
	}
	return out
}

// conversionPos places a conversion: implicit ones (an argument, a
// store) have no position of their own, so they take their user's.
func conversionPos(mi *ssa.MakeInterface) token.Pos {
	if mi.Pos().IsValid() {
		return mi.Pos()
	}
	if mi.X.Pos().IsValid() { // the converted operand itself, e.g. an argument
		return mi.X.Pos()
	}
	for _, r := range *mi.Referrers() {
		if r.Pos().IsValid() {
			return r.Pos()
		}
	}
	return mi.Parent().Pos()
}

func implName(t types.Type, impl *types.Func) string {
	return fmt.Sprintf("(%s).%s", types.TypeString(t, func(*types.Package) string { return "" }), impl.Name())
}

func (a *run) contractDiagnostic(pos token.Pos, impl string, m *types.Func, e *effects.Effect) analysis.Diagnostic {
	contract := m.Name()
	if recv := m.Signature().Recv(); recv != nil {
		contract = types.TypeString(recv.Type(), func(p *types.Package) string {
			if p == a.pass.Pkg {
				return ""
			}
			return p.Name()
		}) + "." + m.Name()
	}
	where := " at " + a.rel(e.Pos)
	var what string
	switch e.Kind {
	case effects.Unprovable:
		what = e.Reason
	case effects.Detached:
		what = "starts a detached goroutine"
	case effects.CrossTenant:
		what = fmt.Sprintf("runs a raw query on %q with no tenant predicate", e.Subject[len("raw_query:"):])
	default:
		what = fmt.Sprintf("has effect %s %q", e.Kind, e.Subject)
	}
	return analysis.Diagnostic{
		Pos:      pos,
		Category: e.Kind,
		Message: fmt.Sprintf("agent authority: %s %s%s, which the effect contract on %s does not allow; declare it in the contract's //agent:effect, or change the implementation",
			impl, what, where, contract),
		Related: []analysis.RelatedInformation{{Pos: a.posFor(e.Pos), Message: "the implementation's effect"}},
	}
}

// visibleTypes lists the named non-interface types of the package and of
// every analysed package it imports, directly or not.
func (a *run) visibleTypes() []types.Type {
	pkg := a.pass.Pkg
	out := []types.Type{}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] || len(seen) > 2000 {
			return
		}
		seen[p] = true
		if p != pkg && !a.pass.ImportPackageFact(p, new(analysedFact)) {
			return // not analysed (the standard library): no summaries to check
		}
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
				continue
			}
			if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 {
				if _, isFunc := n.Underlying().(*types.Signature); !isFunc {
					// (an adapter's conversions are checked with the
					// function they convert)
					out = append(out, n)
				}
			}
		}
		for _, q := range p.Imports() {
			visit(q)
		}
	}
	visit(pkg)
	return out
}
