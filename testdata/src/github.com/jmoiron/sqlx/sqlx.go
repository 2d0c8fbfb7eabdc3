// Package sqlx is a stub of github.com/jmoiron/sqlx for fixtures.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct {
	*sql.DB
	driverName string
}

type Tx struct {
	*sql.Tx
}

type Stmt struct {
	*sql.Stmt
}

type NamedStmt struct {
	QueryString string
}

type Rows struct{ *sql.Rows }
type Row struct{}

func (db *DB) Rebind(query string) string                                         { return query }
func (db *DB) MustExec(query string, args ...any) sql.Result                      { return nil }
func (db *DB) MustExecContext(ctx context.Context, q string, a ...any) sql.Result { return nil }
func (db *DB) NamedExec(query string, arg any) (sql.Result, error)                { return nil, nil }
func (db *DB) NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error) {
	return nil, nil
}
func (db *DB) Select(dest any, query string, args ...any) error { return nil }
func (db *DB) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return nil
}
func (db *DB) Get(dest any, query string, args ...any) error                             { return nil }
func (db *DB) GetContext(ctx context.Context, dest any, query string, args ...any) error { return nil }
func (db *DB) Queryx(query string, args ...any) (*Rows, error)                           { return nil, nil }
func (db *DB) QueryRowx(query string, args ...any) *Row                                  { return nil }
func (db *DB) NamedQuery(query string, arg any) (*Rows, error)                           { return nil, nil }
func (db *DB) Preparex(query string) (*Stmt, error)                                      { return nil, nil }
func (db *DB) PrepareNamed(query string) (*NamedStmt, error)                             { return nil, nil }
func (db *DB) Beginx() (*Tx, error)                                                      { return nil, nil }
func (db *DB) MustBegin() *Tx                                                            { return nil }

func (tx *Tx) MustExec(query string, args ...any) sql.Result       { return nil }
func (tx *Tx) NamedExec(query string, arg any) (sql.Result, error) { return nil, nil }
func (tx *Tx) Select(dest any, query string, args ...any) error    { return nil }
func (tx *Tx) Get(dest any, query string, args ...any) error       { return nil }
func (tx *Tx) Rebind(query string) string                          { return query }
func (tx *Tx) Preparex(query string) (*Stmt, error)                { return nil, nil }
func (tx *Tx) PrepareNamed(query string) (*NamedStmt, error)       { return nil, nil }

func (s *Stmt) MustExec(args ...any) sql.Result    { return nil }
func (s *Stmt) Select(dest any, args ...any) error { return nil }
func (s *Stmt) Get(dest any, args ...any) error    { return nil }
func (s *Stmt) Queryx(args ...any) (*Rows, error)  { return nil, nil }

func (n *NamedStmt) Exec(arg any) (sql.Result, error) { return nil, nil }
func (n *NamedStmt) MustExec(arg any) sql.Result      { return nil }
func (n *NamedStmt) Select(dest any, arg any) error   { return nil }
func (n *NamedStmt) Get(dest any, arg any) error      { return nil }

func In(query string, args ...any) (string, []any, error)        { return query, args, nil }
func Named(query string, arg any) (string, []any, error)         { return query, nil, nil }
func Rebind(bindType int, query string) string                   { return query }
func Select(q any, dest any, query string, args ...any) error    { return nil }
func Get(q any, dest any, query string, args ...any) error       { return nil }
func MustExec(e any, query string, args ...any) sql.Result       { return nil }
func NamedExec(e any, query string, arg any) (sql.Result, error) { return nil, nil }
