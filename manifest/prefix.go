package manifest

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A route registered on a group carries the group's prefix: gin's and
// echo's Group("/api"), chi's Route("/api", func(r chi.Router) {...})
// and With(...). prefixOf follows the router a route is registered on
// back to where it was made; an unknown router adds nothing (the path is
// the registered one). A router made in one place and mounted in one
// place, with chi's Mount or under net/http's StripPrefix, carries the
// mount's prefix; mounted in several places, it carries none (its routes
// are listed at their own paths).

// groupCalls: the router methods that return a router under a prefix
// (the argument index, receiver first; 0: the same prefix).
var groupCalls = map[string]int{
	ginPkg + ".RouterGroup.Group": 1,
	ginPkg + ".Engine.Group":      1,
	ginPkg + ".IRouter.Group":     1,
	echo4 + ".Echo.Group":         1,
	echo4 + ".Group.Group":        1,
	chiPkg + ".Router.With":       0,
	chiPkg + ".Mux.With":          0,
	chiPkg + ".Router.Group":      0,
	chiPkg + ".Mux.Group":         0,
}

// chiScoped: chi's methods that hand a sub-router to a function (Route
// under its pattern, Group under none): the pattern argument, or 0.
var chiScoped = map[string]int{
	chiPkg + ".Router.Route": 1,
	chiPkg + ".Mux.Route":    1,
	chiPkg + ".Router.Group": 0,
	chiPkg + ".Mux.Group":    0,
}

func (px *prefixer) prefixOf(v ssa.Value, depth int) string {
	if depth > 8 {
		return ""
	}
	switch v := v.(type) {
	case *ssa.Call:
		key := calleeKey(&v.Call)
		if routerMakers[key] {
			return px.mounted(v, depth+1)
		}
		i, ok := groupCalls[key]
		if !ok {
			return ""
		}
		as := args(&v.Call)
		if len(as) == 0 {
			return ""
		}
		prefix := px.prefixOf(as[0], depth+1)
		if i > 0 && i < len(as) {
			if s, ok := constString(as[i]); ok {
				prefix = joinPath(prefix, s)
			}
		}
		return prefix
	case *ssa.ChangeType:
		return px.prefixOf(v.X, depth+1)
	case *ssa.MakeInterface:
		return px.prefixOf(v.X, depth+1)
	case *ssa.Parameter:
		// The sub-router chi hands to the function given to Route.
		fn := v.Parent()
		if fn.Parent() == nil || len(fn.Params) == 0 || fn.Params[0] != v {
			return ""
		}
		for _, b := range fn.Parent().Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				c := call.Common()
				i, scoped := chiScoped[calleeKey(c)]
				if !scoped {
					continue
				}
				as := args(c)
				for _, a := range as {
					if a == ssa.Value(fn) || isClosureOf(a, fn) {
						prefix := px.prefixOf(as[0], depth+1)
						if i > 0 && i < len(as) {
							if s, ok := constString(as[i]); ok {
								prefix = joinPath(prefix, s)
							}
						}
						return prefix
					}
				}
			}
		}
	}
	return ""
}

func isClosureOf(v ssa.Value, fn *ssa.Function) bool {
	mc, ok := v.(*ssa.MakeClosure)
	return ok && mc.Fn == fn
}

// joinPath joins a group prefix and a route path with one slash.
func joinPath(prefix, path string) string {
	switch {
	case prefix == "":
		return path
	case path == "":
		return prefix
	}
	return strings.TrimSuffix(prefix, "/") + "/" + strings.TrimPrefix(path, "/")
}

// routerMakers make a router that may be mounted under a prefix.
var routerMakers = map[string]bool{chiPkg + ".NewRouter": true, chiPkg + ".NewMux": true, "net/http.NewServeMux": true}

// prefixer reads route prefixes; callers indexes the module's static
// calls by callee, for routers a function makes and returns.
type prefixer struct {
	fns     []*ssa.Function
	callers map[*ssa.Function][]*ssa.Call
}

