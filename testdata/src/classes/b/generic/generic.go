// Package generic holds generics another package instantiates: a
// repository whose table, and a hook whose write, come from the type
// argument's methods, and a job helper whose kind is the args type's.
package generic

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river"
)

// Entity names its table.
type Entity interface{ Table() string }

// Repository deletes rows of T's table.
type Repository[T Entity] struct{ DB *sql.DB }

func (r *Repository[T]) table() string {
	var zero T
	return zero.Table()
}

// DeleteByID deletes one of the tenant's rows of T's table.
func (r *Repository[T]) DeleteByID(ctx context.Context, tenant, id int64) error {
	_, err := r.DB.ExecContext(ctx, "DELETE FROM "+r.table()+" WHERE tenant_id = $1 AND id = $2", tenant, id)
	return err
}

// Hook runs after a change.
type Hook interface {
	After(ctx context.Context) error
}

// RunHook runs the zero value of H's hook: a value the caller never
// hands over, of the type it names.
func RunHook[H Hook](ctx context.Context) error {
	var h H
	return h.After(ctx)
}

// Twice runs RunHook through a generic of its own.
func Twice[H Hook](ctx context.Context) error {
	if err := RunHook[H](ctx); err != nil {
		return err
	}
	return RunHook[H](ctx)
}

// Enqueue inserts a job of A's kind.
func Enqueue[A river.JobArgs](ctx context.Context, c *river.Client[*sql.Tx], args A) error {
	_, err := c.Insert(ctx, args, nil)
	return err
}
