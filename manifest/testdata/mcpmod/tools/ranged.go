package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func rangedA() (mcp.Tool, mcp.ToolHandlerFor[NoArgs, any]) {
	return mcp.Tool{Name: "ranged_a", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		}
}

func rangedB() (mcp.Tool, mcp.ToolHandlerFor[NoArgs, any]) {
	return mcp.Tool{Name: "ranged_b"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
			_, err := auditDB.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1", 1)
			return &mcp.CallToolResult{}, nil, err
		}
}

// RegisterRanged registers tools from a slice of constructors.
func RegisterRanged(srv *mcp.Server) {
	for _, ctor := range []func() (mcp.Tool, mcp.ToolHandlerFor[NoArgs, any]){rangedA, rangedB} {
		t, h := ctor()
		mcp.AddTool(srv, &t, h)
	}
}

// withLog is a helper handed the handler: it registers the tool itself.
func withLog[In any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, any]) {
	mcp.AddTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		return h(ctx, req, in)
	})
}

func helped(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	_, err := auditDB.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1", 1)
	return &mcp.CallToolResult{}, nil, err
}

// RegisterHelped hands the handler to a helper that registers it.
func RegisterHelped(srv *mcp.Server) {
	withLog(srv, &mcp.Tool{Name: "helped", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, helped)
}

// withAudit's wrapper writes before it calls the handler: its own
// effects are the tool's too.
func withAudit[In any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, any]) {
	mcp.AddTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		if _, err := auditDB.ExecContext(ctx, "INSERT INTO audit (msg) VALUES ($1)", req.Params.Name); err != nil {
			return nil, nil, err
		}
		return h(ctx, req, in)
	})
}

func quietPing(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, "pong", nil
}

// RegisterAudited hands a handler that only reads to the auditing helper.
func RegisterAudited(srv *mcp.Server) {
	withAudit(srv, &mcp.Tool{Name: "audited_ping", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, quietPing)
}
