package effects

import (
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// A Library is everything authvet knows about one library: the calls that
// are sinks (models, keyed by FuncKey), the calls that are known to be
// safe, the handle types whose values reach sinks, the interfaces that
// are sinks or benign, and its transactions. The engine knows no library:
// its tables are derived from the list in libraries.
//
// A modelled library (Modelled) is never analysed: a call into it that
// is neither a model nor safe is unknown, and unprovable when it is
// handed a handle or a string (SQL text, a URL); otherwise, and for the
// standard library, a call is effect-free except for the function and
// interface values it is handed (SPEC §4.1).
type Library struct {
	Name     string
	Paths    []string // package paths it covers (a path covers its subpackages)
	Modelled bool

	Models map[string]model // FuncKey → model of the call
	// Runners are models of calls that reach no sink of their own; they
	// only run functions handed to them or kept with their receiver (a
	// goroutine helper, a template's FuncMap, a pool's New). A package
	// that uses only these cannot reach a sink by itself.
	Runners     map[string]model
	IfaceModels map[string]model // "pkgpath.Iface.Method" → model of a call through the interface
	// Protocols: package path → the methods its functions call on a
	// value they are handed as any (fmt: String, Error, GoString,
	// Format). A package with no row may call any protocol method.
	Protocols map[string][]string
	// Optional: method name → the methods the library may find on a
	// value it is handed through an interface with that method, by a
	// type assertion (io.Copy asking an io.Reader for WriteTo, errors.Is
	// asking an error for Is): they count as called too.
	Optional map[string][]string
	Strings  map[string]strModel
	Extracts map[string]strModel // the first result of a multi-result call
	Prepares map[string]int      // calls that prepare a statement: the SQL argument (receiver counted)
	Safe     []string            // FuncKeys, "pkgpath.Type.*" or "pkgpath.*": neither effect nor model needed
	Retains  map[string]int      // FuncKey → the argument it runs after returning (receiver counted; -1: all)
	// KeepsInRecv: FuncKey → the argument the method keeps in its
	// receiver (receiver counted; -1: all), to run whenever the receiver's owner says: the
	// work outlives the request if the receiver does.
	KeepsInRecv map[string]int
	// ReturnsKept: FuncKeys whose results are values the program put in
	// (a pool's Get, an atomic.Value's Load), not values the library
	// made: what they return is out of sight.
	ReturnsKept []string

	Handles      []string // "pkgpath.Type" whose values reach sinks
	SinkIfaces   []string // interfaces whose implementations are sinks ("pkgpath.Name", or "pkgpath." for all)
	BenignIfaces []string // interfaces whose calls are effect-free ("pkgpath.Name", or "pkgpath.*")
	ReaderIfaces []string // the library's result readers (pgx.Rows): effect-free

	// Shapes recognise an interface method by its shape, whatever the
	// interface is called (a generated gRPC client stub), when no concrete
	// value behind it is in sight: the model of a call through it, or nil.
	Shapes []func(m *types.Func) model
	// CallShapes recognise a function or method by its shape (a
	// generated ent builder's Save): the model of a call to it, or nil.
	CallShapes []func(fn *types.Func) model

	TxBegins  []string // FuncKeys that begin a transaction
	TxCommits []string // FuncKeys (or "pkgpath.Iface.Method") that end one
	TxHandles []string // types of transaction handles
}

// model handles a call to a modelled function.
type model func(c *callSite)

// strModel evaluates a library call that builds a string.
type strModel func(e *Engine, args []ssa.Value, fr *frame) Str

// libraries is the list of libraries authvet models.
func libraries() []*Library {
	return []*Library{
		stdLibrary(),
		frameworksLibrary(),
		sqlLibrary(),
		httpLibrary(),
		egressLibrary(),
		pgxLibrary(),
		sqlxLibrary(),
		gormLibrary(),
		riverLibrary(),
		asynqLibrary(),
		errgroupLibrary(),
		grpcLibrary(),
		temporalLibrary(),
		redisLibrary(),
		natsLibrary(),
		kafkaLibrary(),
		squirrelLibrary(),
		entLibrary(),
		bunLibrary(),
		stripeLibrary(),
		awsLibrary(),
		mcpLibrary(),
	}
}

// registry is the engine's view of the libraries.
type registry struct {
	models, ifaceModels map[string]model
	runners             map[string]bool
	strings, extracts   map[string]strModel
	protocols, optional map[string][]string
	prepares            map[string]int
	retains             map[string]int
	keepsInRecv         map[string]int
	returnsKept         map[string]bool
	safe                map[string]bool
	handles             map[string]bool
	sinkIfaces          []string
	benign              map[string]bool
	readers             map[string]bool
	txBegins, txCommits map[string]bool
	txHandles           map[string]bool
	modelledPaths       []string
	shapes              []func(m *types.Func) model
	callShapes          []func(fn *types.Func) model
}

var (
	registryOnce sync.Once
	theRegistry  *registry
)

// lib returns the registry derived from libraries, built once.
func lib() *registry {
	registryOnce.Do(func() { theRegistry = buildRegistry() })
	return theRegistry
}

func buildRegistry() *registry {
	r := &registry{
		models: map[string]model{}, ifaceModels: map[string]model{}, runners: map[string]bool{},
		strings: map[string]strModel{}, extracts: map[string]strModel{}, protocols: map[string][]string{}, optional: map[string][]string{},
		prepares: map[string]int{}, retains: map[string]int{}, keepsInRecv: map[string]int{}, returnsKept: map[string]bool{}, safe: map[string]bool{},
		handles: map[string]bool{}, benign: map[string]bool{}, readers: map[string]bool{},
		txBegins: map[string]bool{}, txCommits: map[string]bool{}, txHandles: map[string]bool{},
	}
	for _, l := range libraries() {
		for k, m := range l.Models {
			r.models[k] = m
		}
		for k, m := range l.IfaceModels {
			r.ifaceModels[k] = m
		}
		for k, m := range l.Runners {
			r.models[k] = m
			r.runners[k] = true
		}
		for k, m := range l.Protocols {
			r.protocols[k] = m
		}
		for k, m := range l.Optional {
			r.optional[k] = append(r.optional[k], m...)
		}
		for k, m := range l.Strings {
			r.strings[k] = m
		}
		for k, m := range l.Extracts {
			r.extracts[k] = m
		}
		for k, i := range l.Prepares {
			r.prepares[k] = i
		}
		for k, i := range l.Retains {
			r.retains[k] = i
		}
		for k, i := range l.KeepsInRecv {
			r.keepsInRecv[k] = i
		}
		set(r.returnsKept, l.ReturnsKept)
		set(r.safe, l.Safe)
		set(r.handles, l.Handles)
		set(r.benign, l.BenignIfaces)
		set(r.readers, l.ReaderIfaces)
		set(r.txBegins, l.TxBegins)
		set(r.txCommits, l.TxCommits)
		set(r.txHandles, l.TxHandles)
		r.sinkIfaces = append(r.sinkIfaces, l.SinkIfaces...)
		r.shapes = append(r.shapes, l.Shapes...)
		r.callShapes = append(r.callShapes, l.CallShapes...)
		if l.Modelled {
			r.modelledPaths = append(r.modelledPaths, l.Paths...)
		}
	}
	return r
}

func set(m map[string]bool, keys []string) {
	for _, k := range keys {
		m[k] = true
	}
}

// modelled reports whether path is a package of a modelled library.
func (r *registry) modelled(path string) bool {
	for _, m := range r.modelledPaths {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// isSafe reports whether the call key is listed safe, by itself, by its
// receiver type ("pkg.Type.*") or by its package ("pkg.*").
func (r *registry) isSafe(obj *types.Func) bool {
	key := FuncKey(obj)
	if r.safe[key] {
		return true
	}
	if i := strings.LastIndex(key, "."); i > 0 && r.safe[key[:i]+".*"] {
		return true
	}
	if obj.Pkg() != nil && r.safe[obj.Pkg().Path()+".*"] {
		return true
	}
	return false
}

// readerInterface reports whether name is a result reader of a modelled
// library (pgx.Rows): calls through it read.
func (r *registry) readerInterface(name string) bool { return r.readers[name] }

// SinkPackages lists the package paths whose use makes a package worth
// analysing: every package a library covers.
func SinkPackages() []string {
	var out []string
	for _, l := range libraries() {
		out = append(out, l.Paths...)
	}
	return out
}

// unmodelled handles a call into a modelled library that has no model:
// safe calls are effect-free (what they are handed still counts); an
// unknown call handed a handle or a string may reach the database or the
// network in a way the analysis does not know.
func (r *registry) unmodelled(c *callSite) {
	if r.isSafe(c.fn) {
		if recv := c.fn.Signature().Recv(); recv != nil && len(c.args) > 0 {
			if _, ok := recv.Type().Underlying().(*types.Signature); ok {
				// A method of the library's own function type (go-redis's
				// cmdable): the function behind it is the library's
				// plumbing, not one the program handed over.
				c.e.handOff(c.fn, append([]binding{{}}, c.args[1:]...), c.pos, c.fr, c.out)
				return
			}
		}
		c.e.handOff(c.fn, c.args, c.pos, c.fr, c.out)
		return
	}
	for i, a := range c.args {
		t := bindingType(a)
		if t == nil {
			if i == 0 && c.fn.Signature().Recv() != nil {
				t = c.fn.Signature().Recv().Type()
			} else {
				continue
			}
		}
		what := ""
		switch {
		case isHandle(t):
			what = "a " + typeName(t)
		case isString(t):
			what = "a string"
		}
		if what != "" {
			c.unprovable("calls "+shortFunc(c.fn)+", which authvet does not model, with "+what+" (it may reach the database or the network)",
				"declare what the call does with //agent:effect")
			return
		}
	}
	c.e.handOff(c.fn, c.args, c.pos, c.fr, c.out)
}

// shortFunc names a function for messages: "pgconn.(*PgConn).Exec".
func shortFunc(fn *types.Func) string {
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		star := ""
		if p, ok := t.(*types.Pointer); ok {
			t, star = p.Elem(), "*"
		}
		name = "(" + star + typeName(t) + ")." + name
	}
	if fn.Pkg() != nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

func isHandle(t types.Type) bool { return lib().handles[qualifiedName(t)] }

func (e *Engine) isSinkInterface(name string) bool {
	if name == "" {
		return false
	}
	for _, s := range lib().sinkIfaces {
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
	r := lib()
	if r.benign[name] || e.Opts.Benign[name] {
		return true
	}
	if i := strings.LastIndex(name, "."); i > 0 && r.benign[name[:i]+".*"] {
		return true
	}
	return false
}

// callSite is the argument of a model: the call, its arguments (receiver
// first) as bindings, and where its effects go.
type callSite struct {
	e    *Engine
	fn   *types.Func
	args []binding
	pos  token.Pos
	fr   *frame
	out  *collector
}

func (c *callSite) arg(i int) (binding, bool) {
	if i < 0 || i >= len(c.args) {
		return binding{}, false
	}
	return c.args[i], true
}

// str traces argument i as a string or handle.
func (c *callSite) str(i int, h uint8) Str {
	b, ok := c.arg(i)
	if !ok {
		return unknownStr()
	}
	return c.e.traceB(b, h)
}

// value returns argument i as a value of the program, when it is one.
func (c *callSite) value(i int) (ssa.Value, *frame, bool) {
	b, ok := c.arg(i)
	if !ok {
		return nil, nil, false
	}
	b = follow(b)
	return b.v, b.fr, b.live()
}

// emit adds a site of this call.
func (c *callSite) emit(p Pending) {
	p.Pos, p.Module = c.e.pos(c.pos), c.e.Module
	if (p.Op == OpURL || p.Op == OpEgress) && p.Pkg == "" {
		p.Pkg = c.pkgPath()
	}
	c.e.emit(p, c.out)
}

// pkgPath is the path of the package whose code holds the call.
func (c *callSite) pkgPath() string {
	if c.e.Pkg == nil {
		return ""
	}
	return c.e.Pkg.Path()
}

// egress adds an unprovable request at this call: where it goes is not
// known, unless a configured client declares it for this package.
func (c *callSite) egress(reason, fix string) {
	if m, ok := c.requestMethod(); ok {
		// The destination is out of sight, the method may not be: a
		// safe method keeps a tool read-only (SPEC §9).
		c.emit(Pending{Op: OpEgress, Method: m, Reason: reason, Fix: fix, Pkg: c.pkgPath()})
		return
	}
	eff := c.e.unprovable(c.pos, reason, fix)
	eff.Egress, eff.Pkg = true, c.pkgPath()
	c.out.add(eff)
}

// requestMethod is the HTTP method of the request this call sends: the
// one its name says (Get, Head, Post, PostForm), or the request
// argument's (Do, RoundTrip).
func (c *callSite) requestMethod() (Str, bool) {
	if c.fn == nil {
		return Str{}, false
	}
	if m, ok := methodOfName(c.fn.Name()); ok {
		return m, true
	}
	switch c.fn.Name() {
	case "Do", "RoundTrip":
		if len(c.args) > 1 {
			return c.str(1, handleReqMethod), true
		}
	}
	return Str{}, false
}

// methodOfName is the HTTP method a client's or the package's call
// sends by its name alone (Get, Head, Post, PostForm).
func methodOfName(name string) (Str, bool) {
	switch name {
	case "Get":
		return litStr("GET"), true
	case "Head":
		return litStr("HEAD"), true
	case "Post", "PostForm":
		return litStr("POST"), true
	}
	return Str{}, false
}

// add adds an effect at this call.
func (c *callSite) add(kind, subject string, prov Provenance) {
	c.out.add(Effect{Kind: kind, Subject: subject, Provenance: prov, Pos: c.e.pos(c.pos), Module: c.e.Module})
}

func (c *callSite) unprovable(reason, fix string) {
	c.out.add(c.e.unprovable(c.pos, reason, fix))
}

// callback treats argument i, a function value, as called here.
func (c *callSite) callback(i int, fl callFlags) {
	if b, ok := c.arg(i); ok {
		c.e.callArg(b, c.pos, c.fr, c.out, fl)
	}
}

// handOff hands every argument over, as for a call that is not walked.
func (c *callSite) handOff() { c.e.handOff(c.fn, c.args, c.pos, c.fr, c.out) }

// handOffContexts hands over the context.Context arguments of a call
// authvet models (or a sink the configuration names): the library calls
// Done, Err and Value on them. They matter only where a context with an
// effect is in reach; models hand over the other arguments they pass on.
func (c *callSite) handOffContexts() {
	if !c.e.contextsAct() {
		return
	}
	for _, a := range c.args {
		if t := bindingType(a); t != nil && isContextType(t) {
			c.e.handOffValue(a, nil, c.pos, c.fr, c.out, callFlags{})
		}
	}
}

// handOffArgs hands over the arguments from index from on (receiver
// counted): the query arguments of a SQL call.
func (c *callSite) handOffArgs(from int) {
	for i := from; i < len(c.args); i++ {
		c.e.handOffValue(c.args[i], nil, c.pos, c.fr, c.out, callFlags{})
	}
}

// keys builds FuncKeys: keys("database/sql.DB.", "Exec", "Query").
func keys(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// ReachesSink reports whether a call of fn may have an effect of its own
// that only a model knows: it is modelled, it belongs to a modelled
// library, it is a method of a handle type, or it is a method of an
// interface whose implementations are sinks. A package that uses no such
// function (and no analysed package) cannot reach a sink by itself; what
// it is handed counts at the call that hands it over.
func ReachesSink(fn *types.Func) bool {
	r := lib()
	key := FuncKey(fn)
	if (r.models[key] != nil && !r.runners[key]) || r.ifaceModels[key] != nil {
		return true
	}
	if _, ok := r.prepares[key]; ok {
		return true
	}
	if fn.Pkg() != nil && r.modelled(fn.Pkg().Path()) {
		return true
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return (&Engine{}).isSinkInterface(qualifiedName(recv.Type()))
	}
	return false
}

// StdRetains reports whether fn, a function of the standard library, may
// keep its parameter i (receiver not counted) and run it after it returns.
func StdRetains(fn *types.Func, i int) bool {
	r, ok := lib().retains[FuncKey(fn)]
	return ok && (r < 0 || r == paramArg(fn, i))
}

// BenignInterface reports whether calls through the interface named
// "pkgpath.Name" are effect-free by the libraries' knowledge (or the
// configuration's extra list).
func BenignInterface(name string, extra map[string]bool) bool {
	e := &Engine{Opts: Options{Benign: extra}}
	return e.isBenign(name) || lib().readers[name]
}

// nonEmptyVariadic reports whether v, a variadic call's slice, holds at
// least one argument: the array the call packs its arguments into. A
// slice spread into the call (Where(preds...)) may be empty, and an
// empty Where bounds nothing.
func nonEmptyVariadic(v ssa.Value) bool {
	sl, ok := v.(*ssa.Slice)
	if !ok || sl.Low != nil || sl.High != nil {
		return false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	arr, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
	return ok && arr.Len() > 0
}
