package f

import (
	"bytes"
	"container/list"
	"context"
	"net/http"
	"sync"
	"sync/atomic"

	"classes/f/workers"
)

// Doer is what the server's outbound helpers call.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// --- F11: a value taken back out of a container the program filled ------
// A sync.Pool's Get, an atomic.Value's Load and a list's Remove return what
// some other code put in, not a value the standard library made.

type kept struct {
	doers   sync.Pool    // filled at startup
	current atomic.Value // holds a Doer, swapped by an admin endpoint
	queue   *list.List   // of Doers
	deliver *workers.PoolWithFunc
	bufs    sync.Pool // of *bytes.Buffer
}

var k kept

//agent:operable grant=Refunds
func PooledDoer(ctx context.Context, req *http.Request) {
	k.doers.Get().(Doer).Do(req) // want `PooledDoer calls Do through the interface f.Doer`
}

// PooledDoerTwin takes a concrete buffer out of its pool.
//
//agent:operable grant=Refunds
func PooledDoerTwin(ctx context.Context, req *http.Request) {
	b := k.bufs.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString("ok")
	k.bufs.Put(b)
}

//agent:operable grant=Refunds
func SwappedDoer(ctx context.Context, req *http.Request) {
	k.current.Load().(Doer).Do(req) // want `SwappedDoer calls Do through the interface f.Doer`
}

// SwappedDoerTwin calls a client it built.
//
//agent:operable grant=Refunds
func SwappedDoerTwin(ctx context.Context) {
	var d Doer = client
	req, _ := http.NewRequestWithContext(ctx, "POST", stripe, nil)
	d.Do(req)
}

//agent:operable grant=Refunds
func QueuedDoer(ctx context.Context, req *http.Request) {
	k.queue.Remove(k.queue.Front()).(Doer).Do(req) // want `QueuedDoer calls Do through the interface f.Doer`
}

// QueuedDoerTwin only counts the queue.
//
//agent:operable grant=Refunds
func QueuedDoerTwin(ctx context.Context) int {
	return k.queue.Len()
}

// PoolInvoke runs a function the pool kept at startup, on a worker
// goroutine: the analysis cannot see which function, and it outlives the
// request.
//
//agent:operable grant=Refunds
func PoolInvoke(ctx context.Context, id string) {
	k.deliver.Invoke(id) // want `PoolInvoke calls a function value the analysis cannot resolve` `PoolInvoke starts a detached goroutine`
}

// PoolInvokeTwin posts itself, in the request.
//
//agent:operable grant=Refunds
func PoolInvokeTwin(ctx context.Context, id string) {
	req, _ := http.NewRequestWithContext(ctx, "POST", stripe, nil)
	client.Do(req)
}

// --- F43: closures queued on a channel the handler makes and drains
// itself run inside the request: each is resolved where it is received,
// not detached. A channel that a goroutine drains is.

//agent:operable grant=Refunds
func DrainedQueueTwin(w http.ResponseWriter, r *http.Request) {
	ctx, ids := r.Context(), r.URL.Query()["id"]
	ops := make(chan func(context.Context) error, len(ids))
	for _, id := range ids {
		ops <- func(ctx context.Context) error {
			_, err := client.Do(mustReq(ctx, stripe+"/"+id))
			return err
		}
	}
	close(ops)
	for op := range ops {
		op(ctx)
	}
}

//agent:operable grant=Refunds
func DrainedQueue(w http.ResponseWriter, r *http.Request) {
	ctx, ids := r.Context(), r.URL.Query()["id"]
	ops := make(chan func(context.Context) error, len(ids))
	for range ids {
		ops <- func(ctx context.Context) error {
			_, err := client.Do(mustReq(ctx, slack)) // want `DrainedQueue calls out to "https://hooks.slack.com/services/T0/B0/x"`
			return err
		}
	}
	close(ops)
	for op := range ops {
		op(ctx) // want `DrainedQueue calls out to "https://hooks.slack.com/services/T0/B0/x"`
	}
}

//agent:operable grant=Refunds
func WorkerQueue(w http.ResponseWriter, r *http.Request) {
	ids := r.URL.Query()["id"]
	ops := make(chan func(context.Context) error, len(ids))
	go func() { // want `WorkerQueue starts a detached goroutine`
		for op := range ops {
			op(context.Background()) // want `WorkerQueue calls a function value the analysis cannot resolve`
		}
	}()
	for range ids {
		ops <- func(ctx context.Context) error { return nil }
	}
	close(ops)
}

