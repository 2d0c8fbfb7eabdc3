package effects

import (
	"go/constant"
	"go/token"
	"go/types"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/authvet/authvet/effects/internal/sqltext"
)

// The standard library's concurrency, reflection and string builders,
// and the interfaces whose calls are effect-free.
func stdLibrary() *Library {
	l := &Library{
		Name:   "std",
		Models: map[string]model{},
		Runners: map[string]model{
			// Structured concurrency: the function runs under the request,
			// so its effects are the handler's, and it is not detached.
			// On a WaitGroup that outlives the handler (a server's
			// shutdown group), nobody waits for it in the request.
			"sync.WaitGroup.Go": waitGroupGo,
			// Standard-library ways to run a function later.
			"time.AfterFunc":    detachedFunc(arg("time.AfterFunc.f")),
			"context.AfterFunc": detachedFunc(arg("context.AfterFunc.f")),
			// Calls that run functions kept elsewhere.
			"text/template.Template.Execute":         templateExecute(arg("text/template.Template.Execute.data")),
			"text/template.Template.ExecuteTemplate": templateExecute(arg("text/template.Template.ExecuteTemplate.data")),
			"html/template.Template.Execute":         templateExecute(arg("html/template.Template.Execute.data")),
			"html/template.Template.ExecuteTemplate": templateExecute(arg("html/template.Template.ExecuteTemplate.data")),
			"sync.Pool.Get":                          poolGet,
		},
		Strings: map[string]strModel{"fmt.Sprintf": sprintfPrefix, "strings.Join": joinConditions,
			// Leading and trailing white space is no part of a statement.
			"strings.TrimSpace": passThrough(arg("strings.TrimSpace.s")),
			// A URL made here from constants and never changed.
			"net/url.URL.String": urlString},
		// What the packages that take any the most call on it: fmt and
		// log format it (Formatter, Stringer, error), slog also asks for
		// a LogValuer and its JSON handler marshals, encoding/json
		// marshals and unmarshals, runtime calls nothing (KeepAlive,
		// SetFinalizer's object).
		Protocols: map[string][]string{
			"fmt":           {"String", "Error", "GoString", "Format", "Scan"},
			"log":           {"String", "Error", "GoString", "Format"},
			"log/slog":      {"String", "Error", "GoString", "Format", "LogValue", "MarshalJSON", "MarshalText", "AppendText"},
			"encoding/json": {"MarshalJSON", "MarshalText", "AppendText", "UnmarshalJSON", "UnmarshalText"},
			"encoding/xml":  {"MarshalXML", "MarshalXMLAttr", "MarshalText", "UnmarshalXML", "UnmarshalXMLAttr", "UnmarshalText"},
			"encoding/gob":  {"GobEncode", "GobDecode", "MarshalBinary", "UnmarshalBinary"},
			"runtime":       {},
		},
		// What the standard library asks a value for beyond the
		// interface it is handed as: io.Copy and io.WriteString look for
		// WriterTo, ReaderFrom and StringWriter; errors.Is, As and Unwrap,
		// and fmt's %v of an error, look for Is, As, Unwrap and Format.
		Optional: map[string][]string{
			"Write": {"WriteString", "ReadFrom"},
			"Read":  {"WriteTo"},
			"Error": {"Is", "As", "Unwrap", "Format"},
		},
		Extracts: map[string]strModel{"net/url.JoinPath": joinPathPrefix},
		// Calls that keep what they are handed and run it after they
		// return (the argument named; every one for sync.Map's).
		Retains: argsAt("runtime.SetFinalizer.finalizer", "runtime.AddCleanup.cleanup", "net/http.Server.RegisterOnShutdown.f",
			"net/http.Handle.handler", "net/http.HandleFunc.handler", "net/http.ServeMux.Handle.handler", "net/http.ServeMux.HandleFunc.handler",
			"log.SetOutput.w", "log.Logger.SetOutput.w", "log/slog.SetDefault.l", "expvar.Publish.v", "os/signal.Notify.c",
			"sync.Map.Store.*", "sync.Map.LoadOrStore.*", "sync.Map.Swap.*"),
		KeepsInRecv: argsAt("sync/atomic.Value.Store.val", "sync/atomic.Value.Swap.new", "sync/atomic.Value.CompareAndSwap.new",
			"sync/atomic.Pointer.Store.val", "sync/atomic.Pointer.Swap.new",
			"container/list.List.PushBack.v", "container/list.List.PushFront.v", "container/list.List.InsertBefore.v", "container/list.List.InsertAfter.v",
			"container/ring.Ring.Link.*"),
		ReturnsKept: []string{
			"sync.Pool.Get", "sync.Map.Load", "sync.Map.LoadOrStore", "sync.Map.LoadAndDelete", "sync.Map.Swap",
			"sync/atomic.Value.Load", "sync/atomic.Value.Swap", "sync/atomic.Pointer.Load", "sync/atomic.Pointer.Swap",
			"container/list.List.Remove", "container/heap.Pop", "container/heap.Remove",
			"reflect.Value.Interface", "expvar.Get", "expvar.Map.Get", "net/http.ServeMux.Handler",
			"runtime/cgo.Handle.Value",
		},
		BenignIfaces: []string{
			"io.*", "io/fs.*",
			"net/http.ResponseWriter", "net/http.Flusher", "net/http.Pusher", "net/http.CloseNotifier", "net/http.Hijacker",
			"context.Context", "error", "fmt.Stringer", "fmt.State", "fmt.ScanState", "fmt.Scanner", "fmt.Formatter", "fmt.GoStringer",
			"sort.Interface", "container/heap.Interface",
			"hash.Hash", "hash.Hash32", "hash.Hash64", "crypto.Signer", "crypto.Decrypter", "cipher.Block", "crypto/cipher.Block", "crypto/cipher.AEAD", "crypto/cipher.Stream",
			"encoding/json.Marshaler", "encoding/json.Unmarshaler",
			"encoding.TextMarshaler", "encoding.TextUnmarshaler", "encoding.BinaryMarshaler", "encoding.BinaryUnmarshaler",
			"log/slog.LogValuer", "log/slog.Handler", "log/slog.Leveler",
			"math/rand.Source", "math/rand/v2.Source", "image.Image", "image/color.Color", "image/draw.Image",
			"go/ast.Node", "reflect.Type", "text/template/parse.Node",
			"sync.Locker", "net.Error", "net.Addr", "os.Signal", "os.FileInfo", "time.Location",
			"log/slog.Leveler", "expvar.Var", "runtime.Error", "flag.Value", "flag.Getter",
		},
	}
	// Reflection calls a body the analysis cannot see.
	for _, name := range []string{"Call", "CallSlice"} {
		l.Models["reflect.Value."+name] = func(c *callSite) {
			c.unprovable("calls a function through reflection (reflect.Value."+c.fn.Name()+")",
				"call the function directly, or declare the statement with //agent:effect")
		}
	}
	return l
}

