// Package clock keeps functions in unexported fields of its Service. Only
// this package can write those fields, so what a call through one runs is
// one of the values this package stores there.
package clock

import (
	"context"
	"database/sql"
	"time"
)

// Service is built by New, and injected into handlers out of their sight.
type Service struct {
	now    func() time.Time
	purge  func(ctx context.Context, tenant string) error
	after  func()
	notify func(ctx context.Context) error
}

// New stores a clock and a purge, and nothing else.
func New(db *sql.DB) *Service {
	s := &Service{now: time.Now}
	s.purge = func(ctx context.Context, tenant string) error {
		_, err := db.ExecContext(ctx, "DELETE FROM payout_locks WHERE tenant_id = $1", tenant)
		return err
	}
	register(&s.after) // the field's address leaves: anything may be stored there
	return s
}

// WithNotify stores the caller's function: out of sight here.
func WithNotify(s *Service, f func(ctx context.Context) error) { s.notify = f }

func register(p *func()) { hooks = append(hooks, p) }

var hooks []*func()

// Stamp only reads the clock.
func (s *Service) Stamp() string { return s.now().Format(time.RFC3339) }

// Purge runs the stored purge.
func (s *Service) Purge(ctx context.Context, tenant string) error { return s.purge(ctx, tenant) }

// After runs the function whose field's address New handed away.
func (s *Service) After() { s.after() }

// Notify runs what a caller stored.
func (s *Service) Notify(ctx context.Context) error { return s.notify(ctx) }
