// Package floor exercises the reversibility floor.
package floor

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/authvet/authvet/grant"
)

var RowEditor = grant.Grant{
	Writes:          []string{"notes"},
	UnboundedWrites: []string{"drafts"},
	TenantScope:     grant.CrossTenant,
	Outbound:        []string{"https://hooks.example.com/"},
	Reversibility:   grant.Reversible,
}

var Careful = grant.Grant{
	Writes:          []string{"notes"},
	UnboundedWrites: []string{"drafts"},
	TenantScope:     grant.CrossTenant,
	Reversibility:   grant.Irreversible,
}

type Renderer interface{ Render() string }

type Server struct {
	db *sql.DB
	r  Renderer
}

//agent:operable grant=RowEditor
func (s *Server) EditNote(ctx context.Context) {
	s.db.ExecContext(ctx, "UPDATE notes SET body = $1 WHERE id = $2", "x", 1)
}

//agent:operable grant=RowEditor // want `agent authority: \(\*Server\)\.ClearDrafts is declared reversible by grant RowEditor, but its effects floor it at compensable: an unbounded write to "drafts" at \S*floor.go:\d+`
func (s *Server) ClearDrafts(ctx context.Context) {
	s.db.ExecContext(ctx, "DELETE FROM drafts")
}

//agent:operable grant=RowEditor // want `Ping is declared reversible by grant RowEditor, but its effects floor it at compensable: an outbound call to "https://hooks.example.com/ping"`
func (s *Server) Ping(ctx context.Context) {
	http.Post("https://hooks.example.com/ping", "text/plain", nil)
}

//agent:operable grant=RowEditor // want `Asserted is declared reversible by grant RowEditor, but its effects floor it at compensable: an //agent:effect none site`
func (s *Server) Asserted(ctx context.Context) string {
	//agent:effect none reason="pure formatting"
	return s.r.Render()
}

//agent:operable grant=RowEditor
func (s *Server) CrossTenantSetsNoFloor(ctx context.Context) {
	s.db.QueryContext(ctx, "SELECT * FROM notes")
}

//agent:operable grant=Careful
func (s *Server) AboveTheFloor(ctx context.Context) {
	s.db.ExecContext(ctx, "UPDATE notes SET body = $1 WHERE id = $2", "x", 1)
	s.db.ExecContext(ctx, "DELETE FROM drafts")
}

// A none hatch on a closure's definition covers no site the walk reaches
// there, but it is still a statement taken out of the proof.
//
//agent:operable grant=RowEditor // want `AssertedClosure is declared reversible by grant RowEditor, but its effects floor it at compensable: an //agent:effect none site`
func (s *Server) AssertedClosure(ctx context.Context) {
	//agent:effect none reason="the closure only formats"
	f := func() string { return "x" }
	s.db.ExecContext(ctx, "UPDATE notes SET body = $1 WHERE id = $2", f(), 1)
}

// Twin: the same closure with no hatch.
//
//agent:operable grant=RowEditor
func (s *Server) PlainClosure(ctx context.Context) {
	f := func() string { return "x" }
	s.db.ExecContext(ctx, "UPDATE notes SET body = $1 WHERE id = $2", f(), 1)
}
