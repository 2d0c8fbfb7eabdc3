package effects

import (
	"go/token"
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
	// A script runs the commands its text names: read where the text is
	// constant (Eval's, or NewScript's behind a *Script); a script by
	// SHA or a function by name is out of sight.
	for _, f := range []string{"Eval", "EvalSha", "EvalRO", "EvalShaRO", "FCall", "FCallRO"} {
		m := redisScript
		if f == "Eval" || f == "EvalRO" {
			m = redisEval(redisScript, func(c *callSite) (Str, bool) {
				return c.str(arg(p+".cmdable."+f+".script"), handleString), true
			})
		}
		l.Models[p+".cmdable."+f] = m
		for _, i := range []string{"Cmdable", "ScriptingFunctionsCmdable"} {
			m := redisScript
			if f == "Eval" || f == "EvalRO" {
				key := p + "." + i + "." + f + ".script"
				m = redisEval(redisScript, func(c *callSite) (Str, bool) { return c.str(arg(key), handleString), true })
			}
			l.IfaceModels[p+"."+i+"."+f] = m
		}
	}
	for _, f := range []string{"Run", "RunRO", "Eval", "EvalRO", "EvalSha", "EvalShaRO"} {
		l.Models[p+".Script."+f] = redisEval(redisScript, func(c *callSite) (Str, bool) {
			v, fr, ok := c.value(0)
			if !ok {
				return Str{}, false
			}
			return c.e.redisScriptSrc(v, fr, 0)
		})
	}
	return l
}

