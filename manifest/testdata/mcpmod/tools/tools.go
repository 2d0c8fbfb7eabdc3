// Package tools is an MCP server's tools, registered with both SDKs.
package tools

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/authvet/authvet/grant"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var NoteWriter = grant.Grant{
	Writes:        []string{"notes", "archive"},
	TenantScope:   grant.Scoped,
	Reversibility: grant.Reversible,
}

var Reader = grant.Grant{Reversibility: grant.Reversible}

type Server struct{ db *sql.DB }

type NoteArgs struct {
	Body string `json:"body"`
}

// AddNote writes a note: declared read-only, which the code contradicts.
//
//agent:operable grant=NoteWriter
func (s *Server) AddNote(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	_, err := s.db.ExecContext(ctx, "INSERT INTO notes (tenant_id, body) VALUES ($1, $2)", 1, args.Body)
	return nil, nil, err
}

// ListNotes only reads.
//
//agent:operable grant=Reader
func (s *Server) ListNotes(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT body FROM notes WHERE tenant_id = $1", 1)
	if err == nil {
		rows.Close()
	}
	return nil, nil, err
}

// Purge has no directive: an ungoverned tool that mutates.
func (s *Server) Purge(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	_, err := s.db.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1", 1)
	return nil, nil, err
}

// Ping has no directive and reads nothing: ungoverned, read-only.
func Ping(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, nil, nil
}

// Archive is registered through mcp-go.
//
//agent:operable grant=NoteWriter
func (s *Server) Archive(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	_, err := s.db.ExecContext(ctx, "INSERT INTO archive (tenant_id) VALUES ($1)", 1)
	return nil, err
}

// Stats is served over HTTP.
//
//agent:operable grant=Reader
func (s *Server) Stats(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("ok"))
}

func Ptr[T any](v T) *T { return &v }

// Register adds every tool.
func Register(srv *mcp.Server, gosrv *server.MCPServer, s *Server, mux *http.ServeMux) {
	mcp.AddTool(srv, &mcp.Tool{Name: "add_note", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: Ptr(false)}}, s.AddNote)
	mcp.AddTool(srv, &mcp.Tool{Name: "list_notes", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, s.ListNotes)
	mcp.AddTool(srv, &mcp.Tool{Name: "purge"}, s.Purge)
	mcp.AddTool(srv, &mcp.Tool{Name: "ping", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, Ping)
	gosrv.AddTool(mcpgo.NewTool("archive", mcpgo.WithDestructiveHintAnnotation(false)), s.Archive)
	mux.HandleFunc("GET /stats", s.Stats)
	mux.HandleFunc("/stats/all", func(w http.ResponseWriter, r *http.Request) { s.Stats(w, r) })
}
