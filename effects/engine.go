package effects

import (
	"container/heap"
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Options configures the engine from authvet.yaml.
type Options struct {
	TenantColumns []string        // columns whose binding to a parameter scopes a query
	Sinks         map[string]Sink // configured in-house sinks, by FuncKey
	Benign        map[string]bool // extra benign interfaces, "pkgpath.Name"
	// Client returns the URL prefix configured for requests sent from
	// package pkg whose URL the analysis cannot read ("" for none).
	Client func(pkg string) string
}

// Sink is a configured in-house effect API.
type Sink struct {
	Effect     string // job, webhook, write (SQL text), outbound (URL) or none
	SubjectArg int    // 0-based, receiver not counted; -1: Subject
	Subject    string // a constant subject
	Method     string // outbound: the HTTP method it sends
	Safe       bool   // outbound: it only reads, whatever its method
}

// Hatch is an //agent:effect directive attached to the statement spanning
// [Start, End), in the function (declaration or literal) that starts at
// Fn: it covers that statement there, not the body of a closure the
// statement defines and that runs elsewhere.
type Hatch struct {
	Start, End token.Pos
	Fn         token.Pos
	None       bool
	Scoped     bool
	Declared   []Effect // Kind and Subject; the engine fills in the rest
	Reason     string
}

// Engine derives effect summaries for the functions of one package.
type Engine struct {
	// protoNest counts the interface fields callProtocol is walking
	// into (a value that holds itself stops there).
	protoNest int

	Fset   *token.FileSet
	Pkg    *types.Package
	Module string // module path of the package ("" outside modules)
	Opts   Options

	// Import returns the summary an analysed package exported for fn, or nil.
	Import func(fn *types.Func) *Summary
	// Analysed reports whether pkg was analysed and so exports summaries.
	// Packages that were not (the standard library) are modelled instead.
	Analysed func(pkg *types.Package) bool
	// Hatches of this package, on statements.
	Hatches []*Hatch
	// Prog is the SSA program of the package, for methods of its types.
	Prog *ssa.Program
	// ImportConst returns the ConstString fact of fn, if any.
	ImportConst func(fn *types.Func) (string, bool)
	// Contract returns the effect contract on an interface method, if any.
	Contract func(m *types.Func) *Contract
	// Generated holds the package's generated files, by name.
	Generated map[string]bool
	// InitGlobals are the package's variables that only their declaration
	// sets, with the value (see InitGlobals); a function value read from one
	// resolves to it.
	InitGlobals map[*ssa.Global]ssa.Value
	// GlobalConst returns the value of a package-level string variable
	// that nothing but its declaration sets (see ConstGlobals).
	GlobalConst func(v *types.Var) (string, bool)
	// Retains reports whether fn, a function of a package that is not
	// walked, may keep its function- or interface-valued parameter i and
	// run it after it returns: for good (long), or in the structure of
	// its arguments into (receiver first; a worker pool's queue).
	Retains func(fn *types.Func, i int) (long bool, into []int)
	// WritesReq reports whether fn, a function of a package that is not
	// walked, may change the URL or Host of the request that is its
	// argument i (receiver counted).
	WritesReq func(fn *types.Func, i int) bool
	// ResultKept reports whether a result of type t of fn, a function of
	// a package that is not walked, may be a function or interface value
	// the program handed that package to keep (a plugin table's Get):
	// then what it returns is out of sight, not a value the package made.
	ResultKept func(fn *types.Func, t types.Type) bool
	// LocalSource reports whether the package's source is being
	// developed (not in the module cache): there, a function with no Go
	// body is unprovable wherever it is reached.
	LocalSource bool
	// ErrorsActDeps: a package this one imports (directly or not) has a
	// type whose Error method has an effect. Error values are then
	// followed like a benign interface's (errorsAct); otherwise they are
	// ignored, which is what keeps them cheap.
	ErrorsActDeps bool
	// ContextsActDeps: likewise for a context.Context of the program's
	// own whose Deadline, Done, Err or Value has an effect (a context
	// that audits every lookup).
	ContextsActDeps bool
	// EntConsts returns what an ent client package's fact says of its
	// entity packages (EntEntities), where the package's own import of
	// them is not in the export data this pass reads.
	EntConsts func(pkg *types.Package) map[string]map[string]string
	// DefaultClientRewired: a package of the program, seen by a driver
	// that loads it whole, rewires http.DefaultClient or
	// http.DefaultTransport; sending through the default client proves
	// no URL.
	DefaultClientRewired bool
	// DefaultTransportRewired: likewise for http.DefaultTransport, which
	// every client built with no Transport sends through too.
	DefaultTransportRewired bool
	// Coarse: no summary of this package is ever reported call by call
	// (it has no handler, no contract, and no manifest reads it), so
	// each summary keeps a few unprovable and detached sites per reason
	// for the whole function rather than per call. A caller reports all
	// of a callee's sites at its own call, so what it lifts is the same
	// finding; what is dropped is the per-call detail inside the callee,
	// which only a handler's own summary shows. In a dependency whose
	// functions each reach hundreds of such sites, this keeps every
	// lifted summary a few dozen sites long.
	Coarse bool

	summaries map[*ssa.Function]*Summary
	state     map[*ssa.Function]uint8
	depth     int // current recursion depth of the engine's walk, tracing and instantiation
	recursive bool
	// computing is the stack of functions whose summaries are being
	// computed; readers records, for each function, the functions whose
	// computation read its summary, and dirty those that read one still
	// in progress. Summaries recomputes only what recursion can change.
	computing []*ssa.Function
	readers   map[*ssa.Function][]*ssa.Function
	dirty     map[*ssa.Function]bool
	dirtyList []*ssa.Function // the dirty functions, in the order they became so
	// spent: functions whose walk ran out of budget. Their summary holds
	// an unprovable site, which fails every caller closed whatever else
	// it misses, so recursion never walks them again: another walk would
	// run out as well, and only move where.
	spent     map[*ssa.Function]bool
	budget    int                  // work the summary being computed may still do
	resolving map[resolveKey]*bool // pending method calls being resolved (resolveCallMethodOn)
	// invokedAt: the call whose callee's pending method call is being
	// resolved, when that callee only calls methods on the interface
	// parameter invokedParam (Pending.Invoked): a client converted to it
	// for this call is used as built.
	invokedAt    ssa.Instruction
	invokedParam int
	callbacks    int // callbacks being resolved inside one another
	returns      int // helpers' returns being followed inside one another
	txFlows      map[*ssa.Function]*txFlow
	// globalStoreCache: the stores to each unexported package variable
	// that only loads and stores use (nil: not such a variable).
	globalStoreCache map[*ssa.Global][]*ssa.Store
	funcKeys         map[*types.Func]string // funcKey's cache
	globalLoadCache  map[*ssa.Global][]*ssa.UnOp
	// fieldStoreCache: the stores to each unexported field of a struct
	// type of this package whose address is only loaded and stored
	// through (nil: not such a field).
	fieldStoreCache map[fieldKey][]*ssa.Store
	fieldBusy       map[fieldKey]bool                 // fields being resolved (fieldFuncs)
	sqPhis          map[*ssa.Phi]bool                 // squirrel builder phis being read (sqChain)
	converted       []types.Type                      // concrete types the package converts to interfaces
	impls           map[*types.Named][]types.Type     // closed interfaces' implementations
	exposed         map[*types.Named]bool             // unexported interfaces other packages can fill (ifaceExposed)
	implementers    map[*types.Interface][]types.Type // this package's implementations, by interface
	benignShapes    map[*types.Interface]bool         // unnamed interfaces a benign one satisfies
	reachable       map[string]*types.Package         // the packages this one imports, directly or not, by path
	scopeTypes      []types.Type                      // the package's named non-interface types and pointers to them
	// scopedStmt > 0 while walking a statement an //agent:effect scoped
	// hatch covers.
	scopedStmt int
	// ownErrorActs: 0 not yet known, 1 no type of this package has an
	// Error method with an effect, 2 one has.
	ownErrorActs uint8
	// ownContextActs: the same for context.Context.
	ownContextActs uint8
	// ctorWalked are the literals a handler constructor makes and that
	// were walked where they are made (HandlerSummary), by the helper
	// call that made them (nil: the constructor's own body).
	ctorWalked map[ctorKey]bool
	// inMade: HandlerSummary is computing a helper's Made summary, whose
	// parameters are the caller's to resolve (a handler handed in is
	// walked where the caller makes it), not out of sight.
	inMade bool
	// finished numbers the functions Summaries computed, in the order
	// their first computation finished.
	finished map[*ssa.Function]int
	// madeHelpers memoises madeHelper.
	madeHelpers map[*ssa.Function]bool
	// defaultClient: 0 not yet known, 1 the package leaves
	// http.DefaultClient alone, 2 it changes where it sends.
	defaultClient uint8
	// defaultTransport: the same for http.DefaultTransport alone.
	defaultTransport uint8
}

const (
	inProgress uint8 = iota + 1
	done
)

// frame is one activation in the walk. The root frame is the function
// being summarised: its parameters stay symbolic. Closures are walked
// inline in frames whose parameters and free variables are bound to the
// caller's values.
type frame struct {
	fn       *ssa.Function
	root     bool
	args     []binding // nil: parameters unknown
	free     []binding
	parent   *frame
	depth    int
	visiting map[ssa.Value]bool

	cur ssa.Instruction // the instruction being walked

	// retParams: this frame is a function value the summarised function
	// returns; its parameters are symbolic, numbered from retBase.
	retParams bool

	// at, when valid, is where the sites of this frame are: a synthetic
	// wrapper (a method value's $bound, a thunk) has no source of its
	// own, so its calls are placed at the call that reached it.
	at token.Pos

	inTx     bool // the frame runs inside a transaction (a callback a begin/commit pair brackets)
	recursed bool // the closure was called again, with other arguments, while being walked
	ctor     bool // a handler constructor: function literals it makes count as called
	helper   bool // a function a handler constructor calls to make its handlers (ctorHelper)
}

// ctorKey is a literal a handler constructor makes, in the activation of
// the helper that made it (nil for the constructor's own literals): a
// helper called twice with other arguments makes two handlers.
type ctorKey struct {
	fn     *ssa.Function
	helper *frame
}

func (fr *frame) helperFrame() *frame {
	for f := fr; f != nil; f = f.parent {
		if f.helper {
			return f
		}
	}
	return nil
}

// makesHandlers reports whether what the helpers this frame calls make
// are handlers (Summary.Made): a handler constructor's frame, or its
// helper's, but not a handler's body, which takes the request (a client
// a handler builds for itself holds a transport it calls only when it
// sends, and the sending is the client's own summary's business).
func (fr *frame) makesHandlers() bool {
	return fr.ctor && (fr.helper || !requestShaped(fr.fn.Signature))
}

func (fr *frame) onStack(fn *ssa.Function) bool {
	for f := fr; f != nil; f = f.parent {
		if f.fn == fn {
			return true
		}
	}
	return false
}

// maxDepth bounds inline walking of closures; maxTrace bounds the
// engine's recursion as a whole (tracing values, inlining), so no input
// can exhaust the stack.
const (
	maxDepth = 24
	maxTrace = 512
)

// maxWork bounds the work one summary's walk does (instructions walked,
// closures and callbacks walked inline, summaries instantiated); past it
// the summary gets an unprovable site instead of a longer walk.
const maxWork = 200000

// Summaries computes the summary of every function in fns, solving
// recursion by iterating to a fixed point: a function that read a
// summary still in progress is computed again, and so, while summaries
// change, are the functions that read them.
func (e *Engine) Summaries(fns []*ssa.Function) map[*ssa.Function]*Summary {
	e.summaries = map[*ssa.Function]*Summary{}
	e.state = map[*ssa.Function]uint8{}
	e.readers = map[*ssa.Function][]*ssa.Function{}
	e.dirty = map[*ssa.Function]bool{}
	e.dirtyList = nil
	e.spent = map[*ssa.Function]bool{}
	e.finished = map[*ssa.Function]int{}
	if e.Prog != nil && e.Pkg != nil {
		// Before any walk: a walk asks whether errors and contexts are
		// followed here, and asking from inside the very method that
		// makes them so would read its summary in progress.
		e.OwnErrorActs()
		e.OwnContextActs()
	}
	for _, fn := range fns {
		e.local(fn)
	}
	if !e.recursive {
		return e.summaries
	}
	// The work list is taken callee first: in the order the first pass
	// finished the functions (a callee before the callers that read it),
	// so growth travels up a recursive cycle in one sweep rather than
	// one step per round.
	queue := &workList{order: e.finished}
	queued := map[*ssa.Function]bool{}
	push := func(fn *ssa.Function) {
		if !queued[fn] {
			queued[fn] = true
			heap.Push(queue, fn)
		}
	}
	// A function first computed while another is recomputed may read
	// one in progress too: the dirty list is drained at every step.
	drained := 0
	drain := func() {
		for ; drained < len(e.dirtyList); drained++ {
			push(e.dirtyList[drained])
		}
	}
	drain()
	rounds := map[*ssa.Function]int{}
	for queue.Len() > 0 {
		fn := heap.Pop(queue).(*ssa.Function)
		queued[fn] = false
		if rounds[fn]++; rounds[fn] > maxRounds {
			// Still growing: fail closed rather than trust a summary
			// that may be missing effects.
			for _, f := range append([]*ssa.Function{fn}, queue.fns...) {
				s := e.summaries[f]
				s.Effects = append(s.Effects, Effect{Kind: Unprovable,
					Reason: fmt.Sprintf("calls recursive code whose effects did not settle in %d rounds", maxRounds),
					Fix:    "declare what the call does with //agent:effect", Pos: e.pos(f.Pos()), Module: e.Module})
			}
			break
		}
		if e.spent[fn] {
			continue
		}
		s := e.recomputed(fn)
		drain()
		if equalSummaries(s, e.summaries[fn]) {
			continue
		}
		if e.Coarse && equalCoarse(s, e.summaries[fn]) {
			// Only which sites stand for a capped group moved: keep
			// the new ones, but no caller would report differently.
			e.summaries[fn] = s
			continue
		}
		e.summaries[fn] = s
		for _, r := range e.readers[fn] {
			push(r)
		}
	}
	return e.summaries
}

// workList is a heap of functions, the one the first pass finished
// first on top (a function it never finished comes last, by name).
type workList struct {
	fns   []*ssa.Function
	order map[*ssa.Function]int
}

func (w *workList) Len() int { return len(w.fns) }
func (w *workList) Less(i, j int) bool {
	a, aok := w.order[w.fns[i]]
	b, bok := w.order[w.fns[j]]
	if aok != bok {
		return aok
	}
	if aok {
		return a < b
	}
	return w.fns[i].String() < w.fns[j].String()
}
func (w *workList) Swap(i, j int) { w.fns[i], w.fns[j] = w.fns[j], w.fns[i] }
func (w *workList) Push(x any)    { w.fns = append(w.fns, x.(*ssa.Function)) }
func (w *workList) Pop() any {
	fn := w.fns[len(w.fns)-1]
	w.fns = w.fns[:len(w.fns)-1]
	return fn
}

// recomputed computes fn's summary again, all others as they stand.
func (e *Engine) recomputed(fn *ssa.Function) *Summary {
	e.computing = append(e.computing, fn)
	defer func() { e.computing = e.computing[:len(e.computing)-1] }()
	return e.compute(fn)
}

// read records that the summary being computed reads fn's, which is
// still in progress if partial.
func (e *Engine) read(fn *ssa.Function, partial bool) {
	if len(e.computing) == 0 || e.readers == nil {
		return
	}
	r := e.computing[len(e.computing)-1]
	if partial && !e.dirty[r] {
		e.dirty[r] = true
		e.dirtyList = append(e.dirtyList, r)
	}
	rs := e.readers[fn]
	if len(rs) == 0 || rs[len(rs)-1] != r {
		for _, x := range rs {
			if x == r {
				return
			}
		}
		e.readers[fn] = append(rs, r)
	}
}

// inProgress reports whether fn's summary is being computed; a caller
// that then leaves it out is computed again once it is done.
func (e *Engine) inProgress(fn *ssa.Function) bool {
	if e.state[fn] != inProgress {
		return false
	}
	e.recursive = true
	e.read(fn, true)
	return true
}

// maxRounds bounds how often recursion makes one summary be computed
// again. Summaries only grow, and are bounded, so it converges; the
// bound keeps a pathological package from iterating long.
const maxRounds = 8

func (e *Engine) local(fn *ssa.Function) *Summary {
	// An instance of a generic function of the package is summarised on
	// its own body, where calls on its type arguments are static.
	if o := fn.Origin(); o != nil && len(fn.Blocks) == 0 {
		fn = o
	}
	switch e.state[fn] {
	case done:
		e.read(fn, false)
		return e.summaries[fn]
	case inProgress:
		e.recursive = true
		e.read(fn, true)
		return e.summaries[fn]
	}
	e.read(fn, false)
	e.state[fn] = inProgress
	e.computing = append(e.computing, fn)
	s := e.compute(fn)
	e.computing = e.computing[:len(e.computing)-1]
	e.summaries[fn] = s
	e.state[fn] = done
	if e.finished != nil {
		e.finished[fn] = len(e.finished)
	}
	return s
}

func (e *Engine) compute(fn *ssa.Function) *Summary {
	out := newCollector()
	if len(fn.Blocks) == 0 {
		e.bodiless(fn, out)
		return e.finish(out, e.pos(fn.Pos()))
	}
	saved := e.budget
	e.budget = maxWork
	defer func() { e.budget = saved }()
	root := &frame{fn: fn, root: true, visiting: map[ssa.Value]bool{}}
	e.walk(root, out)
	if e.budget < 0 && e.spent != nil {
		e.spent[fn] = true
	}
	s := e.finish(out, e.pos(fn.Pos()))
	e.computeReturned(s, root)
	for i, p := range fn.Params {
		switch qualifiedName(p.Type()) {
		case "net/http.Request":
			if e.reqRewritten(p, 0) {
				s.ReqWrites = append(s.ReqWrites, i)
			}
		case "net/url.URL":
			if _, isPtr := p.Type().(*types.Pointer); isPtr && e.reqRewritten(p, 1) {
				s.ReqWrites = append(s.ReqWrites, i)
			}
		}
	}
	s.EndsTx = e.endsForeignTx(fn)
	s.ResultFields = resultFields(fn)
	s.StdClient = e.returnsStdClient(root)
	s.ReturnsReq, s.ReqURL, s.ReqMethod = e.returnsReq(root)
	s.ReturnsShared = returnsShared(fn)
	if !deferredClose(fn) {
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && e.txBegunOpenAt(fn, ret) {
				s.BeginsTx = true
			}
		}
	}
	return s
}

