package effects

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Job queues: River (github.com/riverqueue/river) and asynq
// (github.com/hibiken/asynq).
const (
	riverPath = "github.com/riverqueue/river"
	asynqPath = "github.com/hibiken/asynq"
)

func init() {
	// River: the kind is the constant Kind() of the concrete args type.
	models[riverPath+".Client.Insert"] = riverInsert(2, "Insert", "InsertTx")
	models[riverPath+".Client.InsertTx"] = riverInsert(3, "InsertTx", "")
	models[riverPath+".Client.InsertMany"] = riverInsertMany(2, "InsertMany", "InsertManyTx")
	models[riverPath+".Client.InsertManyTx"] = riverInsertMany(3, "InsertManyTx", "")
	models[riverPath+".Client.InsertManyFast"] = riverInsertMany(2, "InsertManyFast", "InsertManyFastTx")
	models[riverPath+".Client.InsertManyFastTx"] = riverInsertMany(3, "InsertManyFastTx", "")
	// Job management writes River's own table.
	for _, name := range []string{"JobCancel", "JobCancelTx", "JobDelete", "JobDeleteTx", "JobRetry", "JobRetryTx"} {
		models[riverPath+".Client."+name] = func(e *Engine, c *callSite) {
			c.out.add(Effect{Kind: Write, Subject: "river_job", Provenance: TypeResolved, Pos: e.pos(c.pos), Module: e.Module})
		}
	}
	// asynq: the type is NewTask's first argument; asynq has no
	// transactional enqueue.
	models[asynqPath+".Client.Enqueue"] = asynqEnqueue(1)
	models[asynqPath+".Client.EnqueueContext"] = asynqEnqueue(2)
}

// ConstString is the fact that a function always returns one constant
// string (a River args type's Kind method, a gorm model's TableName).
type ConstString struct{ Value string }

// AFact marks ConstString as an analysis fact.
func (*ConstString) AFact() {}

func (c *ConstString) String() string { return fmt.Sprintf("returns %q", c.Value) }

// ConstResult reports the constant string every return of fn yields.
func ConstResult(fn *ssa.Function) (string, bool) {
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 || !isString(fn.Signature.Results().At(0).Type()) {
		return "", false
	}
	value, found := "", false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		ts := (&Engine{}).evalString(ret.Results[0], &frame{fn: fn, visiting: map[ssa.Value]bool{}}).texts()
		if len(ts) != 1 || !ts[0].Complete || (found && ts[0].Text != value) {
			return "", false
		}
		value, found = ts[0].Text, true
	}
	return value, found
}

// methodConst returns the constant result of method name on type t.
func (e *Engine) methodConst(t types.Type, name string) (string, bool) {
	ms := types.NewMethodSet(t)
	sel := ms.Lookup(nil, name)
	if sel == nil {
		if _, isPtr := t.(*types.Pointer); !isPtr {
			sel = types.NewMethodSet(types.NewPointer(t)).Lookup(nil, name)
		}
	}
	if sel == nil {
		return "", false
	}
	obj, ok := sel.Obj().(*types.Func)
	if !ok {
		return "", false
	}
	if o := obj.Origin(); o != nil {
		obj = o
	}
	if obj.Pkg() == e.Pkg && e.Prog != nil {
		return ConstResult(e.Prog.FuncValue(obj))
	}
	if e.ImportConst != nil {
		return e.ImportConst(obj)
	}
	return "", false
}

// jobKind evaluates a River JobArgs value to the kind of its concrete
// type, or to a parameter of the function being summarised.
func (e *Engine) jobKind(v ssa.Value, fr *frame) Str {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		if k, ok := e.methodConst(mi.X.Type(), "Kind"); ok {
			return litStr(k)
		}
		return unknownStr()
	}
	if types.IsInterface(v.Type()) {
		return unknownStr()
	}
	if k, ok := e.methodConst(v.Type(), "Kind"); ok {
		return litStr(k)
	}
	return unknownStr()
}

func riverInsert(argIdx int, name, txVariant string) model {
	return func(e *Engine, c *callSite) {
		if argIdx >= len(c.args) {
			return
		}
		e.emit(Pending{Op: OpSubject, Kind: Job, Text: e.trace(c.args[argIdx], c.fr, handleJobArgs), Prov: TypeResolved, Pos: e.pos(c.pos), Module: e.Module}, c.out)
		e.checkTxEnqueue(c, "River's "+name, txVariant)
	}
}

// riverInsertMany reads the Args of each InsertManyParams literal in the
// slice passed.
func riverInsertMany(argIdx int, name, txVariant string) model {
	return func(e *Engine, c *callSite) {
		if argIdx >= len(c.args) {
			return
		}
		kinds, ok := e.insertManyKinds(c.args[argIdx], c.fr)
		if !ok {
			c.out.add(e.unprovable(c.pos, "inserts River jobs whose args types are not visible",
				"build the []river.InsertManyParams literal in the same function, or declare the kinds with //agent:effect jobs(...)"))
		} else {
			e.emit(Pending{Op: OpSubject, Kind: Job, Text: kinds, Prov: TypeResolved, Pos: e.pos(c.pos), Module: e.Module}, c.out)
		}
		e.checkTxEnqueue(c, "River's "+name, txVariant)
	}
}

