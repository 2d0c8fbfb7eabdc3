package manifest

import (
	"cmp"
	"go/types"
	"slices"
	"strings"

	"github.com/authvet/authvet/analyzer"
	"github.com/authvet/authvet/effects"
)

// A function-typed field read from a struct vet mode could not see built
// is an unprovable site naming the field (effects.Effect.Slot: go-github's
// client copies its http.Client's CheckRedirect). The manifest has every
// package of the program, so it reads every store into that field
// (analyzer.SlotStore, from each package's syntax): when each value
// stored there is a function whose effects are known, or a copy of a
// field whose values are, the site does what those functions do. Values
// written by reflection or through unsafe are not seen, as the call
// graph does not see them.

// slotIndex is every store into function-typed fields in the program.
type slotIndex struct {
	stores map[string][]analyzer.SlotStore
	unread bool // a package's stores could not be read: nothing is proved
	memo   map[string]*slotValues
}

// slotValues is what one field may hold.
type slotValues struct {
	stores  []analyzer.SlotStore // functions and literals, none inert
	unknown bool
}

func newSlotIndex(s analyzer.Slots) *slotIndex {
	x := &slotIndex{stores: s.Stores, unread: s.Unread, memo: map[string]*slotValues{}}
	if x.stores == nil {
		x.stores = map[string][]analyzer.SlotStore{}
	}
	for _, ss := range x.stores {
		slices.SortFunc(ss, func(a, b analyzer.SlotStore) int {
			return cmp.Or(cmp.Compare(a.Pkg.Path(), b.Pkg.Path()), cmp.Compare(a.Lit, b.Lit), cmp.Compare(fullName(a.Func), fullName(b.Func)), cmp.Compare(a.From, b.From))
		})
	}
	return x
}

func fullName(f *types.Func) string {
	if f == nil {
		return ""
	}
	return f.FullName()
}

// values returns what field k may hold: what is stored into it, and
// into every field copied into it, transitively. (Each query walks the
// copies itself: a result memoised while a cycle of copies was still
// open would miss what the rest of the cycle adds.)
func (x *slotIndex) values(k string) *slotValues {
	if v, ok := x.memo[k]; ok {
		return v
	}
	out := &slotValues{unknown: x.unread}
	seen := map[string]bool{k: true}
	queue := []string{k}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, s := range x.stores[cur] {
			switch {
			case s.Unknown:
				out.unknown = true
			case s.From != "":
				if !seen[s.From] {
					seen[s.From] = true
					queue = append(queue, s.From)
				}
			case s.Inert:
				// Calls nothing: no effect.
			default:
				out.add(s)
			}
		}
	}
	x.memo[k] = out
	return out
}

func (v *slotValues) add(s analyzer.SlotStore) {
	if !slices.ContainsFunc(v.stores, func(o analyzer.SlotStore) bool { return o.Func == s.Func && o.Lit == s.Lit }) {
		v.stores = append(v.stores, s)
	}
}

// slot returns what the functions field e.Slot may hold do (or the
// methods of the types implementing interface method e.Slot), or false
// when one of them is out of sight.
func (r *resolver) slot(e effects.Effect, depth int) ([]effects.Effect, bool) {
	var vals []analyzer.SlotStore
	if strings.HasSuffix(e.Slot, "()") {
		fns, ok := r.implementations(strings.TrimSuffix(e.Slot, "()"))
		if !ok {
			return nil, false
		}
		for _, fn := range fns {
			vals = append(vals, analyzer.SlotStore{Pkg: fn.Pkg(), Func: fn})
		}
	} else {
		v := r.slots.values(e.Slot)
		if v.unknown {
			return nil, false
		}
		vals = v.stores
	}
	var out []effects.Effect
	for _, s := range vals {
		var effs []effects.Effect
		var ok bool
		res := r.b.results[s.Pkg]
		if s.Known {
			effs, ok = s.Effects, true
		} else if s.Func != nil {
			fn := s.Func.Origin()
			if res = r.b.results[fn.Pkg()]; res != nil {
				effs, ok = res.CalleeEffectsOf(fn)
			}
		} else {
			effs, ok = res.CalleeEffectsAt(s.Lit)
		}
		if !ok {
			return nil, false
		}
		out = r.lift(e, effs, depth, out)
	}
	return out, true
}

// implementations returns the method of every type of the program that
// implements interface method "pkgpath.Iface.Method" (its package-level
// types, and the module's local ones), or false when one is a
// dependency's (its effects are not kept here) or generic.
func (r *resolver) implementations(m string) ([]*types.Func, bool) {
	if fns, ok := r.impls[m]; ok {
		return fns, fns != nil
	}
	r.impls[m] = nil
	dot := strings.LastIndexByte(m, '.')
	if dot < 0 {
		return nil, false
	}
	name := m[dot+1:]
	ifaceName := m[:dot]
	dot = strings.LastIndexByte(ifaceName, '.')
	if dot < 0 {
		return nil, false
	}
	var iface *types.Interface
	pkgs := make([]*types.Package, 0, len(r.b.acts))
	for p := range r.b.acts {
		pkgs = append(pkgs, p)
		if p.Path() == ifaceName[:dot] {
			if tn, ok := p.Scope().Lookup(ifaceName[dot+1:]).(*types.TypeName); ok {
				iface, _ = tn.Type().Underlying().(*types.Interface)
			}
		}
	}
	if iface == nil {
		return nil, false
	}
	slices.SortFunc(pkgs, func(a, b *types.Package) int { return cmp.Compare(a.Path(), b.Path()) })
	var fns []*types.Func
	check := func(tn *types.TypeName) bool {
		n, ok := tn.Type().(*types.Named)
		if !ok || tn.IsAlias() || types.IsInterface(n) {
			return true
		}
		ptr := types.NewPointer(n)
		if n.TypeParams().Len() > 0 {
			obj, _, _ := types.LookupFieldOrMethod(ptr, true, tn.Pkg(), name)
			_, isFunc := obj.(*types.Func)
			return !isFunc // a generic type with the method may implement it
		}
		if !types.Implements(n, iface) && !types.Implements(ptr, iface) {
			return true
		}
		obj, _, _ := types.LookupFieldOrMethod(ptr, true, tn.Pkg(), name)
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil || !r.b.inModule(fn.Pkg()) {
			return false
		}
		if !slices.Contains(fns, fn) {
			fns = append(fns, fn)
		}
		return true
	}
	for _, p := range pkgs {
		for _, nm := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(nm).(*types.TypeName); ok && !check(tn) {
				return nil, false
			}
		}
		if !r.b.inModule(p) {
			continue
		}
		// The module's types declared in function bodies.
		info := r.b.acts[p].Package.TypesInfo
		var local []*types.TypeName
		for _, obj := range info.Defs {
			if tn, ok := obj.(*types.TypeName); ok && tn.Parent() != p.Scope() {
				local = append(local, tn)
			}
		}
		slices.SortFunc(local, func(a, b *types.TypeName) int { return cmp.Compare(a.Pos(), b.Pos()) })
		for _, tn := range local {
			if !check(tn) {
				return nil, false
			}
		}
	}
	r.impls[m] = fns
	return fns, fns != nil
}
