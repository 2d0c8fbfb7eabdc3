package effects

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"github.com/authvet/authvet/grant"
)

// Effect kinds: grant's (grant.Kinds is the table). They match the
// diagnostic categories and the manifest's "kind" values.
const (
	Write              = grant.KindWrite
	UnboundedWrite     = grant.KindUnboundedWrite
	CrossTenant        = grant.KindCrossTenant
	Outbound           = grant.KindOutbound
	Job                = grant.KindJob
	Webhook            = grant.KindWebhook
	Detached           = grant.KindDetached
	Unprovable         = grant.KindUnprovable
	AssertedEffectFree = grant.KindAssertedEffectFree
)

// Provenance says where an effect's subject came from.
type Provenance string

// Provenance values, as the manifest spells them.
const (
	TypeResolved Provenance = "type_resolved"
	Syntactic    Provenance = "syntactic"
	Declared     Provenance = "declared"
)

// Position is a source position that survives serialisation in facts,
// unlike token.Pos, which is only meaningful inside one FileSet.
type Position struct {
	File      string
	Line, Col int
}

// PositionOf converts a token.Pos.
func PositionOf(fset *token.FileSet, pos token.Pos) Position {
	if !pos.IsValid() {
		return Position{}
	}
	p := fset.Position(pos)
	return Position{File: p.Filename, Line: p.Line, Col: p.Column}
}

// IsValid reports whether p names a place.
func (p Position) IsValid() bool { return p.File != "" && p.Line > 0 }

func (p Position) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

func comparePos(a, b Position) int {
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Col, b.Col)
}

// Effect is one proved, declared or unprovable effect, at the innermost
// site that causes it.
type Effect struct {
	Kind       string
	Subject    string
	Method     string // HTTP method of an outbound effect, when constant
	Provenance Provenance
	Reason     string // unprovable: why; asserted_effect_free: the author's reason
	Fix        string // unprovable: the annotation or change that resolves it
	Pos        Position
	Via        []Position // the calls leading to Pos, outermost first

	// Module is the module whose code holds the site. A Local effect
	// counts only for handlers of that module: a goroutine that does
	// nothing the analysis can see, and a function with no Go body that
	// is handed no handle, are reviewed where they are written, not in
	// every module that depends on them. Everything else counts
	// wherever it is reached (SPEC §4.1).
	Module string
	Local  bool

	// Egress (unprovable): the site sends a request whose URL the
	// analysis cannot read, from code in package Pkg; a configured
	// client for that package declares where it goes.
	Egress bool
	Pkg    string
	// Safe (outbound): the call only reads, whatever its method (a
	// configured sink's safe: true).
	Safe bool
	// Slot (unprovable): what the site calls and could not name. A
	// function-typed struct field, "pkgpath.Type.Field"
	// (net/http.Client.CheckRedirect), when the value was read from a
	// struct the analysis could not see built; or a method of a named
	// interface, "pkgpath.Iface.Method()". The manifest, which links the
	// whole program, resolves a field through every store into it, and a
	// method through every type that implements the interface.
	Slot string
	// More (unprovable, detached): sites like this one past
	// maxUnprovable were dropped from the summary; this site stands for
	// them, so it can never be resolved away (see capUnprovable).
	More bool
}

// Report is where a diagnostic about e belongs in the function whose
// summary holds it: the outermost call of the chain, or the site itself.
func (e *Effect) Report() Position {
	if len(e.Via) > 0 {
		return e.Via[0]
	}
	return e.Pos
}

// effectKey identifies an effect in a collector: two effects with the
// same key are one, whatever their call chains.
type effectKey struct {
	kind, subject, method, reason, slot string
	pos, report                         Position
	local                               bool
}

func (e *Effect) key() effectKey {
	return effectKey{e.Kind, e.Subject, e.Method, e.Reason, e.Slot, e.Pos, e.Report(), e.Local}
}

func compareEffects(a, b *Effect) int {
	if c := comparePos(a.Report(), b.Report()); c != 0 {
		return c
	}
	if c := comparePos(a.Pos, b.Pos); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Subject, b.Subject); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Method, b.Method); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Reason, b.Reason); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Slot, b.Slot); c != 0 {
		return c
	}
	switch {
	case a.Local == b.Local:
		return 0
	case a.Local:
		return 1
	}
	return -1
}

