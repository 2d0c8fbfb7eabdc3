// Package d is class D of the fail-closed corpus: a non-transactional
// enqueue (River Insert, asynq Enqueue) that runs while a transaction is
// open, however far the begin, the enqueue and the commit are apart.
// Every attack shape has a clean twin right after it.
package d

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"golang.org/x/sync/errgroup"
	"gorm.io/gorm"

	"classes/d/store"

	"github.com/authvet/authvet/grant"
)

var Orders = grant.Grant{
	Writes:        []string{"orders", "outbox"},
	Jobs:          []string{"fulfil", "email"},
	TenantScope:   grant.Scoped,
	Reversibility: grant.Irreversible,
}

type FulfilArgs struct{ ID int64 }

func (FulfilArgs) Kind() string { return "fulfil" }

type Outbox struct{}

// BeforeCommit is an outbox hook: it writes through the transaction and
// closes nothing, whatever its name says.
func (o *Outbox) BeforeCommit(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, "INSERT INTO outbox (tenant_id, topic) VALUES ($1, 'order')", 1)
	return err
}

type Server struct {
	pool   *pgxpool.Pool
	gdb    *gorm.DB
	river  *river.Client[pgx.Tx]
	asynq  *asynq.Client
	outbox *Outbox
	uow    *Work
	tm     *TxManager
	q      *Queries
}

func insertOrder(ctx context.Context, tx pgx.Tx, id int64) error {
	_, err := tx.Exec(ctx, "INSERT INTO orders (tenant_id, id) VALUES ($1, $2)", 1, id)
	return err
}

// --- D1: a call whose name mentions "commit" but closes nothing -------

// OutboxHook: begin, an outbox hook named BeforeCommit, the enqueue,
// then the real commit.
//
//agent:operable grant=Orders
func (s *Server) OutboxHook(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := s.outbox.BeforeCommit(ctx, tx); err != nil {
		return err
	}
	s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `OutboxHook enqueues a job with River's Insert`
	return tx.Commit(ctx)
}

