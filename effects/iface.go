package effects

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// benignInterfaces are standard interfaces whose implementations are, in
// practice, effect-free from an agent's point of view: a call through
// them is not an unprovable site. Keys are "pkgpath.Name"; a key ending
// in ".*" covers the whole package.
var benignInterfaces = map[string]bool{
	"io.*":                    true,
	"net/http.ResponseWriter": true,
	"net/http.Flusher":        true,
	"context.Context":         true,
	"error":                   true,
	"fmt.Stringer":            true,
	"fmt.State":               true,
	"sort.Interface":          true,
	"hash.Hash":               true,
	"hash.Hash32":             true,
	"hash.Hash64":             true,
	"encoding/json.Marshaler": true,
	"database/sql.Result":     true,
	// driver.Valuer converts an argument to a driver value; its
	// implementations are conversions, not the effect sinks the rest of
	// database/sql/driver is.
	"database/sql/driver.Valuer": true,
	// Result readers of modelled libraries: reading is not an effect.
	"github.com/jackc/pgx/v5.Rows":           true,
	"github.com/jackc/pgx/v5.Row":            true,
	"github.com/jackc/pgx/v5.BatchResults":   true,
	"github.com/jackc/pgx/v5.CopyFromSource": true,
	"log/slog.LogValuer":                     true,
	"encoding.TextMarshaler":                 true,
	"encoding.TextUnmarshaler":               true,
	// A web framework's request context reads the request and writes the
	// response, like http.ResponseWriter.
	"github.com/labstack/echo/v4.Context": true,
	// The frameworks' and loggers' own interfaces: response writers and
	// log sinks, not effect sinks.
	"github.com/labstack/echo/v4.Logger":      true,
	"github.com/gin-gonic/gin.ResponseWriter": true,
	"go.uber.org/zap/zapcore.Core":            true,
	"go.uber.org/zap/zapcore.ObjectEncoder":   true,
	"go.uber.org/zap/zapcore.ArrayEncoder":    true,
	"github.com/go-logr/logr.LogSink":         true,
	"log/slog.Handler":                        true,
	"io/fs.*":                                 true,
}

// sinkInterfaces are never benign: their implementations are effect
// sinks, so a call through them counts even inside a dependency.
var sinkInterfaces = []string{
	"database/sql/driver.",
	"net/http.RoundTripper",
	"github.com/jackc/pgx/v5.Tx",
}

// ifaceModels model calls through interfaces whose methods are sinks.
// Arguments are indexed with the receiver first, as for static calls.
var ifaceModels = map[string]model{}

func init() {
	ifaceModels["net/http.RoundTripper.RoundTrip"] = func(e *Engine, c *callSite) { e.sendRequest(c.args[1], c) }
}

func isSinkInterface(name string) bool {
	for _, s := range sinkInterfaces {
		if name == s || (strings.HasSuffix(s, ".") && strings.HasPrefix(name, s)) {
			return true
		}
	}
	return false
}

func (e *Engine) isBenign(name string) bool {
	if name == "" {
		return false
	}
	if benignInterfaces[name] || e.Opts.Benign[name] {
		return true
	}
	if i := strings.LastIndex(name, "."); i > 0 && benignInterfaces[name[:i]+".*"] {
		return true
	}
	return false
}

// invoke handles a call through an interface method.
func (e *Engine) invoke(c *ssa.CallCommon, pos token.Pos, fr *frame, out *collector) {
	m := c.Method
	decl := ""
	if recv := m.Signature().Recv(); recv != nil {
		decl = qualifiedName(recv.Type())
	}
	if m.Pkg() == nil && m.Name() == "Error" {
		return // the universe error interface
	}
	static := qualifiedName(c.Value.Type())
	args := append([]ssa.Value{c.Value}, c.Args...)
	for _, name := range []string{decl, static} {
		if md, ok := ifaceModels[name+"."+m.Name()]; ok && name != "" {
			md(e, &callSite{fn: m, args: args, pos: pos, fr: fr, out: out})
			return
		}
	}
	if m.Pkg() != nil && isModelled(m.Pkg().Path()) && !isSinkInterface(decl) {
		return // a modelled library's own interfaces (pgx.Rows, ...)
	}
	if e.Contract != nil {
		if ct := e.Contract(m); ct != nil {
			ct.bounded(e, pos, out)
			return
		}
	}
	sink := (isSinkInterface(decl) || isSinkInterface(static)) && !e.isBenign(decl)
	if !sink && (e.isBenign(decl) || e.isBenign(static)) {
		return
	}
	if e.devirtualize(c, pos, fr, out) {
		return
	}
	iface := static
	if iface == "" {
		iface = decl
	}
	if iface == "" {
		iface = types.TypeString(c.Value.Type(), func(p *types.Package) string { return p.Name() })
	}
	reason := fmt.Sprintf("calls %s through the interface %s, which the analysis cannot resolve to analysable bodies", m.Name(), shortName(iface))
	// On a parameter of the function being summarised, the caller may
	// know the concrete value: resolve it at each call.
	if p, ok := c.Value.(*ssa.Parameter); ok && (fr.root || fr.retParams) && fr.args == nil {
		if idx := paramIndex(fr.fn, p); idx >= 0 {
			if fr.retParams {
				idx += retBase
			}
			out.addPending(Pending{Op: OpCallMethod, Param: idx, Name: m.Name(), Reason: reason, Sink: sink, Pos: e.pos(pos), Module: e.Module})
			return
		}
	}
	out.add(e.dynamic(pos, sink, reason, dynamicFix))
}

// dynamicFix is the fix of an unresolved call through an interface.
const dynamicFix = "declare the statement with //agent:effect, add an effect contract to the interface method, or list the interface in benign_interfaces"

// callMethodOn calls method name on the concrete values v may hold, when
// the analysis sees them all; it reports whether it did.
func (e *Engine) callMethodOn(v ssa.Value, fr *frame, name string, pos token.Pos, out *collector) bool {
	var ts []target
	if e.Prog == nil || !e.concretes(v, fr, 0, &ts) || len(ts) == 0 || len(ts) > maxTargets {
		return false
	}
	fns := make([]*ssa.Function, len(ts))
	for i, t := range ts {
		if t.std {
			continue // the standard library's: modelled effect-free
		}
		ms := e.Prog.MethodSets.MethodSet(t.x.Type())
		for j := 0; j < ms.Len(); j++ {
			if ms.At(j).Obj().Name() == name {
				fns[i] = e.Prog.MethodValue(ms.At(j))
			}
		}
		if fns[i] == nil {
			return false
		}
	}
	for i, fn := range fns {
		if fn != nil {
			e.callBound(fn, []binding{{ts[i].x, ts[i].fr}}, pos, fr, out)
		}
	}
	return true
}

// shortName shortens "example.com/shop/store.Store" to "store.Store".
func shortName(qualified string) string {
	if i := strings.LastIndex(qualified, "/"); i >= 0 {
		return qualified[i+1:]
	}
	return qualified
}
