package pgconn

import (
	"context"
	"io"
	"net"
)

// PgConn is a low-level PostgreSQL connection (github.com/jackc/pgx/v5/pgconn,
// same signatures).
type PgConn struct{}

type StatementDescription struct {
	Name string
	SQL  string
}

type Result struct {
	CommandTag CommandTag
	Err        error
}

type MultiResultReader struct{}

func (mrr *MultiResultReader) ReadAll() ([]*Result, error) { return nil, nil }
func (mrr *MultiResultReader) Close() error                { return nil }

type ResultReader struct{}

func (rr *ResultReader) Close() (CommandTag, error) { return CommandTag{}, nil }

func (pgConn *PgConn) Exec(ctx context.Context, sql string) *MultiResultReader { return nil }
func (pgConn *PgConn) ExecParams(ctx context.Context, sql string, paramValues [][]byte, paramOIDs []uint32, paramFormats []int16, resultFormats []int16) *ResultReader {
	return nil
}
func (pgConn *PgConn) ExecPrepared(ctx context.Context, stmtName string, paramValues [][]byte, paramFormats []int16, resultFormats []int16) *ResultReader {
	return nil
}
func (pgConn *PgConn) Prepare(ctx context.Context, name, sql string, paramOIDs []uint32) (*StatementDescription, error) {
	return nil, nil
}
func (pgConn *PgConn) CopyFrom(ctx context.Context, r io.Reader, sql string) (CommandTag, error) {
	return CommandTag{}, nil
}
func (pgConn *PgConn) CopyTo(ctx context.Context, w io.Writer, sql string) (CommandTag, error) {
	return CommandTag{}, nil
}
func (pgConn *PgConn) Conn() net.Conn { return nil }
func (pgConn *PgConn) PID() uint32    { return 0 }
