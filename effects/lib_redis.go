package effects

import (
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// go-redis (github.com/redis/go-redis/v9): a command reads or writes the
// cache, which is not an effect in authvet's vocabulary (SPEC §4), so
// every call is effect-free, with what it is handed counting at the call
// (a Pipelined or Watch callback runs there). The library is modelled,
// not analysed: its commands all go through one function value
// (cmdable), which would otherwise leave each of them unresolved. A list
// or stream that is a queue (LPush, RPush, XAdd onto a key another
// service consumes) is an effect only where authvet.yaml configures it as
// a sink; a sink may name the method promoted to the client
// ((*redis.Client).LPush) or the interface's (redis.Cmdable.LPush).
const redisPath = "github.com/redis/go-redis/v9"

func redisLibrary() *Library {
	const p = redisPath
	redisScript := redisAny("runs a Redis script, which may run any command,", "declare the statement with //agent:effect")
	redisProcess := redisAny("runs a Redis command built by hand through Process", "call the command's own method, or declare the statement with //agent:effect")
	l := &Library{
		Name:         "go-redis",
		Models:       map[string]model{},
		IfaceModels:  map[string]model{},
		Paths:        []string{p},
		Modelled:     true,
		Safe:         []string{p + ".*"},
		BenignIfaces: []string{p + ".*"},
		// A hook runs on every later command of the client.
		KeepsInRecv: argsAt(p + ".hooksMixin.AddHook.hook"),
	}
	// Commands that put work on a list, a stream or a channel another
	// service may consume: authvet cannot know whether the key is a
	// queue, so each is unprovable until authvet.yaml configures it (as
	// the job, webhook or outbound it is, or as effect: none for a list
	// that is only cache).
	for _, name := range redisQueueCommands {
		l.Models[p+".cmdable."+name] = redisQueue(name)
		for _, i := range []string{"Cmdable", "ListCmdable", "StreamCmdable", "PubSubCmdable", "UniversalClient", "Pipeliner", "StatefulCmdable"} {
			l.IfaceModels[p+"."+i+"."+name] = redisQueue(name)
		}
	}
	for _, r := range []string{"cmdable", "Pipeline"} {
		l.Models[p+"."+r+".Do"] = redisDo(arg(p + "." + r + ".Do.args"))
	}
	for _, i := range []string{"UniversalClient", "Pipeliner"} {
		l.IfaceModels[p+"."+i+".Do"] = redisDo(arg(p + "." + i + ".Do.args"))
	}
	// Process runs a command built by hand (redis.NewIntCmd(ctx,
	// "lpush", ...)): like Do, no way around a configured sink.
	for _, r := range []string{"Client", "Pipeline", "ClusterClient", "Ring", "Conn", "Tx"} {
		l.Models[p+"."+r+".Process"] = redisProcess
	}
	for _, i := range []string{"UniversalClient", "Pipeliner"} {
		l.IfaceModels[p+"."+i+".Process"] = redisProcess
	}
	for _, f := range []string{"Eval", "EvalSha", "EvalRO", "EvalShaRO", "FCall", "FCallRO"} {
		l.Models[p+".cmdable."+f] = redisScript
		l.Models[p+".Script.Run"] = redisScript
		l.Models[p+".Script.RunRO"] = redisScript
		l.IfaceModels[p+".Cmdable."+f] = redisScript
		l.IfaceModels[p+".ScriptingFunctionsCmdable."+f] = redisScript
	}
	return l
}

// redisSinks lists the configured sinks on the library's methods.
func (e *Engine) redisSinks() []string {
	var names []string
	for k := range e.Opts.Sinks {
		if rest, ok := strings.CutPrefix(k, redisPath+"."); ok {
			names = append(names, rest[strings.LastIndex(rest, ".")+1:])
		}
	}
	slices.Sort(names)
	return names
}

// redisDo is Do(ctx, args...): a command by name, args at argsAt. Where a command is
// configured as a sink, Do must not be a way around it: a constant
// command that is not configured is a cache command; any other is
// unprovable.
func redisDo(argsAt int) model {
	return func(c *callSite) {
		sinks := c.e.redisSinks()
		if len(sinks) == 0 {
			c.handOffArgs(1)
			return
		}
		cmd := ""
		if v, _, ok := c.value(argsAt); ok {
			if els := sliceElems(v); len(els) > 0 {
				first := els[0]
				if mi, ok := first.(*ssa.MakeInterface); ok {
					first = mi.X
				}
				if ts := c.e.trace(first, c.fr, handleString).texts(); len(ts) == 1 && ts[0].Complete {
					cmd = ts[0].Text
				}
			}
		}
		for _, s := range sinks {
			if cmd == "" || strings.EqualFold(cmd, s) {
				c.unprovable("runs a Redis command through Do while commands are configured as sinks ("+strings.Join(sinks, ", ")+")",
					"call the command's own method, or declare the statement with //agent:effect")
				return
			}
		}
		c.handOffArgs(1) // the receiver is the library's own plumbing
	}
}

// redisAny is a call that may run any command, a configured one too:
// Eval, EvalSha, EvalRO, FCall (a script), Process (a command built by
// hand, redis.NewIntCmd(ctx, "lpush", ...)). While commands are
// configured as sinks it is unprovable.
func redisAny(what, fix string) model {
	return func(c *callSite) {
		if sinks := c.e.redisSinks(); len(sinks) > 0 {
			c.unprovable(what+" while commands are configured as sinks ("+strings.Join(sinks, ", ")+")", fix)
			return
		}
		c.handOffArgs(1)
	}
}

// redisQueueCommands put work where another service may consume it: a
// push, a publish, or a move or insert into another list.
var redisQueueCommands = []string{"LPush", "LPushX", "RPush", "RPushX", "XAdd", "Publish", "SPublish",
	"LMove", "BLMove", "LMoveM", "BLMoveM", "RPopLPush", "BRPopLPush", "LInsert", "LInsertBefore", "LInsertAfter"}

// redisQueue is a queue-like command nobody configured.
func redisQueue(name string) model {
	return func(c *callSite) {
		c.unprovable("runs Redis "+name+", which may hand work to another service through its key; authvet.yaml does not say what it is",
			"configure "+redisPath+".(*Client)."+name+" under sinks in authvet.yaml (job or webhook with its key as the subject, or effect: none for a cache list)")
	}
}