// deferredClose reports whether fn defers a commit or rollback (directly,
// or in a deferred closure): its transaction ends when it returns.
func deferredClose(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			d, ok := x.(*ssa.Defer)
			if !ok {
				continue
			}
			if isTxClose(&d.Call) {
				return true
			}
			var body *ssa.Function
			switch v := d.Call.Value.(type) {
			case *ssa.MakeClosure:
				body, _ = v.Fn.(*ssa.Function)
			case *ssa.Function:
				if v.Parent() != nil {
					body = v
				}
			}
			if body == nil {
				continue
			}
			// Only a close the deferred function always makes counts: a
			// rollback-on-error guard (if err != nil { tx.Rollback() })
			// leaves the transaction open on success; one that commits
			// on success and rolls back on error closes it on every path.
			if alwaysCloses(body) {
				return true
			}
		}
	}
	return false
}

// alwaysCloses reports whether every path through fn from its entry to
// a return makes a transaction close (a commit or a rollback).
func alwaysCloses(fn *ssa.Function) bool {
	if len(fn.Blocks) == 0 {
		return false
	}
	closed := make([]bool, len(fn.Blocks))
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			// In the entry block, any close (a project's own Commit
			// wrapper) counts, as it always did; on a branch, only a
			// library's own commit or rollback: a call merely named like
			// one (st.CommitCount()) must not close a path.
			if c, ok := in.(ssa.CallInstruction); ok && isTxClose(c.Common()) && (b.Index == 0 || lib().txCommits[callKey(c.Common())]) {
				closed[b.Index] = true
			}
			if _, ok := in.(*ssa.Panic); ok {
				closed[b.Index] = true // no return this way
			}
		}
	}
	// The least fixpoint: a block closes if all its successors do (a
	// loop that never closes stays open).
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			if closed[b.Index] || len(b.Succs) == 0 {
				continue
			}
			all := true
			for _, s := range b.Succs {
				all = all && closed[s.Index]
			}
			if all {
				closed[b.Index], changed = true, true
			}
		}
	}
	return closed[0]
}

