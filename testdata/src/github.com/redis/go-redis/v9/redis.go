// Package redis is a stub of github.com/redis/go-redis/v9: the client,
// its commands through cmdable, and scripts, with the real signatures.
package redis

import "context"

type Cmder interface{ Err() error }

type Cmd struct{ err error }

func (c *Cmd) Err() error { return c.err }

type IntCmd struct{ err error }

func (c *IntCmd) Err() error { return c.err }

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}

func (c cmdable) EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}

func (c cmdable) Incr(ctx context.Context, key string) *IntCmd { return &IntCmd{} }

func (c cmdable) Do(ctx context.Context, args ...interface{}) *Cmd {
	cmd := NewCmd(ctx, args...)
	_ = c(ctx, cmd)
	return cmd
}

// NewCmd builds a command by hand.
func NewCmd(ctx context.Context, args ...interface{}) *Cmd { return &Cmd{} }

// Process runs a command built by hand.
func (c *Client) Process(ctx context.Context, cmd Cmder) error { return cmd.Err() }

// Client is a Redis client.
type Client struct{ cmdable }

func NewClient(opt *Options) *Client { return &Client{} }

type Options struct{ Addr string }

// Scripter is what a Script runs on.
type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
}

// Script is a Lua script.
type Script struct{ src, hash string }

func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return c.EvalSha(ctx, s.hash, keys, args...)
}

// DialHook, ProcessHook and Hook are the client's hooks: the client
// keeps a hook and calls what its methods return around each dial and
// command.
type (
	DialHook            func(ctx context.Context, network, addr string) (interface{}, error)
	ProcessHook         func(ctx context.Context, cmd Cmder) error
	ProcessPipelineHook func(ctx context.Context, cmds []Cmder) error
)

type Hook interface {
	DialHook(next DialHook) DialHook
	ProcessHook(next ProcessHook) ProcessHook
	ProcessPipelineHook(next ProcessPipelineHook) ProcessPipelineHook
}

var hooks []Hook

func (c *Client) AddHook(hook Hook) { hooks = append(hooks, hook) }
