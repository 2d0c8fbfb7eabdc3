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
