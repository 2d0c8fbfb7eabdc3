// Package store is the project's own data layer: a unit-of-work Begin
// wrapper written by another team, in another package.
package store

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// UnitOfWork is the project's own transaction type.
type UnitOfWork struct{ tx pgx.Tx }

// Begin opens a unit of work. It rolls back if it fails half-way, with
// the usual deferred guard: on success the transaction is still open
// when it returns.
func Begin(ctx context.Context, pool *pgxpool.Pool) (uow *UnitOfWork, err error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			tx.Rollback(ctx)
		}
	}()
	if _, err = tx.Exec(ctx, "SET LOCAL lock_timeout = '2s'"); err != nil {
		return nil, err
	}
	return &UnitOfWork{tx: tx}, nil
}

func (u *UnitOfWork) AddOrder(ctx context.Context, id int64) error {
	_, err := u.tx.Exec(ctx, "INSERT INTO orders (tenant_id, id) VALUES ($1, $2)", 1, id)
	return err
}

func (u *UnitOfWork) Commit(ctx context.Context) error { return u.tx.Commit(ctx) }
