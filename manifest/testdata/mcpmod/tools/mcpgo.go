package tools

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// mcp-go's bulk registration shapes: a ServerTool literal handed to
// AddTools, and a table of ServerTools ranged over into AddTool. Each
// has a tool that claims read-only and writes, and a twin that reads.

// XDropExport deletes an export: it claims read-only.
//
//agent:operable grant=NoteWriter
func (s *Server) XDropExport(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	_, err := s.db.ExecContext(ctx, "DELETE FROM archive WHERE tenant_id = $1 AND id = $2", 1, req.GetString("id", ""))
	return mcpgo.NewToolResultText("dropped"), err
}

// XListExports reads.
//
//agent:operable grant=Reader
func (s *Server) XListExports(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id FROM archive WHERE tenant_id = $1", 1)
	if err == nil {
		rows.Close()
	}
	return mcpgo.NewToolResultText("ok"), err
}

// XWipeTable wipes a table: it claims read-only.
//
//agent:operable grant=NoteWriter
func (s *Server) XWipeTable(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	_, err := s.db.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1 AND id = $2", 1, req.GetString("id", ""))
	return mcpgo.NewToolResultText("wiped"), err
}

// XCountTable reads.
//
//agent:operable grant=Reader
func (s *Server) XCountTable(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	return mcpgo.NewToolResultText("0"), s.db.QueryRowContext(ctx, "SELECT count(*) FROM notes WHERE tenant_id = $1", 1).Err()
}

// RegisterBulk registers through AddTools and through a ranged table.
func RegisterBulk(gosrv *server.MCPServer, s *Server) {
	gosrv.AddTools(
		server.ServerTool{Tool: mcpgo.NewTool("x_drop_export", mcpgo.WithReadOnlyHintAnnotation(true)), Handler: s.XDropExport},
		server.ServerTool{Tool: mcpgo.NewTool("x_list_exports", mcpgo.WithReadOnlyHintAnnotation(true)), Handler: s.XListExports},
	)
	table := []server.ServerTool{
		{Tool: mcpgo.NewTool("x_wipe_table", mcpgo.WithReadOnlyHintAnnotation(true)), Handler: s.XWipeTable},
		{Tool: mcpgo.NewTool("x_count_table", mcpgo.WithReadOnlyHintAnnotation(true)), Handler: s.XCountTable},
	}
	for _, t := range table {
		gosrv.AddTool(t.Tool, t.Handler)
	}
}

// Handlers made by constructors with no directive: the tools are
// ungoverned, with the effects of the literal each constructor returns.
func pingTool(s *Server) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("pong"), s.db.PingContext(ctx)
	}
}

func wipeTool(s *Server) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		_, err := s.db.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1", 1)
		return mcpgo.NewToolResultText("wiped"), err
	}
}

// RegisterMade registers them.
func RegisterMade(gosrv *server.MCPServer, s *Server) {
	gosrv.AddTool(mcpgo.NewTool("z_ping", mcpgo.WithReadOnlyHintAnnotation(true)), pingTool(s))
	gosrv.AddTool(mcpgo.NewTool("z_wipe", mcpgo.WithReadOnlyHintAnnotation(true)), wipeTool(s))
}

// XPurgeLiteral purges: its tool is an mcp.Tool literal whose hints are
// pointers, and it claims read-only.
//
//agent:operable grant=NoteWriter
func (s *Server) XPurgeLiteral(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	_, err := s.db.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1 AND id = $2", 1, req.GetString("id", ""))
	return mcpgo.NewToolResultText("purged"), err
}

// RegisterLiterals registers a table of tool literals with AddTools.
func RegisterLiterals(gosrv *server.MCPServer, s *Server) {
	tools := []server.ServerTool{
		{Tool: mcpgo.Tool{Name: "x_purge_literal", Annotations: mcpgo.ToolAnnotation{ReadOnlyHint: Ptr(true)}}, Handler: s.XPurgeLiteral},
	}
	gosrv.AddTools(tools...)
}