// frameworksLibrary: the interfaces of web frameworks and loggers whose
// calls read the request, write the response or log: not effect sinks.
func frameworksLibrary() *Library {
	return &Library{
		Name: "frameworks",
		BenignIfaces: []string{
			"github.com/labstack/echo/v4.Context", "github.com/labstack/echo/v4.Logger",
			"github.com/labstack/echo/v5.Context", "github.com/labstack/echo/v5.Logger",
			"github.com/gin-gonic/gin.ResponseWriter",
			"go.uber.org/zap/zapcore.Core", "go.uber.org/zap/zapcore.ObjectEncoder", "go.uber.org/zap/zapcore.ArrayEncoder",
			"go.uber.org/zap/zapcore.Encoder", "go.uber.org/zap/zapcore.WriteSyncer", "go.uber.org/zap/zapcore.ObjectMarshaler", "go.uber.org/zap/zapcore.ArrayMarshaler",
			"github.com/go-logr/logr.LogSink", "github.com/sirupsen/logrus.Formatter", "github.com/rs/zerolog.LogObjectMarshaler",
			// Observability: traces, metrics and propagation describe the
			// work, they are not the agent's authority.
			"go.opentelemetry.io/otel/trace.*", "go.opentelemetry.io/otel/metric.*", "go.opentelemetry.io/otel/propagation.*",
			"go.opentelemetry.io/otel/attribute.*", "go.opentelemetry.io/otel/baggage.*", "go.opentelemetry.io/otel/log.*",
			"github.com/prometheus/client_golang/prometheus.*",
			"github.com/aws/smithy-go/metrics.*", "github.com/aws/smithy-go/tracing.*", "github.com/aws/smithy-go/logging.*",
			// Protocol buffers' reflection: generated messages describe,
			// encode and compare themselves.
			"google.golang.org/protobuf/reflect/protoreflect.*", "google.golang.org/protobuf/runtime/protoiface.*",
			// Validators report on values.
			"github.com/go-playground/validator/v10.FieldError", "github.com/go-playground/validator/v10.ValidationErrors",
			"github.com/go-playground/validator/v10.StructLevel", "github.com/go-playground/validator/v10.FieldLevel",
			"github.com/gin-gonic/gin/binding.Binding", "github.com/gin-gonic/gin/binding.BindingBody", "github.com/gin-gonic/gin/binding.StructValidator",
			"github.com/gin-gonic/gin/render.Render", "github.com/gin-gonic/gin/render.HTMLRender",
			// gin's JSON codec, chosen by build tags (encoding/json,
			// jsoniter, go-json, sonic): it encodes and decodes.
			"github.com/gin-gonic/gin/codec/json.Core", "github.com/gin-gonic/gin/codec/json.Encoder", "github.com/gin-gonic/gin/codec/json.Decoder",
		},
		Safe: []string{
			// Logging records what happens; where the records go is set up
			// at start-up, not by the handler.
			"go.uber.org/zap.*", "go.uber.org/zap/zapcore.*", "github.com/rs/zerolog.*", "github.com/rs/zerolog/log.*",
			"github.com/sirupsen/logrus.*", "github.com/go-logr/logr.*", "log/slog.*", "log.*",
			// Metrics are observations, not the agent's authority.
			"github.com/prometheus/client_golang/prometheus.*",
			// The frameworks' response writers and debug printing: the
			// response's own hooks are registered by middleware and walked
			// where they are registered.
			"github.com/labstack/echo/v4.Response.*", "github.com/labstack/echo/v5.Response.*",
			"github.com/gin-gonic/gin.debugPrint", "github.com/gin-gonic/gin.debugPrintRoute", "github.com/gin-gonic/gin.debugPrintError",
			"github.com/gin-gonic/gin.debugPrintLoadTemplate", "github.com/gin-gonic/gin.debugPrintWARNINGDefault", "github.com/gin-gonic/gin.debugPrintWARNINGNew",
		},
	}
}

