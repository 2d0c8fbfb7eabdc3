package analyzer

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/grant"
)

const grantPkgPath = "github.com/authvet/authvet/grant"

// GrantFact carries a grant declaration to the packages that import it, so
// //agent:operable grant=pkg.Name works across packages and modules.
type GrantFact struct {
	Grant grant.Grant
	Name  string
	Pos   effects.Position
	Valid bool // the declaration was read without problems
}

// AFact marks GrantFact as an analysis fact.
func (*GrantFact) AFact() {}

func isGrantType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "Grant" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == grantPkgPath
}

// isGrantVar reports whether obj is a grant variable: a package-level
// variable of type grant.Grant.
func isGrantVar(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() && isGrantType(v.Type())
}

// readGrants reads every grant declaration of the package, reports what
// is wrong with each at the offending field, and exports the facts.
func (a *run) readGrants() {
	for _, f := range a.pass.Files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, name := range vs.Names {
					obj := a.pass.TypesInfo.Defs[name]
					if obj == nil || !isGrantVar(obj) {
						continue
					}
					var value ast.Expr
					if len(vs.Values) == len(vs.Names) {
						value = vs.Values[i]
					}
					fact := a.readGrant(name, value)
					a.grants[obj] = fact
					a.pass.ExportObjectFact(obj, fact)
					if a.result != nil {
						a.result.Grants = append(a.result.Grants, Grant{Var: obj.(*types.Var), Fact: fact})
					}
				}
			}
		}
	}
}

var sliceFields = map[string]func(*grant.Grant) *[]string{
	"Writes":          func(g *grant.Grant) *[]string { return &g.Writes },
	"UnboundedWrites": func(g *grant.Grant) *[]string { return &g.UnboundedWrites },
	"Outbound":        func(g *grant.Grant) *[]string { return &g.Outbound },
	"Webhooks":        func(g *grant.Grant) *[]string { return &g.Webhooks },
	"Jobs":            func(g *grant.Grant) *[]string { return &g.Jobs },
}

func (a *run) readGrant(name *ast.Ident, value ast.Expr) *GrantFact {
	fact := &GrantFact{Name: name.Name, Pos: effects.PositionOf(a.pass.Fset, name.Pos()), Valid: true}
	bad := func(n ast.Node, format string, args ...any) {
		fact.Valid = false
		a.reportf(n, "grant", "agent authority: grant %s: %s", name.Name, fmt.Sprintf(format, args...))
	}
	lit, ok := ast.Unparen(value).(*ast.CompositeLit)
	if !ok {
		at := ast.Node(name)
		if value != nil {
			at = value
		}
		bad(at, "a grant must be initialised with a keyed grant.Grant{...} literal of constant fields")
		return fact
	}
	fieldAt := map[string]ast.Expr{}
	elemAt := map[string][]ast.Expr{}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			bad(elt, "the literal must be keyed (Writes: ..., Reversibility: ...)")
			return fact
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		fieldAt[key.Name] = kv.Value
		if get, ok := sliceFields[key.Name]; ok {
			list, elems, ok := a.constStrings(kv.Value)
			if !ok {
				bad(kv.Value, "field %s is not a constant expression (a variable, a call or an append); write a []string{...} of constants", key.Name)
				continue
			}
			*get(&fact.Grant) = list
			elemAt[key.Name] = elems
			continue
		}
		s, ok := a.constString(kv.Value)
		if !ok {
			bad(kv.Value, "field %s is not a constant expression", key.Name)
			continue
		}
		switch key.Name {
		case "TenantScope":
			fact.Grant.TenantScope = grant.TenantScope(s)
		case "Rate":
			fact.Grant.Rate = s
		case "Spend":
			fact.Grant.Spend = s
		case "Reversibility":
			fact.Grant.Reversibility = grant.Reversibility(s)
		}
	}
	var ve *grant.ValidationError
	if err := fact.Grant.Validate(); errors.As(err, &ve) {
		for _, p := range ve.Problems {
			var at ast.Node = lit
			if v, ok := fieldAt[p.Field]; ok {
				at = v
				if elems := elemAt[p.Field]; p.Index >= 0 && p.Index < len(elems) {
					at = elems[p.Index]
				}
			}
			bad(at, "%s", p.String())
		}
	}
	if fact.Valid && a.cfg != nil && a.cfg.Policy != nil {
		// The organisation policy, at the grant's offending element.
		for _, v := range a.cfg.Policy.Judge(a.pass.Pkg.Path(), fact.Grant) {
			var at ast.Node = name
			if f, ok := fieldAt[v.Field]; ok {
				at = f
				if elems := elemAt[v.Field]; v.Index >= 0 && v.Index < len(elems) {
					at = elems[v.Index]
				}
			}
			a.reportf(at, "policy", "agent authority: grant %s: %s", name.Name, v.Msg)
		}
	}
	return fact
}

// constString returns the value of a constant string expression.
func (a *run) constString(e ast.Expr) (string, bool) {
	tv, ok := a.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// constStrings reads a []string{...} literal of constants (or nil).
func (a *run) constStrings(e ast.Expr) ([]string, []ast.Expr, bool) {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		if _, isNil := a.pass.TypesInfo.Uses[id].(*types.Nil); isNil {
			return nil, nil, true
		}
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, nil, false
	}
	list := []string{}
	var elems []ast.Expr
	for _, elt := range lit.Elts {
		if _, ok := elt.(*ast.KeyValueExpr); ok {
			return nil, nil, false
		}
		s, ok := a.constString(elt)
		if !ok {
			return nil, nil, false
		}
		list = append(list, s)
		elems = append(elems, elt)
	}
	return list, elems, true
}

// checkGrantMutations reports every assignment to, or address taken of,
// a grant variable: it would no longer be the constant the check read.
func (a *run) checkGrantMutations() {
	root := func(e ast.Expr) (*ast.Ident, types.Object) {
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
			case *ast.SelectorExpr:
				if obj := a.pass.TypesInfo.Uses[x.Sel]; obj != nil && isGrantVar(obj) {
					return x.Sel, obj
				}
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			case *ast.Ident:
				obj := a.pass.TypesInfo.Uses[x]
				if obj != nil && isGrantVar(obj) {
					return x, obj
				}
				return nil, nil
			default:
				return nil, nil
			}
		}
	}
	mutated := func(e ast.Expr, what string) {
		if id, obj := root(e); id != nil {
			a.reportf(e, "grant", "agent authority: %s grant variable %s; a grant must stay the constant authvet checked, so declare a new grant instead", what, obj.Name())
		}
	}
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					mutated(lhs, "assigns to")
				}
			case *ast.IncDecStmt:
				mutated(n.X, "assigns to")
			case *ast.RangeStmt:
				if n.Tok.String() == "=" {
					if n.Key != nil {
						mutated(n.Key, "assigns to")
					}
					if n.Value != nil {
						mutated(n.Value, "assigns to")
					}
				}
			case *ast.UnaryExpr:
				if n.Op.String() == "&" {
					mutated(n.X, "takes the address of")
				}
			}
			return true
		})
	}
}
