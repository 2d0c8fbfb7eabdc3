// Package hooklist is a callback list of another package: Add keeps a
// function, Run calls every kept one.
package hooklist

import "context"

// List keeps functions to run together.
type List struct{ fns []func(context.Context) error }

// Add keeps fn.
func (l *List) Add(fn func(context.Context) error) { l.fns = append(l.fns, fn) }

// Run calls every kept function.
func (l *List) Run(ctx context.Context) error {
	for _, fn := range l.fns {
		if err := fn(ctx); err != nil {
			return err
		}
	}
	return nil
}