// bodiless summarises a function with no Go body (assembly,
// //go:linkname, cgo): it cannot be read. Where it is handed a handle the
// analysis tracks, it is unprovable wherever it is reached; in source
// under development it is unprovable for that module's handlers whatever
// it is handed.
func (e *Engine) bodiless(fn *ssa.Function, out *collector) {
	for _, p := range fn.Params {
		if isHandle(p.Type()) {
			out.add(e.unprovable(fn.Pos(), "calls a function with no Go body (assembly or //go:linkname) that is handed a "+typeName(p.Type()),
				"declare what the call does with //agent:effect"))
			return
		}
	}
	if e.LocalSource {
		eff := e.unprovable(fn.Pos(), "calls "+fn.Name()+", a function with no Go body (assembly, //go:linkname or cgo) the analysis cannot read",
			"declare what the call does with //agent:effect")
		eff.Local = true
		out.add(eff)
	}
}

// CallSummary is the summary of fn as a callee: what one call of it
// does, with unknown arguments. A function value it returns, or a
// handler, is the caller's to call, and counts as called, as
// HandlerSummary has it (the caller's call of it is a dynamic call the
// linker may not resolve); a function value it makes inside any other
// result (a client holding its transport) runs only when that result is
// used, and the callee's own summary says what that does.
func (e *Engine) CallSummary(fn *ssa.Function) *Summary {
	if o := fn.Origin(); o != nil && len(fn.Blocks) == 0 {
		fn = o
	}
	if len(fn.Blocks) == 0 {
		return e.summaries[fn]
	}
	if returnsFunc(fn) || returnsHandler(fn.Signature) {
		return e.HandlerSummary(fn)
	}
	if e.summaries == nil {
		e.summaries = map[*ssa.Function]*Summary{}
		e.state = map[*ssa.Function]uint8{}
	}
	return e.local(fn)
}

// HandlerSummary is the summary of a handler: its own, plus, for every
// function literal its body (or a literal in it) makes, the literal
// called once with unknown arguments in the frame that made it (SPEC §3:
// a handler constructor's handlers are its handlers).
func (e *Engine) HandlerSummary(fn *ssa.Function) *Summary {
	if o := fn.Origin(); o != nil && len(fn.Blocks) == 0 {
		fn = o
	}
	if len(fn.Blocks) == 0 {
		return e.summaries[fn]
	}
	if e.summaries == nil {
		e.summaries = map[*ssa.Function]*Summary{}
		e.state = map[*ssa.Function]uint8{}
	}
	base := e.local(fn)
	codec := typedToolIO(fn.Signature)
	if len(codec) == 0 && len(fn.AnonFuncs) == 0 && (base.Returned == nil && !returnsFunc(fn) || requestShaped(fn.Signature)) && !callsHelper(fn) && !returnsHandler(fn.Signature) && !returnsHandlerHolder(fn.Signature) {
		return base
	}
	e.budget = maxWork
	e.ctorWalked = map[ctorKey]bool{}
	defer func() { e.ctorWalked = nil }()
	out := newCollector()
	root := &frame{fn: fn, root: true, visiting: map[ssa.Value]bool{}, ctor: true}
	e.walk(root, out)
	// A typed MCP tool handler: the SDK decodes each call's input into
	// its In and encodes its Out, running their JSON methods.
	for _, t := range codec {
		e.callProtocol(t, binding{}, lib().protocols["encoding/json"], fn.Pos(), root, out, 0, map[types.Type]bool{})
	}
	e.returnedHandlers(root, out)
	e.handedHandlers(root, out)
	e.dropRegistrations(fn, out)
	s := e.finish(out, e.pos(fn.Pos()))
	s.Returned, s.ReturnedIndex = base.Returned, base.ReturnedIndex
	return s
}

// computeReturned summarises calling the function value fn returns (an
// iterator, a func factory's product), so that callers in other packages
// can resolve it: the closures returned are walked with their own
// parameters symbolic.
func (e *Engine) computeReturned(s *Summary, root *frame) {
	results := root.fn.Signature.Results()
	r := -1
	for i := 0; i < results.Len(); i++ {
		if _, ok := results.At(i).Type().Underlying().(*types.Signature); ok {
			r = i
			break
		}
	}
	if r < 0 {
		e.computeResultMethods(s, root)
		return
	}
	var fs funcSet
	for _, b := range root.fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && r < len(ret.Results) {
			e.collectFuncs(ret.Results[r], root, &fs, 0)
		}
	}
	out := newCollector()
	for _, cl := range fs.callables {
		var free []binding
		if mc, ok := cl.value.(*ssa.MakeClosure); ok {
			free = bind(mc.Bindings, cl.fr)
		}
		if cl.fn.Parent() == nil {
			continue // a named function: callers resolve it themselves
		}
		// A middleware a factory returns (func(next http.Handler)
		// http.Handler): the handler it builds is what calling it
		// hands back, so its literals count as called (a constructor's).
		ctor := returnsHandler(cl.fn.Signature)
		saved := e.ctorWalked
		if ctor {
			e.ctorWalked = map[ctorKey]bool{}
		}
		e.walk(&frame{fn: cl.fn, free: free, parent: root, depth: 1, visiting: map[ssa.Value]bool{}, retParams: true, ctor: ctor}, out)
		e.ctorWalked = saved
	}
	if fs.unresolved {
		out.add(e.unprovable(root.fn.Pos(), "returns a function value the analysis cannot resolve",
			"return a closure or a function, or declare the calls with //agent:effect"))
	}
	// A function parameter handed back (a hook's next, a middleware that
	// adds nothing): calling the result calls what the caller passed.
	for _, i := range fs.params {
		if i < retBase {
			out.addPending(Pending{Op: OpCallParam, Param: i, Pos: e.pos(root.fn.Pos()), Module: e.Module})
		}
	}
	// A function value a library made from no function of the program
	// (ent's sql.FieldEQ(name, v) predicate) does nothing when called:
	// say so, so that callers resolve it.
	madeByLib := fs.fromStd && len(fs.wrapped) == 0 && len(fs.returned)+len(fs.params)+len(fs.paramResults)+len(fs.elemParams)+len(fs.fieldParams) == 0
	if len(out.effects)+len(out.pending) > 0 || len(fs.callables) > 0 || madeByLib && !fs.unresolved {
		s.Returned = e.finish(out, e.pos(root.fn.Pos()))
		s.ReturnedIndex = r
	}
}

// returnsHandler reports whether sig returns a handler: a request-shaped
// function, or an interface with a request-shaped method (http.Handler).
func returnsHandler(sig *types.Signature) bool {
	res := sig.Results()
	for i := 0; i < res.Len(); i++ {
		switch u := res.At(i).Type().Underlying().(type) {
		case *types.Signature:
			if requestShaped(u) {
				return true
			}
		case *types.Interface:
			for j := 0; j < u.NumMethods(); j++ {
				if requestShaped(u.Method(j).Signature()) {
					return true
				}
			}
		}
	}
	return false
}

// returnsHandlerHolder reports whether a result of sig holds handlers
// without being one: a route struct with a Handler field, a slice of
// them, mcp-go's ServerTool. The handlers a constructor builds into
// such a result are its handlers too (SPEC §3).
func returnsHandlerHolder(sig *types.Signature) bool {
	res := sig.Results()
	for i := 0; i < res.Len(); i++ {
		if t := res.At(i).Type(); !handlerType(t) && holdsHandler(t, map[types.Type]bool{}, 0) {
			return true
		}
	}
	return false
}

func holdsHandler(t types.Type, seen map[types.Type]bool, depth int) bool {
	if depth > 4 || seen[t] {
		return false
	}
	seen[t] = true
	if handlerType(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return holdsHandler(u.Elem(), seen, depth+1)
	case *types.Slice:
		return holdsHandler(u.Elem(), seen, depth+1)
	case *types.Array:
		return holdsHandler(u.Elem(), seen, depth+1)
	case *types.Map:
		return holdsHandler(u.Elem(), seen, depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsHandler(u.Field(i).Type(), seen, depth+1) {
				return true
			}
		}
	}
	return false
}

