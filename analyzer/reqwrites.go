package analyzer

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// ReqWritesFact marks a function of a package that is not analysed that
// may change the URL or Host of an *http.Request it is handed
// (routing.Pin(req, region) setting req.URL.Host): a request handed to it
// proves no URL after the call. Params count the receiver first.
type ReqWritesFact struct {
	Params []int
}

// AFact marks ReqWritesFact as an analysis fact.
func (*ReqWritesFact) AFact() {}

func (f *ReqWritesFact) String() string { return "reqwrites" }

// exportReqWrites reads, in the syntax of a package that is not analysed,
// which functions assign to a request parameter's URL (or a field of it)
// or Host, directly or through another function of the package they hand
// it to.
func exportReqWrites(pass *analysis.Pass) {
	decls := funcDecls(pass)
	memo := map[*types.Func][]int{}
	var writes func(fn *types.Func) []int
	writes = func(fn *types.Func) []int {
		if w, ok := memo[fn]; ok {
			return w
		}
		memo[fn] = nil // recursion: assume none
		fd := decls[fn]
		if fd == nil {
			return nil
		}
		params := map[types.Object]int{}
		i := 0
		sig := fn.Signature()
		if sig.Recv() != nil {
			params[sig.Recv()] = 0
			i = 1
		}
		for j := 0; j < sig.Params().Len(); j++ {
			if t := sig.Params().At(j).Type(); isReqPtr(t) || isURLPtr(t) {
				params[sig.Params().At(j)] = i + j
			}
		}
		found := map[int]bool{}
		paramOf := func(e ast.Expr) (int, bool) {
			id, ok := ast.Unparen(e).(*ast.Ident)
			if !ok {
				return 0, false
			}
			k, ok := params[pass.TypesInfo.Uses[id]]
			t := pass.TypesInfo.TypeOf(id)
			return k, ok && (isReqPtr(t) || isURLPtr(t))
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, lhs := range n.Lhs {
					// req.URL = ..., req.Host = ..., req.URL.Host = ...,
					// *req.URL = ...; for a *url.URL u: u.Host = ...,
					// *u = ...
					e := ast.Unparen(lhs)
					if st, ok := e.(*ast.StarExpr); ok {
						e = ast.Unparen(st.X)
						if k, ok := paramOf(e); ok && isURLPtr(pass.TypesInfo.TypeOf(e)) {
							found[k] = true
						}
					}
					for {
						sel, ok := e.(*ast.SelectorExpr)
						if !ok {
							break
						}
						if k, ok := paramOf(sel.X); ok && (sel.Sel.Name == "URL" || sel.Sel.Name == "Host" || isURLPtr(pass.TypesInfo.TypeOf(sel.X))) {
							found[k] = true
						}
						e = ast.Unparen(sel.X)
					}
				}
			case *ast.CallExpr:
				callee, _ := typeutil.Callee(pass.TypesInfo, n).(*types.Func)
				if callee == nil || decls[callee] == nil {
					break
				}
				w := writes(callee)
				off := 0
				if callee.Signature().Recv() != nil {
					off = 1
				}
				for k, a := range n.Args {
					if p, ok := paramOf(a); ok && slices.Contains(w, k+off) {
						found[p] = true
					}
				}
			}
			return true
		})
		var out []int
		for k := range found {
			out = append(out, k)
		}
		slices.Sort(out)
		memo[fn] = out
		return out
	}
	for obj := range decls {
		if w := writes(obj); len(w) > 0 {
			pass.ExportObjectFact(obj, &ReqWritesFact{Params: w})
		}
	}
}

func isURLPtr(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	return ok && qualified(p.Elem()) == "net/url.URL"
}

func isReqPtr(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	return ok && qualified(p.Elem()) == "net/http.Request"
}
