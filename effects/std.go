package effects

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// model handles a call to a modelled library function.
type model func(e *Engine, c *callSite)

// models maps FuncKey names to their models. Each library family adds
// its entries in its own file (sql.go, http.go, ...), in init functions,
// since models refer back to the engine that consults this table.
var models = map[string]model{}

func init() {
	// Structured concurrency: the function runs under the request, so
	// its effects are the handler's, and it is not detached.
	models["sync.WaitGroup.Go"] = structured(1)
	models["golang.org/x/sync/errgroup.Group.Go"] = structured(1)
	models["golang.org/x/sync/errgroup.Group.TryGo"] = structured(1)
	// Standard-library ways to start a goroutine.
	models["time.AfterFunc"] = detachedFunc(1)
	models["context.AfterFunc"] = detachedFunc(1)
}

func structured(i int) model {
	return func(e *Engine, c *callSite) {
		if i < len(c.args) {
			e.callArg(c.args[i], c.pos, c.fr, c.out)
		}
	}
}

func detachedFunc(i int) model {
	return func(e *Engine, c *callSite) {
		sub := newCollector()
		if i < len(c.args) {
			e.callArg(c.args[i], c.pos, c.fr, sub)
		}
		c.out.add(Effect{Kind: Detached, Reason: "starts a detached goroutine (" + c.fn.Pkg().Name() + "." + c.fn.Name() + ")",
			Pos: e.pos(c.pos), Module: e.Module, Local: len(sub.effects)+len(sub.pending) == 0})
		c.out.merge(sub)
	}
}

// stringModels evaluate library calls that build strings.
var stringModels = map[string]func(e *Engine, args []ssa.Value, fr *frame) Str{}

func init() { stringModels["fmt.Sprintf"] = sprintfPrefix }

// sprintfPrefix proves the part of a constant format before its first
// verb; the rest is unknown.
func sprintfPrefix(e *Engine, args []ssa.Value, fr *frame) Str {
	if len(args) == 0 {
		return unknownStr()
	}
	// The format may itself be traced (a constant, a Rebind of one); it
	// must come out as one complete text.
	ts := e.trace(args[0], fr, handleString).texts()
	if len(ts) != 1 || !ts[0].Complete {
		return unknownStr()
	}
	format := ts[0].Text
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		return concatStr(litStr(b.String()), unknownStr())
	}
	return litStr(b.String())
}
