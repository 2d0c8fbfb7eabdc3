// Package redishooks holds a service's shared go-redis hooks, in a
// package of their own: a handler in another package hands them to the
// client.
package redishooks

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
)

// Timing only measures each command and hands it on.
type Timing struct{}

func (Timing) DialHook(next redis.DialHook) redis.DialHook { return next }

func (Timing) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		_ = time.Since(start)
		return err
	}
}

func (Timing) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// Audit writes a row for every command.
type Audit struct{ Pool *pgxpool.Pool }

func (Audit) DialHook(next redis.DialHook) redis.DialHook { return next }

func (a Audit) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if _, err := a.Pool.Exec(ctx, "INSERT INTO audit_log (cmd) VALUES ($1)", 1); err != nil {
			return err
		}
		return next(ctx, cmd)
	}
}

func (Audit) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