// Op is the operation of a pending site: one whose subject depends on a
// parameter of the function that holds it, so it is resolved at each call.
type Op uint8

// Pending operations.
const (
	OpSQL        Op = iota + 1 // SQL text reaches a database call
	OpURL                      // a URL reaches an HTTP request
	OpSubject                  // the subject of a configured sink (Kind says which)
	OpCallParam                // the function-valued parameter Param is called
	OpCallMethod               // method Name is called on the interface-typed parameter Param
	OpTxEnqueue                // a non-transactional enqueue: unprovable where the call is inside a transaction
	OpDetachIf                 // work was stored into parameter Param's structure: detached if that outlives the request
	OpEgress                   // a request whose destination is out of sight (Reason, Fix); Method is its HTTP method
)

// Pending is a site whose subject is a function of the holder's parameters.
type Pending struct {
	Op     Op
	Kind   string // OpSubject: the effect kind
	Text   Str    // SQL text, URL, or subject, in terms of parameters
	Method Str    // OpURL: the HTTP method
	Param  int    // OpCallParam, OpCallMethod: the parameter called
	Name   string // OpCallMethod: the method
	Reason string // OpCallMethod, OpTxEnqueue: why the site is unprovable
	Fix    string // OpTxEnqueue: the fix
	Args   []Arg  // OpCallMethod: the method's arguments, receiver not counted
	// ShapeArg (1-based, into Args): the interface is shaped like a SQL
	// handle, and this argument is its SQL text; unresolved, the call
	// runs that text rather than being unprovable.
	ShapeArg int
	// Result (OpCallParam, 1-based): the value called is not the
	// parameter but result Result-1 of calling it (a factory handed in:
	// typed := handlerFn(deps); typed(ctx, req)).
	Result int
	Detach bool // OpCallParam, OpCallMethod: the value may run after the call returns
	// DetachIf (1-based): the value is stored into that parameter's
	// structure, so it runs after the request if that structure outlives it.
	DetachIf int
	InTx     bool // OpCallParam: the callback runs inside a transaction
	Elem     bool // OpCallParam: the elements of the slice parameter are called
	// Fields (OpCallParam, OpCallMethod): the value called is not the
	// parameter but the field at this path of struct fields in it
	// (opts.Body, cfg.Store.Reader).
	Fields []int
	Prov   Provenance // of the resolved effect; Syntactic when empty
	// Dialect (OpSQL): the SQL dialect the driver fixes (sqltext.Dialect);
	// zero when the text may be read either way.
	Dialect uint8
	Pos     Position
	Via     []Position
	Module  string // module whose code holds the site
	Pkg     string // a request's site (OpURL, or a client or transport handed in): package whose code holds it
	Safe    bool   // OpURL: the call only reads, whatever its method
	// Invoked (OpCallMethod): the parameter is an interface value the
	// holder only calls methods on (no assertion, no store, not handed
	// on), so a client the caller converted to it is used as built.
	Invoked bool

	// Set by a hatch on a statement that reaches the site.
	Discharged bool // an //agent:effect declaration covers it: unprovable outcomes are dropped
	Scoped     bool // //agent:effect scoped covers it: cross_tenant outcomes are dropped
	// Slot, as Effect.Slot names it, for the unprovable site the
	// pending site may become: the interface method called (OpCallMethod
	// with a Reason), or the function field read (OpCallParam with
	// Fields).
	Slot string
}

