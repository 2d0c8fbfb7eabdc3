package sqlx

import (
	"context"
	"database/sql"
)

// Execer is an interface used by MustExec and LoadFile
// (github.com/jmoiron/sqlx, same signatures).
type Execer interface {
	Exec(query string, args ...interface{}) (sql.Result, error)
}

// LoadFile exec's every statement in a file (as a single call to Exec).
func LoadFile(e Execer, path string) (*sql.Result, error) { return nil, nil }

// LoadFileContext exec's every statement in a file (as a single call to Exec).
func LoadFileContext(ctx context.Context, e ExecerContext, path string) (*sql.Result, error) {
	return nil, nil
}

type ExecerContext interface {
	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
}

// Stmtx returns a version of the prepared statement which runs within a
// transaction. Provided stmt can be either *sql.Stmt or *sqlx.Stmt.
func (tx *Tx) Stmtx(stmt interface{}) *Stmt { return nil }

// NamedStmt returns a version of the prepared statement which runs within a
// transaction.
func (tx *Tx) NamedStmt(stmt *NamedStmt) *NamedStmt { return nil }

// Unsafe returns a version of DB which will silently succeed to scan when
// columns in the SQL result have no fields in the destination struct.
func (db *DB) Unsafe() *DB { return db }