// errgroupLibrary: golang.org/x/sync/errgroup runs its functions under
// the request.
func errgroupLibrary() *Library {
	const p = "golang.org/x/sync/errgroup"
	return &Library{
		Name: "errgroup", Paths: []string{p}, Modelled: true,
		Runners: map[string]model{
			p + ".Group.Go":    structured(arg(p + ".Group.Go.f")),
			p + ".Group.TryGo": structured(arg(p + ".Group.TryGo.f")),
		},
		Safe: []string{p + ".*"},
	}
}

func structured(i int) model {
	return func(c *callSite) { c.callback(i, callFlags{}) }
}

// waitGroupGo runs the function under the request when the WaitGroup is
// the handler's own; on one that outlives it, the function is detached.
func waitGroupGo(c *callSite) {
	c.callback(arg("sync.WaitGroup.Go.f"), c.e.storedInto(c.args[0]))
}

func detachedFunc(i int) model {
	return func(c *callSite) {
		sub := newCollector()
		if b, ok := c.arg(i); ok {
			c.e.callArg(b, c.pos, c.fr, sub, callFlags{})
		}
		// The goroutine is the standard library's: like a goroutine in a
		// dependency, it is detached when its work has any effect or
		// unprovable site (a CancelFunc or a log line is not).
		c.e.detachedWork(sub, c.pos, "starts a detached goroutine ("+c.fn.Pkg().Name()+"."+c.fn.Name()+")", c.out)
	}
}

