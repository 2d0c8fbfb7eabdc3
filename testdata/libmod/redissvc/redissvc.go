// Package redissvc uses go-redis: cache commands are not effects; a push
// onto a queue key is one where authvet.yaml configures it (libmod's
// authvet.yaml names (*redis.Client).LPush and redis.Cmdable.XAdd).
package redissvc

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/authvet/authvet/grant"
)

var Cache = grant.Grant{Reversibility: grant.Compensable}

var Emails = grant.Grant{
	Webhooks:      []string{"queue:emails"},
	Reversibility: grant.Compensable,
}

type Server struct {
	rdb *redis.Client
	u   redis.UniversalClient
}

// Clean twin: get, set, delete, expire and a pipeline of them.
//
//agent:operable grant=Cache
func (s *Server) Session(ctx context.Context, id string) (string, error) {
	v, err := s.rdb.Get(ctx, "session:"+id).Result()
	if err == redis.Nil {
		b, _ := json.Marshal(map[string]string{"id": id})
		if err := s.rdb.Set(ctx, "session:"+id, b, time.Hour).Err(); err != nil {
			return "", err
		}
		return string(b), nil
	}
	s.rdb.Expire(ctx, "session:"+id, time.Hour)
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "hits")
		p.Del(ctx, "stale:"+id)
		return nil
	})
	return v, err
}

//agent:operable grant=Cache
func (s *Server) Counter(ctx context.Context) (int64, error) {
	return s.u.Incr(ctx, "counter").Result()
}

//agent:operable grant=Emails
func (s *Server) Email(ctx context.Context, to string) error {
	return s.rdb.LPush(ctx, "emails", to).Err()
}

//agent:operable grant=Cache
func (s *Server) EmailFromCache(ctx context.Context, to string) error {
	return s.rdb.LPush(ctx, "emails", to).Err() // want `EmailFromCache dispatches webhook "queue:emails"`
}

//agent:operable grant=Cache
func (s *Server) Audit(ctx context.Context, line string) error {
	return s.u.XAdd(ctx, &redis.XAddArgs{Stream: "audit", Values: map[string]any{"l": line}}).Err() // want `Audit dispatches webhook "queue:audit"`
}

//agent:operable grant=Cache
func (s *Server) Announce(ctx context.Context, msg string) error {
	return s.rdb.Publish(ctx, "news", msg).Err() // want `Announce calls out to "alias:redis-pubsub"`
}

// Do is no way around a configured command.
//
//agent:operable grant=Emails
func (s *Server) RawPush(ctx context.Context, to string) error {
	return s.rdb.Do(ctx, "LPUSH", "emails", to).Err() // want `RawPush runs Redis LPUSH through Do while it is configured as a sink`
}

//agent:operable grant=Cache
func (s *Server) RawGet(ctx context.Context, key string) (string, error) {
	return s.rdb.Do(ctx, "GET", key).Text()
}

//agent:operable grant=Cache
func (s *Server) Script(ctx context.Context, key string) error {
	return s.rdb.Eval(ctx, "return redis.call('LPUSH', KEYS[1], 'x')", []string{key}).Err() // want `Script runs a Redis script`
}

// A push nobody configured may be a queue: unprovable until configured.
//
//agent:operable grant=Cache
func (s *Server) Recent(ctx context.Context, id string) error {
	pipe := s.rdb.TxPipeline()
	pipe.RPush(ctx, "recent", id) // want `Recent runs Redis RPush, which may hand work to another service`
	_, err := pipe.Exec(ctx)
	return err
}

// Moving an item onto another list is a push too; so is a command built
// by hand and run through Process while a command is configured.
//
//agent:operable grant=Cache
func (s *Server) Promote(ctx context.Context) error {
	return s.rdb.LMove(ctx, "pending", "emails", "RIGHT", "LEFT").Err() // want `Promote runs Redis LMove, which may hand work to another service`
}

//agent:operable grant=Cache
func (s *Server) Requeue(ctx context.Context) error {
	return s.rdb.RPopLPush(ctx, "failed", "emails").Err() // want `Requeue runs Redis RPopLPush, which may hand work to another service`
}

//agent:operable grant=Cache
func (s *Server) ProcessPush(ctx context.Context, to string) error {
	return s.rdb.Process(ctx, redis.NewIntCmd(ctx, "lpush", "emails", to)) // want `ProcessPush runs Redis LPUSH through Process while it is configured as a sink`
}

//agent:operable grant=Cache
func (s *Server) ProcessGet(ctx context.Context, key string) error {
	return s.rdb.Process(ctx, redis.NewStringCmd(ctx, "get", key))
}

// A queue command nobody configured, by name, while others are.
//
//agent:operable grant=Cache
func (s *Server) DoRPush(ctx context.Context, id string) error {
	return s.rdb.Do(ctx, "RPUSH", "recent", id).Err() // want `DoRPush runs Redis RPUSH through Do while commands are configured as sinks`
}

//agent:operable grant=Cache
func (s *Server) DoByName(ctx context.Context, args []any) error {
	return s.rdb.Do(ctx, args...).Err() // want `DoByName runs a Redis command through Do whose name the analysis cannot read`
}

//agent:operable grant=Cache
func (s *Server) ProcessTwin(ctx context.Context, key string) error {
	cmd := s.rdb.Get(ctx, key)
	return cmd.Err()
}

// A script runs the commands its text names: a constant one that only
// counts or caches is the cache's business; one that pushes, or names a
// command by a variable, or is out of sight, is not.

var allowN = redis.NewScript(`
local n = redis.call("INCRBY", KEYS[1], ARGV[1])
if n == tonumber(ARGV[1]) then redis.call("EXPIRE", KEYS[1], ARGV[2]) end
return n`)

var relay = redis.NewScript(`return redis.pcall("RPUSH", KEYS[1], ARGV[1])`)

//agent:operable grant=Cache
func (s *Server) RateLimit(ctx context.Context, key string) error {
	return allowN.Run(ctx, s.rdb, []string{key}, 1, 60).Err()
}

//agent:operable grant=Cache
func (s *Server) RateLimitEval(ctx context.Context, key string) error {
	return s.rdb.Eval(ctx, "return redis.call('INCR', KEYS[1])", []string{key}).Err()
}

//agent:operable grant=Cache
func (s *Server) Relay(ctx context.Context, key string) error {
	return relay.Run(ctx, s.rdb, []string{key}, "x").Err() // want `Relay runs a Redis script that runs RPUSH`
}

//agent:operable grant=Cache
func (s *Server) DynamicScript(ctx context.Context, key, cmd string) error {
	return s.rdb.Eval(ctx, "return redis.call(ARGV[1], KEYS[1])", []string{key}, cmd).Err() // want `DynamicScript runs a Redis script that names a command the analysis cannot read`
}

//agent:operable grant=Cache
func (s *Server) BySHA(ctx context.Context, key, sha string) error {
	return s.rdb.EvalSha(ctx, sha, []string{key}).Err() // want `BySHA runs a Redis script`
}
