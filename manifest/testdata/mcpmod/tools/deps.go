package tools

import (
	"example.com/mcpdep/pure"
	"example.com/mcpdep/writer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RegisterDeps registers tools whose handlers live in another module.
func RegisterDeps(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "dep_drop"}, writer.Drop)
	mcp.AddTool(srv, &mcp.Tool{Name: "dep_upper"}, pure.Upper)
}
