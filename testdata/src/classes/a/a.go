// Package a: interface calls that resolve to a modelled type must use the
// model (SPEC §4.1, "Interface calls that resolve to a modelled type").
// Every shape is a handler under Narrow, which does not allow what it
// does; its clean twin runs the same code under Wide, which does.
package a

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"golang.org/x/sync/errgroup"
	"gorm.io/gorm"

	"classes/a/bus"
	"classes/a/repo"

	"github.com/authvet/authvet/grant"
)

// Narrow allows only refunds.
var Narrow = grant.Grant{
	Writes:        []string{"refunds"},
	Reversibility: grant.Irreversible,
}

// Wide allows everything the shapes below do.
var Wide = grant.Grant{
	Writes:        []string{"refunds", "payouts"},
	TenantScope:   grant.CrossTenant,
	Outbound:      []string{"https://events.pagerduty.com/v2/", "https://hooks.slack.com/services/", "https://api.stripe.com/v1/"},
	Jobs:          []string{"purge_payouts", "send_receipt"},
	Webhooks:      []string{"payout.deleted"},
	Reversibility: grant.Irreversible,
}

type Server struct {
	db    *sql.DB
	pool  *pgxpool.Pool
	conn  *pgx.Conn
	x     *sqlx.DB
	gdb   *gorm.DB
	aq    *asynq.Client
	river *river.Client[pgx.Tx]
	bus   *bus.Bus
}

// --- A1: a pgx.Tx from pool.Begin handed to a repository's PgDBTX. The
// transaction is an interface value a modelled library made.

//agent:operable grant=Narrow
func (s *Server) PgxTxAsDBTX(ctx context.Context, tenant string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := repo.DeletePayoutsOf(ctx, tx, tenant); err != nil { // want `PgxTxAsDBTX writes "payouts"`
		return err
	}
	return tx.Commit(ctx)
}

//agent:operable grant=Wide
func (s *Server) PgxTxAsDBTXTwin(ctx context.Context, tenant string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := repo.DeletePayoutsOf(ctx, tx, tenant); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// --- A2: the same pgx.Tx converted to a package-local querier in a
// variable, then called in the handler itself.

type querier interface {
	Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error)
}

//agent:operable grant=Narrow
func (s *Server) PgxTxLocalIface(ctx context.Context) error {
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return err
	}
	var q querier = tx
	if _, err := q.Exec(ctx, "UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, 2); err != nil { // want `PgxTxLocalIface writes "payouts"`
		return err
	}
	return tx.Commit(ctx)
}

//agent:operable grant=Wide
func (s *Server) PgxTxLocalIfaceTwin(ctx context.Context) error {
	tx, err := s.conn.Begin(ctx)
	if err != nil {
		return err
	}
	var q querier = tx
	if _, err := q.Exec(ctx, "UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, 2); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// --- A3: a *sql.DB handed as a Preparer: PrepareContext is not a
// SQL-running name, the statement runs in the repository.

//agent:operable grant=Narrow
func (s *Server) PrepareThroughIface(ctx context.Context) error {
	return repo.PurgeWith(ctx, s.db, "DELETE FROM payouts WHERE tenant_id = $1", "t1") // want `PrepareThroughIface (writes "payouts"|runs SQL text that is not constant)`
}

// PRECISION GAP (honestly unprovable, whatever the grant): the statement prepared through an interface in another package is not traced back to its text.
//
//agent:operable grant=Wide
func (s *Server) PrepareThroughIfaceTwin(ctx context.Context) error {
	return repo.PurgeWith(ctx, s.db, "DELETE FROM payouts WHERE tenant_id = $1", "t1") // want `PrepareThroughIfaceTwin runs SQL text that is not constant`
}

// --- A4: an *asynq.Client handed as an Enqueuer.

//agent:operable grant=Narrow
func (s *Server) AsynqThroughIface(ctx context.Context) error {
	return repo.Schedule(s.aq, "purge_payouts") // want `AsynqThroughIface starts job "purge_payouts"`
}

//agent:operable grant=Wide
func (s *Server) AsynqThroughIfaceTwin(ctx context.Context) error {
	return repo.Schedule(s.aq, "purge_payouts")
}

// --- A5: a River client kept in an interface variable that a closure
// run by errgroup captures.

type jobInserter interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*river.JobInsertResult, error)
}

