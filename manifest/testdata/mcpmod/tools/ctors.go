package tools

import (
	"context"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type pageIn struct {
	Text string `json:"text"`
}

// newPageTool makes the tool and its handler together (SPEC §3: the
// directive on the constructor covers the literal it returns).
//
//agent:operable grant=Reader
func newPageTool(c *http.Client) (*mcp.Tool, mcp.ToolHandlerFor[pageIn, any]) {
	tool := &mcp.Tool{Name: "page_oncall", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
	return tool, func(ctx context.Context, req *mcp.CallToolRequest, in pageIn) (*mcp.CallToolResult, any, error) {
		r, _ := http.NewRequestWithContext(ctx, "POST", "https://events.pagerduty.com/v2/enqueue", nil)
		c.Do(r)
		return nil, nil, nil
	}
}

type toolDef struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
}

// rawTools makes tool definitions that travel in a slice to the loop
// that registers them.
//
//agent:operable grant=Reader
func rawTools() []toolDef {
	return []toolDef{{
		tool: &mcp.Tool{Name: "echo"},
		handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		},
	}}
}

type typedArgs struct {
	ID string `json:"id"`
}

// Forget deletes a note; registered through mcp-go's typed adapter.
//
//agent:operable grant=NoteWriter
func (s *Server) Forget(ctx context.Context, req mcpgo.CallToolRequest, args typedArgs) (*mcpgo.CallToolResult, error) {
	_, err := s.db.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1 AND id = $2", 1, args.ID)
	return nil, err
}

// slugTool is an mcp-go ServerTool made by a constructor.
//
//agent:operable grant=Reader
func slugTool() server.ServerTool {
	return server.ServerTool{
		Tool: mcpgo.NewTool("slug", mcpgo.WithReadOnlyHintAnnotation(true)),
		Handler: func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("x"), nil
		},
	}
}

// RegisterMore registers the constructed tools.
func RegisterMore(srv *mcp.Server, gosrv *server.MCPServer, s *Server) {
	tool, h := newPageTool(http.DefaultClient)
	mcp.AddTool(srv, tool, h)
	for _, d := range rawTools() {
		srv.AddTool(d.tool, d.handler)
	}
	gosrv.AddTool(mcpgo.NewTool("forget", mcpgo.WithDestructiveHintAnnotation(true)), mcpgo.NewTypedToolHandler(s.Forget))
	gosrv.AddTools(slugTool())
}
