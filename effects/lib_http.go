package effects

import (
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// net/http: requests sent by the package functions, by *http.Client
// methods, by Do or RoundTrip of a request made with NewRequest*.
const httpPath = "net/http"

func httpLibrary() *Library {
	const p = httpPath
	l := &Library{
		Name:    "net/http",
		Paths:   []string{p},
		Models:  map[string]model{},
		Handles: []string{p + ".Client", p + ".Request", p + ".RoundTripper", p + ".Transport"},
		// RoundTripper implementations send requests: never benign.
		SinkIfaces:  []string{p + ".RoundTripper"},
		IfaceModels: map[string]model{p + ".RoundTripper.RoundTrip": roundTripper},
	}
	for name, m := range map[string]string{"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST"} {
		l.Models[p+"."+name] = sendURL(arg(p+"."+name+".url"), m, false)
		l.Models[p+".Client."+name] = sendURL(arg(p+".Client."+name+".url"), m, true)
	}
	// Post reads its body while it sends: the reader's Read (or
	// WriteTo) runs then.
	for _, key := range []string{p + ".Post", p + ".Client.Post"} {
		send, body := l.Models[key], arg(key+".body")
		l.Models[key] = func(c *callSite) {
			send(c)
			if body < len(c.args) {
				c.e.handOffValue(c.args[body], nil, c.pos, c.fr, c.out, callFlags{})
			}
		}
	}
	do, rt := arg(p+".Client.Do.req"), arg(p+".Transport.RoundTrip.req")
	l.Models[p+".Client.Do"] = func(c *callSite) { c.viaClient(func(c *callSite) { c.e.sendRequest(do, c) }) }
	l.Models[p+".Transport.RoundTrip"] = func(c *callSite) { c.e.sendRequest(rt, c) }
	return l
}

// Calls that make a *http.Request: method and URL argument indexes.
var newRequestArgs = map[string]struct{ method, url int }{
	"net/http.NewRequest":            {0, 1},
	"net/http.NewRequestWithContext": {1, 2},
}

// sendURL models a call that sends method to the URL at argument i,
// through the client that is argument 0 when viaClient.
func sendURL(i int, method string, viaClient bool) model {
	send := func(c *callSite) {
		c.emit(Pending{Op: OpURL, Text: c.str(i, handleString), Method: litStr(method)})
	}
	if !viaClient {
		// The package-level helpers send through http.DefaultClient.
		return func(c *callSite) {
			if c.e.defaultClientChanged() {
				c.egress(defaultRewired, defaultRewiredFix)
				return
			}
			send(c)
		}
	}
	return func(c *callSite) {
		// A transport of the program's own is handed the request the
		// client builds: the URL and method this call gives it.
		req := binding{sym: &Arg{Handle: handleReqURL, Str: c.str(i, handleString), Method: litStr(method)}}
		c.viaClientWith(send, req)
	}
}

// sendRequest reports the request that is argument i, sent at c.
func (e *Engine) sendRequest(i int, c *callSite) {

	c.emit(Pending{Op: OpURL, Text: c.str(i, handleReqURL), Method: c.str(i, handleReqMethod)})
}

// roundTripper models a call through http.RoundTripper: on the concrete
// transports the analysis sees, their RoundTrip; an unseen one may send
// the request anywhere.
func roundTripper(c *callSite) {

	if c.e.callMethodOn(c.args[0], "RoundTrip", c.args[1:], c.pos, c.fr, c.out) {
		return
	}
	if c.args[0].v != nil {
		// A transport a wrapper keeps in a field (u.next.RoundTrip): of
		// the receiver, the caller resolves it (egress as before where
		// it cannot); of a struct built in sight, the transport stored
		// there.
		if pf, ok := paramFieldOf(c.args[0].v, c.fr); ok && len(pf.path) > 0 {
			c.out.addPending(Pending{Op: OpCallMethod, Param: pf.param, Fields: pf.path, Name: "RoundTrip",
				Reason: "sends a request through an http.RoundTripper the analysis cannot see, which may send it anywhere",
				Args:   []Arg{c.e.recordArg(c.args[1])}, Pos: c.e.pos(c.pos), Module: c.e.Module, Pkg: c.pkgPath()})
			return
		}
		if _, path := fieldPath(c.args[0].v); len(path) > 0 && c.e.fieldTransport(c) {
			return
		}
	}
	if b := follow(c.args[0]); b.live() {
		if _, ok := rootParam(b); ok {
			// A transport handed in: the caller knows which.
			c.out.addPending(Pending{Op: OpCallMethod, Param: mustRootParam(b), Name: "RoundTrip",
				Reason: "sends a request through an http.RoundTripper the analysis cannot see, which may send it anywhere",
				Args:   []Arg{c.e.recordArg(c.args[1])}, Pos: c.e.pos(c.pos), Module: c.e.Module, Pkg: c.pkgPath()})
			return
		}
	}
	c.egress("sends a request through an http.RoundTripper the analysis cannot see, which may send it anywhere",
		`build the transport where the analysis sees it, or declare the call with //agent:effect outbound("...")`)
}

// fieldTransport resolves u.next.RoundTrip(r) on a wrapper's field to
// the transport stored there where the analysis sees it (or leaves it to
// the caller when the field holds a parameter); false if it cannot.
func (e *Engine) fieldTransport(c *callSite) bool {
	recv := c.args[0]
	vfr := c.fr
	if recv.fr != nil {
		vfr = recv.fr
	}
	base, path := fieldPath(recv.v)
	var except ssa.Instruction
	if _, afr, ok := allocOf(base, vfr, 0); ok {
		except = afr.cur
	}
	done, up, found := e.fieldsOf(binding{v: base, fr: vfr}, path, except)
	if !found || len(up) > 0 || len(done) == 0 {
		return false // out of sight, or the caller's: as before
	}
	sub := newCollector()
	for _, d := range done {
		d = boundArg(d)
		if _, isParam := rootParam(follow(d)); isParam || !e.callMethodOn(d, "RoundTrip", c.args[1:], c.pos, c.fr, sub) {
			return false
		}
	}
	c.out.merge(sub)
	return true
}

// fieldClientSeen reports whether b reads a client from an unexported
// field of a struct of this package whose every store the analysis sees
// (clientFieldOrigins): the client is judged here, whoever built the
// struct.
func (e *Engine) fieldClientSeen(b binding) bool {
	load, ok := b.v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	if _, ok := load.X.(*ssa.FieldAddr); !ok {
		return false
	}
	_, seen := e.clientTransports(b)
	return seen
}

func mustRootParam(b binding) int {
	i, _ := rootParam(b)
	return i
}

// viaClient sends through the *http.Client that is argument 0: its
// Transport decides where the request goes. A client whose Transport the
// analysis sees sends as send says (the default or a standard transport)
// or through that transport's RoundTrip; any other client does not prove
// its URL (SPEC §4.1).
func (c *callSite) viaClient(send model) { c.viaClientWith(send, binding{}) }

// viaClientWith is viaClient where the client builds the request itself
// (Get, Post): req stands for it, for a transport of the program's own.
func (c *callSite) viaClientWith(send model, built binding) {
	if b := follow(c.args[0]); b.live() {
		if idx, ok := rootParam(b); ok && !c.e.fieldClientSeen(b) && c.e.clientUnchanged(b.v) {
			// A client handed in, that this function only sends through:
			// the caller may see how it was built.
			p := Pending{Op: OpCallMethod, Param: idx, Name: c.fn.Name(), Reason: clientUnseen, Fix: clientFix, Pos: c.e.pos(c.pos), Module: c.e.Module, Pkg: c.pkgPath()}
			for _, a := range c.args[1:] {
				p.Args = append(p.Args, c.e.recordArg(a))
			}
			c.out.addPending(p)
			return
		}
	}
	transports, ok := c.e.clientTransports(c.args[0])

	if !ok {
		if isDefaultClient(c.args[0]) && c.e.defaultClientChanged() {
			c.egress(defaultRewired, defaultRewiredFix)
			return
		}
		c.egress(clientUnseen, clientFix)
		return
	}
	if c.e.redirectRewrites(c.args[0]) {
		c.egress("sends requests through an *http.Client whose CheckRedirect rewrites where a redirect goes",
			`leave the redirect's URL alone in CheckRedirect, or declare the call with //agent:effect outbound("...")`)
		return
	}
	std := len(transports) == 0
	dflt := std // some request goes through http.DefaultTransport
	for _, t := range transports {
		if t.x != nil && proxied(t) {
			c.egress("sends requests through an http.Transport whose Proxy receives every request, whatever its URL",
				`use http.ProxyFromEnvironment, or declare the call with //agent:effect outbound("...")`)
			return
		}
		if t.x != nil {
			// A Proxy that sends every request direct still runs on
			// each one.
			for _, pf := range proxyFuncs(t) {
				c.e.callArg(pf, c.pos, c.fr, c.out, callFlags{})
			}
			if f := dialed(t); f != "" {
				c.egress("sends requests through an http.Transport whose "+f+" chooses the connection, whatever the URL says",
					`leave the Transport's dialer alone, or declare the call with //agent:effect outbound("...")`)
				return
			}
		}
		if t.x == nil || !c.e.analysedType(t.x.Type()) {
			std = true
			dflt = dflt || t.x == nil
			continue
		}
		req := built
		if c.fn.Name() == "Do" && len(c.args) > 1 {
			req = c.args[1]
		}
		if !c.e.callMethodOn(binding{v: t.x, fr: t.fr}, "RoundTrip", []binding{req}, c.pos, c.fr, c.out) {
			c.egress("sends a request through an http.RoundTripper the analysis cannot resolve",
				`declare the call with //agent:effect outbound("...")`)
		}
	}
	if dflt && c.e.defaultTransportChanged() {
		// A client with no Transport of its own sends through
		// http.DefaultTransport, which the program rewires.
		if isDefaultClient(c.args[0]) {
			c.egress(defaultRewired, defaultRewiredFix)
		} else {
			c.egress(transportRewired, defaultRewiredFix)
		}
		return
	}
	if std {
		send(c)
	}
	// The client's cookie jar is asked for and handed cookies around
	// every request.
	if jars, ok := c.e.clientField(c.args[0], "Jar"); ok {
		for _, j := range jars {
			if j.x != nil && c.e.analysedType(j.x.Type()) {
				c.e.callMethods(j.x.Type(), binding{v: j.x, fr: j.fr}, []string{"Cookies", "SetCookies"}, c.pos, c.fr, c.out)
			}
		}
	} else if !isDefaultClient(c.args[0]) {
		c.egress("sends a request through an *http.Client whose cookie jar the analysis cannot see",
			`build the client where the analysis sees its Jar, or declare the call with //agent:effect`)
	}
}

const (
	clientUnseen = "sends a request through an *http.Client whose Transport the analysis cannot see, which may send it anywhere"
	clientFix    = `build the client where the analysis sees its Transport (or use http.DefaultClient), or declare the call with //agent:effect outbound("...")`
	// The default client when the program rewires it.
	defaultRewired    = "sends a request through http.DefaultClient, which the program rewires (its Transport or CheckRedirect, or http.DefaultTransport), so it may send it anywhere"
	transportRewired  = "sends a request through a client with no Transport of its own, so through http.DefaultTransport, which the program rewires (a store to it or to its proxy or dial function, a RegisterProtocol, a proxy in the environment), so it may send it anywhere"
	defaultRewiredFix = `send through a client built where the analysis sees its Transport, or declare the call with //agent:effect outbound("...")`
)

// returnsStdClient reports whether the function root is a frame of
// returns, as its first result, an *http.Client that sends as the
// default client does on every return (Summary.StdClient).
func (e *Engine) returnsStdClient(root *frame) bool {
	found := false
	for _, v := range pointerResults(root.fn, "net/http.Client") {
		cb := binding{v: v, fr: root}
		transports, ok := e.clientTransports(cb)
		if !ok || e.redirectRewrites(cb) {
			return false
		}
		for _, t := range transports {
			if t.x != nil && (proxied(t) || len(proxyFuncs(t)) > 0 || dialed(t) != "" || e.analysedType(t.x.Type())) {
				return false
			}
		}
		jars, ok := e.clientField(cb, "Jar")
		if !ok {
			return false
		}
		for _, j := range jars {
			if j.x != nil && e.analysedType(j.x.Type()) {
				return false
			}
		}
		found = true
	}
	return found
}

// isDefaultClient reports whether b is http.DefaultClient, read from the
// variable.
func isDefaultClient(b binding) bool {
	b = follow(b)
	load, ok := b.v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == httpPath && g.Name() == "DefaultClient"
}

// clientTransports finds the transports the client b may use: none set
// (the default), or the values stored to its Transport field where the
// client is built. It reports false when it cannot see them.
func (e *Engine) clientTransports(b binding) ([]target, bool) {
	return e.clientField(b, "Transport")
}

// clientField finds the values the client b's field name may hold, as
// clientTransports does for its Transport (the Jar: the cookie jar it
// hands every response's cookies to).
func (e *Engine) clientField(b binding, name string) ([]target, bool) {
	b = follow(b)
	if !b.live() {
		return nil, false
	}
	var out []target
	ok := e.clientOrigins(b.v, b.fr, 0, nil, func(alloc *ssa.Alloc, fr *frame, global *ssa.Global) bool {
		field := fieldIndex(alloc.Type(), name)
		if field < 0 {
			return false
		}
		stores, ok := e.clientFieldStores(alloc, field, global, fr.cur)
		if !ok {
			return false
		}
		for _, v := range stores {
			if c, isConst := v.(*ssa.Const); isConst && c.IsNil() {
				continue
			}
			if !e.concretes(v, fr, 0, &out) {
				return false
			}
		}
		return true
	})
	return out, ok
}

// clientFieldStores collects what is stored to field f of a client built
// at alloc: where it is built, with no other code able to change it (the
// standard library's methods of the client do not). global, when not nil,
// is the package variable of this package the client is kept in, which
// nothing else in the package may write the field through.
//
// at is the instruction the client's frame is at: a call of a function
// of an analysed package there, being resolved, may take the client, as
// its summary left the send to the caller only where the function does
// not change the client's fields (viaClientWith).
func (e *Engine) clientFieldStores(alloc *ssa.Alloc, f int, global *ssa.Global, at ssa.Instruction) ([]ssa.Value, bool) {
	var out []ssa.Value
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			for _, r2 := range *r.Referrers() {
				switch r2 := r2.(type) {
				case *ssa.Store:
					if r2.Addr != r {
						return nil, false
					}
					if r.Field == f {
						out = append(out, r2.Val)
					}
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return nil, false
				}
			}
		case *ssa.Store:
			if fa, ok := r.Addr.(*ssa.FieldAddr); ok && r.Val == ssa.Value(alloc) && e.fieldClientUnchanged(fa) {
				break // kept in a field of the package's that nothing changes it through
			}
			if r.Addr == ssa.Value(alloc) {
				// hc := http.Client{...}: the client is a copy of a
				// literal built here; its fields are the literal's.
				src, ok := copiedLiteral(r, alloc)
				if !ok {
					return nil, false
				}
				vs, ok := e.clientFieldStores(src, f, nil, at)
				if !ok {
					return nil, false
				}
				out = append(out, vs...)
				break
			}
			if r.Addr != global || global == nil {
				return nil, false // the client is kept somewhere else too
			}
		case *ssa.Call:
			if !e.stdCallee(r.Call) && (r != at || !e.analysedCallee(r.Call) || !handedOnce(r.Call, alloc)) {
				return nil, false // handed to code that may set its Transport
			}
		case *ssa.MakeInterface:
			if !onlyInvoked(r) && !e.invokedHandOff(r, alloc, at) {
				return nil, false // the interface value may travel anywhere
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.Return:
			// Returned: judged where the constructor's result is used
			// (clientUnchanged).
		default:
			return nil, false
		}
	}
	if global != nil && e.globalFieldStored(global.Pkg, global, f, true) {
		return nil, false
	}
	return out, true
}