// InitGlobals finds the package-level variables of pkg that only their
// declaration sets (one store, in the package initializer, and no other
// use than reads), with the value stored: they read like constants. An
// exported variable may be assigned by any package that imports this
// one (a flag bound in main), so it is never one of them, except in a
// main package, which nothing imports.
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
	if pkg.Pkg.Name() != "main" {
		for g := range values {
			if g.Object() != nil && g.Object().Exported() {
				delete(values, g)
			}
		}
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

// joinPathPrefix evaluates url.JoinPath(base, elem...). With constant
// elements it is computed as JoinPath computes it (cleaning ".."
// segments, which can climb above base); a non-constant element proves
// only the scheme and host.
func joinPathPrefix(e *Engine, args []ssa.Value, fr *frame) Str {
	if len(args) == 0 {
		return unknownStr()
	}
	ts := e.trace(args[0], fr, handleString).texts()
	if len(ts) != 1 || !ts[0].Complete {
		return unknownStr()
	}
	base := ts[0].Text
	var elems []string
	allConst := true
	if len(args) > 1 {
		if c, ok := args[1].(*ssa.Const); !ok || !c.IsNil() {
			els, ok := orderedElems(args[1])
			allConst = ok
			for _, el := range els {
				et := e.trace(el, fr, handleString).texts()
				if len(et) != 1 || !et[0].Complete {
					allConst = false
					break
				}
				elems = append(elems, et[0].Text)
			}
		}
	}
	if allConst {
		if joined, err := url.JoinPath(base, elems...); err == nil {
			return litStr(joined)
		}
		return unknownStr()
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return unknownStr()
	}
	return concatStr(litStr(u.Scheme+"://"+u.Host+"/"), unknownStr())
}

// urlString evaluates (*url.URL).String on a URL the function makes from
// constants and does not change: url.Parse (or ParseRequestURI) of a
// constant, or a url.URL literal of constant fields in a local variable.
// It is computed as the standard library computes it.
func urlString(e *Engine, args []ssa.Value, fr *frame) Str {
	if len(args) != 1 {
		return unknownStr()
	}
	if u, ok := e.constURL(args[0], fr); ok {
		return litStr(u.String())
	}
	return unknownStr()
}

// constURL returns the URL v points to, when it is made here from
// constants and nothing the analysis sees may change it.
func (e *Engine) constURL(v ssa.Value, fr *frame) (*url.URL, bool) {
	switch v := v.(type) {
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		if !ok || v.Index != 0 {
			return nil, false
		}
		parse := url.Parse
		switch staticKey(call.Call) {
		case "net/url.Parse":
		case "net/url.ParseRequestURI":
			parse = url.ParseRequestURI
		default:
			return nil, false
		}
		if e.reqRewritten(v, 1) {
			return nil, false
		}
		ts := e.trace(call.Call.Args[0], fr, handleString).texts()
		if len(ts) != 1 || !ts[0].Complete {
			return nil, false
		}
		u, err := parse(ts[0].Text)
		return u, err == nil
	case *ssa.Alloc:
		return urlLiteral(v, 0)
	}
	return nil, false
}

// urlReaders are the methods of *url.URL that neither change it nor keep
// it.
var urlReaders = map[string]bool{
	"net/url.URL.String": true, "net/url.URL.Redacted": true, "net/url.URL.Hostname": true, "net/url.URL.Port": true,
	"net/url.URL.Query": true, "net/url.URL.EscapedPath": true, "net/url.URL.EscapedFragment": true,
	"net/url.URL.IsAbs": true, "net/url.URL.RequestURI": true, "net/url.URL.JoinPath": true, "net/url.URL.ResolveReference": true,
}

// urlLiteral reads a url.URL literal kept in a local variable: every
// field stored once, with a constant, where the variable is made; the
// variable only read after (by the methods in urlReaders).
func urlLiteral(a *ssa.Alloc, depth int) (*url.URL, bool) {
	if depth > 2 || qualifiedName(a.Type()) != "net/url.URL" {
		return nil, false
	}
	u := &url.URL{}
	seen := map[string]bool{}
	whole := false
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil, false
			}
		case *ssa.Store:
			// u := url.URL{...}: the literal is made in a temporary and
			// copied in, once, where the variable is made.
			load, ok := r.Val.(*ssa.UnOp)
			if r.Addr != a || !ok || load.Op != token.MUL || r.Block() != a.Block() || whole {
				return nil, false
			}
			lit, ok := load.X.(*ssa.Alloc)
			if !ok || lit == a {
				return nil, false
			}
			v, ok := urlLiteral(lit, depth+1)
			if !ok {
				return nil, false
			}
			*u = *v
			whole = true
		case *ssa.Call:
			if r.Call.IsInvoke() || !urlReaders[staticKey(r.Call)] || len(r.Call.Args) == 0 || r.Call.Args[0] != a || slices.Contains(r.Call.Args[1:], ssa.Value(a)) {
				return nil, false
			}
		case *ssa.FieldAddr:
			name := fieldName(a.Type(), r.Field)
			for _, r2 := range *r.Referrers() {
				switch r2 := r2.(type) {
				case *ssa.DebugRef:
				case *ssa.UnOp:
					if r2.Op != token.MUL {
						return nil, false
					}
				case *ssa.Store:
					c, ok := r2.Val.(*ssa.Const)
					if r2.Addr != r || !ok || c.Value == nil || r2.Block() != a.Block() || seen[name] || !setURLField(u, name, c.Value) {
						return nil, false
					}
					seen[name] = true
				default:
					return nil, false
				}
			}
		default:
			return nil, false
		}
	}
	if whole && len(seen) > 0 {
		return nil, false // the copy's fields set again after
	}
	return u, true
}

