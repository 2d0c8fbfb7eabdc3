package effects

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Transactions span functions (SPEC §4.1). A non-transactional enqueue
// fires even when the transaction around it rolls back, so it is
// unprovable where it runs inside one: between a begin and its commit
// in the same function, in a callback a function calls while its
// transaction is open (whatever the callback's signature: the
// transaction may travel in a context), in a function handed a
// transaction handle, or in a callee that does any of those. An enqueue
// whose function is not known to run inside a transaction stays pending
// in its summary, for callers that call it inside one.

// checkTxEnqueue handles a non-transactional enqueue at c.
func (e *Engine) checkTxEnqueue(c *callSite, call, txVariant string) {
	river := strings.HasPrefix(call, "River's ")
	if river && txVariant == "" {
		return // the transactional variant itself
	}
	fix := "use " + txVariant + " with the transaction"
	if !river {
		fix = "it has no transactional variant: enqueue after the commit, or use a queue that takes the transaction"
	}
	p := Pending{Op: OpTxEnqueue,
		Reason: "enqueues a job with " + call + ", which is not transactional, between a transaction's begin and its commit; it fires even if the transaction rolls back",
		Fix:    fix, Pos: e.pos(c.pos), Module: e.Module}
	e.txEnqueue(p, c.fr, c.out)
}

// txEnqueue reports a pending non-transactional enqueue as unprovable
// where the frame runs inside a transaction, and otherwise keeps it
// pending for the callers, unless the function already closed the
// transaction its caller handed it (a helper that commits, then
// enqueues).
func (e *Engine) txEnqueue(p Pending, fr *frame, out *collector) {
	if p.Discharged {
		return
	}
	if e.inTransaction(fr) {
		out.add(Effect{Kind: Unprovable, Reason: p.Reason, Fix: p.Fix, Pos: p.Pos, Via: p.Via, Module: p.Module})
		return
	}
	if e.handedTxClosed(fr) {
		return
	}
	out.addPending(p)
}

// handedTxClosed reports whether, where the root frame of fr is, the
// transaction handed to its function has been closed on every path.
func (e *Engine) handedTxClosed(fr *frame) bool {
	for f := fr; f != nil; f = f.parent {
		if f.parent != nil || f.cur == nil {
			continue
		}
		info := e.txInfo(f.fn)
		return info != nil && info.param != 0 && info.openBefore(f.cur)&info.param == 0
	}
	return false
}

// endsForeignTx reports whether fn commits or rolls back a transaction it
// did not begin itself: one handed in, or one it keeps in a field.
func (e *Engine) endsForeignTx(fn *ssa.Function) bool {
	info := e.txInfo(fn)
	ends := false
	eachInstr([]*ssa.Function{fn}, func(f *ssa.Function, in ssa.Instruction) {
		call, ok := in.(*ssa.Call)
		if ends || !ok || f != fn || !isTxClose(&call.Call) {
			return
		}
		if info == nil {
			ends = true // no begin here: whatever it closes was begun elsewhere
			return
		}
		bits := closedBits(info, &call.Call)
		ends = bits == ^uint64(0) || bits&info.param != 0
	})
	return ends
}

// callEndsTx reports whether a call's callee, a function of this package
// or of an analysed one, ends a transaction it was handed or keeps.
func (e *Engine) callEndsTx(c *ssa.CallCommon) bool {
	if c.IsInvoke() {
		return false
	}
	s := e.calleeSummary(c)
	return s != nil && s.EndsTx
}

// calleeSummary returns the summary of a static call's callee, a named
// function of this package (unless it is being computed) or of an
// analysed package, or nil.
// programCallee is the summary of c's callee when it is a function of the
// program whose summary is settled (this package's, or an analysed
// package's that is no modelled library); known is false otherwise.
func (e *Engine) programCallee(c *ssa.CallCommon) (s *Summary, known bool) {
	if c.IsInvoke() {
		return nil, false
	}
	fn := c.StaticCallee()
	if fn == nil || fn.Parent() != nil {
		return nil, false
	}
	obj := funcObject(fn)
	switch {
	case obj == nil || obj.Pkg() == nil || lib().modelled(obj.Pkg().Path()):
	case obj.Pkg() == e.Pkg:
		if e.summaries != nil && !e.inProgress(fn) && len(fn.Blocks) > 0 {
			return e.local(fn), true
		}
	case e.Analysed != nil && e.Analysed(obj.Pkg()) && e.Import != nil:
		return e.Import(obj), true
	}
	return nil, false
}

