// Package concurrency exercises detached and structured goroutines.
package concurrency

import (
	"context"
	"database/sql"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/authvet/authvet/grant"
)

var Syncer = grant.Grant{
	Writes:        []string{"events"},
	Reversibility: grant.Compensable,
}

type Server struct{ db *sql.DB }

//agent:operable grant=Syncer
func (s *Server) Sync(ctx context.Context) {
	go s.db.Exec("INSERT INTO events (tenant_id) VALUES ($1)", 1) // want `Sync starts a detached goroutine; the work outlives the request it is audited under; use a job the grant names, or sync.WaitGroup.Go / errgroup \(no grant allows it, Syncer included\)`
}

//agent:operable grant=Syncer
func (s *Server) SyncClosure(ctx context.Context) {
	go func() { // want `SyncClosure starts a detached goroutine`
		s.db.Exec("INSERT INTO audit (tenant_id) VALUES ($1)", 1) // want `SyncClosure writes "audit"`
	}()
}

//agent:operable grant=Syncer
func (s *Server) SyncWaitGroup(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() {
		s.db.Exec("INSERT INTO events (tenant_id) VALUES ($1)", 1)
	})
	wg.Go(func() {
		s.db.Exec("INSERT INTO audit (tenant_id) VALUES ($1)", 1) // want `SyncWaitGroup writes "audit"`
	})
	wg.Wait()
}

//agent:operable grant=Syncer
func (s *Server) SyncErrgroup(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		_, err := s.db.ExecContext(ctx, "INSERT INTO events (tenant_id) VALUES ($1)", 1)
		return err
	})
	return g.Wait()
}

//agent:operable grant=Syncer
func (s *Server) SyncErrgroupEscape(ctx context.Context) error {
	var g errgroup.Group
	g.Go(func() error {
		_, err := s.db.ExecContext(ctx, "DELETE FROM audit WHERE tenant_id = $1", 1) // want `SyncErrgroupEscape writes "audit"`
		return err
	})
	return g.Wait()
}

//agent:operable grant=Syncer
func (s *Server) Later(ctx context.Context) {
	time.AfterFunc(time.Second, func() { // want `Later starts a detached goroutine \(time.AfterFunc\)`
		s.db.Exec("INSERT INTO events (tenant_id) VALUES ($1)", 1)
	})
}

// kick is a helper in the module that starts a goroutine.
func (s *Server) kick() {
	go s.flush()
}

func (s *Server) flush() {}

//agent:operable grant=Syncer
func (s *Server) ThroughHelper(ctx context.Context) {
	s.kick() // want `ThroughHelper starts a detached goroutine; .* \(at \S+concurrency.go:\d+\)`
}

//agent:operable grant=Syncer
func (s *Server) Deadline(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	t := time.AfterFunc(time.Second, cancel)
	defer t.Stop()
	s.db.ExecContext(ctx, "INSERT INTO events (tenant_id) VALUES ($1)", 1)
}
