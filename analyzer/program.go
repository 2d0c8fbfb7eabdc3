package analyzer

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
)

// DefaultClientRewired is set by a driver that loads the whole program
// (the standalone command, authvet manifest) when a package of it stores
// into http.DefaultClient, one of its fields, or http.DefaultTransport
// (an egress package's init setting a proxy, linked by main). Every call
// that sends through the default client then sends where that package
// says: it proves no URL. Under go vet a package sees only what it
// imports, and only its own such stores count.
var DefaultClientRewired bool

// DefaultTransportRewired is DefaultClientRewired for what rewires
// http.DefaultTransport itself (a store to it or to its proxy or dial
// functions, a RegisterProtocol on it, a proxy set in the environment):
// every client built with no Transport sends through it too.
var DefaultTransportRewired bool

// RewiresDefaultClient reports whether files, type-checked into info,
// change where http.DefaultClient sends (client): a store to the
// variable, to what it points to, or to its Transport or CheckRedirect;
// and whether they change where http.DefaultTransport sends (transport,
// which rewires the default client too): a store to it, or to the proxy
// or dial functions of the transport it holds, a RegisterProtocol on
// that transport, or a proxy set in the environment
// (os.Setenv("HTTPS_PROXY", ...)). (Tuning a pool size or a timeout
// changes nothing.)
func RewiresDefaultClient(files []*ast.File, info *types.Info) (client, transport bool) {
	if info == nil {
		return false, false
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if transport {
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok {
				// DefaultTransport.(*http.Transport).RegisterProtocol(...):
				// the RoundTripper registered sends the scheme's requests.
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "RegisterProtocol" {
					if fn, ok := info.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "net/http" {
						if hit, _ := defaultHTTPVar(sel.X, info); hit {
							transport = true
						}
					}
				}
				// os.Setenv("HTTPS_PROXY", ...): the default transport's
				// ProxyFromEnvironment sends every request there.
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Setenv" && len(call.Args) == 2 {
					if fn, ok := info.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "os" {
						if tv, ok := info.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String && proxyEnv[strings.ToUpper(constant.StringVal(tv.Value))] {
							transport = true
						}
					}
				}
				return true
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for _, lhs := range as.Lhs {
				if hit, tr := defaultHTTPVar(lhs, info); hit {
					client = true
					transport = transport || tr
				}
			}
			return true
		})
		if transport {
			break
		}
	}
	return client || transport, transport
}

// defaultHTTPVar reports whether an assignment's left side is net/http's
// DefaultClient or DefaultTransport, or a field of either that decides
// where a request goes (hit), and whether it is the DefaultTransport.
func defaultHTTPVar(e ast.Expr, info *types.Info) (hit, transport bool) {
	field := "" // the field stored to, nearest the variable
	for i := 0; i < 16; i++ {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.TypeAssertExpr:
			e = x.X
		case *ast.SelectorExpr:
			if v, ok := info.Uses[x.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "net/http" && !v.IsField() {
				switch v.Name() {
				case "DefaultClient":
					return field == "" || field == "Transport" || field == "CheckRedirect", false
				case "DefaultTransport":
					switch field {
					case "", "Proxy", "DialContext", "Dial", "DialTLS", "DialTLSContext":
						return true, true
					}
				}
				return false, false
			}
			field = x.Sel.Name
			e = x.X
		default:
			return false, false
		}
	}
	return false, false
}

// proxyEnv are the environment variables http.ProxyFromEnvironment reads.
var proxyEnv = map[string]bool{"HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true, "NO_PROXY": true}

// ProgramRewiresDefaultClient reports whether a package of the loaded
// program (one that imports net/http, or os) rewires the default client,
// or the default transport, as RewiresDefaultClient says.
func ProgramRewiresDefaultClient(pkgs []*packages.Package) (client, transport bool) {
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if !transport && (p.Imports["net/http"] != nil || p.Imports["os"] != nil) {
			c, t := RewiresDefaultClient(p.Syntax, p.TypesInfo)
			client, transport = client || c, transport || t
		}
	})
	return client, transport
}
