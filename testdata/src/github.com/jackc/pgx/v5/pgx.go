// Package pgx is a stub of the pgx v5 API for fixtures.
package pgx

import (
	"context"

	"github.com/jackc/pgx/v5/pgconn"
)

type Rows interface {
	Close()
	Next() bool
	Scan(dest ...any) error
}

type Row interface{ Scan(dest ...any) error }

type BatchResults interface{ Close() error }

type Identifier []string

type CopyFromSource interface{ Next() bool }

func CopyFromRows(rows [][]any) CopyFromSource { return nil }

type QueuedQuery struct{ SQL string }

type Batch struct{ QueuedQueries []*QueuedQuery }

func (b *Batch) Queue(query string, arguments ...any) *QueuedQuery {
	q := &QueuedQuery{SQL: query}
	b.QueuedQueries = append(b.QueuedQueries, q)
	return q
}

type TxOptions struct{}

type Tx interface {
	Begin(ctx context.Context) (Tx, error)
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
	CopyFrom(ctx context.Context, tableName Identifier, columnNames []string, rowSrc CopyFromSource) (int64, error)
	SendBatch(ctx context.Context, b *Batch) BatchResults
	Exec(ctx context.Context, sql string, arguments ...any) (commandTag pgconn.CommandTag, err error)
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
	Conn() *Conn
}

type Conn struct{}

func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, nil
}
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (Rows, error) { return nil, nil }
func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) Row        { return nil }
func (c *Conn) SendBatch(ctx context.Context, b *Batch) BatchResults             { return nil }
func (c *Conn) Begin(ctx context.Context) (Tx, error)                            { return nil, nil }
func (c *Conn) BeginTx(ctx context.Context, o TxOptions) (Tx, error)             { return nil, nil }
func (c *Conn) CopyFrom(ctx context.Context, tableName Identifier, columnNames []string, rowSrc CopyFromSource) (int64, error) {
	return 0, nil
}

// BeginFunc runs fn in a transaction begun on db.
func BeginFunc(ctx context.Context, db interface {
	Begin(ctx context.Context) (Tx, error)
}, fn func(Tx) error) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback(ctx)
		return err
	}
	return tx.Commit(ctx)
}
