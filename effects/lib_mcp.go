package effects

import (
	"go/types"
	"strings"
)

// The MCP SDKs' registrations: modelcontextprotocol/go-sdk's AddTool,
// AddPrompt, AddResource and AddResourceTemplate, and mark3labs/mcp-go's
// AddTool, AddTools, AddPrompt, AddResource and AddResourceTemplate. A
// registration runs the handler it is handed whenever an agent calls the
// tool: under a directive on the registering function (SPEC §3) that is
// the handler's authority, so the handler counts as called at the
// registration, within it, and what the SDK does to register it (store
// it, validate the schema, debounce a list-changed notification to the
// connected clients on a timer) is not an effect of the agent's. go-sdk's
// generic AddTool decodes the tool's input into In and encodes its Out:
// their JSON methods, where the program has its own, count too.
const (
	mcpSDKPath = "github.com/modelcontextprotocol/go-sdk/mcp"
	mcpGoPath  = "github.com/mark3labs/mcp-go/server"
)

func mcpLibrary() *Library {
	l := &Library{Name: "mcp", Paths: []string{mcpSDKPath, mcpGoPath}, Runners: map[string]model{}}
	for _, key := range []string{
		mcpSDKPath + ".AddTool.h", mcpSDKPath + ".Server.AddTool.h", mcpSDKPath + ".Server.AddPrompt.h",
		mcpSDKPath + ".Server.AddResource.h", mcpSDKPath + ".Server.AddResourceTemplate.h",
		mcpGoPath + ".MCPServer.AddTool.handler", mcpGoPath + ".MCPServer.AddPrompt.handler",
		mcpGoPath + ".MCPServer.AddResource.handler", mcpGoPath + ".MCPServer.AddResourceTemplate.handler",
		// The variadic registrations hand a slice of (description,
		// handler) structs: every function in it counts as called.
		mcpGoPath + ".MCPServer.AddTools.tools", mcpGoPath + ".MCPServer.AddPrompts.prompts",
		mcpGoPath + ".MCPServer.AddResources.resources", mcpGoPath + ".MCPServer.AddResourceTemplates.resourceTemplates",
	} {
		l.Runners[key[:strings.LastIndexByte(key, '.')]] = registers(arg(key))
	}
	return l
}

// registers hands argument i, the registered handler (or a slice of
// entries holding handlers), over as called here, under the request.
func registers(i int) model {
	return func(c *callSite) {
		b, ok := c.arg(i)
		if !ok {
			return
		}
		c.e.handOffValue(b, nil, c.pos, c.fr, c.out, callFlags{})
		// go-sdk's typed handler: the SDK decodes the input and encodes
		// the output with encoding/json.
		t := bindingType(b)
		if t == nil {
			return
		}
		sig, ok := t.Underlying().(*types.Signature)
		if !ok || sig.Params().Len() != 3 || sig.Results().Len() != 3 {
			return
		}
		json := lib().protocols["encoding/json"]
		for _, u := range []types.Type{sig.Params().At(2).Type(), sig.Results().At(1).Type()} {
			c.e.callProtocol(u, binding{}, json, c.pos, c.fr, c.out, 0, map[types.Type]bool{})
		}
	}
}

// typedToolIO returns the types an MCP SDK decodes and encodes with
// encoding/json around each call of a typed tool handler: go-sdk's
// ToolHandlerFor shape, func(ctx, *mcp.CallToolRequest, In)
// (*mcp.CallToolResult, Out, error), gives In and Out; mcp-go's typed
// handler, func(ctx, mcp.CallToolRequest, Args) (*mcp.CallToolResult,
// error), gives Args. Otherwise nil.
func typedToolIO(sig *types.Signature) []types.Type {
	ps, rs := sig.Params(), sig.Results()
	if ps.Len() != 3 || !isContextType(ps.At(0).Type()) {
		return nil
	}
	switch {
	case rs.Len() == 3 && inPackage(ps.At(1).Type(), mcpSDKPath) && inPackage(rs.At(0).Type(), mcpSDKPath):
		return []types.Type{ps.At(2).Type(), rs.At(1).Type()}
	case rs.Len() == 2 && inPackage(ps.At(1).Type(), mcpGoTypes) && inPackage(rs.At(0).Type(), mcpGoTypes):
		return []types.Type{ps.At(2).Type()}
	}
	return nil
}

// mcpGoTypes is mcp-go's package of protocol types.
const mcpGoTypes = "github.com/mark3labs/mcp-go/mcp"

// inPackage reports whether t (or what it points to) is a named type, or
// an alias, declared in package path.
func inPackage(t types.Type, path string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	var obj *types.TypeName
	switch t := t.(type) {
	case *types.Alias:
		obj = t.Obj()
	case *types.Named:
		obj = t.Obj()
	}
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == path
}