// mounted returns the prefix router v is mounted under: the one place v
// reaches chi's Mount (its pattern, under the mounting router's own
// prefix) or net/http's StripPrefix (its prefix, under the prefix of
// the router the stripped handler is registered on), following v out
// of the functions that return it. Nowhere, several places, or also
// handed to other code (http.ListenAndServe(addr, r)) is "".
func (px *prefixer) mounted(v ssa.Value, depth int) string {
	if depth > 8 {
		return ""
	}
	var found []string
	var visit func(v ssa.Value, d int)
	visit = func(v ssa.Value, d int) {
		if !uses(v, d, visit, func(v ssa.Value, r ssa.Instruction, d int) {
			switch r := r.(type) {
			case *ssa.Return:
				for _, call := range px.callersOf(r.Parent()) {
					visit(call, d+1)
				}
			case ssa.CallInstruction:
				c := r.Common()
				key := calleeKey(c)
				as := args(c)
				switch {
				case (key == chiPkg+".Router.Mount" || key == chiPkg+".Mux.Mount") && len(as) == 3 && as[2] == v:
					if s, ok := constString(as[1]); ok {
						found = append(found, joinPath(px.prefixOf(as[0], depth+1), s))
					} else {
						found = append(found, "")
					}
				case key == "net/http.StripPrefix" && len(as) == 2 && as[1] == v:
					s, ok := constString(as[0])
					call, isCall := r.(*ssa.Call)
					if !ok || !isCall {
						found = append(found, "")
						return
					}
					found = append(found, joinPath(px.registeredOn(call, depth+1), s))
				default:
					// Handed to other code (a server, a handler
					// registered without a strip): served at its own
					// paths there. Its own methods (r.Get) are not.
					for i, a := range as {
						if a == v && (i > 0 || (!c.IsInvoke() && c.Signature().Recv() == nil)) {
							found = append(found, "")
							break
						}
					}
				}
			}
		}) {
			found = append(found, "") // past the depth: unknown
		}
	}
	visit(v, 0)
	if len(found) != 1 {
		return ""
	}
	return found[0]
}

// registeredOn returns the prefix of the router handler h is registered
// on (a stripped handler handed to Handle), or "".
func (px *prefixer) registeredOn(h ssa.Value, depth int) string {
	var out []string
	var visit func(v ssa.Value, d int)
	visit = func(v ssa.Value, d int) {
		uses(v, d, visit, func(v ssa.Value, r ssa.Instruction, d int) {
			call, ok := r.(ssa.CallInstruction)
			if !ok {
				return
			}
			c := call.Common()
			rr, ok := routeRegs[calleeKey(c)]
			as := args(c)
			if !ok || rr.handler < 0 || rr.handler >= len(as) || as[rr.handler] != v {
				return
			}
			if rr.pattern > 0 {
				out = append(out, px.prefixOf(as[0], depth+1))
			} else {
				out = append(out, "") // net/http.Handle: the default mux
			}
		})
	}
	visit(h, 0)
	if len(out) != 1 {
		return ""
	}
	return out[0]
}

// uses calls f with each instruction that uses v, looking through the
// interface and type conversions v goes through (each one visit, one
// level deeper). It reports false past 4 levels.
func uses(v ssa.Value, d int, visit func(ssa.Value, int), f func(v ssa.Value, r ssa.Instruction, d int)) bool {
	if d > 4 || v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.MakeInterface:
			visit(r, d+1)
		case *ssa.ChangeType:
			visit(r, d+1)
		default:
			f(v, r, d)
		}
	}
	return true
}

func (px *prefixer) callersOf(fn *ssa.Function) []*ssa.Call {
	if px.callers == nil {
		px.callers = map[*ssa.Function][]*ssa.Call{}
		for _, f := range px.fns {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					if call, ok := instr.(*ssa.Call); ok {
						if callee := call.Call.StaticCallee(); callee != nil {
							px.callers[callee] = append(px.callers[callee], call)
						}
					}
				}
			}
		}
	}
	return px.callers[fn]
}