// computeResultMethods summarises calling the methods of the interface
// the function returns (its first interface result), when every value it
// may return is known: callers in other packages then resolve a call
// through it (locks.Acquire(...) returning an io.Closer whose Close
// deletes; a Noop() returning one whose Close does nothing).
func (e *Engine) computeResultMethods(s *Summary, root *frame) {
	if e.Prog == nil {
		return
	}
	results := root.fn.Signature.Results()
	r := -1
	for i := 0; i < results.Len(); i++ {
		if t := results.At(i).Type(); types.IsInterface(t) && e.followedIface(t) {
			if _, isTP := t.(*types.TypeParam); !isTP {
				r = i
				break
			}
		}
	}
	if r < 0 {
		return
	}
	it := results.At(r).Type().Underlying().(*types.Interface)
	if it.NumMethods() == 0 || it.NumMethods() > maxTargets {
		return
	}
	var ts []target
	type imported struct {
		call *ssa.Call
		sum  *Summary
	}
	var via []imported // what another package's function returned, by its ResultMethods
	for _, b := range root.fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && r < len(ret.Results) {
			if c, ok := ret.Results[r].(*ssa.Const); ok && c.IsNil() {
				continue
			}
			if call, sum := e.importedResult(ret.Results[r]); sum != nil {
				via = append(via, imported{call, sum})
				continue
			}
			if !e.concretes(ret.Results[r], root, 0, &ts) || len(ts)+len(via) > maxTargets {
				return
			}
		}
	}
	name := qualifiedName(results.At(r).Type())
	sinkIface := e.isSinkInterface(name)
	var methods []MethodSummary
	for i := 0; i < it.NumMethods(); i++ {
		m := it.Method(i).Name()
		out := newCollector()
		for _, t := range ts {
			if t.typeOf() == nil {
				if sinkIface || len(t.wrapped) > 0 {
					return // what a library made, holding what it was handed
				}
				continue
			}
			obj, fn := e.methodOf(t.typeOf(), m)
			if obj == nil {
				continue
			}
			recv := binding{}
			if t.x != nil {
				recv = binding{v: t.x, fr: t.fr}
			}
			e.callObjOrWrapper(obj, fn, []binding{recv}, root.fn.Pos(), root, out)
		}
		for _, im := range via {
			for _, ms := range im.sum.ResultMethods {
				if ms.Name == m {
					e.instantiateAt(ms.Sum, &instCtx{args: bind(im.call.Call.Args, root)}, root.fn.Pos(), root, out)
				}
			}
		}
		if len(out.effects)+len(out.pending) > 0 {
			methods = append(methods, MethodSummary{Name: m, Sum: e.finish(out, e.pos(root.fn.Pos()))})
		}
	}
	s.ResultMethods, s.ResultMethodsAt = methods, r+1
}

func (e *Engine) pos(p token.Pos) Position { return PositionOf(e.Fset, p) }

func (e *Engine) walk(fr *frame, out *collector) {
	for _, b := range fr.fn.Blocks {
		// Calls the compiler synthesises (the iterator call of a
		// range-over-func loop) have no position of their own; they
		// are placed at the nearest positioned instruction before them.
		last := token.NoPos
		for _, instr := range b.Instrs {
			pos := instr.Pos()
			if !pos.IsValid() {
				pos = last
			} else {
				last = pos
			}
			if !e.spend(1) {
				out.add(e.boundHit(pos, fr))
				return
			}
			fr.cur = instr
			switch instr := instr.(type) {
			case *ssa.Call:
				e.site(pos, instr.Common(), false, fr, out)
			case *ssa.Defer:
				e.site(pos, instr.Common(), false, fr, out)
			case *ssa.Go:
				e.site(pos, instr.Common(), true, fr, out)
			case *ssa.Store, *ssa.Send, *ssa.MapUpdate:
				e.stored(pos, instr, fr, out)
			case *ssa.Select:
				// A send in a select case is a send.
				for _, st := range instr.States {
					if st.Dir == types.SendOnly {
						p := st.Pos
						if !p.IsValid() {
							p = pos
						}
						e.stored(p, &ssa.Send{Chan: st.Chan, X: st.Send}, fr, out)
					}
				}
			case *ssa.MakeClosure:
				// (A method value's bound closure is no literal: where a
				// constructor returns it, returnedHandlers calls it.)
				if fn := instr.Fn.(*ssa.Function); fr.ctor && fn.Parent() != nil {
					e.ctorMade(pos, instr, fn, nil, fr, out)
				}
			case *ssa.Panic:
				// What recovers it may print it (log.Printf("%v", rec)):
				// the value is handed on as any.
				e.handOffValue(binding{v: instr.X, fr: fr}, nil, pos, fr, out, callFlags{})
			case *ssa.ChangeInterface:
				e.connAsWriter(pos, instr.X, instr.Type(), fr, out)
			case *ssa.MakeInterface:
				e.connAsWriter(pos, instr.X, instr.Type(), fr, out)
			}
			if fr.ctor {
				// A literal with no free variables is a plain function
				// operand, not a MakeClosure.
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && f.Parent() == fr.fn {
						if _, isMC := instr.(*ssa.MakeClosure); !isMC {
							e.ctorMade(pos, f, f, instr, fr, out)
						}
					}
				}
			}
		}
	}
}

// stored handles a store, send or map update, applying any hatch on the
// statement that holds it.
func (e *Engine) stored(pos token.Pos, instr ssa.Instruction, fr *frame, out *collector) {
	var val ssa.Value
	switch in := instr.(type) {
	case *ssa.Store:
		val = in.Val
	case *ssa.Send:
		val = in.X
	case *ssa.MapUpdate:
		val = in.Value
	}
	if !callbackType(val.Type()) && len(funcFields(val.Type())) == 0 {
		return
	}
	if p := appendPos(instr); p.IsValid() {
		pos = p // an element of append's variadic array: the append is the site
	}
	e.hatched(pos, fr, out, func(target *collector) { e.storeSite(instr, pos, fr, target) })
}

// appendPos returns the position of the append call a store into a
// variadic array feeds, if any.
func appendPos(instr ssa.Instruction) token.Pos {
	st, ok := instr.(*ssa.Store)
	if !ok {
		return token.NoPos
	}
	ia, ok := st.Addr.(*ssa.IndexAddr)
	if !ok {
		return token.NoPos
	}
	alloc, ok := ia.X.(*ssa.Alloc)
	if !ok {
		return token.NoPos
	}
	for _, r := range *alloc.Referrers() {
		if sl, ok := r.(*ssa.Slice); ok {
			for _, r2 := range *sl.Referrers() {
				if c, ok := r2.(*ssa.Call); ok {
					if b, ok := c.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
						return c.Pos()
					}
				}
			}
		}
	}
	return token.NoPos
}

// ctorMade handles a function literal a handler constructor makes (v is
// its MakeClosure, or the function itself when it captures nothing, used
// by user). A literal the constructor does not call itself counts as
// called once where it is made (SPEC §3). One that escapes (returned,
// stored) is walked only there; one handed to a callee is also left to
// the callee, which decides whether it runs later or in a transaction.
func (e *Engine) ctorMade(pos token.Pos, v ssa.Value, fn *ssa.Function, user ssa.Instruction, fr *frame, out *collector) {
	key := ctorKey{fn, fr.helperFrame()}
	if e.ctorWalked[key] {
		return
	}
	switch {
	case uncalled(v, user):
		e.ctorLiteral(pos, binding{v: v, fr: fr}, fr, out)
		e.ctorWalked[key] = true
	case handed(v, user) && !e.handedToStd(v, user):
		e.ctorLiteral(pos, binding{v: v, fr: fr}, fr, out)
	}
}

// handedToStd reports whether the literal v goes only to calls of the
// standard library that run it before they return (iter.Pull,
// slices.SortFunc, sync.Once.Do): the walk follows it there, with the
// arguments the library makes, and no handler is made of it.
func (e *Engine) handedToStd(v ssa.Value, user ssa.Instruction) bool {
	users := []ssa.Instruction{user}
	if user == nil {
		users = *v.Referrers()
	}
	vals := map[ssa.Value]bool{v: true} // the literal and its conversions
	found := false
	for depth := 0; depth < 4 && len(users) > 0; depth++ {
		var next []ssa.Instruction
		for _, u := range users {
			switch u := u.(type) {
			case ssa.CallInstruction:
				c := u.Common()
				if vals[c.Value] {
					continue // called here
				}
				callee := c.StaticCallee()
				if callee == nil {
					return false
				}
				obj := funcObject(callee)
				if obj == nil || obj.Pkg() == nil || !stdPath(obj.Pkg().Path()) {
					return false
				}
				for i, a := range c.Args {
					if vals[a] && e.retains(obj, i-recvCount(callee)) {
						return false // kept to run later: a registration
					}
				}
				found = true
			case *ssa.ChangeType:
				vals[u] = true
				next = append(next, *u.Referrers()...)
			case *ssa.DebugRef:
			default:
				return false
			}
		}
		users = next
	}
	return found && len(users) == 0
}

// recvCount is 1 for a method, 0 for a function.
func recvCount(fn *ssa.Function) int {
	if fn.Signature.Recv() != nil {
		return 1
	}
	return 0
}

// handed reports whether a literal is handed to a callee as an argument
// (converted to a named function type or an interface on the way).
func handed(v ssa.Value, user ssa.Instruction) bool {
	users := []ssa.Instruction{user}
	if user == nil {
		users = *v.Referrers()
	}
	for depth := 0; depth < 4; depth++ {
		var next []ssa.Instruction
		for _, u := range users {
			switch u := u.(type) {
			case ssa.CallInstruction:
				if u.Common().Value != v {
					return true
				}
			case *ssa.ChangeType:
				v, next = u, append(next, *u.Referrers()...)
			case *ssa.MakeInterface:
				v, next = u, append(next, *u.Referrers()...)
			}
		}
		if len(next) == 0 {
			return false
		}
		users = next
	}
	return false
}

// uncalled reports whether a function literal's value leaves the
// function that makes it without being called there: it is returned,
// converted to an interface, stored or sent somewhere, rather than only
// called or handed to a callee (which the walk follows). user is the one
// instruction using a literal that has no MakeClosure.
func uncalled(v ssa.Value, user ssa.Instruction) bool {
	var users []ssa.Instruction
	if user != nil {
		users = []ssa.Instruction{user}
	} else if refs := v.Referrers(); refs != nil {
		users = *refs
	}
	seen := map[ssa.Value]bool{}
	used := false // called, handed to a callee, or captured
	var escapes func(v ssa.Value, users []ssa.Instruction, depth int) bool
	escapes = func(v ssa.Value, users []ssa.Instruction, depth int) bool {
		if depth > 16 || seen[v] {
			return depth > 16
		}
		seen[v] = true
		for _, u := range users {
			switch u := u.(type) {
			case *ssa.DebugRef:
			case *ssa.Call, *ssa.Defer, *ssa.Go:
				// called, or handed to a callee the walk follows (it
				// decides whether the literal runs later)
				used = true
			case *ssa.Store:
				alloc, ok := u.Addr.(*ssa.Alloc)
				if !ok || u.Val != v {
					return true
				}
				for _, r := range *alloc.Referrers() {
					if load, ok := r.(*ssa.UnOp); ok && escapes(load, *load.Referrers(), depth+1) {
						return true
					}
					if _, ok := r.(*ssa.MakeClosure); ok {
						used = true // the variable is captured: that literal decides
					}
				}
			case *ssa.Phi:
				if escapes(u, *u.Referrers(), depth+1) {
					return true
				}
			case *ssa.ChangeType:
				if escapes(u, *u.Referrers(), depth+1) {
					return true
				}
			case *ssa.MakeClosure:
				// captured by another literal: that one decides
				used = true
			default:
				return true
			}
		}
		return false
	}
	// A literal nothing calls, hands on or captures (bound to _, or to
	// a variable never read) still counts as called once (SPEC §3).
	return escapes(v, users, 0) || !used
}

