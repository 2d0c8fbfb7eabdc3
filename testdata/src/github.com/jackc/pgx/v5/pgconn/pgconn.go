// Package pgconn is a stub of the pgx v5 API for fixtures.
package pgconn

type CommandTag struct{ s string }

func (t CommandTag) RowsAffected() int64 { return 0 }