func (e *Engine) calleeSummary(c *ssa.CallCommon) *Summary {
	if c.IsInvoke() {
		return nil
	}
	fn := c.StaticCallee()
	if fn == nil || fn.Parent() != nil {
		return nil
	}
	obj := funcObject(fn)
	switch {
	case obj == nil || obj.Pkg() == nil:
	case obj.Pkg() == e.Pkg:
		if e.summaries != nil && !e.inProgress(fn) {
			return e.local(fn)
		}
	case e.Analysed != nil && e.Analysed(obj.Pkg()) && e.Import != nil:
		return e.Import(obj)
	}
	return nil
}

// inTransaction reports whether the instruction being walked in fr runs
// inside a transaction.
func (e *Engine) inTransaction(fr *frame) bool {
	for f := fr; f != nil; f = f.parent {
		if f.inTx {
			return true
		}
		if f.cur == nil {
			for _, p := range f.fn.Params {
				if lib().txHandles[qualifiedName(p.Type())] {
					return true
				}
			}
		}
		if f.cur != nil && e.txOpenAt(f.fn, f.cur) {
			return true
		}
	}
	return false
}

// txFrame is fr, running inside a transaction.
func txFrame(fr *frame) *frame {
	c := *fr
	c.inTx = true
	return &c
}

// txOpenAt reports whether a transaction may be open at instr: some path
// from a begin reaches it without passing a commit or rollback of that
// transaction. A deferred commit happens at the function's exit, so it
// closes nothing before; a loop's back edge brings the state after the
// commit, not the begin; a savepoint's commit closes the savepoint only.
func (e *Engine) txOpenAt(fn *ssa.Function, instr ssa.Instruction) bool {
	info := e.txInfo(fn)
	if info == nil {
		return false
	}
	if d, ok := instr.(*ssa.Defer); ok {
		return e.txOpenAtDefer(info, fn, d)
	}
	return info.openBefore(instr) != 0
}

// txBegunOpenAt reports whether a transaction the function began (not
// one it was handed) may be open at instr.
func (e *Engine) txBegunOpenAt(fn *ssa.Function, instr ssa.Instruction) bool {
	info := e.txInfo(fn)
	return info != nil && info.openBefore(instr)&^info.param != 0
}

// openBefore is the set of transactions that may be open just before
// instr.
func (info *txFlow) openBefore(instr ssa.Instruction) uint64 {
	b := instr.Block()
	open := info.in[b.Index]
	for _, x := range b.Instrs {
		if x == instr {
			return open
		}
		open = txStep(info, x, open)
	}
	return open
}

// txOpenAtDefer: a deferred call runs at the function's exit, after the
// calls deferred later (LIFO). A transaction is open when it runs if it
// may be open at a return and no commit or rollback deferred after it
// closes it.
func (e *Engine) txOpenAtDefer(info *txFlow, fn *ssa.Function, d *ssa.Defer) bool {
	var open uint64
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			open |= info.openBefore(ret)
		}
	}
	if info.deferClosers == nil {
		return open != 0
	}
	for dc, bits := range info.deferClosers {
		if deferredAfter(d, dc) {
			open &^= bits
		}
	}
	return open != 0
}

// deferredAfter reports whether the defer statement later is registered
// after first on every path: later in first's block. (One in another
// block may be skipped; it is not counted.)
func deferredAfter(first, later *ssa.Defer) bool {
	if first.Block() != later.Block() {
		return false
	}
	for _, x := range first.Block().Instrs {
		if x == first {
			return true
		}
		if x == later {
			return false
		}
	}
	return false
}

// txFlow is the transaction state of one function's blocks: a bit per
// begin (the 64th stands for all the others), set while it may be open.
type txFlow struct {
	begins       map[ssa.Instruction]uint64 // the bit a begin opens
	closers      map[ssa.Instruction]uint64 // the bits a commit or rollback closes
	deferClosers map[*ssa.Defer]uint64      // deferred commits and rollbacks: the bits they close at exit
	param        uint64                     // the bit of the transactions handed in as parameters
	in           []uint64                   // open at each block's entry
}