// ctorLiteral walks a function literal a handler constructor makes, as
// called once with unknown arguments where it is made.
func (e *Engine) ctorLiteral(pos token.Pos, lit binding, fr *frame, out *collector) {
	fs := e.funcsOf(lit.v, lit.fr)
	for _, cl := range fs.callables {
		var free []binding
		if mc, ok := cl.value.(*ssa.MakeClosure); ok {
			free = bind(mc.Bindings, cl.fr)
		}
		sub := newCollector()
		e.inlineCtor(cl.fn, free, pos, fr, sub)
		out.merge(sub)
	}
}

// inlineCtor walks a literal of a handler constructor: in place, with its
// own literals counted in turn.
func (e *Engine) inlineCtor(fn *ssa.Function, free []binding, pos token.Pos, fr *frame, out *collector) {
	if fr.onStack(fn) {
		return
	}
	if fr.depth >= maxDepth || !e.deeper() {
		out.add(e.boundHit(pos, fr))
		return
	}
	defer e.shallower()
	nf := &frame{fn: fn, free: free, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}, ctor: true, inTx: fr.inTx}
	e.walk(nf, out)
}

// site handles one call, defer or go instruction, applying any hatch on
// the statement that holds it.
func (e *Engine) site(pos token.Pos, c *ssa.CallCommon, isGo bool, fr *frame, out *collector) {
	if fr.at.IsValid() {
		pos = fr.at
	}
	if !pos.IsValid() {
		pos = fr.fn.Pos()
	}
	e.hatched(pos, fr, out, func(target *collector) {
		if !isGo {
			e.call(c, pos, fr, target)
			return
		}
		sub := newCollector()
		e.call(c, pos, fr, sub)
		// A callback the goroutine runs (bg.Go(ctx, fn) calling fn) is
		// resolved by the caller, and is detached there if it does
		// anything: it carries its own detachment.
		work := newCollector()
		for _, ef := range sub.effects {
			work.add(*ef)
		}
		for _, p := range sub.pending {
			q := *p
			if (q.Op == OpCallParam || q.Op == OpCallMethod) && !q.Detach && q.DetachIf == 0 {
				q.Detach = true
			}
			work.addPending(q)
		}
		work.overflow = sub.overflow
		busy := hasWork(work)
		target.add(Effect{
			Kind:   Detached,
			Reason: "starts a detached goroutine",
			Pos:    e.pos(pos),
			Module: e.Module,
			// A goroutine inside a dependency that does nothing the
			// analysis can see (or only runs what its caller hands it,
			// which is detached there if it does anything) is that
			// dependency's business; in the module's own code, any go
			// statement a handler reaches is detached (SPEC §4).
			Local: !busy,
		})
		target.merge(work)
	})
}

// hatched runs do for the site at pos, applying the hatches on the
// statement that holds it.
func (e *Engine) hatched(pos token.Pos, fr *frame, out *collector, do func(target *collector)) {
	hs := e.hatchesAt(pos, fr)
	for _, h := range hs {
		if h.None {
			out.add(Effect{Kind: AssertedEffectFree, Reason: h.Reason, Provenance: Declared, Pos: e.pos(h.Start), Module: e.Module})
			return
		}
	}
	if len(hs) == 0 {
		do(out)
		return
	}
	target := newCollector()
	scoped := false
	for _, h := range hs {
		scoped = scoped || h.Scoped
	}
	if scoped {
		// Sites resolved here already know the statement is declared
		// scoped (a WHERE followed by runtime text is answered by it).
		e.scopedStmt++
		defer func() { e.scopedStmt-- }()
	}
	do(target)
	for _, h := range hs {
		for _, d := range h.Declared {
			d.Provenance = Declared
			d.Pos = e.pos(h.Start)
			d.Module = e.Module
			d.Reason = h.Reason
			target.add(d)
		}
		if len(h.Declared) > 0 {
			target.discharge()
		}
		if h.Scoped {
			target.scope()
		}
	}
	out.merge(target)
}

// hatchesAt returns the hatches on the statement holding pos, in the
// function the site belongs to (a synthetic wrapper's sites belong to
// the function that called it).
func (e *Engine) hatchesAt(pos token.Pos, fr *frame) []*Hatch {
	if len(e.Hatches) == 0 {
		return nil
	}
	owner := token.NoPos
	for f := fr; f != nil; f = f.parent {
		if syn := f.fn.Syntax(); syn != nil && !f.at.IsValid() {
			owner = syn.Pos()
			break
		}
	}
	var hs []*Hatch
	for _, h := range e.Hatches {
		if h.Start <= pos && pos < h.End && (h.Fn == token.NoPos || h.Fn == owner) {
			hs = append(hs, h)
		}
	}
	return hs
}

// discharge drops unprovable sites: a declaration covers them.
func (c *collector) discharge() {
	for k, eff := range c.effects {
		if eff.Kind == Unprovable {
			delete(c.effects, k)
		}
	}
	c.rekeyPending(func(p *Pending) { p.Discharged = true })
}

// scope drops cross-tenant effects: the statement is declared scoped.
func (c *collector) scope() {
	for k, eff := range c.effects {
		if eff.Kind == CrossTenant {
			delete(c.effects, k)
		}
	}
	c.rekeyPending(func(p *Pending) { p.Scoped = true })
}

func (c *collector) rekeyPending(f func(*Pending)) {
	old := c.pending
	c.pending = map[string]*Pending{}
	for _, p := range old {
		f(p)
		c.addPending(*p)
	}
}

// dropRegistrations removes, from a handler constructor's effects, the
// detachment of the handlers it registers: a call, store or send of the
// constructor that hands on a literal shaped like a handler (SPEC §3)
// registers that handler, whose effects are walked as called; the
// registry keeping it is not work outliving a request.
func (e *Engine) dropRegistrations(fn *ssa.Function, out *collector) {
	if requestShaped(fn.Signature) {
		return // a handler: what it keeps outlives its request
	}
	sites := map[Position]bool{}
	eachInstr([]*ssa.Function{fn}, func(f *ssa.Function, in ssa.Instruction) {
		var ops [8]*ssa.Value
		call, _ := in.(ssa.CallInstruction)
		for _, op := range in.Operands(ops[:0]) {
			// A handler the constructor itself hands to a call, a named
			// one too: handedHandlers walks it as called.
			handedHere := f == fn && call != nil && *op != nil && *op != call.Common().Value && handlerType((*op).Type()) && returnsHandler(fn.Signature)
			if handlerLiteral(*op, f) || handedHere {
				sites[e.pos(in.Pos())] = true
				if call, ok := in.(ssa.CallInstruction); ok {
					sites[e.pos(call.Pos())] = true
				}
			}
		}
	})
	if len(sites) == 0 {
		return
	}
	for k, eff := range out.effects {
		if eff.Kind == Detached && len(eff.Via) == 0 && sites[eff.Pos] {
			delete(out.effects, k)
		}
	}
	for k, p := range out.pending {
		if p.Op == OpDetachIf && len(p.Via) == 0 && sites[p.Pos] {
			delete(out.pending, k)
		}
	}
}

// handlerLiteral reports whether v is (a conversion of) a function
// literal of fn shaped like a handler.
func handlerLiteral(v ssa.Value, fn *ssa.Function) bool {
	for i := 0; i < 4 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeClosure:
			lit, _ := x.Fn.(*ssa.Function)
			return lit != nil && lit.Parent() == fn && requestShaped(lit.Signature)
		case *ssa.Function:
			return x.Parent() == fn && requestShaped(x.Signature)
		default:
			return false
		}
	}
	return false
}

// returnedHandlers calls once, with unknown arguments, the function
// values a handler constructor returns that are not its own literals
// (those are walked where they are made): a method value, a literal an
// inner literal or a helper makes. They are its handlers too.
func (e *Engine) returnedHandlers(root *frame, out *collector) {
	fn := root.fn
	if requestShaped(fn.Signature) {
		return
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for _, res := range ret.Results {
			if _, ok := res.Type().Underlying().(*types.Interface); ok {
				e.returnedHandlerValue(res, ret, root, out)
				continue
			}
			if _, ok := res.Type().Underlying().(*types.Signature); !ok || ownLiteral(res, fn) {
				continue
			}
			if c, ok := res.(*ssa.Const); ok && c.IsNil() {
				continue
			}
			pos := ret.Pos()
			if !pos.IsValid() {
				pos = fn.Pos()
			}
			root.cur = ret
			e.callArg(binding{v: res, fr: root}, pos, root, out, callFlags{})
		}
	}
}

