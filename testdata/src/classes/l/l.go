// Package l: values kept by code that is not walked and read back, and
// benign interfaces (io.Closer) the program implements with effects
// (SPEC §4.1). Every shape is a handler under Narrow, which does not
// allow what it does; its clean twin runs the same code under Wide, or
// does nothing.
package l

import (
	"context"
	"database/sql"
	"fmt"
	"io"

	"classes/l/locks"
	"classes/l/plug"
	_ "classes/l/plugins"

	"github.com/authvet/authvet/grant"
)

// Narrow allows only refunds.
var Narrow = grant.Grant{
	Writes:        []string{"refunds"},
	Reversibility: grant.Irreversible,
}

// Wide allows the lock table.
var Wide = grant.Grant{
	Writes:        []string{"refunds", "payout_locks"},
	Reversibility: grant.Irreversible,
}

type Server struct{ db *sql.DB }

// --- A plugin table in a package that reaches no sink: what Get hands
// back is what another package's init registered, out of sight.

//agent:operable grant=Narrow
func (s *Server) RunPlugin(ctx context.Context, op, tenant string) error {
	f := plug.Get(op)
	if f == nil {
		return nil
	}
	return f(ctx, tenant) // want `RunPlugin calls a function value the analysis cannot resolve`
}

//agent:operable grant=Narrow
func (s *Server) PurgeRegistered(ctx context.Context, name, tenant string) error {
	p := plug.GetStore(name)
	if p == nil {
		return nil
	}
	return p.Purge(ctx, tenant) // want `PurgeRegistered calls Purge through the interface plug.Purger`
}

//agent:operable grant=Narrow
func (s *Server) RunFromTable(ctx context.Context, t *plug.Table, tenant string) error {
	return t.Get("purge")(ctx, tenant) // want `RunFromTable calls a function value the analysis cannot resolve`
}

// Clean twin: a function the package made itself, not one it kept.
//
//agent:operable grant=Narrow
func (s *Server) Version() string {
	return plug.Version()()
}

// --- An io.Closer another package returns: its Close is that package's
// *lock's, which deletes.

//agent:operable grant=Narrow
func (s *Server) ReleaseHeld(ctx context.Context, tenant string) error {
	l := locks.New(s.db).Held(ctx, tenant)
	return l.Close() // want `ReleaseHeld writes "payout_locks"`
}

//agent:operable grant=Wide
func (s *Server) ReleaseHeldClean(ctx context.Context, tenant string) error {
	l := locks.New(s.db).Held(ctx, tenant)
	return l.Close()
}

// Clean twin: a Close that does nothing.
//
//agent:operable grant=Narrow
func (s *Server) ReleaseNoop() error {
	return locks.New(s.db).Noop().Close()
}

// Handed to a helper that closes it: the helper's call of Close on its
// parameter is resolved at the call on what Held returned.

//agent:operable grant=Narrow
func (s *Server) ReleaseHeldVia(ctx context.Context, tenant string) error {
	return release(locks.New(s.db).Held(ctx, tenant)) // want `ReleaseHeldVia writes "payout_locks"`
}

//agent:operable grant=Narrow
func (s *Server) ReleaseNoopVia() error {
	return release(locks.New(s.db).Noop())
}

func release(c io.Closer) error {
	if c == nil {
		return nil
	}
	return c.Close()
}

// --- This package's own io.Closer, through a variadic helper and a
// slice literal.

type tenantLock struct {
	ctx    context.Context
	db     *sql.DB
	tenant string
}

func (l *tenantLock) Close() error {
	_, err := l.db.ExecContext(l.ctx, "DELETE FROM payout_locks WHERE tenant_id = $1", l.tenant)
	return err
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

func closeAll(cs ...io.Closer) error {
	for _, c := range cs {
		if err := c.Close(); err != nil {
			return err
		}
	}
	return nil
}

//agent:operable grant=Narrow
func (s *Server) CloseAll(ctx context.Context, tenant string) error {
	return closeAll(nopCloser{}, &tenantLock{ctx: ctx, db: s.db, tenant: tenant}) // want `CloseAll writes "payout_locks"`
}

//agent:operable grant=Wide
func (s *Server) CloseAllClean(ctx context.Context, tenant string) error {
	return closeAll(nopCloser{}, &tenantLock{ctx: ctx, db: s.db, tenant: tenant})
}

//agent:operable grant=Narrow
func (s *Server) CloseEach(ctx context.Context, tenant string) error {
	closers := []io.Closer{nopCloser{}, &tenantLock{ctx: ctx, db: s.db, tenant: tenant}}
	for _, c := range closers {
		if err := c.Close(); err != nil { // want `CloseEach writes "payout_locks"`
			return err
		}
	}
	return nil
}

//agent:operable grant=Wide
func (s *Server) CloseEachClean(ctx context.Context, tenant string) error {
	closers := []io.Closer{nopCloser{}, &tenantLock{ctx: ctx, db: s.db, tenant: tenant}}
	for _, c := range closers {
		if err := c.Close(); err != nil {
			return err
		}
	}
	return nil
}

// An io.Closer out of sight, in a package whose own *tenantLock closes
// with a write: it may be one.
var pending = map[string]io.Closer{}

// Track keeps a lock until a later request releases it.
func Track(name string, c io.Closer) { pending[name] = c }

//agent:operable grant=Wide
func (s *Server) ReleasePending(name string) error {
	return pending[name].Close() // want `ReleasePending calls Close through the interface io.Closer, which \*tenantLock of this package implements with effects`
}

// --- Handing a value to fmt calls what fmt calls (String, Error,
// Format, GoString), not every method the value has: this WriteTo's
// write is not the handler's.

type report struct{ s *Server }

func (r *report) WriteTo(w io.Writer) (int64, error) {
	_, err := r.s.db.Exec("DELETE FROM refunds_cache WHERE 1 = 1")
	return 0, err
}

//agent:operable grant=Narrow
func (s *Server) DescribeReport() string {
	return fmt.Sprint(&report{s: s})
}

// --- A writer this package wraps around the caller's own: the wrapper's
// Write calls the wrapped value, which is the caller's, not one of this
// package's writers that write. A wrapper around a writer kept in a
// package variable may hold one of those.

type auditW struct {
	io.Writer
	db *sql.DB
}

func (a *auditW) Write(p []byte) (int, error) {
	a.db.Exec("INSERT INTO payout_locks (k) VALUES ($1)", "x")
	return a.Writer.Write(p)
}

type countW struct {
	io.Writer
	n int
}

func (c *countW) Write(p []byte) (int, error) {
	c.n += len(p)
	return c.Writer.Write(p)
}

func auditing(w io.Writer, db *sql.DB) io.Writer { return &auditW{w, db} }
func counting(w io.Writer) io.Writer             { return &countW{Writer: w} }

var sharedOut io.Writer

// SetOut sets the writer reports go to.
func SetOut(w io.Writer) { sharedOut = w }

//agent:operable grant=Narrow
func (s *Server) CountedReport(w io.Writer) {
	counting(w).Write([]byte("x"))
}

//agent:operable grant=Narrow
func (s *Server) AuditedReport(w io.Writer) {
	auditing(w, s.db).Write([]byte("x")) // want `AuditedReport writes "payout_locks"`
}

//agent:operable grant=Narrow
func (s *Server) CountedShared(w io.Writer) {
	counting(sharedOut).Write([]byte("x")) // want `CountedShared calls Write through the interface io.Writer, which \*auditW of this package implements with effects`
}
