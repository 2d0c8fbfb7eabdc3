// Package locks hands out tenant locks backed by a table, as io.Closers.
package locks

import (
	"context"
	"database/sql"
	"io"
)

// Manager acquires locks.
type Manager struct{ db *sql.DB }

// New returns a Manager.
func New(db *sql.DB) *Manager { return &Manager{db: db} }

type lock struct {
	ctx    context.Context
	db     *sql.DB
	tenant string
}

func (l *lock) Close() error {
	_, err := l.db.ExecContext(l.ctx, "DELETE FROM payout_locks WHERE tenant_id = $1", l.tenant)
	return err
}

// Held wraps a lock row an earlier request took; Close releases it.
func (m *Manager) Held(ctx context.Context, tenant string) io.Closer {
	return &lock{ctx: ctx, db: m.db, tenant: tenant}
}

type nop struct{}

func (nop) Close() error { return nil }

// Noop is a lock that holds nothing.
func (m *Manager) Noop() io.Closer { return nop{} }