// returnedHandlerValue is returnedHandlers for a result of an interface
// type with a request-shaped method (an http.Handler): a handler another
// function built and handed back, a middleware factory's product
// (Audit("export")(inner)), is called with unknown arguments. A handler
// built here is already walked where it is made; one out of sight is
// unprovable.
func (e *Engine) returnedHandlerValue(res ssa.Value, ret *ssa.Return, root *frame, out *collector) {
	it, _ := res.Type().Underlying().(*types.Interface)
	var names []string
	for i := 0; i < it.NumMethods(); i++ {
		if m := it.Method(i); requestShaped(m.Signature()) {
			names = append(names, m.Name())
		}
	}
	if len(names) == 0 {
		return
	}
	v := res
	for i := 0; i < 8; i++ {
		if x, ok := v.(*ssa.MakeInterface); ok {
			v = x.X
		} else if x, ok := v.(*ssa.ChangeInterface); ok {
			v = x.X
		}
	}
	if c, ok := v.(*ssa.Const); ok && c.IsNil() || ownLiteral(v, root.fn) {
		return
	}
	pos := ret.Pos()
	if !pos.IsValid() {
		pos = root.fn.Pos()
	}
	call, made := v.(*ssa.Call)
	if !made {
		// A value the constructor holds: a struct of the program with
		// ServeHTTP is called; a router's handlers are those registered
		// on it, walked there (handedHandlers); one the constructor was
		// given is out of sight.
		root.cur = ret
		var ts []target
		if !e.concretes(res, root, 0, &ts) {
			if fromParams(v, root.fn) && !e.inMade {
				out.add(e.unprovable(pos, "returns a handler the constructor was given, which the analysis cannot see",
					"build the handler in the constructor, or declare the statement with //agent:effect"))
			}
			return
		}
		// A function converted to a handler type (http.HandlerFunc(purge),
		// a method value) is called too.
		e.callHandlers(ts, names, pos, root, out)
		return
	}
	if callee := call.Call.StaticCallee(); call.Call.IsInvoke() || callee != nil && pkgOf(callee) != e.Pkg {
		// Another package's helper: its Made summary, instantiated at
		// the call, holds the handlers it builds.
		return
	}
	root.cur = ret
	var ts []target
	if !e.concretes(res, root, 0, &ts) {
		if call.Call.StaticCallee() == nil {
			fs := e.funcsOf(call.Call.Value, root)
			if fs.unresolved || len(fs.params)+len(fs.fieldParams)+len(fs.elemParams) > 0 {
				return // the call itself is the site (a parameter called)
			}
			if len(fs.callables) == 0 && len(fs.returned) > 0 && !fs.fromStd {
				// Another package's middleware factory's product: its
				// summary holds the handler it builds, instantiated at
				// the call (computeReturned, returnsHandler).
				return
			}
		} else if e.helperReturnsProducts(call, root) {
			// A helper of the package that returns such a product
			// (wrapWith(h) returning mw.Audit("x")(h)): walked as the
			// constructor's helper, the product with it.
			return
		}
		out.add(e.unprovable(pos, "returns a handler built by code the analysis cannot resolve",
			"build the handler in the constructor, or declare the statement with //agent:effect"))
		return
	}
	e.callHandlers(ts, names, pos, root, out)
}

// callHandlers calls each handler ts holds once, with unknown arguments:
// the function values a standard value wraps, a function, or the
// request-shaped methods names of a type of the program's own. A literal
// of the constructor's own is walked where it is made.
func (e *Engine) callHandlers(ts []target, names []string, pos token.Pos, root *frame, out *collector) {
	for _, t := range ts {
		switch {
		case t.x == nil:
			for _, w := range t.wrapped {
				e.callArg(w, pos, root, out, callFlags{})
			}
		case ownLiteral(peelConv(t.x), root.fn):
		case isSignature(t.x.Type()):
			e.callArg(binding{v: t.x, fr: t.fr}, pos, root, out, callFlags{})
		case t.typeOf() != nil && e.analysedType(t.typeOf()):
			e.callMethods(t.typeOf(), binding{v: t.x, fr: t.fr}, names, pos, root, out)
		}
	}
}

// handedHandlers calls once, with unknown arguments, each handler a
// handler constructor hands to a call that is not a literal of its own
// (those are walked where they are made): a named function, a struct
// with ServeHTTP, another function's product, wrapped by a middleware
// (Local("x")(deleter{}), kit.Chain(newDeleter(), kit.Audit("x"))) or
// registered on a router. The code it is handed to may call it; what
// that code adds of its own is its call's summary. A handler that comes
// from the constructor's parameters is out of sight: unprovable. Sites
// another path of the walk already reached at the same call are not
// added twice.
func (e *Engine) handedHandlers(root *frame, out *collector) {
	fn := root.fn
	if requestShaped(fn.Signature) || !returnsHandler(fn.Signature) && !returnsHandlerHolder(fn.Signature) {
		return
	}
	extra := newCollector()
	seen := map[ssa.Value]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var args []ssa.Value
			var callee ssa.Value
			switch in := instr.(type) {
			case ssa.CallInstruction:
				common := in.Common()
				args, callee = common.Args, common.Value
				if sc := common.StaticCallee(); sc != nil && sc.Signature.Recv() != nil && len(args) > 0 {
					args = args[1:] // the receiver is called, not handed
				}
			case *ssa.Store:
				// A handler built into a route table (a struct field, a
				// slice element) that is handed on; not a local variable.
				switch in.Addr.(type) {
				case *ssa.FieldAddr, *ssa.IndexAddr:
					args = []ssa.Value{in.Val}
				}
			case *ssa.MapUpdate:
				args = []ssa.Value{in.Value}
			case *ssa.Send:
				args = []ssa.Value{in.X}
			default:
				continue
			}
			for _, a := range args {
				if seen[a] || !handlerType(a.Type()) {
					continue
				}
				seen[a] = true
				v := peelConv(a)
				if cst, ok := v.(*ssa.Const); ok && cst.IsNil() || ownLiteral(v, fn) || v == callee {
					continue
				}
				pos := feedsReturn(instr, fn)
				root.cur = instr
				if _, isCall := instr.(ssa.CallInstruction); !isCall && isSignature(a.Type()) {
					// A handler function built into a route table (a
					// struct's Handler field, mcp-go's ServerTool): called
					// once, with unknown arguments.
					e.callArg(binding{v: a, fr: root}, pos, root, extra, callFlags{})
					continue
				}
				var ts []target
				if !e.concretes(a, root, 0, &ts) {
					if fromParams(v, fn) && !e.inMade {
						extra.add(e.unprovable(pos, "hands on a handler the constructor was given, which the analysis cannot see",
							"build the handler in the constructor, or declare the statement with //agent:effect"))
					}
					// Anything else unresolved is another package's
					// product: its Made summary, instantiated at the
					// call, holds the handler it builds.
					continue
				}
				e.callHandlers(ts, handlerMethods(a.Type()), pos, root, extra)
			}
		}
	}
	have := map[siteOf]bool{}
	for _, x := range out.effects {
		have[siteOf{x.Kind, x.Subject, x.Method, x.Reason, x.Pos}] = true
	}
	for _, x := range extra.effects {
		if !have[siteOf{x.Kind, x.Subject, x.Method, x.Reason, x.Pos}] {
			out.add(*x)
		}
	}
	for _, p := range extra.pending {
		out.addPending(*p)
	}
	out.overflow = out.overflow || extra.overflow
}

// siteOf is an effect's site and what it does, wherever it is reported.
type siteOf struct {
	kind, subject, method, reason string
	pos                           Position
}

// handlerType reports whether t is a handler: a request-shaped function
// type (http.HandlerFunc) or an interface with a request-shaped method
// (http.Handler).
func handlerType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return requestShaped(u)
	case *types.Interface:
		for j := 0; j < u.NumMethods(); j++ {
			if requestShaped(u.Method(j).Signature()) {
				return true
			}
		}
	}
	return false
}

// handlerMethods names the request-shaped methods of the handler
// interface type it (none for a function type).
func handlerMethods(it types.Type) []string {
	var names []string
	if u, ok := it.Underlying().(*types.Interface); ok {
		for j := 0; j < u.NumMethods(); j++ {
			if m := u.Method(j); requestShaped(m.Signature()) {
				names = append(names, m.Name())
			}
		}
	}
	return names
}

// peelConv sees through interface and named-type conversions.
func peelConv(v ssa.Value) ssa.Value {
	for i := 0; i < 8; i++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
	return v
}

// fromParams reports whether v is one of fn's parameters, or a field or
// element read from one.
func fromParams(v ssa.Value, fn *ssa.Function) bool {
	for i := 0; i < 8; i++ {
		switch x := v.(type) {
		case *ssa.Parameter:
			return x.Parent() == fn
		case *ssa.Field:
			v = x.X
		case *ssa.UnOp:
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
				v = fa.X
			} else {
				return false
			}
		default:
			return false
		}
	}
	return false
}

// feedsReturn is where a handler handed at instr is reported: the return
// its call's result feeds (through other calls and conversions), as the
// walk of the returned handler reports it, else the call itself.
func feedsReturn(instr ssa.Instruction, fn *ssa.Function) token.Pos {
	pos := instr.Pos()
	v, ok := instr.(ssa.Value)
	if st, isStore := instr.(*ssa.Store); isStore {
		// A handler stored into a struct or array: where that goes.
		switch a := st.Addr.(type) {
		case *ssa.FieldAddr:
			v, ok = a.X, true
		case *ssa.IndexAddr:
			v, ok = a.X, true
		}
	}
	for depth := 0; ok && depth < 8; depth++ {
		var next ssa.Value
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.Return:
				if p := r.Pos(); p.IsValid() {
					return p
				}
				return fn.Pos()
			case *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType, *ssa.Call, *ssa.UnOp, *ssa.Slice:
				if next == nil {
					next = r.(ssa.Value)
				}
			}
		}
		if next == nil {
			break
		}
		v = next
	}
	if !pos.IsValid() {
		pos = fn.Pos()
	}
	return pos
}

func isSignature(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// ownLiteral reports whether v is (a conversion of) a literal defined in
// fn's body, or a variable (a named result) only such literals are
// stored to.
func ownLiteral(v ssa.Value, fn *ssa.Function) bool { return ownLiteralAt(v, fn, 0) }

func ownLiteralAt(v ssa.Value, fn *ssa.Function, depth int) bool {
	if depth > 4 {
		return false
	}
	for i := 0; i < 4 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeClosure:
			lit, _ := x.Fn.(*ssa.Function)
			return lit != nil && lit != fn && within(lit, fn)
		case *ssa.Function:
			return x != fn && within(x, fn)
		case *ssa.UnOp:
			cell, ok := x.X.(*ssa.Alloc)
			if !ok || x.Op != token.MUL || !isSignature(x.Type()) {
				// (A struct loaded from a local is no literal: its
				// methods are walked where it is handed on.)
				return false
			}
			for _, r := range *cell.Referrers() {
				st, ok := r.(*ssa.Store)
				if !ok || st.Addr != cell {
					continue
				}
				if c, ok := st.Val.(*ssa.Const); ok && c.IsNil() {
					continue
				}
				if !ownLiteralAt(st.Val, fn, depth+1) {
					return false
				}
			}
			return true
		default:
			return false
		}
	}
	return false
}

