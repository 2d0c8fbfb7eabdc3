// Package adapt adapts functions to handlers and wraps handlers. It
// reaches no sink of its own: what the handlers it returns call is the
// caller's.
package adapt

import (
	"context"
	"net/http"
)

// Query adapts f to an http.Handler.
func Query[In, Out any](f func(context.Context, In) (Out, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in In
		_, _ = f(r.Context(), in)
	})
}

// Logger wraps next.
func Logger(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r)
	})
}
