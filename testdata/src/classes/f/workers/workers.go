// Package workers is a worker pool in the shape of ants' PoolWithFunc:
// the function is kept at construction, and Invoke hands an argument to
// a worker taken from a sync.Pool, whose goroutine calls the kept
// function.
package workers

import "sync"

type worker interface {
	run()
	input(arg any)
}

type common struct{ cache sync.Pool }

// PoolWithFunc runs one function on many arguments.
type PoolWithFunc struct {
	*common
	fn func(any)
}

type funcWorker struct {
	pool *PoolWithFunc
	args chan any
}

func (w *funcWorker) run() {
	go func() {
		for a := range w.args {
			w.pool.fn(a)
		}
	}()
}

func (w *funcWorker) input(a any) { w.args <- a }

// New keeps fn for every later Invoke.
func New(fn func(any)) *PoolWithFunc {
	p := &PoolWithFunc{common: &common{}, fn: fn}
	p.cache.New = func() any { return &funcWorker{pool: p, args: make(chan any, 1)} }
	return p
}

func (c *common) retrieve() worker {
	w := c.cache.Get().(worker)
	w.run()
	return w
}

// Invoke runs the kept function on arg, on a worker goroutine.
func (p *PoolWithFunc) Invoke(arg any) {
	p.retrieve().input(arg)
}
