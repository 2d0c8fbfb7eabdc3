package tools

import (
	"context"
	"database/sql"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Store is injected where the server is wired: vet mode cannot see
// which implementation a handler calls; the linked program can.
type Store interface {
	Count(ctx context.Context) int
	Forget(ctx context.Context, id string) error
}

type sqlStore struct{ db *sql.DB }

func (s *sqlStore) Count(ctx context.Context) int {
	var n int
	s.db.QueryRowContext(ctx, "SELECT count(*) FROM notes WHERE tenant_id = $1", 1).Scan(&n)
	return n
}

func (s *sqlStore) Forget(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1 AND id = $2", 1, id)
	return err
}

// App holds the injected store.
type App struct{ store Store }

// CountAll only reads, through the injected store.
//
//agent:operable grant=Reader
func (a *App) CountAll(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	a.store.Count(ctx)
	return nil, nil, nil
}

// ForgetOne writes through the injected store, and says it only reads.
//
//agent:operable grant=Reader
func (a *App) ForgetOne(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	return nil, nil, a.store.Forget(ctx, args.Body)
}

// RegisterApp wires the store and registers the app's tools.
func RegisterApp(srv *mcp.Server, db *sql.DB) {
	a := &App{store: &sqlStore{db: db}}
	mcp.AddTool(srv, &mcp.Tool{Name: "count_all", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, a.CountAll)
	mcp.AddTool(srv, &mcp.Tool{Name: "forget_one", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, a.ForgetOne)
}
