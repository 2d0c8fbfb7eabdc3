package platform

import (
	"context"
	"log/slog"
)

// Go runs fn on a goroutine of its own, detached from the caller's
// cancellation, logging a panic instead of crashing.
func Go(ctx context.Context, name string, fn func(context.Context)) {
	ctx = context.WithoutCancel(ctx)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				slog.Error("background task panicked", "task", name, "panic", p)
			}
		}()
		fn(ctx)
	}()
}
