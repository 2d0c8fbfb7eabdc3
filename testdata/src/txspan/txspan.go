// Package txspan exercises enqueues inside transactions that span
// functions (SPEC §4.1): a non-transactional enqueue fires even when the
// transaction it runs in rolls back.
package txspan

import (
	"context"
	"errors"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/authvet/authvet/grant"
)

var Orders = grant.Grant{
	Writes:        []string{"orders"},
	Jobs:          []string{"fulfil", "email"},
	TenantScope:   grant.Scoped,
	Reversibility: grant.Irreversible,
}

type FulfilArgs struct{ ID int64 }

func (FulfilArgs) Kind() string { return "fulfil" }

type Server struct {
	pool  *pgxpool.Pool
	river *river.Client[pgx.Tx]
	asynq *asynq.Client
	notes *Notifier
}

// Notifier is a service whose method enqueues.
type Notifier struct{ river *river.Client[pgx.Tx] }

func (n *Notifier) Placed(ctx context.Context, id int64) error {
	_, err := n.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

func insertOrder(ctx context.Context, tx pgx.Tx, id int64) error {
	_, err := tx.Exec(ctx, "INSERT INTO orders (tenant_id, id) VALUES ($1, $2)", 1, id)
	return err
}

//agent:operable grant=Orders
func (s *Server) ServiceBetween(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := insertOrder(ctx, tx, id); err != nil {
		return err
	}
	if err := s.notes.Placed(ctx, id); err != nil { // want `ServiceBetween enqueues a job with River's Insert, which is not transactional, between a transaction's begin and its commit`
		return err
	}
	return tx.Commit(ctx)
}

//agent:operable grant=Orders
func (s *Server) ServiceAfterCommit(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := insertOrder(ctx, tx, id); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	return s.notes.Placed(ctx, id)
}

// begin is the project's own Begin wrapper.
func (s *Server) begin(ctx context.Context) (pgx.Tx, error) { return s.pool.Begin(ctx) }

// Tx is the project's own transaction type.
type Tx struct{ tx pgx.Tx }

func (s *Server) open(ctx context.Context) (*Tx, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &Tx{tx: tx}, nil
}

func (t *Tx) Commit(ctx context.Context) error { return t.tx.Commit(ctx) }

//agent:operable grant=Orders
func (s *Server) OwnBegin(ctx context.Context, id int64) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `OwnBegin enqueues a job with River's Insert`
	return tx.Commit(ctx)
}

//agent:operable grant=Orders
func (s *Server) OwnTxType(ctx context.Context, id int64) error {
	tx, err := s.open(ctx)
	if err != nil {
		return err
	}
	s.asynq.Enqueue(asynq.NewTask("email", nil)) // want `OwnTxType enqueues a job with asynq's Enqueue`
	return tx.Commit(ctx)
}

//agent:operable grant=Orders
func (s *Server) PoolConnBegin(ctx context.Context, id int64) error {
	c, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `PoolConnBegin enqueues a job with River's Insert`
	return tx.Commit(ctx)
}

//agent:operable grant=Orders
func (s *Server) DeferredCommit(ctx context.Context, id int64) (err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if err == nil {
			err = tx.Commit(ctx)
		} else {
			tx.Rollback(ctx)
		}
	}()
	_, err = s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `DeferredCommit enqueues a job with River's Insert`
	return err
}

type txKey struct{}

// RunInTx runs fn with the transaction in its context.
func (s *Server) RunInTx(ctx context.Context, fn func(context.Context) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(context.WithValue(ctx, txKey{}, tx)); err != nil {
		tx.Rollback(ctx)
		return err
	}
	return tx.Commit(ctx)
}

//agent:operable grant=Orders
func (s *Server) InCtxTx(ctx context.Context, id int64) error {
	return s.RunInTx(ctx, func(ctx context.Context) error {
		_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `InCtxTx enqueues a job with River's Insert`
		return err
	})
}

//agent:operable grant=Orders
func (s *Server) AfterCtxTx(ctx context.Context, id int64) error {
	if err := s.RunInTx(ctx, func(ctx context.Context) error { return nil }); err != nil {
		return err
	}
	_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// LoopCommitThenEnqueue begins, commits, then enqueues, per iteration:
// the back edge does not put an enqueue before the next iteration's
// commit.
//
//agent:operable grant=Orders
func (s *Server) LoopCommitThenEnqueue(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			return err
		}
		if err := insertOrder(ctx, tx, id); err != nil {
			tx.Rollback(ctx)
			return err
		}
		if err := tx.Commit(ctx); err != nil {
			return err
		}
		s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	}
	return nil
}

// Savepoint commits a savepoint, not the transaction.
//
//agent:operable grant=Orders
func (s *Server) Savepoint(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return err
	}
	sp.Commit(ctx)
	s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `Savepoint enqueues a job with River's Insert`
	return tx.Commit(ctx)
}

// Transactional uses InsertTx with the transaction: clean.
//
//agent:operable grant=Orders
func (s *Server) Transactional(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return errors.Join(err)
	}
	s.river.InsertTx(ctx, tx, FulfilArgs{ID: id}, nil)
	return tx.Commit(ctx)
}