func (p *Pending) key() string {
	var b strings.Builder
	num := func(n int) {
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(0)
	}
	str := func(s string) {
		b.WriteString(s)
		b.WriteByte(0)
	}
	flag := func(f bool) {
		if f {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	num(int(p.Op))
	flag(p.Invoked)
	str(p.Kind)
	str(p.Text.String())
	str(p.Method.String())
	num(p.Param)
	num(p.Result)
	for _, f := range p.Fields {
		num(f)
	}
	b.WriteByte('/')
	str(p.Name)
	str(p.Pos.File)
	num(p.Pos.Line)
	num(p.Pos.Col)
	flag(p.Discharged)
	flag(p.Scoped)
	flag(p.Detach)
	flag(p.InTx)
	flag(p.Elem)
	flag(p.Safe)
	num(p.DetachIf)
	num(p.ShapeArg)
	num(int(p.Dialect))
	str(p.Reason)
	str(p.Slot)
	for _, a := range p.Args {
		num(int(a.Handle))
		str(a.Str.String())
		str(a.Method.String())
		num(a.Param)
	}
	return b.String()
}

// Arg is one argument of a pending interface call, as much of it as a
// model of the concrete method may ask for, in terms of the parameters
// of the function that holds the site: the argument's trace as a string
// or handle (Handle says which, with Method for a request), or, for a
// function or interface value passed through, the parameter it is.
type Arg struct {
	Handle uint8 // handleString, handleStmt, handleReqURL, ...; handleNone when not traced
	Str    Str
	Method Str // a request's method, when Handle is handleReqURL
	Param  int // 1-based: the argument is this parameter of the holder; 0 otherwise
}

// Summary is the effect summary of one function: what calling it can do,
// with subjects that depend on its parameters left pending. It is
// exported as an analysis fact so callers in other packages can use it.
// FieldSource says what a field of the returned struct holds on every
// return: the parameter Param (>= 0); the package-level function Func
// ("pkgpath.Name", Param FieldFunc), a default the constructor sets
// (retryablehttp's CheckRetry: DefaultRetryPolicy); or nothing (a
// function field it never sets, Param FieldNil).
type FieldSource struct {
	Field, Param int
	Func         string
}

// FieldSource.Param for a field holding a function, or nil.
const (
	FieldFunc = -1
	FieldNil  = -2
)

type Summary struct {
	Effects []Effect
	Pending []Pending

	// Returned summarises calling the function value the function
	// returns as result ReturnedIndex (an iterator, a factory's product).
	// Its parameter parts number the function's parameters from 0 and the
	// returned value's own parameters from retBase.
	Returned      *Summary
	ReturnedIndex int

	// ReqWrites lists the *http.Request parameters whose URL or Host the
	// function may change: a request handed to it proves no URL after.
	ReqWrites []int
	// BeginsTx: the function may return with a transaction open (a
	// project's own Begin wrapper): its callers are inside one after it.
	BeginsTx bool
	// ResultFields: the function returns a struct it builds (or a pointer
	// to one) whose field Field holds its parameter Param (or a function,
	// or nil) on every return (a constructor: New(db) *Queries{db: db}).
	ResultFields []FieldSource
	// ReturnsShared: the function may return what a package variable
	// holds (a getter of a process-wide registry): what is stored into
	// the result outlives the request.
	ReturnsShared bool
	// EndsTx: the function commits or rolls back a transaction it did not
	// begin (one it was handed, or keeps in its receiver): a project's
	// own End or Finish.
	EndsTx bool
	// StdClient: the function returns (as its first result) an
	// *http.Client that sends as http.DefaultClient does, wherever it is
	// built: no transport, proxy, dialer, redirect check or cookie jar of
	// the program's own (httpx.New() returning &http.Client{Timeout: t}).
	// A request sent through it goes where its URL says.
	StdClient bool
	// ReturnsReq: the function returns, as its first result, an
	// *http.Request whose URL and method trace to ReqURL and ReqMethod,
	// in terms of its parameters (an SDK's NewRequest(ctx, method, path,
	// body) that the caller sends): the caller proves what it sends.
	ReturnsReq        bool
	ReqURL, ReqMethod Str
	// ResultMethods summarise calling each method of the interface the
	// function returns as result ResultMethodsAt-1, on every value it
	// may return (a lock manager's Acquire returning its *lock as an
	// io.Closer): a method not listed is effect-free on them. Zero when
	// not every value it may return is known.
	ResultMethods   []MethodSummary
	ResultMethodsAt int

	// Made is the function's summary as a handler constructor (SPEC §3):
	// its own, plus every function literal it makes that leaves it
	// uncalled, called once with unknown arguments where it is made. It is
	// set on an exported function whose results can hold a function value
	// inside a struct, slice, map or interface (a tool helper returning
	// ServerTool{Handler: func...}), so that a constructor in another
	// package returning what the helper made has those handlers as its
	// own. Nil when it would add nothing to the summary itself.
	Made *Summary

	// wire is the encoded form this summary was read from, not yet
	// decoded (wire.go).
	wire []byte
}

// MethodSummary is the summary of calling the method Name.
type MethodSummary struct {
	Name string
	Sum  *Summary
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	if s.wire != nil {
		c := *s
		if err := c.Load(); err != nil {
			return err.Error()
		}
		s = &c
	}
	var b strings.Builder
	for _, e := range s.Effects {
		fmt.Fprintf(&b, "%s %q at %s; ", e.Kind, e.Subject, e.Pos)
	}
	for _, p := range s.Pending {
		fmt.Fprintf(&b, "pending %d %s at %s; ", p.Op, p.Text, p.Pos)
	}
	return b.String()
}

// Empty reports whether s holds nothing.
func (s *Summary) Empty() bool {
	return s == nil || (len(s.Effects)+len(s.Pending) == 0 && s.Returned == nil && len(s.ReqWrites) == 0 && !s.BeginsTx && !s.EndsTx && !s.StdClient && !s.ReturnsReq && !s.ReturnsShared && len(s.ResultFields) == 0 && s.ResultMethodsAt == 0 && s.Made == nil)
}

// maxSites bounds a summary. Past it the summary collapses to a single
// unprovable effect instead of growing without bound.
const maxSites = 400

// maxVia bounds the call chain kept on each effect.
const maxVia = 12

// collector accumulates effects and pending sites without duplicates.
// It holds at most maxCollect of them: past that it only records that it
// overflowed, and its summary collapses to one unprovable site, so no
// input makes a walk's memory grow without bound.
type collector struct {
	effects  map[effectKey]*Effect
	pending  map[string]*Pending
	overflow bool
}

// maxCollect bounds what one collector holds while a walk is under way.
const maxCollect = 4 * maxSites

func (c *collector) full() bool {
	if len(c.effects)+len(c.pending) >= maxCollect {
		c.overflow = true
		return true
	}
	return false
}

func newCollector() *collector {
	return &collector{effects: map[effectKey]*Effect{}, pending: map[string]*Pending{}}
}

// prependVia is clipVia(append([]Position{at}, via...)), in one
// allocation: lifting a callee's sites into each caller is the walk's
// most frequent step.
func prependVia(at Position, via []Position) []Position {
	if len(via)+1 > maxVia {
		out := make([]Position, maxVia)
		out[0] = at
		copy(out[1:maxVia-1], via[:maxVia-2])
		out[maxVia-1] = via[len(via)-1]
		return out
	}
	out := make([]Position, len(via)+1)
	out[0] = at
	copy(out[1:], via)
	return out
}

// clipVia keeps the first calls of a chain and its last.
func clipVia(v []Position) []Position {
	if len(v) > maxVia {
		return append(v[:maxVia-1:maxVia-1], v[len(v)-1])
	}
	return v
}

// keepVia reports whether chain old is kept over chain new for one site:
// the shorter, and between two as short the first in position order, so
// what a collector keeps does not depend on the order sites reach it
// (map iteration, goroutine scheduling).
func keepVia(old, new []Position) bool {
	if len(old) != len(new) {
		return len(old) < len(new)
	}
	return slices.CompareFunc(old, new, comparePos) <= 0
}

func (c *collector) add(e Effect) {
	e.Via = clipVia(e.Via)
	k := e.key()
	old, ok := c.effects[k]
	if ok && keepVia(old.Via, e.Via) {
		old.More = old.More || e.More
		return
	}
	if !ok && c.full() {
		return
	}
	if ok {
		e.More = e.More || old.More
	}
	c.effects[k] = &e
}

// addLifted adds e as reached through a call at at: add(e with at
// prepended to its chain), without building the chain when the
// collector already holds the site through a chain no longer (sites a
// callee reaches through several calls are one site at its caller).
func (c *collector) addLifted(e Effect, at Position) {
	k := e.key()
	k.report = at
	if old, ok := c.effects[k]; ok && len(old.Via) < min(len(e.Via)+1, maxVia) {
		old.More = old.More || e.More
		return
	}
	e.Via = prependVia(at, e.Via)
	c.add(e)
}

func (c *collector) addPending(p Pending) {
	p.Via = clipVia(p.Via)
	k := p.key()
	old, ok := c.pending[k]
	if ok && keepVia(old.Via, p.Via) {
		return
	}
	if !ok && c.full() {
		return
	}
	c.pending[k] = &p
}

func (c *collector) merge(o *collector) {
	for _, e := range o.effects {
		c.add(*e)
	}
	for _, p := range o.pending {
		c.addPending(*p)
	}
	c.overflow = c.overflow || o.overflow
}

// summary returns the canonical, sorted summary, collapsed past the
// bounds to one unprovable site at at.
func (c *collector) summary(at Position, module string) *Summary {
	return c.summaryOf(at, module, false)
}

// summaryOf is summary; coarse caps unprovable and detached sites per
// summary instead of per call (Engine.Coarse).
func (c *collector) summaryOf(at Position, module string, coarse bool) *Summary {
	s := c.sortedOf(coarse)
	if len(s.Effects)+len(s.Pending) > maxSites || c.overflow {
		return collapsed(s, at, module)
	}
	return s
}

// sorted returns everything collected, in canonical order.
func (c *collector) sorted() *Summary { return c.sortedOf(false) }

func (c *collector) sortedOf(coarse bool) *Summary {
	s := &Summary{}
	for _, e := range c.effects {
		s.Effects = append(s.Effects, *e)
	}
	for _, p := range c.pending {
		s.Pending = append(s.Pending, *p)
	}
	slices.SortFunc(s.Effects, func(a, b Effect) int { return compareEffects(&a, &b) })
	group := func(e *Effect) Position { return e.Report() }
	if coarse {
		group = func(*Effect) Position { return Position{} }
	}
	s.Effects = capUnprovable(s.Effects, group, maxUnprovable)
	slices.SortFunc(s.Pending, func(a, b Pending) int {
		if c := comparePos(a.Pos, b.Pos); c != 0 {
			return c
		}
		return cmp.Compare(a.key(), b.key())
	})
	return s
}

// maxUnprovable bounds the unprovable sites kept per call: every
// unprovable site one call reaches makes a single diagnostic at that
// call (the rest are its related information), so past a few, more
// sites add bytes and no finding. Detached sites are bounded the same
// way, per reason: no grant allows one, so the first already flags the
// call, and a dependency's connection handling can start hundreds of
// goroutines behind one method, each site carried by every caller.
const maxUnprovable = 3

// capUnprovable keeps, of effects sorted canonically, at most
// maxUnprovable unprovable sites per group (the position group returns,
// whether the site counts only locally, and its module), and at most
// maxUnprovable detached sites per group and reason. Everything else is
// kept. The last site kept of a group that lost some is marked More: the
// manifest, which resolves sites a whole-program view can prove, must
// not take the kept ones for all there were.
func capUnprovable(effs []Effect, group func(*Effect) Position, max int) []Effect {
	type key struct {
		at Position
		siteGroup
	}
	n := map[key]int{}
	last := map[key]int{} // index in out of the group's last kept site
	out := effs[:0]
	for i := range effs {
		e := &effs[i]
		switch e.Kind {
		case Unprovable, Detached:
			k := key{group(e), coarseGroup(e)}
			if n[k] >= max {
				out[last[k]].More = true
				continue
			}
			n[k]++
			last[k] = len(out)
		}
		out = append(out, *e)
	}
	return out
}

// maxExportedUnprovable and maxExportedVia bound what an exported
// summary carries of its unprovable and detached sites: a caller in
// another package reports them all as one diagnostic at its call, so
// one site per group (the others marked More) and the first calls of
// its chain, with its last, are all it needs. Facts are re-exported by
// every importer, so these bytes are paid once per importer.
const (
	maxExportedUnprovable = 1
	maxExportedVia        = 4
)

// Exported is the summary as callers in other packages need it. Every
// effect a caller lifts from it is reported at the caller's call, so a
// few unprovable sites stand for all of them (per module, and apart
// from those that count only locally): a dependency whose methods reach
// hundreds of unresolvable calls exports a handful of sites each, not
// every one, and the facts of a module stay small (facts are re-exported
// by every importer).
func (s *Summary) Exported() *Summary {
	if s == nil {
		return nil
	}
	out := *s
	out.Effects = capUnprovable(slices.Clone(s.Effects), func(*Effect) Position { return Position{} }, maxExportedUnprovable)
	for i := range out.Effects {
		if e := &out.Effects[i]; (e.Kind == Unprovable || e.Kind == Detached) && len(e.Via) > maxExportedVia {
			e.Via = append(slices.Clone(e.Via[:maxExportedVia-1]), e.Via[len(e.Via)-1])
		}
	}
	out.Returned = s.Returned.Exported()
	out.Made = s.Made.Exported()
	if len(s.ResultMethods) > 0 {
		out.ResultMethods = make([]MethodSummary, len(s.ResultMethods))
		for i, m := range s.ResultMethods {
			out.ResultMethods[i] = MethodSummary{Name: m.Name, Sum: m.Sum.Exported()}
		}
	}
	return &out
}

// collapsed is a summary past the bounds: one unprovable site. If nothing
// in it could count outside its own module, neither does that site.
func collapsed(s *Summary, at Position, module string) *Summary {
	local := len(s.Pending) == 0
	for _, e := range s.Effects {
		local = local && e.Local
	}
	return &Summary{Effects: []Effect{{
		Kind:   Unprovable,
		Reason: fmt.Sprintf("calls a function that reaches more than %d effect sites, past the summary bound", maxSites),
		Fix:    "split the function, or declare what the call does with //agent:effect",
		Pos:    at,
		Module: module,
		Local:  local,
	}}}
}

// siteGroup is the group capUnprovable caps an unprovable or detached
// site in, whatever its position (all of a Coarse summary's).
type siteGroup struct {
	kind, reason, module, pkg string
	local, egress             bool
}

func coarseGroup(e *Effect) siteGroup {
	g := siteGroup{kind: e.Kind, module: e.Module, pkg: e.Pkg, local: e.Local, egress: e.Egress}
	if e.Kind == Detached {
		g.reason = e.Reason
	}
	return g
}

// equalCoarse is equalSummaries for a Coarse engine, where a caller
// reports every unprovable or detached site it lifts at its own call:
// which sites stand for a capped group (capUnprovable) changes nothing
// a caller reports, so only how many each group keeps counts (More
// matters only to the manifest, which never runs Coarse). Every other
// effect, and every pending site, must be equal.
func equalCoarse(a, b *Summary) bool {
	if same, decided := equalShape(a, b); decided {
		return same
	}
	groups := map[siteGroup]int{}
	other := map[effectKey]bool{}
	for i := range a.Effects {
		e := &a.Effects[i]
		switch e.Kind {
		case Unprovable, Detached:
			groups[coarseGroup(e)]++
		default:
			other[e.key()] = true
		}
	}
	for i := range b.Effects {
		e := &b.Effects[i]
		switch e.Kind {
		case Unprovable, Detached:
			g := coarseGroup(e)
			if groups[g] == 0 {
				return false
			}
			groups[g]--
		default:
			if !other[e.key()] {
				return false
			}
		}
	}
	return true
}

// equalShape compares what equalSummaries and equalCoarse judge alike:
// emptiness, the numbers of effects and pending sites, and the pending
// sites themselves. decided is false when the effects remain to compare.
func equalShape(a, b *Summary) (same, decided bool) {
	if a.Empty() || b.Empty() {
		return a.Empty() == b.Empty(), true
	}
	if len(a.Effects) != len(b.Effects) || len(a.Pending) != len(b.Pending) {
		return false, true
	}
	for i := range a.Pending {
		if a.Pending[i].key() != b.Pending[i].key() {
			return false, true
		}
	}
	return false, false
}

func equalSummaries(a, b *Summary) bool {
	if same, decided := equalShape(a, b); decided {
		return same
	}
	for i := range a.Effects {
		if a.Effects[i].key() != b.Effects[i].key() {
			return false
		}
	}
	return true
}
