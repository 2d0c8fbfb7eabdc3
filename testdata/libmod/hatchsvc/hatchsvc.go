// Package hatchsvc calls code of another module whose statements that
// module's author declared effect-free with //agent:effect none. A hatch
// binds its own module's handlers only: here the statement is
// unprovable, until this module declares the call itself.
package hatchsvc

import (
	"context"
	"database/sql"
	"log/slog"

	"example.com/platform"

	"github.com/authvet/authvet/grant"
)

var Orders = grant.Grant{Writes: []string{"orders"}, TenantScope: grant.Scoped, Reversibility: grant.Compensable}

type H struct{ DB *sql.DB }

//agent:operable grant=Orders
func (h *H) Trim(ctx context.Context) error {
	return platform.Trim(ctx, h.DB) // want `Trim reaches a statement that module example.com/platform declares effect-free`
}

// TrimDeclared declares the call in this module: its own hatch binds it.
//
//agent:operable grant=Orders
func (h *H) TrimDeclared(ctx context.Context) error {
	//agent:effect none reason="platform retention, reviewed with the platform team"
	return platform.Trim(ctx, h.DB)
}

// Receipt reaches a hatch of the other module on a statement the
// analysis reads as effect-free anyway: nothing to take on its word.
//
//agent:operable grant=Orders
func (h *H) Receipt(ctx context.Context) string {
	return platform.Stamp(3)
}

// Another module's goroutine helper: what counts is what the callback
// the handler hands it does, not the go statement inside the helper
// (SPEC §4: inside a dependency, a goroutine whose work has an effect).
//
//agent:operable grant=Orders
func (h *H) CancelLater(ctx context.Context, id int64) {
	platform.Go(ctx, "cancel", func(ctx context.Context) { // want `CancelLater hands a function to code that may run it after the call returns`
		h.DB.ExecContext(ctx, "UPDATE orders SET cancelled = true WHERE tenant_id = $1 AND id = $2", 1, id)
	})
}

// LogLater's callback only logs: the dependency's goroutine is its own
// business.
//
//agent:operable grant=Orders
func (h *H) LogLater(ctx context.Context, id int64) {
	platform.Go(ctx, "log", func(context.Context) { slog.Info("cancelled", "id", id) })
}
