package manifest

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A route registered on a group carries the group's prefix: gin's and
// echo's Group("/api"), chi's Route("/api", func(r chi.Router) {...})
// and With(...). prefixOf follows the router a route is registered on
// back to where it was made; an unknown router adds nothing (the path is
// the registered one; chi's Mount and net/http's StripPrefix are not
// followed).

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

func prefixOf(v ssa.Value, depth int) string {
	if depth > 8 {
		return ""
	}
	switch v := v.(type) {
	case *ssa.Call:
		key := calleeKey(&v.Call)
		i, ok := groupCalls[key]
		if !ok {
			return ""
		}
		as := args(&v.Call)
		if len(as) == 0 {
			return ""
		}
		prefix := prefixOf(as[0], depth+1)
		if i > 0 && i < len(as) {
			if s, ok := constString(as[i]); ok {
				prefix = joinPath(prefix, s)
			}
		}
		return prefix
	case *ssa.ChangeType:
		return prefixOf(v.X, depth+1)
	case *ssa.MakeInterface:
		return prefixOf(v.X, depth+1)
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
						prefix := prefixOf(as[0], depth+1)
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
