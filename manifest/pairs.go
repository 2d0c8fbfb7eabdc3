package manifest

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Real MCP servers do not call AddTool next to the tool literal: a
// constructor hands the literal and its handler to a helper
// (NewTool(toolset, mcp.Tool{...}, scopes, func(...) {...})), the result
// travels through slices and filters, and a loop registers each one
// through its fields (s.AddTool(&st.Tool, st.Handler(deps))). The tool is
// paired with its handler where the two are created together, and the
// pair counts as registered when a value of its type is what an AddTool
// call reads its tool or handler from.

// carrierTypes collects the named types of the module whose values an
// AddTool argument is read from: through fields, elements, loads, local
// copies and the receiver of a method call that returns it.
// sdkCarriers are the SDKs' own types that carry a tool and its handler
// together (mcp-go's ServerTool, ranged over from a table into AddTool).
var sdkCarriers = map[string]bool{mcpGo + "/server.ServerTool": true}

func carrierTypes(v ssa.Value, module map[*types.Package]bool, out map[types.Type]bool, depth int) {
	if depth > 12 || v == nil {
		return
	}
	if n := namedOf(v.Type()); n != nil && n.Obj().Pkg() != nil && (module[n.Obj().Pkg()] || sdkCarriers[typeKey(n)]) {
		out[n.Origin()] = true
	}
	switch x := v.(type) {
	case *ssa.Field:
		carrierTypes(x.X, module, out, depth+1)
	case *ssa.FieldAddr:
		carrierTypes(x.X, module, out, depth+1)
	case *ssa.Index:
		carrierTypes(x.X, module, out, depth+1)
	case *ssa.IndexAddr:
		carrierTypes(x.X, module, out, depth+1)
	case *ssa.UnOp:
		carrierTypes(x.X, module, out, depth+1)
	case *ssa.ChangeType:
		carrierTypes(x.X, module, out, depth+1)
	case *ssa.MakeInterface:
		carrierTypes(x.X, module, out, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			carrierTypes(e, module, out, depth+1)
		}
	case *ssa.Alloc:
		for _, r := range *x.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == x {
				carrierTypes(st.Val, module, out, depth+1)
			}
		}
	case *ssa.Call:
		// st.Handler(deps): the receiver carries it.
		if x.Call.Signature().Recv() != nil || (x.Call.StaticCallee() != nil && x.Call.StaticCallee().Signature.Recv() != nil) {
			if len(x.Call.Args) > 0 {
				carrierTypes(x.Call.Args[0], module, out, depth+1)
			}
		}
	}
}

// namedOf returns the named type of t or of what t points to.
func namedOf(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// isToolType reports whether t is (a pointer to) an SDK's Tool.
func isToolType(t types.Type) bool {
	k := typeKey(t)
	return k == goSDK+".Tool" || k == mcpGo+"/mcp.Tool"
}

// isToolHandler reports whether t is a function that serves a tool call:
// it is handed the call's request and returns *CallToolResult first (the
// SDKs' handler types, and a project's own signature around them).
func isToolHandler(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	if k := typeKey(sig.Results().At(0).Type()); k != goSDK+".CallToolResult" && k != mcpGo+"/mcp.CallToolResult" {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		switch typeKey(sig.Params().At(i).Type()) {
		case goSDK + ".ServerRequest", mcpGo + "/mcp.CallToolRequest":
			return true
		}
	}
	return false
}

// isHandlerFactory reports whether t is a function that returns a tool
// handler (func(deps) mcp.ToolHandlerFor[In, Out]).
func isHandlerFactory(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Results().Len() == 1 && isToolHandler(sig.Results().At(0).Type())
}

// pairs finds the calls that are handed a tool literal and its handler
// together, whose result is of a type in carriers.
func pairs(fns []*ssa.Function, isHandler func(*types.Func) bool, carriers map[types.Type]bool) []registration {
	var regs []registration
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if alloc, ok := instr.(*ssa.Alloc); ok {
					// A carrier built as a literal: ServerTool{Tool: mcp.Tool{...}, Handler: ...}.
					if r, ok := literalPair(alloc, fn, isHandler, carriers); ok {
						regs = append(regs, r)
					}
					continue
				}
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.IsInvoke() {
					continue
				}
				n := resultNamed(call)
				if n == nil || !carriers[n.Origin()] {
					continue
				}
				var tool, handler ssa.Value
				for _, a := range call.Call.Args {
					switch {
					case isToolType(a.Type()):
						tool = a
					case isToolHandler(a.Type()) || isHandlerFactory(a.Type()):
						handler = a
					}
				}
				if tool == nil || handler == nil || allocOf(tool, 0) == nil {
					continue // not where a literal and its handler meet
				}
				lit := literalOf(handler)
				td := sdkTool(tool)
				if typeKey(tool.Type()) == mcpGo+"/mcp.Tool" {
					td = mcpGoTool(tool)
				}
				if !td.resolved && td.nameParam != nil {
					// A helper handed the tool's name: one tool per caller
					// that passes a constant.
					if sites := nameSites(fns, fn, td.nameParam); len(sites) > 0 {
						for _, site := range sites {
							t2 := *td
							t2.name, t2.resolved = site.name, true
							hs := []*types.Func{site.caller}
							if !isHandler(site.caller) {
								if ops := pairedHandler(handler, fn, isHandler); len(ops) > 0 && isHandler(ops[0]) {
									hs = ops
								}
							}
							regs = append(regs, registration{pos: site.pos, tool: &t2, handlers: hs, carrier: n.Origin(), literal: lit})
						}
						continue
					}
				}
				regs = append(regs, registration{pos: call.Pos(), tool: td, handlers: pairedHandler(handler, fn, isHandler), carrier: n.Origin(), literal: lit})
			}
		}
	}
	return regs
}