// copiedLiteral returns the composite literal a whole-value store to
// alloc copies (hc := http.Client{Timeout: t}: a local the literal is
// built in, loaded once for this store, and used for nothing else).
func copiedLiteral(st *ssa.Store, alloc *ssa.Alloc) (*ssa.Alloc, bool) {
	load, ok := st.Val.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || len(*load.Referrers()) != 1 {
		return nil, false
	}
	src, ok := load.X.(*ssa.Alloc)
	if !ok || src == alloc || src.Heap {
		return nil, false
	}
	for _, r := range *src.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
		case *ssa.UnOp:
			if r != load {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return src, true
}

// clientUnchanged reports whether the client v (another package's
// constructor's result) is used only where nothing can change its
// fields: read, sent through, handed to the standard library, called
// through an interface (the rules clientFieldStores keeps for a client
// built here).
//
// at, as for clientFieldStores, is a call being resolved that may take
// the client.
func (e *Engine) clientUnchanged(v ssa.Value, at ...ssa.Instruction) bool {
	return e.clientUnchangedIn(v, at, 0)
}

// clientUnchangedIn is clientUnchanged, depth calls into the package's
// helpers the client was handed to.
func (e *Engine) clientUnchangedIn(v ssa.Value, at []ssa.Instruction, depth int) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			for _, r2 := range *r.Referrers() {
				switch r2.(type) {
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return false
				}
			}
		case *ssa.Call:
			if e.stdCallee(r.Call) || len(at) > 0 && r == at[0] && e.analysedCallee(r.Call) && handedOnce(r.Call, v) {
				continue
			}
			if !e.localParamUnchanged(r.Call, v, depth) {
				return false
			}
		case *ssa.MakeInterface:
			if !e.invokedOnly(r, depth) {
				return false
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// invokedOnly reports whether the interface value v (a client converted
// to a Doer) is only called through, here or in the parameters of the
// package's functions it is handed to (postJSON(ctx, s.hc, ...) calling
// d.Do): it goes nowhere that could change the client.
func (e *Engine) invokedOnly(v ssa.Value, depth int) bool {
	if depth > 3 {
		return false
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			if r.Call.IsInvoke() && r.Call.Value == v && !slices.Contains(r.Call.Args, v) {
				continue
			}
			callee := r.Call.StaticCallee()
			if r.Call.IsInvoke() || callee == nil || callee.Parent() != nil || pkgOf(callee) != e.Pkg || len(callee.Blocks) == 0 || r.Call.Value == v {
				return false
			}
			for i, a := range r.Call.Args {
				if a == v && (i >= len(callee.Params) || !e.invokedOnly(callee.Params[i], depth+1)) {
					return false
				}
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// localParamUnchanged reports whether a static call to a function of
// this package hands it v only as parameters that function uses where
// nothing can change the client's fields (a send helper that only calls
// c.Do): the same rule, a few calls deep, without a send to judge.
func (e *Engine) localParamUnchanged(c ssa.CallCommon, v ssa.Value, depth int) bool {
	callee := c.StaticCallee()
	if depth > 3 || c.IsInvoke() || callee == nil || callee.Parent() != nil || pkgOf(callee) != e.Pkg || len(callee.Blocks) == 0 || c.Value == v {
		return false
	}
	for i, a := range c.Args {
		if a == v && (i >= len(callee.Params) || !e.clientUnchangedIn(callee.Params[i], nil, depth+1)) {
			return false
		}
	}
	return true
}

// fieldClientUnchanged reports whether the field fa addresses is an
// unexported field of a struct of this package (fieldStores) that every
// load in the package uses only where nothing can change the client's
// fields (clientUnchanged).
func (e *Engine) fieldClientUnchanged(fa *ssa.FieldAddr) bool {
	key, ok := e.fieldOf(fa)
	if !ok {
		return false
	}
	if _, ok := e.fieldStores(fa); !ok {
		return false
	}
	unchanged := true
	eachInstr(e.packageFuncs(), func(_ *ssa.Function, instr ssa.Instruction) {
		if !unchanged {
			return
		}
		switch a := instr.(type) {
		case *ssa.FieldAddr:
			if k, ok := e.fieldOf(a); !ok || k != key {
				return
			}
			for _, r := range *a.Referrers() {
				if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL && !e.clientUnchanged(load) {
					unchanged = false
				}
			}
		case *ssa.Field:
			// The field read from a struct value (val(c).hc): the client
			// it holds is the same pointer.
			if n, ok := types.Unalias(a.X.Type()).(*types.Named); ok && n == key.t && a.Field == key.field && !e.clientUnchanged(a) {
				unchanged = false
			}
		}
	})
	return unchanged
}

// onlyInvoked reports whether the interface value mi is only called
// through (d.Do(req) on `var d Doer = client`): it goes nowhere that
// could change the client.
func onlyInvoked(mi *ssa.MakeInterface) bool {
	for _, r := range *mi.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			if !r.Call.IsInvoke() || r.Call.Value != mi || slices.Contains(r.Call.Args, ssa.Value(mi)) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// invokedHandOff reports whether the interface value mi (the client
// alloc converted to a Doer) is only called through, or handed to the
// call at, being resolved, of a function of an analysed package, as the
// parameter that function only calls methods on (Engine.invokedAt,
// invokedParam), and the client goes to that call no other way.
func (e *Engine) invokedHandOff(mi *ssa.MakeInterface, alloc *ssa.Alloc, at ssa.Instruction) bool {
	call, ok := at.(*ssa.Call)
	if !ok || at != e.invokedAt || e.invokedParam >= len(call.Call.Args) || call.Call.Args[e.invokedParam] != ssa.Value(mi) {
		return false
	}
	for _, a := range call.Call.Args {
		if a == ssa.Value(alloc) {
			return false
		}
		if m, ok := a.(*ssa.MakeInterface); ok && m != mi && m.X == ssa.Value(alloc) {
			return false
		}
	}
	for _, r := range *mi.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			if r.Call.IsInvoke() && r.Call.Value == ssa.Value(mi) && !slices.Contains(r.Call.Args, ssa.Value(mi)) {
				continue
			}
			if ssa.Instruction(r) != at || !e.analysedCallee(r.Call) || !handedOnce(r.Call, mi) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// defaultClientChanged reports whether this package changes what
// http.DefaultClient (or http.DefaultTransport) sends through: a store to
// a field of the default client, the client handed to code that is not
// the standard library's, or a store to DefaultTransport.
func (e *Engine) defaultClientChanged() bool {
	e.defaultHTTPChanged()
	return e.defaultClient == 2
}

// defaultTransportChanged reports whether this package (or the program,
// DefaultTransportRewired) changes what http.DefaultTransport sends
// through, which a client built with no Transport uses: a store to it,
// or a RegisterProtocol on it.
func (e *Engine) defaultTransportChanged() bool {
	e.defaultHTTPChanged()
	return e.defaultTransport == 2
}

// defaultHTTPChanged computes defaultClient and defaultTransport once.
func (e *Engine) defaultHTTPChanged() {
	if e.defaultClient != 0 {
		return
	}
	e.defaultClient, e.defaultTransport = 1, 1
	if e.DefaultTransportRewired {
		e.defaultTransport = 2
	}
	if e.DefaultClientRewired || e.DefaultTransportRewired {
		e.defaultClient = 2
	}
	if e.Prog == nil {
		return
	}
	pkg := e.Prog.Package(e.Pkg)
	http := e.Prog.ImportedPackage(httpPath)
	if pkg == nil || http == nil {
		return
	}
	client, _ := http.Members["DefaultClient"].(*ssa.Global)
	transport, _ := http.Members["DefaultTransport"].(*ssa.Global)
	if client == nil || transport == nil {
		return
	}
	if e.defaultClient != 2 && e.globalFieldStored(pkg, client, -1, false) {
		e.defaultClient = 2
	}
	eachInstr(packageFuncs(e.Prog, pkg), func(_ *ssa.Function, instr ssa.Instruction) {
		if st, ok := instr.(*ssa.Store); ok && st.Addr == transport {
			e.defaultClient, e.defaultTransport = 2, 2
		}
		// http.DefaultTransport.(*http.Transport).RegisterProtocol(...)
		if ta, ok := instr.(*ssa.TypeAssert); ok {
			if load, ok := ta.X.(*ssa.UnOp); ok && load.X == transport && registersProtocol(ta) {
				e.defaultClient, e.defaultTransport = 2, 2
			}
		}
	})
}

// registersProtocol reports whether v, http.DefaultTransport asserted to
// its type, is the receiver of a RegisterProtocol call: the RoundTripper
// it registers sends the scheme's requests wherever it likes. (A
// transport built here and handed to RegisterProtocol is one whose
// fields the analysis no longer sees: proxied.)
func registersProtocol(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		if c, ok := r.(ssa.CallInstruction); ok && staticKey(*c.Common()) == "net/http.Transport.RegisterProtocol" && len(c.Common().Args) > 0 && c.Common().Args[0] == v {
			return true
		}
	}
	return false
}

// packageFuncs returns the functions of pkg: its members and the methods
// of its types.
func packageFuncs(prog *ssa.Program, pkg *ssa.Package) []*ssa.Function {
	var fns []*ssa.Function
	for _, m := range members(pkg) {
		if fn, ok := m.(*ssa.Function); ok {
			fns = append(fns, fn)
		}
	}
	for _, t := range members(pkg) {
		if tt, ok := t.(*ssa.Type); ok && prog != nil {
			ms := prog.MethodSets.MethodSet(types.NewPointer(tt.Type()))
			for i := 0; i < ms.Len(); i++ {
				if fn := prog.MethodValue(ms.At(i)); fn != nil && fn.Pkg == pkg {
					fns = append(fns, fn)
				}
			}
		}
	}
	return fns
}

// globalFieldStored reports whether any function of pkg stores to field
// f (any field, with f < 0) of the struct the pointer variable g holds,
// or, with calls, hands the pointer to code outside the standard library,
// which may.
func (e *Engine) globalFieldStored(pkg *ssa.Package, g *ssa.Global, f int, calls bool) bool {
	fns := packageFuncs(e.Prog, pkg)
	found := false
	eachInstr(fns, func(_ *ssa.Function, instr ssa.Instruction) {
		load, ok := instr.(*ssa.UnOp)
		if found || !ok || load.X != g {
			return
		}
		for _, r := range *load.Referrers() {
			switch r := r.(type) {
			case *ssa.FieldAddr:
				if f >= 0 && r.Field != f {
					continue
				}
				for _, r2 := range *r.Referrers() {
					if st, ok := r2.(*ssa.Store); ok && st.Addr == r {
						found = true
					}
				}
			case *ssa.Call:
				if calls && !e.stdCallee(r.Call) {
					found = true // a helper may set the field
				}
			case *ssa.Store:
				if calls && r.Val == load {
					found = true // the pointer is kept elsewhere
				}
			case *ssa.MakeInterface:
				found = found || (calls && !onlyInvoked(r))
			}
		}
	})
	return found
}

// clientFieldOrigins is clientOrigins for a client read from an
// unexported field of a struct of this package where the struct was built
// out of sight: every store the package makes to the field.
func (e *Engine) clientFieldOrigins(fa *ssa.FieldAddr, fr *frame, depth int, visit func(*ssa.Alloc, *frame, *ssa.Global) bool) bool {
	sts, ok := e.fieldStores(fa)
	if !ok {
		return false
	}
	key, _ := e.fieldOf(fa)
	if e.fieldBusy[key] {
		return false
	}
	if e.fieldBusy == nil {
		e.fieldBusy = map[fieldKey]bool{}
	}
	e.fieldBusy[key] = true
	defer delete(e.fieldBusy, key)
	for _, st := range sts {
		if c, isConst := st.Val.(*ssa.Const); isConst && c.IsNil() {
			continue
		}
		if !e.clientOrigins(st.Val, &frame{fn: st.Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, depth+1, nil, visit) {
			return false
		}
	}
	return true
}

// clientOrigins follows a *http.Client value back to where it was made
// and calls visit on each local allocation; http.DefaultClient needs no
// visit. It reports false when an origin is out of sight.
func (e *Engine) clientOrigins(v ssa.Value, fr *frame, depth int, global *ssa.Global, visit func(*ssa.Alloc, *frame, *ssa.Global) bool) bool {
	if depth > 16 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Alloc:
		return visit(v, fr, global)
	case *ssa.UnOp:
		if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
			if g.Pkg != nil && g.Pkg.Pkg.Path() == httpPath && g.Name() == "DefaultClient" {
				return !e.defaultClientChanged()
			}
			if val, ok := e.InitGlobals[g]; ok {
				if init := g.Pkg.Func("init"); init != nil {
					return e.clientOrigins(val, &frame{fn: init, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, depth+1, g, visit)
				}
			}
			return false
		}
		if v.Op == token.MUL {
			stores := storedValues(v.X, fr)
			if fa, ok := v.X.(*ssa.FieldAddr); ok && len(stores) == 0 {
				// An unexported field of a struct of this package, read
				// where the struct was built out of sight (a service's
				// hc, set by its constructor): every store the package
				// makes to the field.
				return e.clientFieldOrigins(fa, fr, depth, visit)
			}
			if len(stores) == 0 {
				return false
			}
			for _, s := range stores {
				if !e.clientOrigins(s.v, s.fr, depth+1, nil, visit) {
					return false
				}
			}
			return true
		}
	case *ssa.Phi:
		for _, ed := range v.Edges {
			if !e.clientOrigins(ed, fr, depth+1, nil, visit) {
				return false
			}
		}
		return true
	case *ssa.Parameter:
		if b, ok := fr.param(paramIndex(fr.fn, v)); ok {
			if b = follow(b); b.live() {
				return e.clientOrigins(b.v, b.fr, depth+1, nil, visit)
			}
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) && fr.free[i].live() {
				return e.clientOrigins(fr.free[i].v, fr.free[i].fr, depth+1, nil, visit)
			}
		}
	case *ssa.Call:
		if callee := v.Call.StaticCallee(); callee != nil && e.Import != nil && callee.Pkg != nil && callee.Pkg.Pkg != e.Pkg {
			// Another package's constructor that returns a client as
			// standard as the default one.
			if obj, ok := callee.Object().(*types.Func); ok {
				if s := e.Import(obj); s != nil && s.StdClient {
					return e.clientUnchanged(v, fr.cur)
				}
			}
			return false
		}
		if !e.clientUnchanged(v, fr.cur) {
			return false // the caller may set what the constructor did not
		}
		cf, rets := e.localReturns(v, fr)
		if cf == nil || len(rets) == 0 {
			return false
		}
		for _, ret := range rets {
			if len(ret.Results) == 0 || !e.clientOrigins(ret.Results[0], cf, depth+1, nil, visit) {
				return false
			}
		}
		return true
	case *ssa.Field, *ssa.FieldAddr:
		if bs, ok := e.fieldValues(v, fr); ok {
			for _, b := range bs {
				if !e.clientOrigins(b.v, b.fr, depth+1, nil, visit) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// fieldIndex returns the index of the named field of the struct a
// pointer type points to, or -1.
func fieldIndex(ptr types.Type, name string) int {
	if _, ok := ptr.Underlying().(*types.Pointer); !ok {
		return -1
	}
	return structFieldIndex(ptr, name)
}

// request traces a *http.Request back to the NewRequest call that made
// it, returning its URL or its method. A request whose URL (or Host) is
// written after it is made does not prove its URL.
func (e *Engine) request(v ssa.Value, fr *frame, method bool) Str {
	switch v := v.(type) {
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if s, ok := e.importedRequest(call, fr, method); ok {
				if !method && e.reqRewritten(v, 0) {
					return unknownStr()
				}
				return s
			}
			if a, ok := newRequestArgs[staticKey(call.Call)]; ok {
				if method {
					return e.trace(call.Call.Args[a.method], fr, handleString)
				}
				if e.reqRewritten(v, 0) {
					return unknownStr()
				}
				return e.trace(call.Call.Args[a.url], fr, handleString)
			}
		}
	case *ssa.Call:
		if s, ok := e.importedRequest(v, fr, method); ok {
			if !method && e.reqRewritten(v, 0) {
				return unknownStr()
			}
			return s
		}
		switch staticKey(v.Call) {
		case "net/http.Request.WithContext", "net/http.Request.Clone":
			h := handleReqURL
			if method {
				h = handleReqMethod
			}
			if !method && e.reqRewritten(v, 0) {
				return unknownStr()
			}
			return e.trace(v.Call.Args[0], fr, h)
		}
	}
	return unknownStr()
}

// urlQueryFields are the fields of a url.URL after its path.
var urlQueryFields = map[string]bool{"RawQuery": true, "ForceQuery": true, "Fragment": true, "RawFragment": true}

// reqRewritten reports whether the request (or its URL) v may be changed
// where the analysis sees it used: a store to its URL or Host, to a field
// of its URL, or the URL handed to code outside the standard library.
func (e *Engine) reqRewritten(v ssa.Value, depth int) bool {
	if depth > 8 {
		return true
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			name := fieldName(r.X.Type(), r.Field)
			if name != "URL" && name != "Host" && depth == 0 {
				continue
			}
			if depth > 0 && urlQueryFields[name] && qualifiedName(r.X.Type()) == "net/url.URL" {
				// The query and the fragment (req.URL.RawQuery =
				// q.Encode()) follow the path: they cannot change where
				// the request goes.
				continue
			}
			for _, r2 := range *r.Referrers() {
				switch r2 := r2.(type) {
				case *ssa.Store:
					if r2.Addr == r {
						return true
					}
				case *ssa.UnOp:
					if name == "URL" && e.reqRewritten(r2, depth+1) {
						return true
					}
				}
			}
		case *ssa.Store:
			if r.Val == v && depth > 0 {
				return true // the *url.URL is kept elsewhere
			}
			if r.Addr == v {
				return true // *req = *other, *req.URL = ...
			}
		case *ssa.MakeInterface:
			if depth > 0 && !onlyFormatted(r) {
				return true // the *url.URL is handed on as an interface
			}
		case *ssa.Call:
			if depth > 0 && staticKey(r.Call) == "net/url.URL.UnmarshalBinary" {
				return true
			}
			if depth > 0 && !e.stdCallee(r.Call) && (!e.calleeKnown(r.Call) || e.calleeWritesReq(r.Call, v)) {
				return true // the *url.URL is handed to code that may change it
			}
			if depth == 0 && e.calleeWritesReq(r.Call, v) {
				return true
			}
			if depth == 0 && staticKey(r.Call) == "net/http.Request.WithContext" && e.reqRewritten(r, depth+1) {
				return true // the shallow copy shares the URL
			}
		}
	}
	return false
}

// calleeWritesReq reports whether a call hands the request v to a
// function whose summary says it changes that parameter's URL.
func (e *Engine) calleeWritesReq(c ssa.CallCommon, v ssa.Value) bool {
	if c.IsInvoke() {
		return false
	}
	fn := c.StaticCallee()
	if fn == nil {
		return false
	}
	var s *Summary
	obj := funcObject(fn)
	switch {
	case fn.Parent() != nil || obj == nil:
		return false
	case obj.Pkg() == e.Pkg:
		if e.inProgress(fn) {
			return false
		}
		s = e.local(fn)
	case obj.Pkg() != nil && e.Analysed != nil && e.Analysed(obj.Pkg()) && e.Import != nil:
		s = e.Import(obj)
	}
	if s == nil {
		if obj == nil || obj.Pkg() == nil || e.WritesReq == nil {
			return false
		}
		for i, a := range c.Args {
			if a == v && e.WritesReq(obj, i) {
				return true
			}
		}
		return false
	}
	for _, i := range s.ReqWrites {
		if i < len(c.Args) && c.Args[i] == v {
			return true
		}
	}
	return false
}

// calleeKnown reports whether what a call's callee does to the requests
// and URLs it is handed is known: a function of this package, of an
// analysed one (its summary's ReqWrites), or of one read for its
// ReqWritesFact; not a dynamic call, nor a function with no body.
func (e *Engine) calleeKnown(c ssa.CallCommon) bool {
	if c.IsInvoke() {
		return false
	}
	fn := c.StaticCallee()
	if fn == nil || fn.Parent() != nil {
		return false
	}
	obj := funcObject(fn)
	switch {
	case obj == nil || obj.Pkg() == nil:
		return false
	case obj.Pkg() == e.Pkg:
		return len(fn.Blocks) > 0 && !e.inProgress(fn)
	case e.Analysed != nil && e.Analysed(obj.Pkg()):
		return e.Import != nil && e.Import(obj) != nil
	}
	return e.WritesReq != nil
}

// stdCallee reports whether a call's callee is a function of the
// standard library.
func (e *Engine) stdCallee(c ssa.CallCommon) bool {
	if c.IsInvoke() {
		return false
	}
	fn := c.StaticCallee()
	if fn == nil {
		_, builtin := c.Value.(*ssa.Builtin)
		return builtin
	}
	obj := funcObject(fn)
	return obj != nil && e.stdPkg(obj.Pkg())
}

// stdPkg reports whether pkg is a package of the standard library: not
// analysed, and with no dot in its first path element.
func (e *Engine) stdPkg(pkg *types.Package) bool {
	if pkg == nil || pkg == e.Pkg || (e.Analysed != nil && e.Analysed(pkg)) {
		return false
	}
	return stdPath(pkg.Path())
}

func stdPath(path string) bool {
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '.':
			return false
		case '/':
			return inGoroot(path)
		}
	}
	return inGoroot(path)
}

// inGoroot reports whether path is a directory of the standard library's
// source: a module may be named without a dot (module myservice), and
// its packages are not the standard library's.
func inGoroot(path string) bool {
	if v, ok := gorootDirs.Load(path); ok {
		return v.(bool)
	}
	root := gorootSrc()
	std := root == "" // no usable GOROOT: the dotless path decides
	if !std {
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(path)))
		std = err == nil && fi.IsDir()
	}
	gorootDirs.Store(path, std)
	return std
}

var gorootDirs sync.Map // package path → in GOROOT/src

// gorootSrc is the standard library's source directory: GOROOT's src,
// checked to hold the standard library (a binary built on another
// machine may remember a GOROOT that is not here), or "".
var gorootSrc = sync.OnceValue(func() string {
	for _, root := range []string{os.Getenv("GOROOT"), build.Default.GOROOT} {
		if root == "" {
			continue
		}
		src := filepath.Join(root, "src")
		if fi, err := os.Stat(filepath.Join(src, "net", "http")); err == nil && fi.IsDir() {
			return src
		}
	}
	return ""
})

// fieldName names field i of the struct a pointer type points to.
func fieldName(ptr types.Type, i int) string {
	p, ok := ptr.Underlying().(*types.Pointer)
	if !ok {
		return ""
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return ""
	}
	return st.Field(i).Name()
}

// egressLibrary: ways out of the process other than net/http. Each is
// unprovable unless a hatch declares it (outbound("alias:smtp")).
func egressLibrary() *Library {
	l := &Library{
		Name:    "egress",
		Paths:   []string{"net", "crypto/tls", "net/smtp", "net/rpc", "net/http/httputil", "net/http/cgi", "net/textproto", "os/exec", "syscall", "plugin"},
		Models:  map[string]model{},
		Handles: []string{"net.Dialer", "net.Conn", "os/exec.Cmd", "net/smtp.Client", "net/http/httputil.ReverseProxy"},
	}
	egress := func(what string) model {
		return func(c *callSite) {
			c.unprovable(what+" ("+shortFunc(c.fn)+"), which leaves the process outside net/http",
				`declare it with //agent:effect outbound("alias:NAME") and list the alias in the grant`)
			c.handOff()
		}
	}
	for _, k := range append(keys("net.", "Dial", "DialTimeout", "DialTCP", "DialUDP", "DialIP", "DialUnix"),
		keys("net.Dialer.", "Dial", "DialContext", "DialTCP", "DialUDP", "DialIP", "DialUnix")...) {
		l.Models[k] = egress("opens a network connection")
	}
	l.Models["net/textproto.Dial"] = egress("opens a network connection")
	// A listening socket sends where its WriteTo says.
	for _, recv := range []string{"net.UDPConn.", "net.IPConn.", "net.UnixConn."} {
		for _, k := range keys(recv, "WriteTo", "WriteToUDP", "WriteToUDPAddrPort", "WriteMsgUDP", "WriteMsgUDPAddrPort", "WriteToIP", "WriteMsgIP", "WriteToUnix", "WriteMsgUnix") {
			l.Models[k] = egress("sends a datagram")
		}
	}
	l.IfaceModels = map[string]model{"net.PacketConn.WriteTo": egress("sends a datagram")}
	// Writing to a connection sends data out, wherever it was dialled
	// (at start-up, out of sight); its other methods add nothing.
	for _, name := range []string{"Read", "Close", "LocalAddr", "RemoteAddr", "SetDeadline", "SetReadDeadline", "SetWriteDeadline"} {
		l.IfaceModels["net.Conn."+name] = func(*callSite) {}
	}
	writeConn := egress("writes to a network connection")
	l.IfaceModels["net.Conn.Write"] = func(c *callSite) {
		if fromHijack(c.args[0]) {
			return // the requester's own connection
		}
		writeConn(c)
	}
	// A DNS lookup leaves the process too, and its name carries data.
	for _, k := range append(keys("net.", "LookupHost", "LookupIP", "LookupAddr", "LookupCNAME", "LookupMX", "LookupNS", "LookupTXT", "LookupSRV", "LookupPort", "LookupNetIP"),
		keys("net.Resolver.", "LookupHost", "LookupIP", "LookupIPAddr", "LookupAddr", "LookupCNAME", "LookupMX", "LookupNS", "LookupTXT", "LookupSRV", "LookupPort", "LookupNetIP")...) {
		l.Models[k] = egress("resolves a name over DNS")
	}
	// An address is resolved over DNS when its host is a name.
	for _, k := range keys("net.", "ResolveTCPAddr", "ResolveUDPAddr", "ResolveIPAddr") {
		l.Models[k] = egress("resolves a name over DNS")
	}
	for _, recv := range []string{"net.TCPConn.", "net.UDPConn.", "net.IPConn.", "net.UnixConn.", "crypto/tls.Conn."} {
		l.Models[recv+"Write"] = egress("writes to a network connection")
	}
	l.Models["log/syslog.Dial"] = egress("sends log records to a remote syslog")
	l.Paths = append(l.Paths, "log/syslog")
	for _, name := range []string{"ReadFrom", "Close", "LocalAddr", "SetDeadline", "SetReadDeadline", "SetWriteDeadline"} {
		l.IfaceModels["net.PacketConn."+name] = func(*callSite) {}
	}
	for _, k := range append(keys("crypto/tls.", "Dial", "DialWithDialer"), keys("crypto/tls.Dialer.", "Dial", "DialContext")...) {
		l.Models[k] = egress("opens a TLS connection")
	}
	for _, k := range keys("net/smtp.", "SendMail", "Dial", "NewClient") {
		l.Models[k] = egress("sends mail")
	}
	for _, k := range append(keys("net/rpc.", "Dial", "DialHTTP", "DialHTTPPath"), "net/rpc/jsonrpc.Dial") {
		l.Models[k] = egress("opens an RPC connection")
	}
	for _, k := range keys("net/http/httputil.ReverseProxy.", "ServeHTTP") {
		l.Models[k] = egress("proxies the request to another server")
	}
	for _, k := range keys("os/exec.Cmd.", "Run", "Start", "Output", "CombinedOutput") {
		l.Models[k] = egress("runs a program")
	}
	// A CGI handler runs its program for the request.
	l.Models["net/http/cgi.Handler.ServeHTTP"] = egress("runs a program")
	for _, k := range append(keys("syscall.", "Exec", "ForkExec", "StartProcess", "Connect", "Sendto", "Sendmsg", "SendmsgN"), "os.StartProcess", "plugin.Open") {
		l.Models[k] = egress("runs a program or opens a connection")
	}
	return l
}

// connTypes are the connections whose writes send data out.
var connTypes = map[string]bool{
	"net.Conn": true, "net.TCPConn": true, "net.UDPConn": true, "net.IPConn": true,
	"net.UnixConn": true, "crypto/tls.Conn": true,
}

// connAsWriter reports a network connection handed on as another
// interface with a Write method (io.Writer, to io.Copy, bufio.NewWriter,
// a JSON encoder): whatever writes to it sends data out of the process,
// out of sight of the models of net.Conn. The requester's own hijacked
// connection is exempt.
func (e *Engine) connAsWriter(pos token.Pos, x ssa.Value, to types.Type, fr *frame, out *collector) {
	t := x.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if !connTypes[qualifiedName(t)] || qualifiedName(to) == "net.Conn" {
		return
	}
	if it, ok := to.Underlying().(*types.Interface); !ok || !hasMethod(it, "Write") {
		return
	}
	if fromHijack(binding{v: x, fr: fr}) {
		return
	}
	e.hatched(pos, fr, out, func(target *collector) {
		target.add(e.unprovable(pos, "hands a network connection on as a writer, which leaves the process outside net/http wherever it is written",
			`declare it with //agent:effect outbound("alias:NAME") and list the alias in the grant`))
	})
}

// proxied reports whether a standard *http.Transport the analysis sees
// made (t) has a Proxy other than http.ProxyFromEnvironment: every
// request then goes to the proxy's host, whatever its URL.
func proxied(t target) bool {
	alloc, ok := t.x.(*ssa.Alloc)
	if !ok || qualifiedName(alloc.Type()) != "net/http.Transport" {
		return false
	}
	f := fieldIndex(alloc.Type(), "Proxy")
	if f < 0 {
		return false
	}
	var bs []binding
	if !fieldOfAlloc(alloc, f, t.fr, 0, &bs) {
		return true
	}
	for _, b := range bs {
		if c, ok := b.v.(*ssa.Const); ok && c.IsNil() {
			continue
		}
		if fn, ok := b.v.(*ssa.Function); ok && fn.Pkg != nil && fn.Pkg.Pkg.Path() == httpPath && fn.Name() == "ProxyFromEnvironment" {
			continue
		}
		if directProxy(b.v) {
			continue
		}
		return true
	}
	return false
}

// proxyFuncs returns the program's own Proxy functions set on the
// http.Transport t builds (proxied has judged them direct).
func proxyFuncs(t target) []binding {
	alloc, ok := t.x.(*ssa.Alloc)
	if !ok || qualifiedName(alloc.Type()) != "net/http.Transport" {
		return nil
	}
	var bs, fs []binding
	if f := fieldIndex(alloc.Type(), "Proxy"); f < 0 || !fieldOfAlloc(alloc, f, t.fr, 0, &bs) {
		return nil
	}
	for _, b := range bs {
		if directProxy(b.v) {
			fs = append(fs, b)
		}
	}
	return fs
}

// directProxy reports whether v is a Proxy function of the program's
// own that returns a nil *url.URL on every path: every request goes
// straight to its URL's host. (Its body is walked where it is handed
// over, like any function value the handler creates.)
func directProxy(v ssa.Value) bool {
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	returns := 0
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 {
			return false
		}
		if c, ok := ret.Results[0].(*ssa.Const); !ok || !c.IsNil() {
			return false
		}
		returns++
	}
	return returns > 0
}

// dialed names the dial function set on an http.Transport built here
// (DialContext, DialTLSContext, Dial, DialTLS): the connection goes where
// it says, not where the URL does. A dialer's own DialContext method
// (a net.Dialer's, which dials the address it is handed) is not one.
func dialed(t target) string {
	alloc, ok := t.x.(*ssa.Alloc)
	if !ok || qualifiedName(alloc.Type()) != "net/http.Transport" {
		return ""
	}
	for _, name := range []string{"DialContext", "DialTLSContext", "Dial", "DialTLS"} {
		f := fieldIndex(alloc.Type(), name)
		if f < 0 {
			continue
		}
		var bs []binding
		if !fieldOfAlloc(alloc, f, t.fr, 0, &bs) {
			return name
		}
		for _, b := range bs {
			if c, ok := b.v.(*ssa.Const); ok && c.IsNil() {
				continue
			}
			if netDialerMethod(b.v) {
				continue // (&net.Dialer{...}).DialContext: the address it is handed
			}
			return name
		}
	}
	return ""
}

// netDialerMethod reports whether v is a method value of package net's
// own ((&net.Dialer{...}).DialContext), which dials the address it is
// handed.
func netDialerMethod(v ssa.Value) bool {
	mc, ok := v.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	return ok && fn.Synthetic != "" && fn.Object() != nil && fn.Object().Pkg() != nil && fn.Object().Pkg().Path() == "net"
}

// transportDialer reports whether st stores a net.Dialer's own method
// into a dial field of an http.Transport (a pooled transport a library
// builds and returns): the transport dials the host its request names,
// so the method is not run on anything the program chose.
func transportDialer(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok || !netDialerMethod(st.Val) {
		return false
	}
	t := fa.X.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if qualifiedName(t) != "net/http.Transport" {
		return false
	}
	switch fieldName(fa.X.Type(), fa.Field) {
	case "DialContext", "Dial", "DialTLSContext", "DialTLS":
		return true
	}
	return false
}

// redirectRewrites reports whether the client b was built with a
// CheckRedirect that may change a redirect's URL or Host (the request it
// is handed is the one sent next), or one the analysis cannot read.
func (e *Engine) redirectRewrites(b binding) bool {
	b = follow(b)
	if !b.live() {
		return false
	}
	rewrites := false
	e.clientOrigins(b.v, b.fr, 0, nil, func(alloc *ssa.Alloc, fr *frame, global *ssa.Global) bool {
		field := fieldIndex(alloc.Type(), "CheckRedirect")
		if field < 0 {
			return true
		}
		stores, ok := e.clientFieldStores(alloc, field, global, fr.cur)
		if !ok {
			return true // unseen: the transports' check says so
		}
		for _, v := range stores {
			if c, isConst := v.(*ssa.Const); isConst && c.IsNil() {
				continue
			}
			fs := e.funcsOf(v, fr)
			if fs.unresolved || len(fs.params)+len(fs.fieldParams)+len(fs.elemParams)+len(fs.returned) > 0 {
				rewrites = true
				continue
			}
			for _, cl := range fs.callables {
				if len(cl.fn.Params) == 0 || len(cl.fn.Blocks) == 0 || e.reqRewritten(cl.fn.Params[0], 0) {
					rewrites = true
				}
			}
		}
		return true
	})
	return rewrites
}

func hasMethod(it *types.Interface, name string) bool {
	for i := 0; i < it.NumMethods(); i++ {
		if it.Method(i).Name() == name {
			return true
		}
	}
	return false
}

// fromHijack reports whether a connection is the one http.Hijacker's
// Hijack returned: the requester's own.
func fromHijack(b binding) bool {
	v := b.v
	for i := 0; i < 8 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.Extract:
			if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 && call.Call.IsInvoke() && call.Call.Method.Name() == "Hijack" {
				return true
			}
			return false
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		default:
			return false
		}
	}
	return false
}

