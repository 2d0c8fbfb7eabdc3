// Package mcpsvc registers MCP tools with the real SDKs
// (modelcontextprotocol/go-sdk and mark3labs/mcp-go) inside functions
// marked agent-operable: the registered handler runs when an agent calls
// the tool, so it is the marked function's authority; what the SDK does
// to register it (store it, infer and validate the schema, notify the
// connected clients on a timer) is not.
package mcpsvc

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/authvet/authvet/grant"
)

var Notes = grant.Grant{Writes: []string{"notes"}, TenantScope: grant.Scoped, Reversibility: grant.Reversible}

type Store struct {
	db  *sql.DB
	log *slog.Logger
}

type In struct {
	ID int `json:"id"`
}

type Out struct {
	OK bool `json:"ok"`
}

func (s *Store) purge(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
	_, err := s.db.ExecContext(ctx, "DELETE FROM refunds WHERE id = $1 AND tenant_id = $2", in.ID, 7)
	return nil, Out{OK: err == nil}, err
}

func (s *Store) note(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
	_, err := s.db.ExecContext(ctx, "INSERT INTO notes (body, tenant_id) VALUES ($1, $2)", "b", 7)
	s.log.Info("noted", "id", in.ID)
	return nil, Out{OK: err == nil}, err
}

// go-sdk's generic AddTool with a method value.

//agent:operable grant=Notes
func RegisterPurge(srv *mcp.Server, s *Store) {
	mcp.AddTool(srv, &mcp.Tool{Name: "purge"}, s.purge) // want `RegisterPurge writes "refunds"`
}

//agent:operable grant=Notes
func RegisterNote(srv *mcp.Server, s *Store) {
	mcp.AddTool(srv, &mcp.Tool{Name: "note"}, s.note)
}

// go-sdk's Server.AddTool with a literal.

//agent:operable grant=Notes
func RegisterRawPurge(srv *mcp.Server, s *Store) {
	srv.AddTool(&mcp.Tool{Name: "purge", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := s.db.ExecContext(ctx, "DELETE FROM refunds WHERE id = $1 AND tenant_id = $2", 1, 7) // want `RegisterRawPurge writes "refunds"`
		return nil, err
	})
}

//agent:operable grant=Notes
func RegisterRawNote(srv *mcp.Server, s *Store) {
	srv.AddTool(&mcp.Tool{Name: "note", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := s.db.ExecContext(ctx, "INSERT INTO notes (body, tenant_id) VALUES ($1, $2)", "b", 7)
		return nil, err
	})
}

// go-sdk's typed AddTool decodes the input with encoding/json: a JSON
// method of the input's type runs for every call.

type auditedID int

func (a *auditedID) UnmarshalJSON(b []byte) error {
	var n int
	err := json.Unmarshal(b, &n)
	*a = auditedID(n)
	_, _ = db.Exec("INSERT INTO audit_log (what) VALUES ('decoded')")
	return err
}

var db *sql.DB

type DecodedIn struct {
	ID auditedID `json:"id"`
}

func decoded(ctx context.Context, req *mcp.CallToolRequest, in DecodedIn) (*mcp.CallToolResult, Out, error) {
	return nil, Out{OK: true}, nil
}

//agent:operable grant=Notes
func RegisterDecoded(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "decoded"}, decoded) // want `RegisterDecoded writes "audit_log"`
}

// mark3labs/mcp-go's AddTool and AddTools.

//agent:operable grant=Notes
func RegisterGoPurge(srv *server.MCPServer, s *Store) {
	srv.AddTool(mcpgo.NewTool("purge"), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		_, err := s.db.ExecContext(ctx, "DELETE FROM refunds WHERE id = $1 AND tenant_id = $2", 1, 7) // want `RegisterGoPurge writes "refunds"`
		return nil, err
	})
}

//agent:operable grant=Notes
func RegisterGoNote(srv *server.MCPServer, s *Store) {
	srv.AddTool(mcpgo.NewTool("note"), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		_, err := s.db.ExecContext(ctx, "INSERT INTO notes (body, tenant_id) VALUES ($1, $2)", "b", 7)
		return nil, err
	})
}

//agent:operable grant=Notes
func RegisterGoToolsPurge(srv *server.MCPServer, s *Store) {
	srv.AddTools(server.ServerTool{Tool: mcpgo.NewTool("purge"), Handler: func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		_, err := s.db.ExecContext(ctx, "DELETE FROM refunds WHERE id = $1 AND tenant_id = $2", 1, 7) // want `RegisterGoToolsPurge writes "refunds"`
		return nil, err
	}})
}

//agent:operable grant=Notes
func RegisterGoToolsNote(srv *server.MCPServer, s *Store) {
	srv.AddTools(server.ServerTool{Tool: mcpgo.NewTool("note"), Handler: func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		_, err := s.db.ExecContext(ctx, "INSERT INTO notes (body, tenant_id) VALUES ($1, $2)", "b", 7)
		return nil, err
	}})
}

// A typed tool handler marked itself: the SDK decodes its input, and
// encodes its output, around every call.

//agent:operable grant=Notes
func DecodedTool(ctx context.Context, req *mcp.CallToolRequest, in DecodedIn) (*mcp.CallToolResult, Out, error) { // want `DecodedTool writes "audit_log"`
	return nil, Out{OK: true}, nil
}

type stamped struct{ At string }

func (s stamped) MarshalJSON() ([]byte, error) { return json.Marshal(s.At) }

type StampedOut struct {
	When stamped `json:"when"`
}

//agent:operable grant=Notes
func StampedTool(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, StampedOut, error) {
	return nil, StampedOut{When: stamped{At: "now"}}, nil
}

// mcp-go's typed handler decodes its arguments likewise.

type GoArgs struct {
	ID auditedID `json:"id"`
}

//agent:operable grant=Notes
func GoTypedTool(ctx context.Context, req mcpgo.CallToolRequest, args GoArgs) (*mcpgo.CallToolResult, error) { // want `GoTypedTool writes "audit_log"`
	return mcpgo.NewToolResultText("ok"), nil
}

//agent:operable grant=Notes
func GoTypedToolTwin(ctx context.Context, req mcpgo.CallToolRequest, args In) (*mcpgo.CallToolResult, error) {
	return mcpgo.NewToolResultText("ok"), nil
}