type PurgeArgs struct{}

func (PurgeArgs) Kind() string { return "purge_payouts" }

//agent:operable grant=Narrow
func (s *Server) RiverCapturedIface(ctx context.Context) error {
	var ins jobInserter = s.river
	var g errgroup.Group
	g.Go(func() error {
		_, err := ins.Insert(ctx, PurgeArgs{}, nil) // want `RiverCapturedIface starts job "purge_payouts"`
		return err
	})
	return g.Wait()
}

//agent:operable grant=Wide
func (s *Server) RiverCapturedIfaceTwin(ctx context.Context) error {
	var ins jobInserter = s.river
	var g errgroup.Group
	g.Go(func() error {
		_, err := ins.Insert(ctx, PurgeArgs{}, nil)
		return err
	})
	return g.Wait()
}

// --- A6: a *gorm.DB handed as a Creator: the model type decides the table.

//agent:operable grant=Narrow
func (s *Server) GormThroughIface(ctx context.Context) error {
	return repo.CreatePayout(s.gdb, 1) // want `GormThroughIface (writes "payouts"|writes through gorm to a table the analysis cannot name)`
}

// PRECISION GAP (honestly unprovable, whatever the grant): a gorm model created through an interface in another package is not typed at the call.
//
//agent:operable grant=Wide
func (s *Server) GormThroughIfaceTwin(ctx context.Context) error {
	return repo.CreatePayout(s.gdb, 1) // want `GormThroughIfaceTwin writes through gorm to a table the analysis cannot name`
}

// --- A7: an *http.Client handed as a Poster.

//agent:operable grant=Narrow
func (s *Server) PosterIface(ctx context.Context) error {
	return repo.Alert(http.DefaultClient) // want `PosterIface calls out to "https://hooks.slack.com/services/T000/B000/XXX"`
}

//agent:operable grant=Wide
func (s *Server) PosterIfaceTwin(ctx context.Context) error {
	return repo.Alert(http.DefaultClient)
}

// --- A8: an *http.Client handed to a constructor that keeps it as a Doer
// field: the call is on a field, not on a parameter.

//agent:operable grant=Narrow
func (s *Server) DoerInField(ctx context.Context) error {
	return repo.NewNotifier(http.DefaultClient).Page(ctx) // want `DoerInField calls out to "https://events.pagerduty.com/v2/enqueue"`
}

//agent:operable grant=Wide
func (s *Server) DoerInFieldTwin(ctx context.Context) error {
	return repo.NewNotifier(http.DefaultClient).Page(ctx)
}

// --- A9: an *http.Client as the type argument of a generic sender.

//agent:operable grant=Narrow
func (s *Server) GenericDoer(ctx context.Context) error {
	return repo.SendGeneric(ctx, http.DefaultClient, "https://api.stripe.com/v1/customers/cus_1") // want `GenericDoer calls out to "https://api.stripe.com/v1/customers/cus_1"`
}

//agent:operable grant=Wide
func (s *Server) GenericDoerTwin(ctx context.Context) error {
	return repo.SendGeneric(ctx, http.DefaultClient, "https://api.stripe.com/v1/customers/cus_1")
}

// --- A10: a method value bound from the interface parameter.

//agent:operable grant=Narrow
func (s *Server) IfaceMethodValue(ctx context.Context) error {
	return repo.ExecThroughMethodValue(ctx, s.pool, "DELETE FROM payouts WHERE tenant_id = $1") // want `IfaceMethodValue writes "payouts"`
}

//agent:operable grant=Wide
func (s *Server) IfaceMethodValueTwin(ctx context.Context) error {
	return repo.ExecThroughMethodValue(ctx, s.pool, "DELETE FROM payouts WHERE tenant_id = $1")
}

// --- A11: the interface method called as a method expression.

//agent:operable grant=Narrow
func (s *Server) IfaceMethodExpr(ctx context.Context) error {
	return repo.ExecThroughMethodExpr(ctx, s.pool, "DELETE FROM payouts WHERE tenant_id = $1") // want `IfaceMethodExpr writes "payouts"`
}