// resultFields finds the fields of the struct fn builds and returns that
// hold one of its parameters, the same on every return.
func resultFields(fn *ssa.Function) []FieldSource {
	if fn.Signature.Results().Len() == 0 {
		return nil
	}
	var out []FieldSource
	first := true
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		v := ret.Results[0]
		var conv ssa.Value
		if mi, ok := v.(*ssa.MakeInterface); ok {
			conv, v = mi, mi.X // the struct returned as an interface it implements
		}
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			if conv == nil {
				conv = load
			}
			v = load.X
		}
		alloc, ok := v.(*ssa.Alloc)
		if !ok || !onlyBuilt(alloc, conv, ret) {
			return nil
		}
		st, ok := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		stores := map[int][]ssa.Value{}
		unknown := map[int]bool{}
		for _, r := range *alloc.Referrers() {
			fa, ok := r.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			for _, r2 := range *fa.Referrers() {
				switch r2 := r2.(type) {
				case *ssa.Store:
					if r2.Addr != fa {
						unknown[fa.Field] = true
						continue
					}
					stores[fa.Field] = append(stores[fa.Field], r2.Val)
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					unknown[fa.Field] = true // its address handed on
				}
			}
		}
		var here []FieldSource
		for f := 0; f < st.NumFields(); f++ {
			if unknown[f] {
				continue
			}
			vals := stores[f]
			if len(vals) == 0 {
				if _, isFunc := st.Field(f).Type().Underlying().(*types.Signature); isFunc {
					here = append(here, FieldSource{Field: f, Param: FieldNil})
				}
				continue
			}
			if len(vals) > 1 {
				continue // set more than once: which one holds is not known here
			}
			val := vals[0]
			for {
				if mi, ok := val.(*ssa.MakeInterface); ok {
					val = mi.X
					continue
				}
				if ci, ok := val.(*ssa.ChangeInterface); ok {
					val = ci.X
					continue
				}
				break
			}
			switch x := val.(type) {
			case *ssa.Parameter:
				if i := paramIndex(fn, x); i >= 0 {
					here = append(here, FieldSource{Field: f, Param: i})
				}
			case *ssa.Function:
				if x.Parent() == nil && x.Signature.Recv() == nil && x.Pkg != nil && x.Object() != nil && x.TypeParams().Len() == 0 {
					here = append(here, FieldSource{Field: f, Param: FieldFunc, Func: x.Pkg.Pkg.Path() + "." + x.Name()})
				}
			}
		}
		if first {
			out, first = here, false
			continue
		}
		out = slices.DeleteFunc(out, func(f FieldSource) bool { return !slices.Contains(here, f) })
	}
	if len(out) > 16 {
		out = out[:16]
	}
	return out
}

// onlyBuilt reports whether the struct alloc is only built here and
// returned (by ret, through conv, its conversion or load): its fields
// are stored to or read, and it is handed to nothing that might set one.
func onlyBuilt(alloc *ssa.Alloc, conv ssa.Value, ret *ssa.Return) bool {
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr, *ssa.DebugRef:
		case *ssa.Return:
			if r != ret {
				return false
			}
		default:
			if v, ok := r.(ssa.Value); !ok || v != conv {
				return false
			}
		}
	}
	if conv != nil {
		for _, r := range *conv.Referrers() {
			switch r.(type) {
			case *ssa.Return, *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

// returnsShared reports whether fn may return the value of a package
// variable (func Default() *Registry { return defaultRegistry }).
func returnsShared(fn *ssa.Function) bool {
	if res := fn.Signature.Results(); res.Len() == 0 || !mayHoldWork(res.At(0).Type(), map[types.Type]bool{}) {
		// Nothing that runs can be stored into what it returns (a
		// generated Descriptor's []byte): sharing it detaches nothing.
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		v := ret.Results[0]
		for i := 0; i < 4; i++ {
			switch x := v.(type) {
			case *ssa.MakeInterface:
				v = x.X
				continue
			case *ssa.ChangeType:
				v = x.X
				continue
			case *ssa.UnOp:
				if _, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
					return true
				}
			case *ssa.Global:
				return true
			}
			break
		}
	}
	return false
}

// mayHoldWork reports whether a value of type t can hold, directly or
// through pointers, elements or fields, something that runs later: a
// function, an interface value or a channel.
func mayHoldWork(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false // a recursive type: its other parts decide
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		return mayHoldWork(u.Underlying(), seen)
	case *types.Basic:
		return u.Kind() == types.UnsafePointer // points at anything
	case *types.Pointer:
		return mayHoldWork(u.Elem(), seen)
	case *types.Slice:
		return mayHoldWork(u.Elem(), seen)
	case *types.Array:
		return mayHoldWork(u.Elem(), seen)
	case *types.Map:
		return mayHoldWork(u.Key(), seen) || mayHoldWork(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayHoldWork(u.Field(i).Type(), seen) {
				return true
			}
		}
		return false
	}
	return true // func, interface, chan, type parameter, tuple
}

// ctorHelper reports whether a handler constructor's call of fn, a
// function with a body, may bring back handlers fn makes: one of its
// results (other than a plain function value, which the constructor
// resolves by calling it) can hold a function value, inside a struct, a
// pointer, a slice, an array, a map or an interface other than error
// (a tool helper returning ServerTool{Handler: func...}, a router helper
// returning an http.Handler).
func ctorHelper(fn *ssa.Function) bool {
	if len(fn.Blocks) == 0 {
		return false
	}
	res := fn.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		t := res.At(i).Type()
		if _, ok := t.Underlying().(*types.Signature); ok {
			continue
		}
		if holdsFuncs(t, map[types.Type]bool{}, 0) {
			return true
		}
	}
	return false
}

// holdsFuncs reports whether a value of type t can hold a function value.
func holdsFuncs(t types.Type, seen map[types.Type]bool, depth int) bool {
	if depth > 8 || seen[t] {
		return false
	}
	seen[t] = true
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Signature, *types.Interface:
		return true
	case *types.Pointer:
		return holdsFuncs(u.Elem(), seen, depth+1)
	case *types.Slice:
		return holdsFuncs(u.Elem(), seen, depth+1)
	case *types.Array:
		return holdsFuncs(u.Elem(), seen, depth+1)
	case *types.Map:
		return holdsFuncs(u.Elem(), seen, depth+1)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsFuncs(u.Field(i).Type(), seen, depth+1) {
				return true
			}
		}
	}
	return false
}

// MadeSummary is fn's summary as a handler constructor (Summary.Made),
// for an exported function whose results may hold handlers it makes; nil
// when fn is not such a function or when it adds nothing to base.
func (e *Engine) MadeSummary(fn *ssa.Function, base *Summary) *Summary {
	if !e.madeHelper(fn) || !e.returnsMade(fn) {
		return nil
	}
	e.inMade = true
	m := e.HandlerSummary(fn)
	e.inMade = false
	if m == base || sameSites(m, base) {
		return nil
	}
	c := *m
	c.Returned, c.ReturnedIndex = nil, 0
	return &c
}

// madeHelper reports whether fn, of this package, may be a handler
// constructor's helper: its results may hold a function value
// (ctorHelper), and it returns a handler, or makes a function literal or
// method value that does more than run where it is made (a deferred
// recover does not count), or calls a
// helper of this package that does, or another package's function whose
// summary has a Made part. A function that makes no such literal, at any
// depth, cannot bring one back (an ANTLR parser's rules, which return
// interfaces and call each other). Memoised; a helper in progress
// (recursion) counts as making none, which its own literals override.
func (e *Engine) madeHelper(fn *ssa.Function) bool {
	if !ctorHelper(fn) {
		return false
	}
	if v, ok := e.madeHelpers[fn]; ok {
		return v
	}
	if e.madeHelpers == nil {
		e.madeHelpers = map[*ssa.Function]bool{}
	}
	e.madeHelpers[fn] = false
	v := returnsHandler(fn.Signature) && !requestShaped(fn.Signature) || makesLiteral(fn) || e.callsMadeHelper(fn)
	e.madeHelpers[fn] = v
	return v
}

