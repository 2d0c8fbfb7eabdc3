// Package kit is a shared tool kit: helpers that make handlers for the
// constructors of another package.
package kit

import (
	"context"
	"database/sql"
	"log"
	"net/http"
)

// Tool is a tool and its handler.
type Tool struct {
	Name    string
	Handler func(ctx context.Context, id string) error
}

// DeleteTool makes a tool whose handler deletes from table.
func DeleteTool(db *sql.DB, name, table string) Tool {
	return Tool{Name: name, Handler: func(ctx context.Context, id string) error {
		_, err := db.ExecContext(ctx, "DELETE FROM "+table+" WHERE tenant_id = $1 AND id = $2", 1, id)
		return err
	}}
}

// Route makes a route whose handler deletes a payout.
func Route(db *sql.DB) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	})
}

// RouteTwin makes a route whose handler deletes a refund.
func RouteTwin(db *sql.DB) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	})
}

// ExecHandler makes a route that runs q, the caller's statement.
func ExecHandler(db *sql.DB, q string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db.ExecContext(r.Context(), q, r.Header.Get("X-Tenant"))
	}
}

// Middleware wraps a handler.
type Middleware func(http.Handler) http.Handler

// Chain wraps h in mws, the first outermost.
func Chain(h http.Handler, mws ...Middleware) http.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

// Log logs each request and calls next.
func Log(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Println(r.URL.Path)
		next.ServeHTTP(w, r)
	})
}

// AuditDB is where Audit writes.
var AuditDB *sql.DB

// Audit is a middleware factory: the handler its product builds writes
// an audit row after the wrapped handler ran.
func Audit(action string) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r)
			AuditDB.ExecContext(r.Context(), "INSERT INTO audit_log (tenant_id, action) VALUES ($1, $2)", 1, action)
		})
	}
}

// RequestID is a middleware factory whose product only sets a header.
func RequestID(prefix string) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Request-ID", prefix+"1")
			next.ServeHTTP(w, r)
		})
	}
}

// Endpoint is a route of a table Mount registers.
type Endpoint struct {
	Pattern string
	Handler http.Handler
}

// Mount registers every endpoint on a new mux.
func Mount(eps []Endpoint) *http.ServeMux {
	mux := http.NewServeMux()
	for _, ep := range eps {
		mux.Handle(ep.Pattern, ep.Handler)
	}
	return mux
}

// Srv serves refunds and payouts.
type Srv struct{ DB *sql.DB }

func (s *Srv) archiveRefund(w http.ResponseWriter, r *http.Request) {
	s.DB.Exec("UPDATE refunds SET archived = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
}

func (s *Srv) archivePayout(w http.ResponseWriter, r *http.Request) {
	s.DB.Exec("UPDATE payouts SET archived = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
}

// RefundMux routes refunds.
func (s *Srv) RefundMux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /refunds/{id}/archive", s.archiveRefund)
	return mux
}

// Mux routes refunds and payouts.
func (s *Srv) Mux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /refunds/{id}/archive", s.archiveRefund)
	mux.HandleFunc("POST /payouts/{id}/archive", s.archivePayout)
	return mux
}

// Store deletes rows.
type Store interface {
	Delete(ctx context.Context, id int64) error
}

// Payouts deletes payouts.
type Payouts struct{ DB *sql.DB }

func (p *Payouts) Delete(ctx context.Context, id int64) error {
	_, err := p.DB.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, id)
	return err
}

// RefundRows deletes refunds.
type RefundRows struct{ DB *sql.DB }

func (p *RefundRows) Delete(ctx context.Context, id int64) error {
	_, err := p.DB.ExecContext(ctx, "DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, id)
	return err
}

// Logging decorates a Store; built by its constructor.
type Logging struct{ inner Store }

// NewLogging wraps inner.
func NewLogging(inner Store) *Logging { return &Logging{inner: inner} }

func (l *Logging) Delete(ctx context.Context, id int64) error {
	log.Println("delete", id)
	return l.inner.Delete(ctx, id)
}

// Audited decorates a Store, by value.
type Audited struct{ Inner Store }

func (a Audited) Delete(ctx context.Context, id int64) error {
	log.Println("audited delete", id)
	return a.Inner.Delete(ctx, id)
}

// DepsTool makes a tool whose handler builds its typed handler from the
// dependencies at call time, as github-mcp-server's NewServerTool does:
// what the handler runs is what the caller's factory returns.
func DepsTool(name string, factory func(deps any) func(ctx context.Context, id string) error) Tool {
	return Tool{Name: name, Handler: func(ctx context.Context, id string) error {
		typed := factory(ctx.Value(depsKey{}))
		return typed(ctx, id)
	}}
}

type depsKey struct{}
