// Package api uses the ent client without importing its entity
// packages: under go vet the client's import of them is not in the
// export data this package reads, and the tables come from the client
// package's fact.
package api

import (
	"context"

	"libmod/entsvc/ent"

	"github.com/authvet/authvet/grant"
)

var Users = grant.Grant{Writes: []string{"users"}, Reversibility: grant.Compensable}

type Server struct{ c *ent.Client }

//agent:operable grant=Users
func (s *Server) Create(ctx context.Context, name string) error {
	_, err := s.c.User.Create().SetName(name).SetTenantID(1).Save(ctx)
	return err
}

//agent:operable grant=Users
func (s *Server) Pay(ctx context.Context, id int) error {
	return s.c.Order.UpdateOneID(id).SetPaid(true).Exec(ctx) // want `Pay writes "orders"`
}

//agent:operable grant=Users
func (s *Server) Join(ctx context.Context, id, group int) error {
	return s.c.User.UpdateOneID(id).AddGroupIDs(group).Exec(ctx) // want `Join writes "user_groups"`
}
