// Package repo is a transaction-agnostic repository layer, written the
// way large codebases write it: every function takes the narrowest
// interface that *sql.DB, *sql.Tx, *pgxpool.Pool, pgx.Tx, *http.Client,
// *asynq.Client, *gorm.DB or *sqlx.DB satisfies.
package repo

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

// PgDBTX is satisfied by *pgxpool.Pool, *pgx.Conn and pgx.Tx.
type PgDBTX interface {
	Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func DeletePayoutsOf(ctx context.Context, db PgDBTX, tenant string) error {
	_, err := db.Exec(ctx, "DELETE FROM payouts WHERE tenant_id = $1", tenant)
	return err
}

func DeleteRefundsOf(ctx context.Context, db PgDBTX, tenant string) error {
	_, err := db.Exec(ctx, "DELETE FROM refunds WHERE tenant_id = $1", tenant)
	return err
}

// Preparer is satisfied by *sql.DB, *sql.Tx and *sql.Conn; PrepareContext
// is not one of the SQL-running method names.
type Preparer interface {
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

func PurgeWith(ctx context.Context, p Preparer, query string, tenant string) error {
	st, err := p.PrepareContext(ctx, query)
	if err != nil {
		return err
	}
	defer st.Close()
	_, err = st.ExecContext(ctx, tenant)
	return err
}

// Enqueuer is satisfied by *asynq.Client.
type Enqueuer interface {
	Enqueue(task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

func Schedule(e Enqueuer, kind string) error {
	_, err := e.Enqueue(asynq.NewTask(kind, nil))
	return err
}

// Creator is satisfied by *gorm.DB.
type Creator interface {
	Create(value any) *gorm.DB
}

type Payout struct{ ID, TenantID int }

type Refund struct{ ID, TenantID int }

func CreatePayout(c Creator, tenant int) error { return c.Create(&Payout{TenantID: tenant}).Error }

func CreateRefund(c Creator, tenant int) error { return c.Create(&Refund{TenantID: tenant}).Error }

// Poster is satisfied by *http.Client.
type Poster interface {
	Post(url, contentType string, body io.Reader) (*http.Response, error)
}

// Alert posts through whatever Poster it is handed.
func Alert(p Poster) error {
	resp, err := p.Post("https://hooks.slack.com/services/T000/B000/XXX", "application/json", strings.NewReader("{}"))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Doer is satisfied by *http.Client.
type Doer interface {
	Do(req *http.Request) (*http.Response, error)
}

// Notifier keeps the Doer it is built with: a pluggable backend.
type Notifier struct{ hc Doer }

func NewNotifier(hc Doer) *Notifier { return &Notifier{hc: hc} }

func (n *Notifier) Page(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://events.pagerduty.com/v2/enqueue", strings.NewReader("{}"))
	if err != nil {
		return err
	}
	resp, err := n.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// SendGeneric is generic over its client: the call is on a type parameter.
func SendGeneric[C interface {
	Do(*http.Request) (*http.Response, error)
}](ctx context.Context, c C, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ExecThroughMethodValue binds the interface method first.
func ExecThroughMethodValue(ctx context.Context, db PgDBTX, query string) error {
	run := db.Exec
	_, err := run(ctx, query)
	return err
}

// ExecThroughMethodExpr calls the interface method as a method expression.
func ExecThroughMethodExpr(ctx context.Context, db PgDBTX, query string) error {
	_, err := PgDBTX.Exec(db, ctx, query)
	return err
}

// Selector is what sqlx.DB and sqlx.Tx share for reads; its results carry
// no database type.
type Selector interface {
	Select(dest any, query string, args ...any) error
}

func AllPayouts(s Selector) ([]int, error) {
	var ids []int
	err := s.Select(&ids, "SELECT id FROM payouts")
	return ids, err
}

func TenantPayouts(s Selector, tenant int) ([]int, error) {
	var ids []int
	err := s.Select(&ids, "SELECT id FROM payouts WHERE tenant_id = $1", tenant)
	return ids, err
}

// Publisher is satisfied by *bus.Bus, a configured sink, and by anything
// that embeds one.
type Publisher interface {
	Dispatch(topic string, payload any) error
}

// Emit publishes through whatever Publisher it is handed, via a method
// value.
func Emit(p Publisher, topic string) error {
	send := p.Dispatch
	return send(topic, nil)
}

// SendVia sends a GET through whatever Doer it is handed.
func SendVia(ctx context.Context, d Doer, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
	if err != nil {
		return err
	}
	resp, err := d.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Emit2(p Publisher, topic string) error { return p.Dispatch(topic, nil) }

// Copier is satisfied by *pgxpool.Pool, *pgx.Conn and pgx.Tx.
type Copier interface {
	CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error)
}

// CopyInto copies rows into the table the caller names.
func CopyInto(ctx context.Context, c Copier, table pgx.Identifier) error {
	_, err := c.CopyFrom(ctx, table, []string{"tenant_id"}, pgx.CopyFromRows(nil))
	return err
}

// Retry calls fn up to n times.
func Retry(n int, fn func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// Pager returns a function that pages through d.
func Pager(d Doer) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://events.pagerduty.com/v2/enqueue", nil)
		if err != nil {
			return err
		}
		resp, err := d.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
}

// Execer runs a statement: *sql.DB, *sql.Tx, or a wrapper of the
// program's own.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// GenRepo is a generic repository over any Execer, kept in a field.
type GenRepo[D Execer] struct{ DB D }

// Archive archives one refund.
func (r GenRepo[D]) Archive(ctx context.Context, id int64) error {
	_, err := r.DB.ExecContext(ctx, "UPDATE refunds SET archived = true WHERE id = $1 AND tenant_id = $2", id, 7)
	return err
}

// Acker is a row that records its own acknowledgement.
type Acker interface {
	Ack(ctx context.Context, db *sql.DB) error
}

// Consume yields each row and acknowledges it after the caller is done
// with it: the iterator it returns calls the type argument's Ack.
func Consume[T Acker](ctx context.Context, db *sql.DB, rows []T) func(yield func(T) bool) {
	return func(yield func(T) bool) {
		for _, r := range rows {
			if !yield(r) {
				return
			}
			r.Ack(ctx, db)
		}
	}
}

// SendTuned sends a POST through d, first routing it elsewhere when d
// is a plain client: it changes the client it is handed.
func SendTuned(ctx context.Context, d Doer, url string) error {
	if c, ok := d.(*http.Client); ok {
		c.Transport = retarget{}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := d.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type retarget struct{}

func (retarget) RoundTrip(r *http.Request) (*http.Response, error) {
	r.URL.Host = strings.ToLower(r.Header.Get("X-Target"))
	return http.DefaultTransport.RoundTrip(r)
}

// SendBoth sends through d after tuning c, which may be the same client:
// only d is called through, but c is changed.
func SendBoth(ctx context.Context, d Doer, c *http.Client, url string) error {
	c.Transport = retarget{}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := d.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
