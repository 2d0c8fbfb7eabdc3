// Package handlers calls through contracted interface methods.
package handlers

import (
	"context"

	"github.com/authvet/authvet/grant"

	"contracts/api"
)

var NoteTaker = grant.Grant{
	Writes:        []string{"notes"},
	Reversibility: grant.Compensable,
}

var Secretive = grant.Grant{Reversibility: grant.Compensable}

type Server struct {
	notes api.Notes
	fmt   api.Formatter
}

//agent:operable grant=NoteTaker
func (s *Server) Save(ctx context.Context) error {
	return s.notes.Save(ctx, s.fmt.Format(1))
}

//agent:operable grant=Secretive
func (s *Server) SaveNotAllowed(ctx context.Context) error {
	return s.notes.Save(ctx, "x") // want `SaveNotAllowed writes "notes", which grant Secretive does not allow`
}

//agent:operable grant=NoteTaker
func (s *Server) Count(ctx context.Context) int {
	return s.notes.Count(ctx) // want `Count calls Count through the interface api.Notes, which the analysis cannot resolve`
}
