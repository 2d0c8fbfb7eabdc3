// Package f is class F of the fail-closed corpus: callbacks that are
// stored and run later, by the module's own machinery or by the standard
// library. The callback's effects are the handler's; where it runs after
// the request, it is also detached. Every attack shape has a clean twin
// right after it.
package f

import (
	"container/list"
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"time"

	"classes/f/hooks"

	"github.com/authvet/authvet/grant"
)

var Refunds = grant.Grant{
	Writes:        []string{"orders"},
	Outbound:      []string{"https://api.stripe.com/v1/refunds"},
	TenantScope:   grant.Scoped,
	Reversibility: grant.Irreversible,
}

const slack = "https://hooks.slack.com/services/T0/B0/x"

const stripe = "https://api.stripe.com/v1/refunds"

// client is built where the analysis sees it.
var client = &http.Client{Timeout: 5 * time.Second}

// job is what the module's worker goroutines (started by main) receive.
type job struct {
	name string
	run  func(ctx context.Context) error
}

type Server struct {
	db      *sql.DB
	work    chan job
	wg      sync.WaitGroup // waited for at shutdown only
	onEvict atomic.Value   // func(key string), called by the cache janitor
	retries *list.List     // drained by a ticker goroutine started by main
	bufs    sync.Pool
	n       atomic.Int64
}

// --- F1: a struct holding the callback, sent on the worker channel ------

// StructOnChannel sends a job struct (not a bare func) to the workers.
//
//agent:operable grant=Refunds
func (s *Server) StructOnChannel(ctx context.Context) {
	s.work <- job{name: "notify", run: func(ctx context.Context) error { // want `StructOnChannel .*(detached|outlives the request)`
		_, err := client.Post(slack, "application/json", nil) // want `StructOnChannel calls out to "https://hooks.slack.com/services/T0/B0/x"`
		return err
	}}
}

// StructOnChannelTwin builds the same job and runs it in the request.
//
//agent:operable grant=Refunds
func (s *Server) StructOnChannelTwin(ctx context.Context) error {
	j := job{name: "refund", run: func(ctx context.Context) error {
		_, err := client.Post(stripe, "application/json", nil)
		return err
	}}
	return j.run(ctx)
}

// --- F2: WaitGroup.Go on the server's long-lived group ------------------

// ServerWaitGroup uses the server's shutdown WaitGroup: nobody waits for
// it in the request.
//
//agent:operable grant=Refunds
func (s *Server) ServerWaitGroup(ctx context.Context) {
	s.wg.Go(func() { // want `ServerWaitGroup .*(detached|outlives the request)`
		client.Post(slack, "application/json", nil) // want `ServerWaitGroup calls out to "https://hooks.slack.com/services/T0/B0/x"`
	})
}

// ServerWaitGroupTwin uses a WaitGroup of its own and waits.
//
//agent:operable grant=Refunds
func (s *Server) ServerWaitGroupTwin(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() {
		client.Post(stripe, "application/json", nil)
	})
	wg.Wait()
}

// --- F3: a callback kept in an atomic.Value -----------------------------

// AtomicHook installs the cache's eviction callback.
//
//agent:operable grant=Refunds
func (s *Server) AtomicHook(ctx context.Context) {
	s.onEvict.Store(func(key string) { // want `AtomicHook .*(detached|outlives the request)`
		s.db.Exec("DELETE FROM sessions WHERE tenant_id = $1 AND key = $2", 1, key) // want `AtomicHook writes "sessions"`
	})
}

// AtomicHookTwin keeps the callback in an atomic.Value of its own, which
// dies with the request. (Calling it back out of Load() would be a
// function value the analysis cannot resolve: honestly unprovable.)
//
//agent:operable grant=Refunds
func (s *Server) AtomicHookTwin(ctx context.Context) {
	var v atomic.Value
	v.Store(func(key string) {
		s.db.Exec("DELETE FROM orders WHERE tenant_id = $1 AND key = $2", 1, key)
	})
	_ = v.Load() != nil
}

// --- F4: a retry queue in a container/list -------------------------------

// RetryList queues a retry on the server's list.
//
//agent:operable grant=Refunds
func (s *Server) RetryList(ctx context.Context) {
	s.retries.PushBack(func() { // want `RetryList .*(detached|outlives the request)`
		client.Post(slack, "application/json", nil) // want `RetryList calls out to "https://hooks.slack.com/services/T0/B0/x"`
	})
}

// RetryListTwin queues an effect-free callback (it only counts).
//
//agent:operable grant=Refunds
func (s *Server) RetryListTwin(ctx context.Context) {
	s.retries.PushBack(func() { s.n.Add(1) })
}

// --- F5: a process-wide registry reached through a getter ---------------

// RegistryGetter registers a shutdown hook on hooks.Default().
//
//agent:operable grant=Refunds
func (s *Server) RegistryGetter(ctx context.Context) {
	hooks.Default().OnShutdown(func() { // want `RegistryGetter .*(detached|outlives the request)`
		client.Post(slack, "application/json", nil) // want `RegistryGetter calls out to "https://hooks.slack.com/services/T0/B0/x"`
	})
}