// handedOnce reports whether c takes v as one argument only: a helper
// that sends through one parameter and rewires another may be handed
// the same client as both.
func handedOnce(c ssa.CallCommon, v ssa.Value) bool {
	n := 0
	for _, a := range c.Args {
		if a == v {
			n++
		}
	}
	return n == 1
}

// analysedCallee reports whether c statically calls a function of a
// package the analysis summarises (this one or an analysed dependency).
func (e *Engine) analysedCallee(c ssa.CallCommon) bool {
	fn := c.StaticCallee()
	if fn == nil {
		return false
	}
	obj := funcObject(fn)
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	return obj.Pkg() == e.Pkg || e.Analysed != nil && e.Analysed(obj.Pkg()) && !lib().modelled(obj.Pkg().Path())
}

// returnsReq reports whether the function root is a frame of returns,
// as its first result, a *http.Request it builds on every return that is
// not nil, and the URL and method that request carries, in terms of the
// function's parameters (Summary.ReturnsReq).
func (e *Engine) returnsReq(root *frame) (bool, Str, Str) {
	var url, method Str
	found := false
	for _, v := range pointerResults(root.fn, "net/http.Request") {
		url = unionStr(url, e.trace(v, root, handleReqURL))
		method = unionStr(method, e.trace(v, root, handleReqMethod))
		found = true
	}
	if !found || !url.informative() {
		return false, Str{}, Str{}
	}
	return true, url, method
}