// setURLField sets a url.URL's string or bool field to a constant.
func setURLField(u *url.URL, name string, v constant.Value) bool {
	if v.Kind() == constant.Bool {
		switch name {
		case "ForceQuery":
			u.ForceQuery = constant.BoolVal(v)
		case "OmitHost":
			u.OmitHost = constant.BoolVal(v)
		default:
			return false
		}
		return true
	}
	if v.Kind() != constant.String {
		return false
	}
	s := constant.StringVal(v)
	switch name {
	case "Scheme":
		u.Scheme = s
	case "Opaque":
		u.Opaque = s
	case "Host":
		u.Host = s
	case "Path":
		u.Path = s
	case "RawPath":
		u.RawPath = s
	case "RawQuery":
		u.RawQuery = s
	case "Fragment":
		u.Fragment = s
	case "RawFragment":
		u.RawFragment = s
	default:
		return false
	}
	return true
}

// orderedElems returns the elements of a slice literal built here from a
// local array, in order, when every one is stored at a constant index.
func orderedElems(v ssa.Value) ([]ssa.Value, bool) {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	arr, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	out := make([]ssa.Value, arr.Len())
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		idx, ok := ia.Index.(*ssa.Const)
		if !ok || idx.Value == nil {
			return nil, false
		}
		i, _ := constant.Int64Val(idx.Value)
		for _, r2 := range *ia.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ia && i >= 0 && i < int64(len(out)) {
				out[i] = st.Val
			}
		}
	}
	for _, v := range out {
		if v == nil {
			return nil, false
		}
	}
	return out, true
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