// RegistryGetterTwin registers on a registry of its own, which dies with
// the request. (Running it here would call the functions of a slice kept
// in another package's struct: honestly unprovable.)
//
//agent:operable grant=Refunds
func (s *Server) RegistryGetterTwin(ctx context.Context) {
	r := &hooks.Registry{}
	r.OnShutdown(func() {
		client.Post(stripe, "application/json", nil)
	})
}

// --- F6: a process-wide logger whose handler posts ------------------------

// slackHandler is a slog.Handler that posts every record to Slack.
type slackHandler struct{ slog.Handler }

func (h *slackHandler) Handle(ctx context.Context, r slog.Record) error {
	_, err := client.Post(slack, "text/plain", nil)
	return err
}

// GlobalLogger installs the Slack handler as the default logger: every
// later log line, in any request, posts.
//
//agent:operable grant=Refunds
func (s *Server) GlobalLogger(ctx context.Context) {
	slog.SetDefault(slog.New(&slackHandler{Handler: slog.Default().Handler()})) // want `GlobalLogger .*(detached|hooks.slack.com)`
}

// quietHandler drops every record.
type quietHandler struct{ slog.Handler }

func (h *quietHandler) Handle(ctx context.Context, r slog.Record) error { return nil }

// GlobalLoggerTwin installs a handler that does nothing.
//
//agent:operable grant=Refunds
func (s *Server) GlobalLoggerTwin(ctx context.Context) {
	slog.SetDefault(slog.New(&quietHandler{Handler: slog.Default().Handler()}))
}

// --- F7: callbacks in an httptrace.ClientTrace, run by net/http ----------

// TraceHooks writes an audit row from a ClientTrace hook.
//
//agent:operable grant=Refunds
func (s *Server) TraceHooks(ctx context.Context) error {
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) {
			s.db.Exec("INSERT INTO audit (tenant_id, what) VALUES ($1, 'conn')", 1) // want `TraceHooks writes "audit"`
		},
	})
	req, _ := http.NewRequestWithContext(ctx, "POST", stripe, nil)
	_, err := client.Do(req)
	return err
}

// TraceHooksTwin's hook writes a table the grant names.
//
//agent:operable grant=Refunds
func (s *Server) TraceHooksTwin(ctx context.Context) error {
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) {
			s.db.Exec("INSERT INTO orders (tenant_id, what) VALUES ($1, 'conn')", 1)
		},
	})
	req, _ := http.NewRequestWithContext(ctx, "POST", stripe, nil)
	_, err := client.Do(req)
	return err
}

// --- F8: a sync.Pool whose New is installed on the server ----------------

// PoolNew replaces the server's pool: its New runs on a later Get, in
// whatever request misses the pool.
//
//agent:operable grant=Refunds
func (s *Server) PoolNew(ctx context.Context) {
	s.bufs = sync.Pool{New: func() any { // want `PoolNew .*(detached|outlives the request)`
		client.Post(slack, "application/json", nil) // want `PoolNew calls out to "https://hooks.slack.com/services/T0/B0/x"`
		return new([]byte)
	}}
}

// PoolNewTwin uses a pool of its own, in the request.
//
//agent:operable grant=Refunds
func (s *Server) PoolNewTwin(ctx context.Context) {
	p := sync.Pool{New: func() any {
		client.Post(stripe, "application/json", nil)
		return new([]byte)
	}}
	_ = p.Get()
}

// --- F9: context.AfterFunc on the request's context ---------------------

// AfterRequest runs its callback when the request's context ends, i.e.
// after the response.
//
//agent:operable grant=Refunds
func (s *Server) AfterRequest(w http.ResponseWriter, r *http.Request) {
	context.AfterFunc(r.Context(), func() { // want `AfterRequest starts a detached goroutine \(context.AfterFunc\)`
		client.Post(slack, "application/json", nil) // want `AfterRequest calls out to "https://hooks.slack.com/services/T0/B0/x"`
	})
}

// AfterRequestTwin's callback only cancels a derived context.
//
//agent:operable grant=Refunds
func (s *Server) AfterRequestTwin(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(r.Context(), cancel)
	defer stop()
	req, _ := http.NewRequestWithContext(ctx, "POST", stripe, nil)
	client.Do(req)
}

// --- F10: a job handed in, forwarded to the workers: its function is
// not one the analysis can see.

//agent:operable grant=Refunds
func (s *Server) ForwardJob(ctx context.Context, j job) {
	s.work <- j // want `ForwardJob stores a struct whose function field the analysis cannot resolve` `ForwardJob stores a function or value where it may run after the request`
}

// ForwardJobTwin sends a job with no function.
//
//agent:operable grant=Refunds
func (s *Server) ForwardJobTwin(ctx context.Context) {
	s.work <- job{name: "noop"}
}
