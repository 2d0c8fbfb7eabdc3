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

// --- F: steps appended to a local slice in a loop, then run: the
// elements are the closures appended. A slice handed to a helper may hold
// anything the helper put there.

//agent:operable grant=Refunds
func (s *Server) RunSteps(ctx context.Context, ids []int) {
	var steps []func()
	for _, id := range ids {
		steps = append(steps, func() {
			s.db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, id) // want `RunSteps writes "payouts"`
		})
	}
	for _, f := range steps {
		f()
	}
}

//agent:operable grant=Refunds
func (s *Server) RunStepsTwin(ctx context.Context, ids []int) {
	var steps []func()
	for _, id := range ids {
		steps = append(steps, func() {
			s.db.ExecContext(ctx, "UPDATE orders SET seen = true WHERE tenant_id = $1 AND id = $2", 1, id)
		})
	}
	for _, f := range steps {
		f()
	}
}

func addStep(steps []func()) []func() { return steps }

//agent:operable grant=Refunds
func (s *Server) RunStepsHanded(ctx context.Context, ids []int) {
	var steps []func()
	for _, id := range ids {
		steps = append(steps, func() {
			s.db.ExecContext(ctx, "UPDATE orders SET seen = true WHERE tenant_id = $1 AND id = $2", 1, id)
		})
	}
	steps = addStep(steps)
	for _, f := range steps {
		f() // want `RunStepsHanded calls a function value the analysis cannot resolve`
	}
}
