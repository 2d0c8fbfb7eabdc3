// Package writer is another module's tool handler that writes: the
// manifest does not compute a dependency's effects, so it is taken as
// mutating.
package writer

import (
	"context"
	"database/sql"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var DB *sql.DB

type Args struct {
	ID string `json:"id"`
}

func Drop(ctx context.Context, req *mcp.CallToolRequest, args Args) (*mcp.CallToolResult, any, error) {
	_, err := DB.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1 AND id = $2", 1, args.ID)
	return nil, nil, err
}