//agent:operable grant=Wide
func (s *Server) IfaceMethodExprTwin(ctx context.Context) error {
	return repo.ExecThroughMethodExpr(ctx, s.pool, "DELETE FROM payouts WHERE tenant_id = $1")
}

// --- A12: a *sqlx.DB handed as a Selector whose method returns only an
// error: no database type marks it, the read has no tenant predicate.

//agent:operable grant=Narrow
func (s *Server) SqlxSelectorIface(ctx context.Context) error {
	repo.TenantPayouts(s.x, 1)
	_, err := repo.AllPayouts(s.x) // want `SqlxSelectorIface runs a raw query on "payouts" with no tenant predicate`
	return err
}

//agent:operable grant=Wide
func (s *Server) SqlxSelectorIfaceTwin(ctx context.Context) error {
	repo.TenantPayouts(s.x, 1)
	_, err := repo.AllPayouts(s.x)
	return err
}

// --- A13: a gorm transaction begun through an interface the *gorm.DB
// satisfies; an asynq enqueue (never transactional) runs before the
// commit.

type gormBeginner interface {
	Begin() *gorm.DB
}

type Refund struct{ ID, TenantID int }

//agent:operable grant=Wide
func (s *Server) GormBeginIface(ctx context.Context) error {
	var b gormBeginner = s.gdb
	tx := b.Begin()
	tx.Create(&Refund{TenantID: 1})
	s.aq.Enqueue(asynq.NewTask("send_receipt", nil)) // want `GormBeginIface enqueues a job with asynq's Enqueue, which is not transactional`
	return tx.Commit().Error
}

// The twin enqueues after the commit.
//
//agent:operable grant=Wide
func (s *Server) GormBeginIfaceTwin(ctx context.Context) error {
	var b gormBeginner = s.gdb
	tx := b.Begin()
	tx.Create(&Refund{TenantID: 1})
	if err := tx.Commit().Error; err != nil {
		return err
	}
	_, err := s.aq.Enqueue(asynq.NewTask("send_receipt", nil))
	return err
}

// --- A14: a configured sink (the webhook bus) handed as a Publisher to
// a function that binds the interface method to a method value first.

//agent:operable grant=Narrow
func (s *Server) ConfiguredSinkMethodValue(ctx context.Context) error {
	return repo.Emit(s.bus, "payout.deleted") // want `ConfiguredSinkMethodValue (dispatches webhook "payout.deleted"|calls Dispatch through the interface repo.Publisher)`
}

// The twin's grant allows the webhook: the method value bound from the
// interface parameter is resolved at the caller.
//
//agent:operable grant=Wide
func (s *Server) ConfiguredSinkMethodValueTwin(ctx context.Context) error {
	return repo.Emit(s.bus, "payout.deleted")
}

// --- A14b: the same bus promoted through an embedding decorator, called
// directly through the Publisher parameter (passes).

type auditedBus struct{ *bus.Bus }

//agent:operable grant=Narrow
func (s *Server) ConfiguredSinkEmbedded(ctx context.Context) error {
	return repo.Emit2(auditedBus{s.bus}, "payout.deleted") // want `ConfiguredSinkEmbedded dispatches webhook "payout.deleted"`
}

//agent:operable grant=Wide
func (s *Server) ConfiguredSinkEmbeddedTwin(ctx context.Context) error {
	return repo.Emit2(auditedBus{s.bus}, "payout.deleted")
}

// --- A15: an *http.Client inside a decorator that embeds the Doer
// interface (a retrying client), handed on as a Doer.

type retrying struct {
	repo.Doer
	attempts int
}

//agent:operable grant=Narrow
func (s *Server) DoerDecorator(ctx context.Context) error {
	c := retrying{Doer: http.DefaultClient, attempts: 3}
	return repo.SendVia(ctx, c, "https://api.stripe.com/v1/customers/cus_1") // want `DoerDecorator calls out to "https://api.stripe.com/v1/customers/cus_1"`
}

