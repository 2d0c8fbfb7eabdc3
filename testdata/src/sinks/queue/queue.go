// Package queue is an in-house job queue, configured as a sink.
package queue

import "context"

func Enqueue(ctx context.Context, kind string, payload any) error { return nil }

// Start starts a workflow given by name or as a function (Temporal's
// shape): its subject is the name, or the function's name.
func Start(ctx context.Context, workflow any, args ...any) error { return nil }
