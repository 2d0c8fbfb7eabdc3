package tools

import (
	"context"
	"database/sql"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tally makes the function a generic helper calls. Vet mode cannot say
// what the interface's method value returns; the call graph can, in the
// helper's instance (the generic body alone has no values flowing in).
type Tally interface {
	Counter() func(ctx context.Context, args NoteArgs) int
}

type sqlTally struct{ db *sql.DB }

func (t *sqlTally) Counter() func(ctx context.Context, args NoteArgs) int {
	return func(ctx context.Context, args NoteArgs) int {
		var n int
		t.db.QueryRowContext(ctx, "SELECT count(*) FROM notes WHERE tenant_id = $1", 1).Scan(&n)
		return n
	}
}

func tallyVia[T any](ctx context.Context, mk func() func(context.Context, T) int, v T) int {
	return mk()(ctx, v)
}

// Tallier holds the injected tally.
type Tallier struct{ t Tally }

// CountVia only reads, through a generic helper.
func (a *Tallier) CountVia(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	return nil, tallyVia(ctx, a.t.Counter, args), nil
}

// RegisterTally wires the tally and registers its tool.
func RegisterTally(srv *mcp.Server, db *sql.DB) {
	a := &Tallier{t: &sqlTally{db: db}}
	mcp.AddTool(srv, &mcp.Tool{Name: "tally", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, a.CountVia)
}

// Purger is Tally's twin whose function deletes. (Its function's type
// differs from Tally's: the call graph does not keep apart two function
// values of one type that flow through method values the same way.)
type Purger interface {
	Purger() func(ctx context.Context, args NoteArgs) (int, error)
}

type sqlPurger struct{ db *sql.DB }

func (p *sqlPurger) Purger() func(ctx context.Context, args NoteArgs) (int, error) {
	return func(ctx context.Context, args NoteArgs) (int, error) {
		_, err := p.db.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1 AND id = $2", 1, args.Body)
		return 1, err
	}
}

func purgeVia[T any](ctx context.Context, mk func() func(context.Context, T) (int, error), v T) (int, error) {
	return mk()(ctx, v)
}

// PurgeApp holds the injected purger.
type PurgeApp struct{ p Purger }

// PurgeVia deletes, through a generic helper.
func (a *PurgeApp) PurgeVia(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
	n, err := purgeVia(ctx, a.p.Purger, args)
	return nil, n, err
}

// RegisterPurge wires the purger and registers its tool.
func RegisterPurge(srv *mcp.Server, db *sql.DB) {
	a := &PurgeApp{p: &sqlPurger{db: db}}
	mcp.AddTool(srv, &mcp.Tool{Name: "tally_purge"}, a.PurgeVia)
}
