package effects

import (
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
// pending for the callers.
func (e *Engine) txEnqueue(p Pending, fr *frame, out *collector) {
	if p.Discharged {
		return
	}
	if e.inTransaction(fr) {
		out.add(Effect{Kind: Unprovable, Reason: p.Reason, Fix: p.Fix, Pos: p.Pos, Via: p.Via, Module: p.Module})
		return
	}
	out.addPending(p)
}

// inTransaction reports whether the instruction being walked in fr runs
// inside a transaction.
func (e *Engine) inTransaction(fr *frame) bool {
	for f := fr; f != nil; f = f.parent {
		if f.inTx {
			return true
		}
		for _, p := range f.fn.Params {
			if lib().txHandles[qualifiedName(p.Type())] {
				return true
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
// from a begin reaches it without passing a commit or rollback. A
// deferred commit happens at the function's exit, so it closes nothing
// before; a loop's back edge brings the state after the commit, not the
// begin.
func (e *Engine) txOpenAt(fn *ssa.Function, instr ssa.Instruction) bool {
	info := e.txInfo(fn)
	if info == nil {
		return false
	}
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

// txFlow is the transaction state of one function's blocks.
type txFlow struct {
	begins, closers map[ssa.Instruction]bool
	in              []bool // open at each block's entry
}

func txStep(info *txFlow, x ssa.Instruction, open bool) bool {
	switch {
	case info.begins[x]:
		return true
	case info.closers[x]:
		return false
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
	info := &txFlow{begins: map[ssa.Instruction]bool{}, closers: map[ssa.Instruction]bool{}}
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			call, ok := x.(*ssa.Call)
			if !ok {
				continue // a deferred commit closes at the exit only
			}
			switch {
			case isTxBegin(&call.Call):
				info.begins[x] = true
			case isTxClose(&call.Call):
				info.closers[x] = true
			}
		}
	}
	if len(info.begins) == 0 {
		e.txFlows[fn] = nil
		return nil
	}
	info.in = make([]bool, len(fn.Blocks))
	out := make([]bool, len(fn.Blocks))
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			in := false
			for _, p := range b.Preds {
				in = in || out[p.Index]
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

// isTxBegin: a modelled begin, or any call that returns a transaction
// handle (a project's own Begin wrapper).
func isTxBegin(c *ssa.CallCommon) bool {
	if lib().txBegins[callKey(c)] {
		return true
	}
	sig := c.Signature()
	for i := 0; i < sig.Results().Len(); i++ {
		if lib().txHandles[qualifiedName(sig.Results().At(i).Type())] {
			return true
		}
	}
	return false
}

// isTxClose: a modelled commit or rollback, or a call of a function
// named like one that is handed a transaction handle (a project's own
// Commit wrapper).
func isTxClose(c *ssa.CallCommon) bool {
	key := callKey(c)
	if lib().txCommits[key] {
		return true
	}
	name := key[strings.LastIndex(key, ".")+1:]
	if c.IsInvoke() {
		name = c.Method.Name()
	}
	lower := strings.ToLower(name)
	if !strings.Contains(lower, "commit") && !strings.Contains(lower, "rollback") {
		return false
	}
	handed := c.Args
	if c.IsInvoke() {
		handed = append([]ssa.Value{c.Value}, c.Args...)
	}
	for _, a := range handed {
		if lib().txHandles[qualifiedName(a.Type())] || isTxIface(a.Type()) {
			return true
		}
	}
	return false
}

// isTxIface: an interface with Commit and Rollback methods.
func isTxIface(t types.Type) bool {
	it, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	has := map[string]bool{}
	for i := 0; i < it.NumMethods(); i++ {
		has[it.Method(i).Name()] = true
	}
	return has["Commit"] && has["Rollback"]
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
