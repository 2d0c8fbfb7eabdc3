package f

import (
	"context"
	"database/sql"
	"net/http"
	"sync"
	"time"

	"classes/f/auditctx"
)

// --- F40: a context.Context whose methods have an effect (Value audits),
// handed to code that calls them: a helper of another package, the
// standard library (context.WithTimeout's child asks its parent, net/http
// reads trace hooks), a modelled SQL call (database/sql waits on Done).
// Contexts are followed only where such a type is in reach (this
// package's or a dependency's); the twins hand over the request's own.

//agent:operable grant=Refunds
func CtxToHelper(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	ctx := auditctx.With(r.Context(), db)
	w.Write([]byte(auditctx.TenantOf(ctx))) // want `CtxToHelper writes "audit"`
}

//agent:operable grant=Refunds
func CtxToHelperTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	w.Write([]byte(auditctx.TenantOf(auditctx.Tagged(r.Context()))))
}

//agent:operable grant=Refunds
func CtxDerived(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(auditctx.With(r.Context(), db), time.Second) // want `CtxDerived writes "audit"`
	defer cancel()
	db.QueryContext(ctx, "SELECT id FROM orders WHERE tenant_id = $1", "t")
}

//agent:operable grant=Refunds
func CtxDerivedTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(auditctx.Tagged(r.Context()), time.Second)
	defer cancel()
	db.QueryContext(ctx, "SELECT id FROM orders WHERE tenant_id = $1", "t")
}

//agent:operable grant=Refunds
func CtxToRequest(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(auditctx.With(r.Context(), db), "POST", "https://api.stripe.com/v1/refunds", nil) // want `CtxToRequest writes "audit"`
	http.DefaultClient.Do(req)
}

// lookupCtx is this package's own: its Done audits.
type lookupCtx struct {
	context.Context
	db *sql.DB
}

func (l lookupCtx) Done() <-chan struct{} {
	l.db.Exec("INSERT INTO audit (line) VALUES ('wait')")
	return l.Context.Done()
}

//agent:operable grant=Refunds
func CtxToSQL(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	db.QueryContext(lookupCtx{r.Context(), db}, "SELECT id FROM orders WHERE tenant_id = $1", "t") // want `CtxToSQL writes "audit"`
}

//agent:operable grant=Refunds
func CtxToSQLTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	db.QueryContext(r.Context(), "SELECT id FROM orders WHERE tenant_id = $1", "t")
}

//agent:operable grant=Refunds
func CtxInGoroutine(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	ctx := lookupCtx{r.Context(), db}
	var wg sync.WaitGroup
	wg.Go(func() {
		waitFor(ctx) // want `CtxInGoroutine writes "audit"`
	})
	wg.Wait()
}

func waitFor(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

//agent:operable grant=Refunds
func CtxInGoroutineTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var wg sync.WaitGroup
	wg.Go(func() {
		waitFor(ctx)
	})
	wg.Wait()
}