// OutboxHookTwin enqueues after the real commit.
//
//agent:operable grant=Orders
func (s *Server) OutboxHookTwin(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := s.outbox.BeforeCommit(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	_, err = s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// --- D2: a Begin wrapper in another package with a deferred
// rollback-on-error guard -------------------------------------------------

// UowWrapper: store.Begin returns with the transaction open.
//
//agent:operable grant=Orders
func (s *Server) UowWrapper(ctx context.Context, id int64) error {
	uow, err := store.Begin(ctx, s.pool)
	if err != nil {
		return err
	}
	if err := uow.AddOrder(ctx, id); err != nil {
		return err
	}
	s.asynq.Enqueue(asynq.NewTask("email", nil)) // want `UowWrapper enqueues a job with asynq's Enqueue`
	return uow.Commit(ctx)
}

// UowWrapperTwin enqueues after the unit of work commits.
//
//agent:operable grant=Orders
func (s *Server) UowWrapperTwin(ctx context.Context, id int64) error {
	uow, err := store.Begin(ctx, s.pool)
	if err != nil {
		return err
	}
	if err := uow.AddOrder(ctx, id); err != nil {
		return err
	}
	if err := uow.Commit(ctx); err != nil {
		return err
	}
	_, err = s.asynq.Enqueue(asynq.NewTask("email", nil))
	return err
}

// --- D3: a callee handed the transaction, which commits it itself -------

// finishEarly enqueues, then commits the transaction it was handed.
func (s *Server) finishEarly(ctx context.Context, tx pgx.Tx, id int64) error {
	if _, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// finish commits the transaction it was handed, then enqueues.
func (s *Server) finish(ctx context.Context, tx pgx.Tx, id int64) error {
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// CalleeCommits hands the open transaction to a helper that enqueues
// before it commits.
//
//agent:operable grant=Orders
func (s *Server) CalleeCommits(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := insertOrder(ctx, tx, id); err != nil {
		tx.Rollback(ctx)
		return err
	}
	return s.finishEarly(ctx, tx, id) // want `CalleeCommits enqueues a job with River's Insert`
}

// CalleeCommitsTwin: the helper commits first, then enqueues.
//
//agent:operable grant=Orders
func (s *Server) CalleeCommitsTwin(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := insertOrder(ctx, tx, id); err != nil {
		tx.Rollback(ctx)
		return err
	}
	return s.finish(ctx, tx, id)
}

// --- D4: deferred enqueue vs deferred commit (defers run LIFO) ----------

// DeferOrder registers the commit first, so the deferred enqueue runs
// before it, inside the transaction.
//
//agent:operable grant=Orders
func (s *Server) DeferOrder(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Commit(ctx)
	defer s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `DeferOrder enqueues a job with River's Insert`
	return insertOrder(ctx, tx, id)
}

// DeferOrderTwin registers the enqueue first: it runs after the
// deferred commit.
//
//agent:operable grant=Orders
func (s *Server) DeferOrderTwin(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	defer tx.Commit(ctx)
	return insertOrder(ctx, tx, id)
}

// --- D5: gorm's manual Begin / Commit ---------------------------------

type Order struct{ ID int64 }

// GormManual begins a gorm transaction by hand.
//
//agent:operable grant=Orders
func (s *Server) GormManual(ctx context.Context, id int64) error {
	tx := s.gdb.Begin()
	tx.Create(&Order{ID: id})
	s.asynq.Enqueue(asynq.NewTask("email", nil)) // want `GormManual enqueues a job with asynq's Enqueue`
	return tx.Commit().Error
}

// GormManualTwin enqueues after the commit.
//
//agent:operable grant=Orders
func (s *Server) GormManualTwin(ctx context.Context, id int64) error {
	tx := s.gdb.Begin()
	tx.Create(&Order{ID: id})
	if err := tx.Commit().Error; err != nil {
		return err
	}
	_, err := s.asynq.Enqueue(asynq.NewTask("email", nil))
	return err
}

// --- D6: the River client behind the project's own interface ------------

// Enqueuer is what the project's services take instead of *river.Client.
type Enqueuer interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*river.JobInsertResult, error)
}

// ViaInterface enqueues through an Enqueuer the handler converts itself.
//
//agent:operable grant=Orders
func (s *Server) ViaInterface(ctx context.Context, id int64) error {
	var q Enqueuer = s.river
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	insertOrder(ctx, tx, id)
	q.Insert(ctx, FulfilArgs{ID: id}, nil) // want `ViaInterface enqueues a job with River's Insert`
	return tx.Commit(ctx)
}

// ViaInterfaceTwin enqueues through it after the commit.
//
//agent:operable grant=Orders
func (s *Server) ViaInterfaceTwin(ctx context.Context, id int64) error {
	var q Enqueuer = s.river
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	insertOrder(ctx, tx, id)
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	_, err = q.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// --- D7: the River client taken from the context -------------------------

// ClientInContext uses river.ClientFromContext inside the transaction.
//
//agent:operable grant=Orders
func (s *Server) ClientInContext(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	insertOrder(ctx, tx, id)
	river.ClientFromContext[pgx.Tx](ctx).Insert(ctx, FulfilArgs{ID: id}, nil) // want `ClientInContext enqueues a job with River's Insert`
	return tx.Commit(ctx)
}

// ClientInContextTwin uses it after the commit.
//
//agent:operable grant=Orders
func (s *Server) ClientInContextTwin(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	insertOrder(ctx, tx, id)
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	_, err = river.ClientFromContext[pgx.Tx](ctx).Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// --- D8: sqlc's ExecTx: the callback gets *Queries, not the tx ----------

// DBTX is sqlc's generated interface.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconnTag, error)
}

type pgconnTag = struct{}

// Queries is sqlc's generated query set.
type Queries struct{ db pgx.Tx }

func (q *Queries) WithTx(tx pgx.Tx) *Queries { return &Queries{db: tx} }

func (q *Queries) CreateOrder(ctx context.Context, id int64) error {
	_, err := q.db.Exec(ctx, "INSERT INTO orders (tenant_id, id) VALUES ($1, $2)", 1, id)
	return err
}

// execTx is the project's sqlc transaction helper.
func (s *Server) execTx(ctx context.Context, fn func(*Queries) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(s.q.WithTx(tx)); err != nil {
		tx.Rollback(ctx)
		return err
	}
	return tx.Commit(ctx)
}

// SqlcExecTx enqueues inside the sqlc callback.
//
//agent:operable grant=Orders
func (s *Server) SqlcExecTx(ctx context.Context, id int64) error {
	return s.execTx(ctx, func(q *Queries) error {
		if err := q.CreateOrder(ctx, id); err != nil {
			return err
		}
		_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `SqlcExecTx enqueues a job with River's Insert`
		return err
	})
}

// SqlcExecTxTwin enqueues after execTx returns.
//
//agent:operable grant=Orders
func (s *Server) SqlcExecTxTwin(ctx context.Context, id int64) error {
	if err := s.execTx(ctx, func(q *Queries) error { return q.CreateOrder(ctx, id) }); err != nil {
		return err
	}
	_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// --- D9: the callback travels in an options struct ---------------------

type TxOptions struct {
	ReadOnly bool
	Body     func(ctx context.Context) error
}

type TxManager struct{ pool *pgxpool.Pool }

// Run runs opts.Body inside a transaction.
func (m *TxManager) Run(ctx context.Context, opts TxOptions) error {
	tx, err := m.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := opts.Body(ctx); err != nil {
		tx.Rollback(ctx)
		return err
	}
	return tx.Commit(ctx)
}

// OptionsBody enqueues in the Body of a TxOptions.
//
//agent:operable grant=Orders
func (s *Server) OptionsBody(ctx context.Context, id int64) error {
	return s.tm.Run(ctx, TxOptions{Body: func(ctx context.Context) error {
		_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `OptionsBody enqueues a job with River's Insert`
		return err
	}})
}

// OptionsBodyTwin enqueues after Run.
//
//agent:operable grant=Orders
func (s *Server) OptionsBodyTwin(ctx context.Context, id int64) error {
	if err := s.tm.Run(ctx, TxOptions{Body: func(ctx context.Context) error { return nil }}); err != nil {
		return err
	}
	_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// --- D10: unit of work kept in a field, closed by End -------------------

type Work struct {
	pool *pgxpool.Pool
	tx   pgx.Tx
}

// Start opens the transaction and keeps it.
func (w *Work) Start(ctx context.Context) error {
	tx, err := w.pool.Begin(ctx)
	if err != nil {
		return err
	}
	w.tx = tx
	return nil
}

// End commits the kept transaction.
func (w *Work) End(ctx context.Context) error { return w.tx.Commit(ctx) }

// FieldUow enqueues between Start and End.
//
//agent:operable grant=Orders
func (s *Server) FieldUow(ctx context.Context, id int64) error {
	if err := s.uow.Start(ctx); err != nil {
		return err
	}
	s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `FieldUow enqueues a job with River's Insert`
	return s.uow.End(ctx)
}

// FieldUowTwin enqueues after End.
//
//agent:operable grant=Orders
func (s *Server) FieldUowTwin(ctx context.Context, id int64) error {
	if err := s.uow.Start(ctx); err != nil {
		return err
	}
	if err := s.uow.End(ctx); err != nil {
		return err
	}
	_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// --- D11: an errgroup worker inside the transaction ---------------------

// GroupInTx fans the enqueue out to an errgroup it waits for before the
// commit.
//
//agent:operable grant=Orders
func (s *Server) GroupInTx(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var g errgroup.Group
	g.Go(func() error { return insertOrder(ctx, tx, id) })
	g.Go(func() error {
		_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `GroupInTx enqueues a job with River's Insert`
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// GroupInTxTwin starts the group after the commit.
//
//agent:operable grant=Orders
func (s *Server) GroupInTxTwin(ctx context.Context, id int64) error {
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
	var g errgroup.Group
	g.Go(func() error {
		_, err := s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
		return err
	})
	return g.Wait()
}

// --- D12: two transactions, the other one committed through a struct ---

type pair struct{ audit pgx.Tx }

// TwoTx commits the audit transaction (held in a struct) and enqueues
// while the order transaction is still open.
//
//agent:operable grant=Orders
func (s *Server) TwoTx(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	atx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	p := &pair{audit: atx}
	insertOrder(ctx, tx, id)
	p.audit.Commit(ctx)
	s.river.Insert(ctx, FulfilArgs{ID: id}, nil) // want `TwoTx enqueues a job with River's Insert`
	return tx.Commit(ctx)
}

// TwoTxTwin enqueues after both commits.
//
//agent:operable grant=Orders
func (s *Server) TwoTxTwin(ctx context.Context, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	atx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	p := &pair{audit: atx}
	insertOrder(ctx, tx, id)
	p.audit.Commit(ctx)
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	_, err = s.river.Insert(ctx, FulfilArgs{ID: id}, nil)
	return err
}

// --- D20: a helper that only hands back the ambient transaction (from
// the context) begins none: a statement run through "the tx if there is
// one, else the pool" leaves nothing open, and an enqueue after it is
// clean. A helper of the package that begins one does leave it open.

type ambientKey struct{}

func ambientTx(ctx context.Context) pgx.Tx {
	tx, _ := ctx.Value(ambientKey{}).(pgx.Tx)
	return tx
}

func (s *Server) execAmbient(ctx context.Context, q string) error {
	if tx := ambientTx(ctx); tx != nil {
		_, err := tx.Exec(ctx, q)
		return err
	}
	_, err := s.pool.Exec(ctx, q)
	return err
}

func (s *Server) beginOwn(ctx context.Context) pgx.Tx {
	tx, _ := s.pool.Begin(ctx)
	return tx
}

//agent:operable grant=Orders
func (s *Server) AmbientTxTwin(ctx context.Context) error {
	if err := s.execAmbient(ctx, "INSERT INTO orders (tenant_id, id) VALUES (1, 2)"); err != nil {
		return err
	}
	_, err := s.asynq.Enqueue(asynq.NewTask("email", nil))
	return err
}

//agent:operable grant=Orders
func (s *Server) OwnBeginWrapper(ctx context.Context) error {
	tx := s.beginOwn(ctx)
	if _, err := tx.Exec(ctx, "INSERT INTO orders (tenant_id, id) VALUES (1, 2)"); err != nil {
		return err
	}
	s.asynq.Enqueue(asynq.NewTask("email", nil)) // want `OwnBeginWrapper enqueues a job with asynq's Enqueue`
	return tx.Commit(ctx)
}

// --- D21: a RunInTx helper whose deferred closure commits on success and
// rolls back on error closes the transaction on every path: an enqueue
// after it returns is clean. One whose deferred closure only rolls back
// on error leaves it open on success.

func (s *Server) runInTx(ctx context.Context, fn func(pgx.Tx) error) (err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback(ctx)
			return
		}
		err = tx.Commit(ctx)
	}()
	return fn(tx)
}

func (s *Server) runGuarded(ctx context.Context, fn func(pgx.Tx) error) (err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback(ctx)
		}
	}()
	return fn(tx)
}

//agent:operable grant=Orders
func (s *Server) DeferredCommitTwin(ctx context.Context) error {
	err := s.runInTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO orders (tenant_id, id) VALUES (1, 2)")
		return err
	})
	if err != nil {
		return err
	}
	_, err = s.asynq.Enqueue(asynq.NewTask("email", nil))
	return err
}

//agent:operable grant=Orders
func (s *Server) DeferredGuardOnly(ctx context.Context) error {
	err := s.runGuarded(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO orders (tenant_id, id) VALUES (1, 2)")
		return err
	})
	if err != nil {
		return err
	}
	s.asynq.Enqueue(asynq.NewTask("email", nil)) // want `DeferredGuardOnly enqueues a job with asynq's Enqueue`
	return nil
}

// A deferred closure whose success path only calls something named like
// a commit (a counter) leaves the transaction open.

type txStats struct{ n int }

func (s *txStats) CommitCount() { s.n++ }

func (s *Server) runCounted(ctx context.Context, st *txStats, fn func(pgx.Tx) error) (err error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback(ctx)
			return
		}
		st.CommitCount()
	}()
	return fn(tx)
}

//agent:operable grant=Orders
func (s *Server) DeferredCounterOnly(ctx context.Context) error {
	err := s.runCounted(ctx, &txStats{}, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO orders (tenant_id, id) VALUES (1, 2)")
		return err
	})
	if err != nil {
		return err
	}
	s.asynq.Enqueue(asynq.NewTask("email", nil)) // want `DeferredCounterOnly enqueues a job with asynq's Enqueue`
	return nil
}