func mustReq(ctx context.Context, url string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	return req
}

// --- F44: a function looked up in an unexported package map that init
// fills entry by entry: every function stored in it.

var formatters = map[string]func(string) string{}

var notifiers = map[string]func(context.Context, string) error{}

func init() {
	formatters["upper"] = func(s string) string { return s + "!" }
	formatters["plain"] = func(s string) string { return s }
	notifiers["slack"] = func(ctx context.Context, msg string) error {
		_, err := client.Do(mustReq(ctx, slack))
		return err
	}
	notifiers["none"] = func(context.Context, string) error { return nil }
}

//agent:operable grant=Refunds
func FormatByNameTwin(w http.ResponseWriter, r *http.Request) {
	f, ok := formatters[r.URL.Query().Get("style")]
	if !ok {
		f = formatters["plain"]
	}
	w.Write([]byte(f("ok")))
}

//agent:operable grant=Refunds
func NotifyByName(w http.ResponseWriter, r *http.Request) {
	if n, ok := notifiers[r.URL.Query().Get("via")]; ok {
		n(r.Context(), "done") // want `NotifyByName calls out to "https://hooks.slack.com/services/T0/B0/x"`
	}
}

// --- F43b: the same queues drained by a select: what is received is what
// was sent on that channel, in a case or before. A channel a select also
// hands on (sent as a value) is not the function's own.

//agent:operable grant=Refunds
func SelectQueueTwin(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a := make(chan func(context.Context) error, 1)
	b := make(chan func(context.Context) error, 1)
	a <- func(ctx context.Context) error { _, err := client.Do(mustReq(ctx, stripe)); return err }
	select {
	case b <- func(ctx context.Context) error { _, err := client.Do(mustReq(ctx, stripe+"/x")); return err }:
	default:
	}
	select {
	case op := <-a:
		op(ctx)
	case op := <-b:
		op(ctx)
	}
}

//agent:operable grant=Refunds
func SelectQueue(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a := make(chan func(context.Context) error, 1)
	b := make(chan func(context.Context) error, 1)
	a <- func(ctx context.Context) error { _, err := client.Do(mustReq(ctx, stripe)); return err }
	select {
	case b <- func(ctx context.Context) error { _, err := client.Do(mustReq(ctx, slack)); return err }: // want `SelectQueue calls out to "https://hooks.slack.com/services/T0/B0/x"`
	default:
	}
	select {
	case op := <-a:
		op(ctx)
	case op := <-b:
		op(ctx) // want `SelectQueue calls out to "https://hooks.slack.com/services/T0/B0/x"`
	}
}

//agent:operable grant=Refunds
func SelectQueueHandedOn(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a := make(chan func(context.Context) error, 1)
	out := make(chan chan func(context.Context) error, 1)
	a <- func(ctx context.Context) error { _, err := client.Do(mustReq(ctx, stripe)); return err } // want `SelectQueueHandedOn hands a function to code that may run it after the call returns`
	select {
	case out <- a:
	default:
	}
	relay(out) // want `SelectQueueHandedOn hands a function` `SelectQueueHandedOn calls out to "https://hooks.slack.com/services/T0/B0/x"`
	select {
	case op := <-a:
		op(ctx) // want `SelectQueueHandedOn calls a function value the analysis cannot resolve`
	default:
	}
}

func relay(out chan chan func(context.Context) error) {
	ch := <-out
	ch <- func(ctx context.Context) error { _, err := client.Do(mustReq(ctx, slack)); return err }
}

// --- F43c: a closure sent in a select case to a channel a worker drains
// is handed off like one sent by a plain send statement.

var backlog = make(chan func(context.Context) error, 16)

func init() {
	go func() {
		for op := range backlog {
			op(context.Background())
		}
	}()
}

//agent:operable grant=Refunds
func SelectBacklog(w http.ResponseWriter, r *http.Request) {
	select {
	case backlog <- func(ctx context.Context) error { _, err := client.Do(mustReq(ctx, stripe)); return err }: // want `SelectBacklog hands a function to code that may run it after the call returns`
	case <-r.Context().Done():
	}
}