func txStep(info *txFlow, x ssa.Instruction, open uint64) uint64 {
	if bit, ok := info.begins[x]; ok {
		return open | bit
	}
	if bits, ok := info.closers[x]; ok {
		return open &^ bits
	}
	return open
}

func (e *Engine) txInfo(fn *ssa.Function) *txFlow {
	if e.txFlows == nil {
		e.txFlows = map[*ssa.Function]*txFlow{}
	}
	if info, ok := e.txFlows[fn]; ok {
		return info
	}
	info := &txFlow{begins: map[ssa.Instruction]uint64{}, closers: map[ssa.Instruction]uint64{}}
	for _, p := range fn.Params {
		if lib().txHandles[qualifiedName(p.Type())] {
			// A transaction handed in is open at entry until the
			// function commits or rolls it back.
			info.param = 1
		}
	}
	next := 0
	if info.param != 0 {
		next = 1
	}
	var closers []*ssa.Call
	var deferred []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			if d, ok := x.(*ssa.Defer); ok && isTxClose(&d.Call) {
				deferred = append(deferred, d)
			}
			call, ok := x.(*ssa.Call)
			if !ok {
				continue // a deferred commit closes at the exit only
			}
			switch {
			case e.isTxBegin(&call.Call):
				bit := uint64(1) << min(next, 63)
				next++
				info.begins[x] = bit
			case isTxClose(&call.Call) || e.callEndsTx(&call.Call):
				closers = append(closers, call)
			}
		}
	}
	if len(info.begins) == 0 && info.param == 0 {
		e.txFlows[fn] = nil
		return nil
	}
	for _, c := range closers {
		info.closers[c] = closedBits(info, &c.Call)
	}
	for _, d := range deferred {
		if info.deferClosers == nil {
			info.deferClosers = map[*ssa.Defer]uint64{}
		}
		info.deferClosers[d] = closedBits(info, &d.Call)
	}
	info.in = make([]uint64, len(fn.Blocks))
	out := make([]uint64, len(fn.Blocks))
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			var in uint64
			if b.Index == 0 {
				in = info.param
			}
			for _, p := range b.Preds {
				in |= out[p.Index] &^ failedBegin(info, p, b)
			}
			o := in
			for _, x := range b.Instrs {
				o = txStep(info, x, o)
			}
			if in != info.in[b.Index] || o != out[b.Index] {
				info.in[b.Index], out[b.Index] = in, o
				changed = true
			}
		}
	}
	e.txFlows[fn] = info
	return info
}

// failedBegin is the begins whose error the edge from p to b tests non-nil
// (if tx, err := Begin(); err != nil { return }): no transaction is open
// along it.
func failedBegin(info *txFlow, p, b *ssa.BasicBlock) uint64 {
	if len(p.Instrs) == 0 || len(p.Succs) != 2 {
		return 0
	}
	iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
	if !ok {
		return 0
	}
	cmp, ok := iff.Cond.(*ssa.BinOp)
	if !ok || (cmp.Op != token.NEQ && cmp.Op != token.EQL) {
		return 0
	}
	errV := cmp.X
	if c, ok := errV.(*ssa.Const); ok && c.IsNil() {
		errV = cmp.Y
	} else if c, ok := cmp.Y.(*ssa.Const); !ok || !c.IsNil() {
		return 0
	}
	ex, ok := errV.(*ssa.Extract)
	if !ok {
		return 0
	}
	begin, ok := ex.Tuple.(*ssa.Call)
	if !ok || ex.Index == 0 || ex.Index != begin.Call.Signature().Results().Len()-1 {
		return 0
	}
	bit, ok := info.begins[begin]
	if !ok {
		return 0
	}
	failed := p.Succs[0] // err != nil is true
	if cmp.Op == token.EQL {
		failed = p.Succs[1]
	}
	if failed == b {
		return bit
	}
	return 0
}

