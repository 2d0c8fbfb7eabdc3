// Package hatch exercises //agent:effect on statements.
package hatch

import (
	"context"
	"database/sql"

	"github.com/authvet/authvet/grant"
)

var Notes = grant.Grant{
	Writes:        []string{"notes"},
	TenantScope:   grant.Scoped,
	Reversibility: grant.Compensable,
}

type Renderer interface{ Render() string }

type Server struct {
	db *sql.DB
	r  Renderer
}

//agent:operable grant=Notes
func (s *Server) None(ctx context.Context) string {
	//agent:effect none reason="pure formatting; verified effect-free"
	out := s.r.Render()
	return out
}

//agent:operable grant=Notes
func (s *Server) NoneMissing(ctx context.Context) string {
	return s.r.Render() // want `NoneMissing calls Render through the interface hatch.Renderer`
}

//agent:operable grant=Notes
func (s *Server) Scoped(ctx context.Context) {
	//agent:effect scoped reason="the view is already tenant-partitioned"
	s.db.QueryContext(ctx, "SELECT id FROM notes_scoped")
}

//agent:operable grant=Notes
func (s *Server) ScopedDoesNotHideWrites(ctx context.Context) {
	//agent:effect scoped reason="the view is already tenant-partitioned"
	s.db.ExecContext(ctx, "UPDATE audit SET seen = true WHERE id = $1", 1) // want `ScopedDoesNotHideWrites writes "audit"`
}

//agent:operable grant=Notes
func (s *Server) DeclaredDoesNotHide(ctx context.Context) {
	//agent:effect writes(notes) reason="also writes a note"
	s.db.ExecContext(ctx, "INSERT INTO audit (tenant_id) VALUES ($1)", 1) // want `DeclaredDoesNotHide writes "audit"`
}

//agent:operable grant=Notes
func (s *Server) DeclaredChecked(ctx context.Context, q string) {
	//agent:effect writes(audit) reason="q is one of the audit statements"
	s.db.ExecContext(ctx, q) // want `DeclaredChecked writes "audit"`
}

//agent:operable grant=Notes
func (s *Server) DeclaredDischarges(ctx context.Context, q string) {
	//agent:effect writes(notes) reason="q is one of the note statements"
	s.db.ExecContext(ctx, q)
}

// helper carries a hatch: it becomes part of helper's summary.
func (s *Server) helper(ctx context.Context, q string) {
	//agent:effect writes(audit) reason="q is an audit statement"
	s.db.ExecContext(ctx, q)
}

//agent:operable grant=Notes
func (s *Server) HatchInCallee(ctx context.Context) {
	s.helper(ctx, "x") // want `HatchInCallee writes "audit"`
}

//agent:operable grant=Notes
func (s *Server) Misplaced(ctx context.Context) {
	//agent:effect none reason="covers a whole loop" // want `//agent:effect on a for loop would take every effect inside it out of the ledger`
	for i := 0; i < 3; i++ {
		s.db.ExecContext(ctx, "INSERT INTO audit (tenant_id) VALUES ($1)", i) // want `Misplaced writes "audit"`
	}
}

// A hatch above `if _, err := f(); err != nil {` covers the init
// statement, the call: not the blocks.
//
//agent:operable grant=Notes
func (s *Server) HatchOnIfInit(ctx context.Context, q string) error {
	//agent:effect writes(notes) reason="q is one of the note statements"
	if _, err := s.db.ExecContext(ctx, q); err != nil {
		s.db.ExecContext(ctx, "INSERT INTO audit (tenant_id) VALUES ($1)", 1) // want `HatchOnIfInit writes "audit"`
		return err
	}
	return nil
}

//agent:operable grant=Notes
func (s *Server) HatchOnIfNoInit(ctx context.Context, ok bool) {
	//agent:effect none reason="covers a whole if" // want `//agent:effect on an if statement would take every effect inside it out of the ledger`
	if ok {
		s.db.ExecContext(ctx, "INSERT INTO audit (tenant_id) VALUES ($1)", 1) // want `HatchOnIfNoInit writes "audit"`
	}
}

// DocHatch has a hatch where it does not belong.
//
//agent:effect none reason="whole function" // want `//agent:effect in the doc comment of DocHatch would cover the whole body`
func DocHatch() {}

//agent:operable grant=Notes
func (s *Server) TwoHatches(ctx context.Context) {
	//agent:effect writes(notes) reason="one"
	//agent:effect writes(notes) reason="two" // want `a statement carries at most one //agent:effect`
	s.db.ExecContext(ctx, "INSERT INTO notes (tenant_id) VALUES ($1)", 1)
}

//agent:operable grant=Notes
func (s *Server) BadHatch(ctx context.Context) {
	//agent:effect write(notes) reason="typo" // want `unknown key "write" in //agent:effect; valid keys: none, scoped`
	s.db.ExecContext(ctx, "INSERT INTO notes (tenant_id) VALUES ($1)", 1)
}

//agent:operable grant=Notes
func (s *Server) NoReason(ctx context.Context) {
	//agent:effect none // want `//agent:effect needs a non-empty reason`
	s.db.ExecContext(ctx, "INSERT INTO notes (tenant_id) VALUES ($1)", 1)
}

// makePurge returns a closure; the hatch sits on the statement that
// defines it, not on any call of it.
func (s *Server) makePurge() func() {
	//agent:effect none reason="defining the closure does nothing"
	purge := func() { s.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, 2) }
	return purge
}

// HatchOnDefinition calls the closure elsewhere: the hatch on its
// definition does not cover the call (SPEC §4.1).
//
//agent:operable grant=Notes
func (s *Server) HatchOnDefinition(ctx context.Context) {
	s.makePurge()() // want `HatchOnDefinition writes "secrets"`
}

// HatchOnCall declares the call itself: covered.
//
//agent:operable grant=Notes
func (s *Server) HatchOnCall(ctx context.Context) {
	//agent:effect writes(notes) reason="purge only clears our own notes in this deployment"
	s.makePurge()() // want `HatchOnCall writes "secrets"`
}

// HatchInsideClosure declares the site inside the closure: it covers the
// site wherever the closure runs.
//
//agent:operable grant=Notes
func (s *Server) HatchInsideClosure(ctx context.Context) {
	run := func() {
		//agent:effect none reason="a no-op in this fixture"
		s.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, 2)
	}
	run()
}
