// Package queue is an in-house job queue, configured as a sink.
package queue

import "context"

func Enqueue(ctx context.Context, kind string, payload any) error { return nil }