// closedBits is what a commit or rollback closes: the transaction whose
// handle it is called on, when that handle comes from one begin of the
// function, and every transaction otherwise.
func closedBits(info *txFlow, c *ssa.CallCommon) uint64 {
	var h ssa.Value
	switch {
	case c.IsInvoke():
		h = c.Value
	case len(c.Args) > 0:
		h = c.Args[0]
	}
	for i := 0; h != nil && i < 16; i++ {
		switch v := h.(type) {
		case *ssa.Extract:
			if begin, ok := v.Tuple.(*ssa.Call); ok {
				if bit, ok := info.begins[begin]; ok && v.Index == 0 {
					return bit
				}
			}
			h = nil
		case *ssa.Call:
			if bit, ok := info.begins[v]; ok {
				return bit
			}
			h = nil
		case *ssa.MakeInterface:
			h = v.X
		case *ssa.ChangeInterface:
			h = v.X
		case *ssa.ChangeType:
			h = v.X
		case *ssa.Parameter:
			if info.param != 0 && lib().txHandles[qualifiedName(v.Type())] {
				return info.param
			}
			h = nil
		case *ssa.UnOp:
			if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
				// p.audit.Commit(): the handle a local struct holds.
				if alloc, ok := fa.X.(*ssa.Alloc); ok {
					var bs []binding
					if fieldOfAlloc(alloc, fa.Field, &frame{fn: alloc.Parent()}, 0, &bs) && len(bs) == 1 {
						h = bs[0].v
						continue
					}
				}
			}
			if alloc, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
				var vals []ssa.Value
				for _, r := range *alloc.Referrers() {
					if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
						vals = append(vals, st.Val)
					}
				}
				if len(vals) == 1 {
					h = vals[0]
					continue
				}
			}
			h = nil
		default:
			h = nil
		}
	}
	return ^uint64(0)
}

// isTxBegin: a modelled begin, a call that returns a transaction handle,
// or a call of a function whose summary says it returns with a
// transaction open (a project's own Begin wrapper, its own Tx type).
func (e *Engine) isTxBegin(c *ssa.CallCommon) bool {
	if lib().txBegins[callKey(c)] {
		return true
	}
	if s, known := e.programCallee(c); known {
		// The program's own function: a Begin wrapper begins one, a
		// txFrom(ctx) that hands back the ambient one does not.
		return s != nil && s.BeginsTx
	}
	sig := c.Signature()
	for i := 0; i < sig.Results().Len(); i++ {
		if lib().txHandles[qualifiedName(sig.Results().At(i).Type())] {
			return true
		}
	}
	if c.IsInvoke() {
		// Through an interface a modelled handle was converted to here
		// (var b beginner = gormDB; b.Begin()).
		if t := convertedFrom(c.Value); t != nil {
			return lib().txBegins[qualifiedName(t)+"."+c.Method.Name()]
		}
		return false
	}
	s := e.calleeSummary(c)
	return s != nil && s.BeginsTx
}

// isTxClose: a modelled commit or rollback, or a call of a function
// named like one (a project's own Commit wrapper, its Tx type's Commit).
func isTxClose(c *ssa.CallCommon) bool {
	key := callKey(c)
	if lib().txCommits[key] {
		return true
	}
	name := key[strings.LastIndex(key, ".")+1:]
	if c.IsInvoke() {
		name = c.Method.Name()
	}
	// Named like a close: Commit, Rollback, CommitTx, txRollback,
	// doCommit, mustCommit (not BeforeCommit, an outbox hook that
	// closes nothing).
	lower := strings.ToLower(name)
	for _, p := range []string{"tx", "do", "must", "try"} {
		lower = strings.TrimPrefix(lower, p)
	}
	return strings.HasPrefix(lower, "commit") || strings.HasPrefix(lower, "rollback")
}

// callKey is staticKey, extended to calls through interface methods.
func callKey(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		if recv := c.Method.Signature().Recv(); recv != nil {
			return qualifiedName(recv.Type()) + "." + c.Method.Name()
		}
		return ""
	}
	return staticKey(*c)
}

// convertedFrom returns the concrete type an interface value was made
// from in the same function, through local variables, or nil.
func convertedFrom(v ssa.Value) types.Type {
	for i := 0; i < 8 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			return x.X.Type()
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.UnOp:
			cell, ok := x.X.(*ssa.Alloc)
			if !ok || x.Op != token.MUL {
				return nil
			}
			var val ssa.Value
			for _, r := range *cell.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == cell {
					if val != nil {
						return nil
					}
					val = st.Val
				}
			}
			v = val
		default:
			return nil
		}
	}
	return nil
}
