package tools

import (
	"context"

	"example.com/mcpmod/sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// REST tools: where the client sends is configuration, but the method
// is proved through the SDK's NewRequest and Do.
type REST struct{ c *sdk.Client }

// GetUser only reads: read-only although its URL is not proved.
//
//agent:operable grant=Reader
func (r *REST) GetUser(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	return nil, nil, r.c.Users.Get(ctx, args.Body)
}

// DeleteUser sends a DELETE, and claims to be read-only.
//
//agent:operable grant=Reader
func (r *REST) DeleteUser(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	return nil, nil, r.c.Users.Delete(ctx, args.Body)
}

// RegisterREST registers the REST tools.
func RegisterREST(srv *mcp.Server, r *REST) {
	mcp.AddTool(srv, &mcp.Tool{Name: "get_user", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, r.GetUser)
	mcp.AddTool(srv, &mcp.Tool{Name: "delete_user", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, r.DeleteUser)
}
