package pgx

import (
	"context"

	"github.com/jackc/pgx/v5/pgconn"
)

// PgConn returns the underlying *pgconn.PgConn (github.com/jackc/pgx/v5,
// same signature).
func (c *Conn) PgConn() *pgconn.PgConn { return nil }

// Prepare creates a prepared statement with name and sql. Exec, Query and
// QueryRow take the name (or the SQL text) in place of sql.
func (c *Conn) Prepare(ctx context.Context, name, sql string) (sd *pgconn.StatementDescription, err error) {
	return nil, nil
}

// Deallocate releases a prepared statement.
func (c *Conn) Deallocate(ctx context.Context, name string) error { return nil }