// resultNamed is the named type of a call's (first) result.
func resultNamed(call *ssa.Call) *types.Named {
	t := call.Type()
	if tup, ok := t.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return nil
		}
		t = tup.At(0).Type()
	}
	return namedOf(t)
}

// pairedHandler is the declared function a paired handler belongs to: a
// function or method value itself; for a literal, the operable
// functions it calls, else the declared function that makes it (the
// constructor, which a directive covers: SPEC §3).
func pairedHandler(v ssa.Value, in *ssa.Function, isHandler func(*types.Func) bool) []*types.Func {
	if fs := handlerFuncs(v, isHandler, 0); len(fs) > 0 {
		return fs
	}
	for in.Parent() != nil {
		in = in.Parent()
	}
	if obj := declared(in); obj != nil {
		return []*types.Func{obj}
	}
	return nil
}

// nameSite is a call of a tool helper with a constant name.
type nameSite struct {
	caller *types.Func
	name   string
	pos    token.Pos
}

// nameSites lists the calls of helper, among fns, that pass a constant
// for its parameter p, with the declared function each is in.
func nameSites(fns []*ssa.Function, helper *ssa.Function, p *ssa.Parameter) []nameSite {
	idx := -1
	for i, fp := range helper.Params {
		if fp == p {
			idx = i
		}
	}
	if idx < 0 {
		return nil
	}
	var out []nameSite
	for _, fn := range fns {
		top := fn
		for top.Parent() != nil {
			top = top.Parent()
		}
		caller := declared(top)
		if caller == nil {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.StaticCallee() != helper || idx >= len(call.Call.Args) {
					continue
				}
				if name, ok := constString(call.Call.Args[idx]); ok {
					out = append(out, nameSite{caller: caller, name: name, pos: call.Pos()})
				}
			}
		}
	}
	return out
}

// literalOf returns the function literal v is, if it is one.
func literalOf(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok && fn.Parent() != nil {
			return fn
		}
	case *ssa.Function:
		if v.Parent() != nil {
			return v
		}
	case *ssa.ChangeType:
		return literalOf(v.X)
	}
	return nil
}

// literalPair reads a carrier struct literal that holds a tool literal
// and its handler in its fields.
func literalPair(alloc *ssa.Alloc, fn *ssa.Function, isHandler func(*types.Func) bool, carriers map[types.Type]bool) (registration, bool) {
	n := namedOf(alloc.Type())
	if n == nil || !carriers[n.Origin()] {
		return registration{}, false
	}
	var tool, handler ssa.Value
	for _, st := range fieldStores(alloc) {
		switch {
		case isToolType(st.val.Type()):
			tool = st.val
		case isToolHandler(st.val.Type()) || isHandlerFactory(st.val.Type()):
			handler = st.val
		}
	}
	if tool == nil || handler == nil || allocOf(tool, 0) == nil && !isNewTool(tool) {
		return registration{}, false
	}
	td := sdkTool(tool)
	if typeKey(tool.Type()) == mcpGo+"/mcp.Tool" {
		td = mcpGoTool(tool)
	}
	return registration{pos: alloc.Pos(), tool: td, handlers: pairedHandler(handler, fn, isHandler), carrier: n.Origin(), literal: literalOf(handler)}, true
}
