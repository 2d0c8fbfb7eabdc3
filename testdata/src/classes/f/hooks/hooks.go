// Package hooks is the project's process-wide shutdown registry, owned
// by another team.
package hooks

// Registry keeps functions to run at shutdown.
type Registry struct{ fns []func() }

var defaultRegistry = &Registry{}

// Default returns the process-wide registry.
func Default() *Registry { return defaultRegistry }

// OnShutdown keeps fn; main runs every kept function when the process
// stops, long after the request that registered it.
func (r *Registry) OnShutdown(fn func()) { r.fns = append(r.fns, fn) }

// Run runs the kept functions now.
func (r *Registry) Run() {
	for _, fn := range r.fns {
		fn()
	}
}