//agent:operable grant=Wide
func (s *Server) DoerDecoratorTwin(ctx context.Context) error {
	c := retrying{Doer: http.DefaultClient, attempts: 3}
	return repo.SendVia(ctx, c, "https://api.stripe.com/v1/customers/cus_1")
}

// --- A16: a pgx.Tx (from BeginFunc) handed to a repository's copier
// interface with the table the caller names: a constant Identifier.

//agent:operable grant=Narrow
func (s *Server) CopyFromViaIface(ctx context.Context) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return repo.CopyInto(ctx, tx, pgx.Identifier{"payouts"}) // want `CopyFromViaIface (writes "payouts"|copies rows into a table whose pgx.Identifier is not constant|calls CopyFrom through the interface repo.Copier)`
	})
}

// PRECISION GAP (honestly unprovable, whatever the grant): the pgx.Identifier handed through the interface is an argument record, not traced to its constant.
//
//agent:operable grant=Wide
func (s *Server) CopyFromViaIfaceTwin(ctx context.Context) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return repo.CopyInto(ctx, tx, pgx.Identifier{"payouts"}) // want `CopyFromViaIfaceTwin copies rows into a table whose pgx.Identifier is not constant`
	})
}

// --- A17: a Doer variable captured by a closure that another package's
// retry helper calls.

//agent:operable grant=Narrow
func (s *Server) ClosureToRetry(ctx context.Context) error {
	var d repo.Doer = &http.Client{}
	req, _ := http.NewRequestWithContext(ctx, http.MethodDelete, "https://api.stripe.com/v1/customers/cus_1", nil)
	return repo.Retry(3, func() error {
		_, err := d.Do(req) // want `ClosureToRetry (calls out to "https://api.stripe.com/v1/customers/cus_1"|sends a request through an \*http.Client whose Transport)`
		return err
	})
}

// PRECISION GAP (honestly unprovable, whatever the grant): the client converted to an interface and captured by a closure handed to another package is not traced to where it is built.
//
//agent:operable grant=Wide
func (s *Server) ClosureToRetryTwin(ctx context.Context) error {
	var d repo.Doer = &http.Client{}
	req, _ := http.NewRequestWithContext(ctx, http.MethodDelete, "https://api.stripe.com/v1/customers/cus_1", nil)
	return repo.Retry(3, func() error {
		_, err := d.Do(req) // want `ClosureToRetryTwin sends a request through an \*http.Client whose Transport`
		return err
	})
}

// --- A18: another package's factory closes over the Doer it is handed
// and returns the closure; the handler calls it.

//agent:operable grant=Narrow
func (s *Server) FactoryOverDoer(ctx context.Context) error {
	page := repo.Pager(http.DefaultClient)
	return page(ctx) // want `FactoryOverDoer (calls out to "https://events.pagerduty.com/v2/enqueue"|calls Do through the interface repo.Doer)`
}

// The closure another package returns over its parameter is resolved
// with the argument: the default client, sending where the grant allows.
//
//agent:operable grant=Wide
func (s *Server) FactoryOverDoerTwin(ctx context.Context) error {
	page := repo.Pager(http.DefaultClient)
	return page(ctx)
}

// --- A19: an unexported interface whose methods are all exported. A
// type of any package fits it, and an exported constructor's parameter
// lets another package hand one in (main passing its own purger): only
// the package's own implementations are not all there is.

type saver interface {
	Save(ctx context.Context) error
}

type refundSaver struct{ db *sql.DB }

func (r refundSaver) Save(ctx context.Context) error {
	_, err := r.db.ExecContext(ctx, "UPDATE refunds SET saved = true WHERE id = $1 AND tenant_id = $2", 1, 7)
	return err
}

// Saving holds a saver another package may choose.
type Saving struct{ sv saver }

// NewSaving takes the saver; nil means the package's own.
func NewSaving(db *sql.DB, sv saver) *Saving {
	if sv == nil {
		sv = refundSaver{db: db}
	}
	return &Saving{sv: sv}
}

//agent:operable grant=Narrow
func (s *Saving) Save(ctx context.Context) error {
	return s.sv.Save(ctx) // want `Save calls Save through the interface a.saver, which the analysis cannot resolve`
}

// The same interface kept inside the package: only its own
// implementations can be there.

