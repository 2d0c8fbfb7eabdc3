// Package bgo runs best-effort work on its own goroutine, detached from
// the caller's cancellation, and logs a panic instead of crashing.
package bgo

import (
	"context"
	"log/slog"
)

// Go runs fn on a goroutine of its own.
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

// Run runs fn on the caller's goroutine, logging a panic.
func Run(ctx context.Context, name string, fn func(context.Context)) {
	defer func() {
		if p := recover(); p != nil {
			slog.Error("task panicked", "task", name, "panic", p)
		}
	}()
	fn(ctx)
}
