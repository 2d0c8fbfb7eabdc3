package f

import (
	"context"
	"database/sql"

	"classes/f/hooklist"
)

// A callback list filled where the server is wired and run by the
// handler: what it holds was put in out of the handler's sight, so its
// call is unprovable, never assumed to add nothing because every
// function put in a list is walked where it is put in.

type hookedServer struct {
	db    *sql.DB
	hooks *hooklist.List
}

func wireHooks(db *sql.DB) *hookedServer {
	l := &hooklist.List{}
	l.Add(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "INSERT INTO payouts (tenant_id) VALUES ($1)", 1)
		return err
	})
	return &hookedServer{db: db, hooks: l}
}

//agent:operable grant=Refunds
func (s *hookedServer) RunInjectedHooks(ctx context.Context) error {
	return s.hooks.Run(ctx) // want `RunInjectedHooks calls a function value the analysis cannot resolve`
}