// joinConditions evaluates strings.Join(elems, sep) when every element is
// a constant the analysis sees: the slice built here from a literal and
// appends. Elements present on every path are joined exactly; elements
// added only on some paths are dropped when the separator is AND and each
// is a condition that adds no top-level OR (SPEC §4.1: a WHERE tail built
// from constant conditions keeps its bounds and tenant scope), and make
// the value unknown otherwise.
func joinConditions(e *Engine, args []ssa.Value, fr *frame) Str {
	if len(args) < 2 {
		return unknownStr()
	}
	ts := e.trace(args[1], fr, handleString).texts()
	if len(ts) != 1 || !ts[0].Complete {
		return unknownStr()
	}
	sep := ts[0].Text
	always, optional, ok := e.constElems(args[0], fr, 0)
	if !ok {
		return unknownStr()
	}
	if len(optional) > 0 {
		if !strings.EqualFold(strings.TrimSpace(sep), "and") {
			return unknownStr()
		}
		for _, c := range append(append([]string(nil), always...), optional...) {
			if !sqltext.Conjunctive(c) {
				return unknownStr()
			}
		}
	}
	return litStr(strings.Join(always, sep))
}

// constElems reads a []string built here from constants: the elements on
// every path (in order) and those only on some.
func (e *Engine) constElems(v ssa.Value, fr *frame, depth int) (always, optional []string, ok bool) {
	if depth > 16 {
		return nil, nil, false
	}
	constText := func(x ssa.Value) (string, bool) {
		ts := e.trace(x, fr, handleString).texts()
		if len(ts) != 1 || !ts[0].Complete {
			return "", false
		}
		return ts[0].Text, true
	}
	switch v := v.(type) {
	case *ssa.Const:
		return nil, nil, v.IsNil()
	case *ssa.Slice:
		els, ok := orderedElems(v)
		if !ok {
			return nil, nil, false
		}
		for _, el := range els {
			c, ok := constText(el)
			if !ok {
				return nil, nil, false
			}
			always = append(always, c)
		}
		return always, nil, true
	case *ssa.Call:
		b, isBuiltin := v.Call.Value.(*ssa.Builtin)
		if !isBuiltin || b.Name() != "append" || len(v.Call.Args) != 2 {
			return nil, nil, false
		}
		always, optional, ok = e.constElems(v.Call.Args[0], fr, depth+1)
		if !ok {
			return nil, nil, false
		}
		added, more, ok := e.constElems(v.Call.Args[1], fr, depth+1)
		if !ok || len(more) > 0 {
			return nil, nil, false
		}
		return append(always, added...), optional, true
	case *ssa.Phi:
		for i, ed := range v.Edges {
			a, o, ok := e.constElems(ed, fr, depth+1)
			if !ok {
				return nil, nil, false
			}
			if i == 0 {
				always, optional = a, o
				continue
			}
			var keep []string
			for _, x := range always {
				if slices.Contains(a, x) {
					keep = append(keep, x)
				} else {
					optional = append(optional, x)
				}
			}
			for _, x := range a {
				if !slices.Contains(always, x) {
					optional = append(optional, x)
				}
			}
			always = keep
			optional = append(optional, o...)
		}
		return always, optional, true
	case *ssa.UnOp:
		stores := storedValues(v.X, fr)
		if v.Op != token.MUL || len(stores) != 1 {
			return nil, nil, false
		}
		return e.constElems(stores[0].v, stores[0].fr, depth+1)
	}
	return nil, nil, false
}