// insertManyKinds finds the Args stored into the elements of a local
// []river.InsertManyParams literal.
func (e *Engine) insertManyKinds(v ssa.Value, fr *frame) (Str, bool) {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return Str{}, false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return Str{}, false
	}
	var kinds Str
	found := false
	argsOf := func(elem ssa.Value) {
		for _, r := range *elem.Referrers() {
			fa, ok := r.(*ssa.FieldAddr)
			if !ok || fa.X != elem {
				continue
			}
			st, _ := fa.X.Type().Underlying().(*types.Pointer)
			if st == nil {
				continue
			}
			s, _ := st.Elem().Underlying().(*types.Struct)
			if s == nil || s.Field(fa.Field).Name() != "Args" {
				continue
			}
			for _, r3 := range *fa.Referrers() {
				if store, ok := r3.(*ssa.Store); ok && store.Addr == fa {
					kinds = unionStr(kinds, e.trace(store.Val, fr, handleJobArgs))
					found = true
				}
			}
		}
	}
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		argsOf(ia) // fields set in place
		for _, r2 := range *ia.Referrers() {
			// or a whole element copied from a local composite literal
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
				if load, ok := st.Val.(*ssa.UnOp); ok && load.Op == token.MUL {
					if local, ok := load.X.(*ssa.Alloc); ok {
						argsOf(local)
					}
				}
			}
		}
	}
	return kinds, found
}

func asynqEnqueue(taskIdx int) model {
	return func(e *Engine, c *callSite) {
		if taskIdx >= len(c.args) {
			return
		}
		e.emit(Pending{Op: OpSubject, Kind: Job, Text: e.trace(c.args[taskIdx], c.fr, handleTask), Pos: e.pos(c.pos), Module: e.Module}, c.out)
		e.checkTxEnqueue(c, "asynq's "+c.fn.Name(), "")
	}
}

// asynqTask traces a *asynq.Task to the NewTask call that made it.
func (e *Engine) asynqTask(v ssa.Value, fr *frame) Str {
	if call, ok := v.(*ssa.Call); ok && staticKey(call.Call) == asynqPath+".NewTask" && len(call.Call.Args) > 0 {
		return e.trace(call.Call.Args[0], fr, handleString)
	}
	return unknownStr()
}

// Transactions: where they begin and commit, and the types of their
// handles (a callback with such a parameter runs inside one).
var (
	txBegins = map[string]bool{
		"database/sql.DB.Begin": true, "database/sql.DB.BeginTx": true, "database/sql.Conn.BeginTx": true,
		pgxPath + ".Conn.Begin": true, pgxPath + ".Conn.BeginTx": true,
		pgxpoolPath + ".Pool.Begin": true, pgxpoolPath + ".Pool.BeginTx": true,
		sqlxPath + ".DB.Beginx": true, sqlxPath + ".DB.MustBegin": true, sqlxPath + ".DB.BeginTxx": true, sqlxPath + ".DB.MustBeginTx": true,
		gormPath + ".DB.Begin": true,
	}
	txCommits = map[string]bool{
		"database/sql.Tx.Commit": true, pgxPath + ".Tx.Commit": true, gormPath + ".DB.Commit": true,
	}
	txHandles = map[string]bool{
		"database/sql.Tx": true, pgxPath + ".Tx": true, sqlxPath + ".Tx": true,
	}
)

// checkTxEnqueue reports a non-transactional enqueue between a
// transaction's begin and its commit: it fires even if the transaction
// rolls back.
func (e *Engine) checkTxEnqueue(c *callSite, call, txVariant string) {
	river := strings.HasPrefix(call, "River's ")
	if river && txVariant == "" {
		return // the transactional variant itself
	}
	if !e.inTransaction(c.fr) {
		return
	}
	fix := "use " + txVariant + " with the transaction"
	if !river {
		fix = "it has no transactional variant: enqueue after the commit, or use a queue that takes the transaction"
	}
	c.out.add(e.unprovable(c.pos,
		fmt.Sprintf("enqueues a job with %s, which is not transactional, between a transaction's begin and its commit; it fires even if the transaction rolls back", call),
		fix))
}

// inTransaction reports whether the instruction being walked runs inside
// a transaction: in a callback the engine knows runs in one, in a function
// or closure with a transaction-handle parameter, or between a begin and
// a commit of the same function.
func (e *Engine) inTransaction(fr *frame) bool {
	if e.txCallbacks > 0 {
		return true
	}
	for f := fr; f != nil; f = f.parent {
		for _, p := range f.fn.Params {
			if txHandles[qualifiedName(p.Type())] {
				return true
			}
		}
		if f.cur != nil && betweenBeginAndCommit(f.fn, f.cur) {
			return true
		}
	}
	return false
}

func betweenBeginAndCommit(fn *ssa.Function, cur ssa.Instruction) bool {
	var begins, commits []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			key := callKey(call.Common())
			if txBegins[key] {
				begins = append(begins, instr)
			}
			if txCommits[key] {
				commits = append(commits, instr)
			}
		}
	}
	for _, b := range begins {
		if !reaches(b, cur) {
			continue
		}
		for _, c := range commits {
			if reaches(cur, c) {
				return true
			}
		}
	}
	return false
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

// reaches reports whether control can flow from instruction a to b.
func reaches(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == bb && index(a) < index(b) {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), ab.Succs...)
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		if blk == bb {
			return true
		}
		work = append(work, blk.Succs...)
	}
	return false
}

func index(instr ssa.Instruction) int {
	for i, x := range instr.Block().Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}
