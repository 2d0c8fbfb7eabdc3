package redissvc

import (
	"context"
	"database/sql"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
)

// A client hook on the real go-redis: the client keeps the hook and runs
// what ProcessHook returns around every later command, so the closure's
// write outlives the request. A hook that only times commands and hands
// each on does nothing.

type auditHook struct{ db *sql.DB }

func (h auditHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h auditHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if _, err := h.db.ExecContext(ctx, "INSERT INTO audit_log (cmd) VALUES ($1)", cmd.Name()); err != nil {
			return err
		}
		return next(ctx, cmd)
	}
}

func (h auditHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

type timingHook struct{}

func (timingHook) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		return next(ctx, network, addr)
	}
}

func (timingHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		_ = time.Since(start)
		return err
	}
}

func (timingHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

//agent:operable grant=Cache
func (s *Server) AuditedCache(ctx context.Context, db *sql.DB) {
	s.rdb.AddHook(auditHook{db: db}) // want `AuditedCache writes "audit_log"` `AuditedCache stores a function or value where it may run after the request`
}

//agent:operable grant=Cache
func (s *Server) TimedCacheTwin(ctx context.Context) {
	s.rdb.AddHook(timingHook{})
}