// templateExecute models (*template.Template).Execute and ExecuteTemplate
// of text/template and html/template: the functions of the template's
// FuncMap run here, and the data handed to it is handed over.
func templateExecute(dataAt int) model {
	return func(c *callSite) {
		c.handOff()
		// The template calls the data's exported methods by name.
		if b, ok := c.arg(dataAt); ok {
			c.e.callTemplateData(b, c.pos, c.fr, c.out)
		}
		v, fr, ok := c.value(0)
		if !ok {
			return
		}
		var unread bool
		for _, f := range c.e.templateFuncs(v, fr, 0, &unread) {
			c.e.callArg(f, c.pos, c.fr, c.out, callFlags{})
		}
		if unread {
			c.unprovable("executes a template whose FuncMap the analysis cannot read (its functions run here)",
				"build the FuncMap as a map literal the package does not change, or declare the statement with //agent:effect")
		}
	}
}

// callTemplateData calls, with unknown arguments, the exported methods of
// the data a template executes with, and of its fields' types, a few
// levels deep: the template text may call any of them.
func (e *Engine) callTemplateData(b binding, pos token.Pos, fr *frame, out *collector) {
	b = follow(b)
	if !b.live() {
		return
	}
	var ts []target
	if !types.IsInterface(b.v.Type()) {
		ts = []target{{x: b.v, fr: b.fr}}
	} else if !e.concretes(b.v, b.fr, 0, &ts) {
		return
	}
	seen := map[types.Type]bool{}
	var visit func(t types.Type, recv binding, depth int)
	visit = func(t types.Type, recv binding, depth int) {
		if t == nil || depth > 2 || seen[t] {
			return
		}
		seen[t] = true
		if e.analysedType(t) {
			pt := t
			if _, isPtr := t.(*types.Pointer); !isPtr {
				pt = types.NewPointer(t)
			}
			ms := types.NewMethodSet(pt)
			var names []string
			for i := 0; i < ms.Len(); i++ {
				if ms.At(i).Obj().Exported() {
					names = append(names, ms.At(i).Obj().Name())
				}
			}
			e.callEveryMethod(pt, recv, names, pos, fr, out)
		}
		base := t
		if p, ok := base.(*types.Pointer); ok {
			base = p.Elem()
		}
		switch u := base.Underlying().(type) {
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if u.Field(i).Exported() {
					visit(u.Field(i).Type(), binding{}, depth+1)
				}
			}
		case *types.Slice:
			visit(u.Elem(), binding{}, depth+1)
		case *types.Map:
			visit(u.Elem(), binding{}, depth+1)
		}
	}
	for _, t := range ts {
		if t.x != nil {
			visit(t.x.Type(), binding{v: t.x, fr: t.fr}, 0)
		}
	}
}

