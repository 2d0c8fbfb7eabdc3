// Package store is a repository in another package: its effects reach
// handlers through summary facts.
package store

import (
	"context"
	"database/sql"
	"net/http"
)

type Store struct{ db *sql.DB }

func (s *Store) CreateCategory(ctx context.Context, name string) error {
	return s.exec(ctx, "INSERT INTO categories (tenant_id, name) VALUES ($1, $2)", 1, name)
}

func (s *Store) CreateTag(ctx context.Context, name string) error {
	return s.exec(ctx, "INSERT INTO tags (tenant_id, name) VALUES ($1, $2)", 1, name)
}

func (s *Store) DeleteAllTags(ctx context.Context) error {
	return s.exec(ctx, "DELETE FROM tags")
}

// Exec is an exported wrapper that takes the SQL as a parameter.
func (s *Store) Exec(ctx context.Context, query string, args ...any) error {
	return s.exec(ctx, query, args...)
}

func (s *Store) exec(ctx context.Context, query string, args ...any) error {
	_, err := s.db.ExecContext(ctx, query, args...)
	return err
}

// InTx runs fn inside a transaction.
func (s *Store) InTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// Run executes a prepared statement handed in by the caller.
func Run(ctx context.Context, stmt *sql.Stmt, args ...any) error {
	_, err := stmt.ExecContext(ctx, args...)
	return err
}

// Send sends a request built by the caller.
func Send(c *http.Client, req *http.Request) error {
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Tags iterates the tags of a tenant; the iterator itself marks them
// read, and calls back the loop body.
func (s *Store) Tags(ctx context.Context, tenant int) func(func(string) bool) {
	return func(yield func(string) bool) {
		s.db.ExecContext(ctx, "UPDATE tags SET read_at = now() WHERE tenant_id = $1", tenant)
		for _, t := range []string{"a", "b"} {
			if !yield(t) {
				return
			}
		}
	}
}

// Categories iterates categories without writing.
func (s *Store) Categories(ctx context.Context) func(func(int) bool) {
	return func(yield func(int) bool) {
		rows, err := s.db.QueryContext(ctx, "SELECT id FROM categories WHERE tenant_id = $1", 1)
		if err != nil {
			return
		}
		defer rows.Close()
		for rows.Next() {
			var id int
			rows.Scan(&id)
			if !yield(id) {
				return
			}
		}
	}
}

// Deleter returns a function that deletes from the table it is given.
func Deleter(db *sql.DB, table string) func(id int) error {
	return func(id int) error {
		_, err := db.Exec("DELETE FROM "+table+" WHERE tenant_id = $1 AND id = $2", 1, id)
		return err
	}
}

// Model is a row type that names its table.
type Model interface{ TableName() string }

// Insert writes a row of any model: the table comes from the caller's
// concrete type.
func Insert(ctx context.Context, db *sql.DB, m Model) error {
	_, err := db.ExecContext(ctx, "INSERT INTO "+m.TableName()+" (tenant_id) VALUES ($1)", 1)
	return err
}

// InsertOf is the generic form.
func InsertOf[M Model](ctx context.Context, db *sql.DB, m M) error {
	_, err := db.ExecContext(ctx, "INSERT INTO "+m.TableName()+" (tenant_id) VALUES ($1)", 1)
	return err
}
