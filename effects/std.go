package effects

import (
	"go/constant"
	"go/types"
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
	// Reflection calls a body the analysis cannot see.
	for _, name := range []string{"Call", "CallSlice"} {
		models["reflect.Value."+name] = func(e *Engine, c *callSite) {
			c.out.add(e.dynamic(c.pos, false, "calls a function through reflection (reflect.Value."+c.fn.Name()+")",
				"call the function directly, or declare the statement with //agent:effect"))
		}
	}
}

// modelledModules are the libraries authvet models rather than analyses:
// calls into them outside the sink tables are effect-free (their
// callbacks still count at the call), as for the standard library. Their
// internals (connection pools, argument conversion, schema parsing) are
// not the handler's effects.
var modelledModules = []string{
	"github.com/jackc/pgx/v5",
	"github.com/jmoiron/sqlx",
	"gorm.io/gorm",
	"github.com/riverqueue/river",
	"github.com/hibiken/asynq",
	"golang.org/x/sync/errgroup",
}

// isModelled reports whether path is a package of a modelled library.
func isModelled(path string) bool {
	for _, m := range modelledModules {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// handleTypes are the types whose values reach effect sinks: a function
// the analysis cannot read that is handed one may do anything with it.
var handleTypes = map[string]bool{
	"database/sql.DB": true, "database/sql.Tx": true, "database/sql.Conn": true, "database/sql.Stmt": true,
	"net/http.Client": true, "net/http.Request": true, "net/http.RoundTripper": true, "net/http.Transport": true,
	pgxPath + ".Conn": true, pgxPath + ".Tx": true, pgxpoolPath + ".Pool": true, pgxpoolPath + ".Conn": true,
	sqlxPath + ".DB": true, sqlxPath + ".Tx": true, gormPath + ".DB": true,
	riverPath + ".Client": true, asynqPath + ".Client": true,
}

func isHandle(t types.Type) bool { return handleTypes[qualifiedName(t)] }

// InitGlobals finds the package-level variables of pkg that only their
// declaration sets (one store, in the package initializer, and no other
// use than reads), with the value stored: they read like constants.
func InitGlobals(pkg *ssa.Package, fns []*ssa.Function) map[*ssa.Global]ssa.Value {
	values := map[*ssa.Global]ssa.Value{}
	bad := map[*ssa.Global]bool{}
	all := append([]*ssa.Function(nil), fns...)
	if init := pkg.Func("init"); init != nil {
		all = append(all, init)
	}
	eachInstr(all, func(fn *ssa.Function, instr ssa.Instruction) {
		var ops [8]*ssa.Value
		for _, op := range instr.Operands(ops[:0]) {
			g, ok := (*op).(*ssa.Global)
			if !ok || g.Pkg != pkg {
				continue
			}
			switch instr := instr.(type) {
			case *ssa.UnOp: // a read
			case *ssa.Store:
				_, done := values[g]
				if fn.Name() != "init" || fn.Parent() != nil || done || instr.Addr != g {
					bad[g] = true
					continue
				}
				values[g] = instr.Val
			default: // its address escapes
				bad[g] = true
			}
		}
	})
	for g := range bad {
		delete(values, g)
	}
	return values
}

// ConstGlobals selects, from InitGlobals, the string variables set to a
// constant.
func ConstGlobals(init map[*ssa.Global]ssa.Value) map[*types.Var]string {
	out := map[*types.Var]string{}
	for g, v := range init {
		c, ok := v.(*ssa.Const)
		if obj, isVar := g.Object().(*types.Var); isVar && ok && c.Value != nil && c.Value.Kind() == constant.String {
			out[obj] = constant.StringVal(c.Value)
		}
	}
	return out
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
		// The goroutine is the standard library's: like a goroutine in a
		// dependency, it is detached when its work has any effect or
		// unprovable site (a CancelFunc or a log line is not).
		if len(sub.effects)+len(sub.pending) > 0 {
			c.out.add(Effect{Kind: Detached, Reason: "starts a detached goroutine (" + c.fn.Pkg().Name() + "." + c.fn.Name() + ")",
				Pos: e.pos(c.pos), Module: e.Module})
		}
		c.out.merge(sub)
	}
}

// stringModels evaluate library calls that build strings.
var stringModels = map[string]func(e *Engine, args []ssa.Value, fr *frame) Str{}

func init() {
	stringModels["fmt.Sprintf"] = sprintfPrefix
	extractStringModels["net/url.JoinPath"] = joinPathPrefix
}

// joinPathPrefix proves url.JoinPath(base, elem...) up to base and a
// path boundary: the elements are unknown, and JoinPath cleans ".."
// segments that could climb above base, so the proved prefix is base/.
func joinPathPrefix(e *Engine, args []ssa.Value, fr *frame) Str {
	if len(args) == 0 {
		return unknownStr()
	}
	ts := e.trace(args[0], fr, handleString).texts()
	if len(ts) != 1 || !ts[0].Complete {
		return unknownStr()
	}
	return concatStr(litStr(strings.TrimSuffix(ts[0].Text, "/")+"/"), unknownStr())
}

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