// importedRequest traces a request another package's function built and
// returned (Summary.ReturnsReq), with the call's arguments.
func (e *Engine) importedRequest(call *ssa.Call, fr *frame, method bool) (Str, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || e.Import == nil || callee.Pkg == nil || callee.Pkg.Pkg == e.Pkg {
		return Str{}, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return Str{}, false
	}
	s := e.Import(obj)
	if s == nil || !s.ReturnsReq {
		return Str{}, false
	}
	sub := e.subFor(&instCtx{args: bind(call.Call.Args, fr)})
	if method {
		return s.ReqMethod.subst(sub), true
	}
	return s.ReqURL.subst(sub), true
}

// onlyFormatted reports whether the interface value mi is only handed to
// fmt, log or log/slog to be printed (fmt.Errorf("%s", req.URL), directly
// or through the variadic array), which reads it.
func onlyFormatted(mi *ssa.MakeInterface) bool {
	printing := func(c ssa.CallCommon) bool {
		fn := c.StaticCallee()
		if fn == nil || fn.Pkg == nil {
			return false
		}
		switch fn.Pkg.Pkg.Path() {
		case "fmt":
			return !strings.Contains(fn.Name(), "scan") && !strings.Contains(fn.Name(), "Scan")
		case "log", "log/slog":
			return true
		}
		return false
	}
	for _, r := range *mi.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			if !printing(r.Call) {
				return false
			}
		case *ssa.Store:
			ia, ok := r.Addr.(*ssa.IndexAddr)
			if !ok || r.Val != ssa.Value(mi) {
				return false
			}
			arr, ok := ia.X.(*ssa.Alloc)
			if !ok {
				return false
			}
			for _, ar := range *arr.Referrers() {
				switch ar := ar.(type) {
				case *ssa.IndexAddr:
				case *ssa.Slice:
					for _, sr := range *ar.Referrers() {
						c, ok := sr.(*ssa.Call)
						if !ok || !printing(c.Call) {
							return false
						}
					}
				default:
					return false
				}
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// pointerResults are the first results fn returns, other than nil, when
// its first result is a pointer to the named type qname.
func pointerResults(fn *ssa.Function, qname string) []ssa.Value {
	res := fn.Signature.Results()
	if res.Len() == 0 || qualifiedName(res.At(0).Type()) != qname {
		return nil
	}
	if _, isPtr := res.At(0).Type().(*types.Pointer); !isPtr {
		return nil
	}
	var out []ssa.Value
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		if c, isConst := ret.Results[0].(*ssa.Const); isConst && c.IsNil() {
			continue
		}
		out = append(out, ret.Results[0])
	}
	return out
}