// redisScriptSrc traces a *redis.Script to the source NewScript was
// handed: made here, or kept in a package variable its declaration sets.
func (e *Engine) redisScriptSrc(v ssa.Value, fr *frame, depth int) (Str, bool) {
	if depth > 4 {
		return Str{}, false
	}
	switch v := v.(type) {
	case *ssa.Call:
		switch staticKey(v.Call) {
		case redisPath + ".NewScript", redisPath + ".NewScriptServerSHA":
			return e.trace(v.Call.Args[arg(redisPath+".NewScript.src")], fr, handleString), true
		}
	case *ssa.UnOp:
		g, ok := v.X.(*ssa.Global)
		if !ok || v.Op != token.MUL || g.Pkg == nil {
			return Str{}, false
		}
		if val, ok := e.InitGlobals[g]; ok {
			if init := g.Pkg.Func("init"); init != nil {
				return e.redisScriptSrc(val, &frame{fn: init, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, depth+1)
			}
		}
	}
	return Str{}, false
}

// redisEval runs a script whose text src reads: one that only runs
// commands by constant names, none of them a queue command or a
// configured sink, is the cache's business; any other is what
// otherwise does with it (unprovable).
func redisEval(otherwise model, src func(*callSite) (Str, bool)) model {
	return func(c *callSite) {
		text, ok := src(c)
		ts := text.texts()
		if ok && len(ts) == 1 && ts[0].Complete {
			cmds, known := luaRedisCommands(ts[0].Text)
			if !known {
				c.unprovable("runs a Redis script that names a command the analysis cannot read",
					"call the command's own method, or declare the statement with //agent:effect")
				return
			}
			sinks := c.e.redisSinks()
			for _, cmd := range cmds {
				if slices.ContainsFunc(redisQueueCommands, func(q string) bool { return strings.EqualFold(q, cmd) }) ||
					slices.ContainsFunc(sinks, func(s string) bool { return strings.EqualFold(s, cmd) }) {
					c.unprovable("runs a Redis script that runs "+strings.ToUpper(cmd)+", which may hand work to another service through its key",
						"call the command's own method, or declare the statement with //agent:effect")
					return
				}
			}
			c.handOffArgs(1)
			return
		}
		if len(c.e.redisSinks()) == 0 {
			c.unprovable("runs a Redis script whose text the analysis cannot read, which may run any command",
				"pass the script as a constant (redis.NewScript(\"...\") or Eval's text), or declare the statement with //agent:effect")
			return
		}
		otherwise(c)
	}
}

// luaRedisCommands returns the commands a Lua script runs through
// redis.call and redis.pcall, and false if one is not named by a string
// literal.
func luaRedisCommands(src string) ([]string, bool) {
	var out []string
	rest := src
	for {
		i := strings.Index(rest, "redis.")
		if i < 0 {
			return out, true
		}
		rest = rest[i+len("redis."):]
		var ok bool
		if rest, ok = strings.CutPrefix(rest, "pcall"); !ok {
			if rest, ok = strings.CutPrefix(rest, "call"); !ok {
				continue
			}
		}
		rest = strings.TrimLeft(rest, " \t\r\n")
		if rest, ok = strings.CutPrefix(rest, "("); !ok {
			return nil, false // redis.call passed around as a value
		}
		rest = strings.TrimLeft(rest, " \t\r\n")
		if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
			return nil, false // a command named by a variable
		}
		q := rest[0]
		end := strings.IndexByte(rest[1:], q)
		if end < 0 {
			return nil, false
		}
		out = append(out, rest[1:1+end])
		rest = rest[1+end:]
	}
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

// redisDo is Do(ctx, args...): a command by name, args at argsAt. Do is
// no way around the models: a queue command (LPUSH, PUBLISH, XADD, ...)
// is what its own method is, a configured one is unprovable (the
// configuration names the method), and a command the analysis cannot
// name may be either. Any other constant command is the cache's
// business.
func redisDo(argsAt int) model {
	return func(c *callSite) {
		cmd := ""
		if v, _, ok := c.value(argsAt); ok {
			if els := sliceElems(v); len(els) > 0 {
				cmd = c.e.redisCmdName(els[0], c.fr)
			}
		}
		c.redisCommand(cmd, "Do")
	}
}

// redisCmdName is the constant command name v traces to, or "".
func (e *Engine) redisCmdName(v ssa.Value, fr *frame) string {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if ts := e.trace(v, fr, handleString).texts(); len(ts) == 1 && ts[0].Complete {
		return ts[0].Text
	}
	return ""
}

// redisCommand judges running the command cmd ("" when it cannot be
// named) through the generic entry point via (Do, Process).
func (c *callSite) redisCommand(cmd, via string) {
	fix := "call the command's own method, or declare the statement with //agent:effect"
	if cmd == "" {
		c.unprovable("runs a Redis command through "+via+" whose name the analysis cannot read, which may hand work to another service", fix)
		return
	}
	sinks := c.e.redisSinks()
	for _, s := range sinks {
		if strings.EqualFold(cmd, s) {
			c.unprovable("runs Redis "+strings.ToUpper(cmd)+" through "+via+" while it is configured as a sink ("+strings.Join(sinks, ", ")+")", fix)
			return
		}
	}
	for _, q := range redisQueueCommands {
		if strings.EqualFold(cmd, q) {
			if len(sinks) > 0 {
				c.unprovable("runs Redis "+strings.ToUpper(cmd)+" through "+via+" while commands are configured as sinks ("+strings.Join(sinks, ", ")+")", fix)
				return
			}
			redisQueue(q)(c)
			return
		}
	}
	c.handOffArgs(1) // the receiver is the library's own plumbing
}

// redisProcess is Process(ctx, cmd): a command built by hand
// (redis.NewCmd(ctx, "publish", ...)), judged by its name where the
// analysis sees it built.
func redisProcess(c *callSite) {
	cmd := ""
	if v, fr, ok := c.value(arg(redisPath + ".Client.Process.cmd")); ok {
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
		}
		if call, ok := v.(*ssa.Call); ok && len(call.Call.Args) >= 2 {
			if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg.Path() == redisPath &&
				strings.HasPrefix(callee.Name(), "New") && strings.HasSuffix(callee.Name(), "Cmd") {
				if els := sliceElems(call.Call.Args[len(call.Call.Args)-1]); len(els) > 0 {
					cmd = c.e.redisCmdName(els[0], fr)
				}
			}
		}
	}
	c.redisCommand(cmd, "Process")
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