// makesLiteral reports whether fn makes a function literal or a method
// value used other than as the callee of a call, defer or go statement
// right where it is made (stored, returned, handed on, captured).
func makesLiteral(fn *ssa.Function) bool {
	lits := map[*ssa.Function]bool{}
	for _, a := range fn.AnonFuncs {
		lits[a] = true
	}
	onlyCalled := func(v ssa.Value, refs []ssa.Instruction) bool {
		for _, r := range refs {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case ssa.CallInstruction:
				c := r.Common()
				if c.Value != v || slices.Contains(c.Args, v) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	found := false
	eachInstr([]*ssa.Function{fn}, func(_ *ssa.Function, in ssa.Instruction) {
		if found {
			return
		}
		if mc, ok := in.(*ssa.MakeClosure); ok {
			// A literal, or a method value (s.archive) handed on.
			if !onlyCalled(mc, *mc.Referrers()) {
				found = true
			}
			return
		}
		var ops [8]*ssa.Value
		for _, op := range in.Operands(ops[:0]) {
			f, ok := (*op).(*ssa.Function)
			if !ok || !lits[f] {
				continue
			}
			c, isCall := in.(ssa.CallInstruction)
			if !isCall || c.Common().Value != f || slices.Contains(c.Common().Args, ssa.Value(f)) {
				found = true
			}
		}
	})
	return found
}

// callsMadeHelper reports whether fn statically calls a madeHelper of
// this package, or a function of another analysed package whose summary
// has a Made part.
func (e *Engine) callsMadeHelper(fn *ssa.Function) bool {
	return anyStaticCallee(fn, func(callee *ssa.Function) bool {
		if callee == fn {
			return false
		}
		if o := callee.Origin(); o != nil {
			callee = o
		}
		if callee.Pkg == fn.Pkg {
			return e.madeHelper(callee)
		}
		obj := funcObject(callee)
		if obj == nil || obj.Pkg() == nil || e.Import == nil || e.Analysed == nil || !e.Analysed(obj.Pkg()) {
			return false
		}
		s := e.Import(obj)
		return s != nil && s.Made != nil
	})
}

// anyStaticCallee reports whether pred holds for the static callee of
// some call in fn or the closures it defines (eachInstr).
func anyStaticCallee(fn *ssa.Function, pred func(callee *ssa.Function) bool) bool {
	found := false
	eachInstr([]*ssa.Function{fn}, func(_ *ssa.Function, in ssa.Instruction) {
		c, ok := in.(ssa.CallInstruction)
		if found || !ok {
			return
		}
		if callee := c.Common().StaticCallee(); callee != nil {
			found = pred(callee)
		}
	})
	return found
}

// returnsMade reports whether what fn returns may hold a function
// literal it makes, or what a helper returns: a result, through
// conversions, the fields of a struct built here and the elements of a
// slice literal, is a literal or a call (a constructor that only builds
// a server with callbacks it keeps does not count; its literals are its
// own summary's business). It keeps Made to the helpers it is for.
func (e *Engine) returnsMade(fn *ssa.Function) bool {
	if returnsHandler(fn.Signature) && !requestShaped(fn.Signature) {
		// A handler, however it is built (a router its registrations
		// fill, a struct with ServeHTTP): the caller's handler.
		return true
	}
	// A call may bring back what a helper made: a function of this
	// package or of an analysed one, whose result can hold a function.
	helperCall := func(call *ssa.Call, t types.Type) bool {
		callee := call.Call.StaticCallee()
		if callee == nil || !holdsFuncs(t, map[types.Type]bool{}, 0) {
			return false
		}
		obj := funcObject(callee)
		if obj == nil || obj.Pkg() == nil {
			return false
		}
		if obj.Pkg() == e.Pkg {
			// A helper of this package brings back what it makes only
			// if it is one (a parser rule's NewExprContext is not).
			return e.madeHelper(callee)
		}
		return e.Analysed != nil && e.Analysed(obj.Pkg())
	}
	var made func(v ssa.Value, depth int) bool
	made = func(v ssa.Value, depth int) bool {
		if depth > 4 {
			return false
		}
		switch x := v.(type) {
		case *ssa.MakeClosure:
			return true
		case *ssa.Function:
			return x.Parent() != nil
		case *ssa.Call:
			return helperCall(x, x.Type())
		case *ssa.Extract:
			if call, ok := x.Tuple.(*ssa.Call); ok {
				return helperCall(call, x.Type())
			}
		case *ssa.MakeInterface:
			return made(x.X, depth+1)
		case *ssa.ChangeInterface:
			return made(x.X, depth+1)
		case *ssa.ChangeType:
			return made(x.X, depth+1)
		case *ssa.Phi:
			for _, ed := range x.Edges {
				if made(ed, depth+1) {
					return true
				}
			}
		case *ssa.Slice:
			return made(x.X, depth+1)
		case *ssa.UnOp:
			if x.Op == token.MUL {
				return made(x.X, depth+1)
			}
		case *ssa.Alloc:
			for _, r := range *x.Referrers() {
				var addr ssa.Value
				switch r := r.(type) {
				case *ssa.FieldAddr:
					addr = r
				case *ssa.IndexAddr:
					addr = r
				case *ssa.Store:
					if r.Addr == x && made(r.Val, depth+1) {
						return true
					}
				}
				if addr == nil {
					continue
				}
				for _, r2 := range *addr.Referrers() {
					if st, ok := r2.(*ssa.Store); ok && st.Addr == addr && made(st.Val, depth+1) {
						return true
					}
				}
			}
		}
		return false
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for _, r := range ret.Results {
			if _, isFunc := r.Type().Underlying().(*types.Signature); !isFunc && holdsFuncs(r.Type(), map[types.Type]bool{}, 0) && made(r, 0) {
				return true
			}
		}
	}
	return false
}

// sameSites reports whether a and b hold the same effects and pending
// sites (a handler constructor's Made summary that only drops the
// detachment of the handlers it registers differs too).
func sameSites(a, b *Summary) bool {
	if len(a.Effects) != len(b.Effects) || len(a.Pending) != len(b.Pending) {
		return false
	}
	effs := make(map[effectKey]bool, len(b.Effects))
	for i := range b.Effects {
		effs[b.Effects[i].key()] = true
	}
	for i := range a.Effects {
		if !effs[a.Effects[i].key()] {
			return false
		}
	}
	pend := make(map[string]bool, len(b.Pending))
	for i := range b.Pending {
		pend[b.Pending[i].key()] = true
	}
	for i := range a.Pending {
		if !pend[a.Pending[i].key()] {
			return false
		}
	}
	return true
}

// returnsFunc reports whether one of fn's results is a function value
// (a handler constructor returning what a helper in another package made
// is resolved by returnedHandlers).
func returnsFunc(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		if _, ok := res.At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// callsHelper reports whether fn calls a function that may bring back
// handlers it makes: a ctorHelper of its package, or a function of
// another package whose results may hold function values (its summary's
// Made part says what those do).
func callsHelper(fn *ssa.Function) bool {
	return anyStaticCallee(fn, func(callee *ssa.Function) bool {
		if callee.Parent() != nil {
			return false
		}
		if callee.Pkg == fn.Pkg {
			return ctorHelper(callee)
		}
		res := callee.Signature.Results()
		for i := 0; i < res.Len(); i++ {
			t := res.At(i).Type()
			if _, sig := t.Underlying().(*types.Signature); !sig && holdsFuncs(t, map[types.Type]bool{}, 0) {
				return true
			}
		}
		return false
	})
}

// errorMethods are the methods code handed an error may call on it.
var errorMethods = []string{"Error", "Is", "As", "Unwrap", "Format"}

// OwnErrorActs reports whether an error type of this package has an
// Error method with an effect (an error that audits itself when
// printed), or an Is, As, Unwrap or Format method with one.
func (e *Engine) OwnErrorActs() bool {
	if e.ownErrorActs == 0 {
		e.ownErrorActs = 1
		for _, m := range errorMethods {
			if e.effectfulImpl(types.Universe.Lookup("error").Type(), m) != "" {
				e.ownErrorActs = 2
				break
			}
		}
	}
	return e.ownErrorActs == 2
}

// errorsAct reports whether an error value the package handles may be
// one whose Error method has an effect: then error values are followed
// like a benign interface's (resolved where they are seen, left to the
// caller on a parameter, unprovable where a type of this package may be
// behind them). Nearly every package has none, and ignores them.
func (e *Engine) errorsAct() bool {
	return e.ErrorsActDeps || e.Prog != nil && e.Pkg != nil && e.OwnErrorActs()
}

// contextMethods are the methods of context.Context.
var contextMethods = []string{"Deadline", "Done", "Err", "Value"}

// OwnContextActs reports whether a type of this package implements
// context.Context with an effect in one of its methods (a context that
// audits every Value lookup). A package that does not reach the context
// package has no such type.
func (e *Engine) OwnContextActs() bool {
	if e.ownContextActs == 0 {
		e.ownContextActs = 1
		if t := contextType(e.Pkg); t != nil {
			for _, m := range contextMethods {
				if e.effectfulImpl(t, m) != "" {
					e.ownContextActs = 2
					break
				}
			}
		}
	}
	return e.ownContextActs == 2
}

// contextsAct is errorsAct for context.Context values: they are ignored
// unless a context with an effect is in reach (this package's or a
// dependency's).
func (e *Engine) contextsAct() bool {
	return e.ContextsActDeps || e.Prog != nil && e.Pkg != nil && e.OwnContextActs()
}

// followedIface reports whether values of the interface t are followed
// here: every interface but error and context.Context, and those two
// where a type with an effect behind them is in reach.
func (e *Engine) followedIface(t types.Type) bool {
	if !ignoredIface(t) {
		return true
	}
	if isErrorType(t) {
		return e.errorsAct()
	}
	return e.contextsAct()
}

// isContextType reports whether t is context.Context.
func isContextType(t types.Type) bool { return qualifiedName(t) == "context.Context" }

// contextType finds context.Context among the packages pkg imports,
// directly or not, or returns nil.
func contextType(pkg *types.Package) types.Type {
	if pkg == nil {
		return nil
	}
	seen := map[*types.Package]bool{}
	stack := []*types.Package{pkg}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		if p.Path() == "context" {
			if o, ok := p.Scope().Lookup("Context").(*types.TypeName); ok {
				return o.Type()
			}
			return nil
		}
		stack = append(stack, p.Imports()...)
	}
	return nil
}

// isErrorType reports whether t is the universe error interface.
func isErrorType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() == nil && n.Obj().Name() == "error"
}

// finish is the summary of what out collected, at at.
func (e *Engine) finish(out *collector, at Position) *Summary {
	return out.summaryOf(at, e.Module, e.Coarse)
}

// helperReturnsProducts reports whether call statically calls a handler
// constructor's helper of this package (ctorHelper) that returns, on
// every return, a product of another package's middleware factory: a
// call of a function value that resolves only to summaries of other
// packages (Returned), with no parameter or unresolved value among them.
func (e *Engine) helperReturnsProducts(call *ssa.Call, root *frame) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Parent() != nil || pkgOf(callee) != e.Pkg || !ctorHelper(callee) {
		return false
	}
	cf, rets := e.localReturns(call, root)
	if cf == nil || len(rets) == 0 {
		return false
	}
	for _, ret := range rets {
		if len(ret.Results) == 0 {
			return false
		}
		pc, ok := peelConv(ret.Results[0]).(*ssa.Call)
		if !ok || pc.Call.StaticCallee() != nil || pc.Call.IsInvoke() {
			return false
		}
		fs := e.funcsOf(pc.Call.Value, cf)
		if fs.unresolved || fs.fromStd || len(fs.callables) > 0 || len(fs.returned) == 0 || len(fs.params)+len(fs.fieldParams)+len(fs.elemParams) > 0 {
			return false
		}
	}
	return true
}
