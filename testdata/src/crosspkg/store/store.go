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
