package argcheck

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
)

// Check checks every row of table whose package is in pkgs (keyed by
// path). It returns the number of rows checked and one line per row that
// does not match the real signature.
func Check(table map[string]int, pkgs map[string]*types.Package) (checked int, problems []string) {
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		pkg, rest := split(name, pkgs)
		if pkg == nil {
			continue
		}
		checked++
		if msg := checkRow(pkg, rest, table[name]); msg != "" {
			problems = append(problems, name+": "+msg)
		}
	}
	return checked, problems
}

// Packages returns the packages of known (import paths) that rows of
// table name, each once, sorted: a row belongs to the longest path it
// starts with, followed by a dot.
func Packages(table map[string]int, known []string) []string {
	set := map[string]*types.Package{}
	for _, k := range known {
		set[k] = types.NewPackage(k, "")
	}
	seen := map[string]bool{}
	for name := range table {
		if p, _ := split(name, set); p != nil {
			seen[p.Path()] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// split finds the longest package path in pkgs that prefixes name
// followed by a dot, and returns the package and the rest of the name.
func split(name string, pkgs map[string]*types.Package) (*types.Package, string) {
	var best *types.Package
	rest := ""
	for path, p := range pkgs {
		if strings.HasPrefix(name, path+".") && (best == nil || len(path) > len(best.Path())) {
			best, rest = p, name[len(path)+1:]
		}
	}
	return best, rest
}

// checkRow checks "Func.param" or "Type.Method.param" in pkg.
func checkRow(pkg *types.Package, rest string, index int) string {
	parts := strings.Split(rest, ".")
	var fn *types.Func
	switch len(parts) {
	case 2:
		f, ok := pkg.Scope().Lookup(parts[0]).(*types.Func)
		if !ok {
			return "no function " + parts[0]
		}
		fn = f
	case 3:
		tn, ok := pkg.Scope().Lookup(parts[0]).(*types.TypeName)
		if !ok {
			return "no type " + parts[0]
		}
		t := tn.Type()
		if !types.IsInterface(t) {
			t = types.NewPointer(t)
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, parts[1])
		f, ok := obj.(*types.Func)
		if !ok {
			return "no method " + parts[1] + " on " + parts[0]
		}
		fn = f
	default:
		return "not a FuncKey and a parameter"
	}
	param := parts[len(parts)-1]
	sig := fn.Signature()
	i := index
	if len(parts) == 3 {
		i-- // the receiver is argument 0
	}
	if i < 0 || i >= sig.Params().Len() {
		return fmt.Sprintf("argument %d is not a parameter of %s", index, fn.FullName())
	}
	if got := sig.Params().At(i).Name(); got != param {
		return fmt.Sprintf("argument %d of %s is %q, not %q", index, fn.FullName(), got, param)
	}
	return ""
}