type keeper interface {
	Keep(ctx context.Context) error
}

type refundKeeper struct{ db *sql.DB }

func (r refundKeeper) Keep(ctx context.Context) error {
	_, err := r.db.ExecContext(ctx, "UPDATE refunds SET kept = true WHERE id = $1 AND tenant_id = $2", 1, 7)
	return err
}

// Keeping holds a keeper the package chooses.
type Keeping struct{ kp keeper }

// NewKeeping builds the package's own keeper.
func NewKeeping(db *sql.DB) *Keeping { return &Keeping{kp: refundKeeper{db: db}} }

//agent:operable grant=Narrow
func (k *Keeping) Keep(ctx context.Context) error {
	return k.kp.Keep(ctx)
}

// --- A20: another package's generic repository over the handle, kept in
// a field of a type parameter's type; the handler instantiates it with a
// wrapper of its own whose ExecContext also deletes payouts.

type purgingDB struct{ db *sql.DB }

func (p *purgingDB) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	p.db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1", 7)
	return p.db.ExecContext(ctx, q, args...)
}

//agent:operable grant=Narrow
func (s *Server) GenericRepoWrapper(ctx context.Context) error {
	return repo.GenRepo[*purgingDB]{DB: &purgingDB{db: s.db}}.Archive(ctx, 1) // want `GenericRepoWrapper writes "payouts"`
}

//agent:operable grant=Narrow
func (s *Server) GenericRepoWrapperTwin(ctx context.Context) error {
	return repo.GenRepo[*sql.DB]{DB: s.db}.Archive(ctx, 1)
}

// --- A21: an iterator another package's generic returns calls a method
// of its type argument: the instance's, resolved where the handler
// ranges over it.

type refundRow struct{ ID int }

func (r refundRow) Ack(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "UPDATE refunds SET acked = true WHERE id = $1 AND tenant_id = $2", r.ID, 7)
	return err
}

type payoutRow struct{ ID int }

func (r payoutRow) Ack(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "UPDATE payouts SET acked = true WHERE id = $1 AND tenant_id = $2", r.ID, 7)
	return err
}

//agent:operable grant=Narrow
func (s *Server) ConsumePayouts(ctx context.Context) {
	for range repo.Consume(ctx, s.db, []payoutRow{{ID: 1}}) { // want `ConsumePayouts writes "payouts"`
	}
}

//agent:operable grant=Narrow
func (s *Server) ConsumeRefundsTwin(ctx context.Context) {
	for range repo.Consume(ctx, s.db, []refundRow{{ID: 1}}) {
	}
}

// --- A22: a client literal built in the handler, handed as a Doer to
// another package's helper that only calls Do on it: the literal's
// Transport (none: the default) decides. A helper that asserts the
// Doer back to *http.Client may change it.

//agent:operable grant=Narrow
func (s *Server) DoerLiteral(ctx context.Context) error {
	return repo.SendVia(ctx, &http.Client{Timeout: time.Second}, "https://api.stripe.com/v1/customers/cus_1") // want `DoerLiteral calls out to "https://api.stripe.com/v1/customers/cus_1"`
}

//agent:operable grant=Wide
func (s *Server) DoerLiteralTwin(ctx context.Context) error {
	return repo.SendVia(ctx, &http.Client{Timeout: time.Second}, "https://api.stripe.com/v1/customers/cus_1")
}

//agent:operable grant=Wide
func (s *Server) DoerLiteralTuned(ctx context.Context) error {
	return repo.SendTuned(ctx, &http.Client{}, "https://api.stripe.com/v1/customers/cus_1") // want `DoerLiteralTuned sends a request through an \*http.Client whose Transport the analysis cannot see`
}

// The same client literal handed twice, as the Doer the helper only
// calls and as the client it tunes: the tuning counts.
//
//agent:operable grant=Wide
func (s *Server) DoerLiteralTwice(ctx context.Context) error {
	c := &http.Client{}
	return repo.SendBoth(ctx, c, c, "https://api.stripe.com/v1/customers/cus_1") // want `DoerLiteralTwice (sends a request through an \*http.Client whose Transport the analysis cannot see|calls out to a URL that is not constant)`
}