// templateFuncs follows a template back through the calls that built it
// (New, Must, Parse..., Funcs, Lookup) to the FuncMaps handed to Funcs,
// and returns their functions. A FuncMap it cannot read sets *unread.
func (e *Engine) templateFuncs(v ssa.Value, fr *frame, depth int, unread *bool) []binding {
	if depth > 16 {
		return nil
	}
	var call *ssa.Call
	switch v := v.(type) {
	case *ssa.Call:
		call = v
	case *ssa.Extract:
		call, _ = v.Tuple.(*ssa.Call)
	case *ssa.UnOp:
		if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
			if val, ok := e.InitGlobals[g]; ok {
				if init := g.Pkg.Func("init"); init != nil {
					return e.templateFuncs(val, &frame{fn: init, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, depth+1, unread)
				}
			}
			// Set in init() or another function of the package: every
			// template stored to it.
			if sts, ok := e.globalStores(g); ok {
				var out []binding
				for _, st := range sts {
					out = append(out, e.templateFuncs(st.Val, &frame{fn: st.Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, depth+1, unread)...)
				}
				return out
			}
			e.foreignTemplate(g.Pkg.Pkg, unread)
		}
		return nil
	case *ssa.Phi:
		var out []binding
		for _, ed := range v.Edges {
			out = append(out, e.templateFuncs(ed, fr, depth+1, unread)...)
		}
		return out
	case *ssa.Parameter:
		if b, ok := fr.param(paramIndex(fr.fn, v)); ok {
			if b = follow(b); b.live() {
				return e.templateFuncs(b.v, b.fr, depth+1, unread)
			}
		}
		return nil
	}
	if call == nil || call.Call.IsInvoke() {
		return nil
	}
	key := staticKey(call.Call)
	pkg, name, _ := strings.Cut(key, ".Template.")
	if pkg != "text/template" && pkg != "html/template" {
		if key == "text/template.Must" || key == "html/template.Must" {
			if len(call.Call.Args) > 0 {
				return e.templateFuncs(call.Call.Args[0], fr, depth+1, unread)
			}
		}
		if cf, rets := e.localReturns(call, fr); cf != nil {
			// A helper of the package that builds the template.
			var out []binding
			for _, ret := range rets {
				if len(ret.Results) > 0 {
					out = append(out, e.templateFuncs(ret.Results[0], cf, depth+1, unread)...)
				}
			}
			return out
		}
		if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg != nil {
			e.foreignTemplate(callee.Pkg.Pkg, unread)
		}
		return nil
	}
	var out []binding
	if name == "Funcs" && len(call.Call.Args) > 1 {
		m := call.Call.Args[1]
		if ct, ok := m.(*ssa.ChangeType); ok {
			m = ct.X
		}
		vals, ok := e.mapValues(m, fr)
		if !ok {
			*unread = true
		}
		for _, b := range vals {
			if mi, ok := b.v.(*ssa.MakeInterface); ok {
				b.v = mi.X
			}
			out = append(out, b)
		}
	}
	if len(call.Call.Args) > 0 {
		out = append(out, e.templateFuncs(call.Call.Args[0], fr, depth+1, unread)...)
	}
	return out
}

// foreignTemplate marks a template that another package built (an
// exported variable, a function's result) as unread when that package
// is analysed: it may reach a sink, so the functions it gave the
// template may be what does. A package that reaches no sink gave it
// none that can.
func (e *Engine) foreignTemplate(pkg *types.Package, unread *bool) {
	if pkg != nil && pkg != e.Pkg && e.Analysed != nil && e.Analysed(pkg) && !strings.HasPrefix(pkg.Path(), "text/template") && !strings.HasPrefix(pkg.Path(), "html/template") {
		*unread = true
	}
}

// poolGet models (*sync.Pool).Get: the pool's New runs here when the pool
// is empty.
func poolGet(c *callSite) {
	v, fr, ok := c.value(0)
	if !ok {
		return
	}
	var news []binding
	switch v := v.(type) {
	case *ssa.Global:
		if i := fieldIndex(v.Type(), "New"); i >= 0 {
			news = c.e.globalFieldValues(v, i)
		}
	default:
		if alloc, afr, ok := allocOf(v, fr, 0); ok {
			if i := fieldIndex(alloc.Type(), "New"); i >= 0 {
				fieldOfAlloc(alloc, i, afr, 0, &news)
			}
		}
	}
	for _, b := range news {
		c.e.callArg(b, c.pos, c.fr, c.out, callFlags{})
	}
}

// globalFieldValues returns what the package stores to field f of the
// struct variable g, each with a frame of the function that stores it.
func (e *Engine) globalFieldValues(g *ssa.Global, f int) []binding {
	var out []binding
	for _, m := range members(g.Pkg) {
		fn, ok := m.(*ssa.Function)
		if !ok {
			continue
		}
		eachInstr([]*ssa.Function{fn}, func(fn *ssa.Function, instr ssa.Instruction) {
			st, ok := instr.(*ssa.Store)
			if !ok {
				return
			}
			fr := &frame{fn: fn, visiting: map[ssa.Value]bool{}}
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fa.X == g && fa.Field == f {
				out = append(out, binding{v: st.Val, fr: fr})
			}
			if st.Addr == g {
				// The whole struct stored at once (a composite literal).
				fieldOf(st.Val, f, fr, 0, &out)
			}
		})
	}
	return out
}
