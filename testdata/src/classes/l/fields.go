package l

import (
	"context"

	"classes/l/clock"
)

// --- Functions in unexported fields of a struct another package builds
// and main injects: every value that package stores in the field.

// Clocked holds a clock.Service built out of sight.
type Clocked struct{ svc *clock.Service }

// Clean twin: the only value stored in the clock field is time.Now.
//
//agent:operable grant=Narrow
func (c *Clocked) Stamp() string {
	return c.svc.Stamp()
}

//agent:operable grant=Narrow
func (c *Clocked) Purge(ctx context.Context, tenant string) error {
	return c.svc.Purge(ctx, tenant) // want `Purge writes "payout_locks"`
}

// Clean twin of Purge: a grant that allows the table.
//
//agent:operable grant=Wide
func (c *Clocked) PurgeAllowed(ctx context.Context, tenant string) error {
	return c.svc.Purge(ctx, tenant)
}

//agent:operable grant=Narrow
func (c *Clocked) After() {
	c.svc.After() // want `After calls a function value the analysis cannot resolve`
}

//agent:operable grant=Narrow
func (c *Clocked) Notify(ctx context.Context) error {
	return c.svc.Notify(ctx) // want `Notify calls a function value the analysis cannot resolve`
}
