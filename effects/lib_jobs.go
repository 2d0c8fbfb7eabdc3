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

// riverLibrary: github.com/riverqueue/river. The kind of a job is the
// constant Kind() of its args type.
func riverLibrary() *Library {
	const p = riverPath
	l := &Library{
		Name:     "river",
		Paths:    []string{p},
		Modelled: true,
		Models: map[string]model{
			p + ".Client.Insert":           riverInsert(arg(p+".Client.Insert.args"), "Insert", "InsertTx"),
			p + ".Client.InsertTx":         riverInsert(arg(p+".Client.InsertTx.args"), "InsertTx", ""),
			p + ".Client.InsertMany":       riverInsertMany(arg(p+".Client.InsertMany.params"), "InsertMany", "InsertManyTx"),
			p + ".Client.InsertManyTx":     riverInsertMany(arg(p+".Client.InsertManyTx.params"), "InsertManyTx", ""),
			p + ".Client.InsertManyFast":   riverInsertMany(arg(p+".Client.InsertManyFast.params"), "InsertManyFast", "InsertManyFastTx"),
			p + ".Client.InsertManyFastTx": riverInsertMany(arg(p+".Client.InsertManyFastTx.params"), "InsertManyFastTx", ""),
		},
		Handles: []string{p + ".Client", p + ".PeriodicJobBundle", p + ".QueueBundle"},
		Safe: append(keys(p+".Client.", "Driver", "ID", "JobGet", "JobGetTx", "JobList", "JobListTx", "QueueGet", "QueueGetTx", "QueueList", "QueueListTx",
			"Queues", "Schema", "Stopped", "Subscribe", "SubscribeConfig", "PeriodicJobs", "Pilot"),
			p+".NewClient", p+".NewWorkers", p+".AddWorker", p+".AddWorkerSafely", p+".AddWorkerArgs", p+".ClientFromContext", p+".ClientFromContextSafely",
			p+".NewJobListParams", p+".NewJobDeleteManyParams", p+".NewQueueListParams", p+".JobListParams.*", p+".JobDeleteManyParams.*", p+".QueueListParams.*",
			p+".JobListCursorFromJob", p+".JobListCursor.*", p+".NewPeriodicJob", p+".PeriodicInterval", p+".NeverSchedule", p+".Config.*",
			p+".JobCancel", p+".JobSnooze", p+"/rivertype.*", p+"/riverdriver/riverpgxv5.New", p+"/riverdriver/riverdatabasesql.New"),
	}
	// Job and queue management writes River's own tables.
	for _, name := range []string{"JobCancel", "JobCancelTx", "JobDelete", "JobDeleteTx", "JobRetry", "JobRetryTx", "JobUpdate", "JobUpdateTx", "JobDeleteMany", "JobDeleteManyTx"} {
		l.Models[p+".Client."+name] = riverTable("river_job")
	}
	for _, name := range []string{"QueuePause", "QueuePauseTx", "QueueResume", "QueueResumeTx", "QueueUpdate", "QueueUpdateTx"} {
		l.Models[p+".Client."+name] = riverTable("river_queue")
	}
	l.Models[p+".JobCompleteTx"] = riverTable("river_job")
	return l
}

func riverTable(table string) model {
	return func(c *callSite) {
		c.add(Write, table, TypeResolved)
		c.handOff()
	}
}

// asynqLibrary: github.com/hibiken/asynq. The type of a task is
// NewTask's first argument; asynq has no transactional enqueue.
func asynqLibrary() *Library {
	const p = asynqPath
	return &Library{
		Name:     "asynq",
		Paths:    []string{p},
		Modelled: true,
		Models: map[string]model{
			p + ".Client.Enqueue":        asynqEnqueue(arg(p + ".Client.Enqueue.task")),
			p + ".Client.EnqueueContext": asynqEnqueue(arg(p + ".Client.EnqueueContext.task")),
		},
		Handles: []string{p + ".Client", p + ".Inspector", p + ".Scheduler", p + ".PeriodicTaskManager"},
		Safe: append(append(keys(p+".", "NewClient", "NewClientFromRedisClient", "NewInspector", "NewInspectorFromRedisClient", "NewTask", "NewTaskWithHeaders",
			"MaxRetry", "Queue", "Timeout", "Deadline", "Unique", "ProcessAt", "ProcessIn", "TaskID", "Retention", "Group",
			"GetMaxRetry", "GetQueueName", "GetRetryCount", "GetTaskID", "ParseRedisURI", "NewServeMux", "IsPanicError", "NotFound", "NotFoundHandler", "DefaultRetryDelayFunc"),
			keys(p+".Client.", "Close", "Ping")...),
			append(keys(p+".Inspector.", "Close", "ClusterKeySlot", "ClusterNodes", "GetQueueInfo", "GetTaskInfo", "Groups", "History", "ListActiveTasks",
				"ListAggregatingTasks", "ListArchivedTasks", "ListCompletedTasks", "ListPendingTasks", "ListRetryTasks", "ListScheduledTasks",
				"ListSchedulerEnqueueEvents", "Queues", "SchedulerEntries", "Servers"),
				p+".Task.*", p+".ServeMux.*", p+".Option.*", p+".TaskState.*", p+".LogLevel.*", p+".RedisClientOpt.*", p+".RedisClusterClientOpt.*", p+".RedisFailoverClientOpt.*")...),
	}
}

// ConstString is the fact that a function always returns one constant
// string (a River args type's Kind method, a gorm model's TableName).
type ConstString struct{ Value string }

// AFact marks ConstString as an analysis fact.
func (*ConstString) AFact() {}

func (c *ConstString) String() string { return fmt.Sprintf("returns %q", c.Value) }

// GobEncode is the string's bytes: a k8s API package exports a
// ConstString for a thousand methods, and a gob stream per fact would
// repeat its type description in each.
func (c *ConstString) GobEncode() ([]byte, error) { return []byte(c.Value), nil }

// GobDecode reads what GobEncode wrote.
func (c *ConstString) GobDecode(b []byte) error { c.Value = string(b); return nil }

// ConstResult reports the constant string every return of fn yields.
// globalConst, when not nil, gives the package-level string variables
// that only their declaration sets (Engine.GlobalConst).
func ConstResult(fn *ssa.Function, globalConst func(*types.Var) (string, bool)) (string, bool) {
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 || !isString(fn.Signature.Results().At(0).Type()) {
		return "", false
	}
	value, found := "", false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		r := ret.Results[0]
		if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL && globalConst != nil {
			// return kindVar, a variable only its declaration sets
			if g, ok := load.X.(*ssa.Global); ok {
				if obj, ok := g.Object().(*types.Var); ok {
					if c, ok := globalConst(obj); ok && (!found || c == value) {
						value, found = c, true
						continue
					}
				}
			}
		}
		ts := (&Engine{GlobalConst: globalConst}).evalString(r, &frame{fn: fn, visiting: map[ssa.Value]bool{}}).texts()
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
		return ConstResult(e.Prog.FuncValue(obj), e.GlobalConst)
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
		if s, ok := typeArgString(mi.X.Type(), fr, "Kind"); ok {
			return s // Enqueue[A river.JobArgs](ctx, args A), another package's generic
		}
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
	return func(c *callSite) {
		c.emit(Pending{Op: OpSubject, Kind: Job, Text: c.str(argIdx, handleJobArgs), Prov: TypeResolved})
		c.e.checkTxEnqueue(c, "River's "+name, txVariant)
	}
}

// riverInsertMany reads the Args of each InsertManyParams literal in the
// slice passed.
func riverInsertMany(argIdx int, name, txVariant string) model {
	return func(c *callSite) {
		v, fr, live := c.value(argIdx)
		kinds, ok := Str{}, false
		if live {
			kinds, ok = c.e.insertManyKinds(v, fr)
		}
		if !ok {
			c.unprovable("inserts River jobs whose args types are not visible",
				"build the []river.InsertManyParams literal in the same function, or declare the kinds with //agent:effect jobs(...)")
		} else {
			c.emit(Pending{Op: OpSubject, Kind: Job, Text: kinds, Prov: TypeResolved})
		}
		c.e.checkTxEnqueue(c, "River's "+name, txVariant)
	}
}

// insertManyKinds finds the Args of every element of the
// []river.InsertManyParams handed to InsertMany: a local literal, a slice
// made and appended to (in a loop too), or filled by index. Every element
// must be one the analysis reads: an element stored from anything else
// (a parameter, another function's result), or a slice handed to other
// code that may fill it, makes the kinds not visible.
func (e *Engine) insertManyKinds(v ssa.Value, fr *frame) (Str, bool) {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		// A slice variable the inserting closure captured (params,
		// appended to in a loop, then inserted in a transaction's
		// callback): the variable where it was declared.
		if b := unfree(binding{v: ld.X, fr: fr}); b.live() {
			if alloc, ok := b.v.(*ssa.Alloc); ok {
				v, fr = alloc, b.fr
			}
		}
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
	// The slice values the kinds come through: the literal's arrays and
	// slices, makes, appends and the phis of a loop.
	seen := map[ssa.Value]bool{}
	var elems func(v ssa.Value, depth int) bool
	elems = func(v ssa.Value, depth int) bool {
		if depth > 8 {
			return false
		}
		if seen[v] {
			return true
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Phi:
			for _, ed := range v.Edges {
				if !elems(ed, depth+1) {
					return false
				}
			}
			return true
		case *ssa.Const:
			return v.IsNil() // a nil slice holds nothing
		case *ssa.Slice:
			alloc, ok := v.X.(*ssa.Alloc)
			if ok {
				seen[alloc] = true
			}
			return ok
		case *ssa.MakeSlice:
			return true
		case *ssa.Alloc:
			// A local slice variable: every slice stored to it; every
			// read of it is checked like the slices.
			if _, isSlice := v.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Slice); !isSlice {
				return false
			}
			for _, r := range *v.Referrers() {
				switch r := r.(type) {
				case *ssa.Store:
					if r.Addr == ssa.Value(v) && !elems(r.Val, depth+1) {
						return false
					}
				case *ssa.UnOp:
					if r.Op == token.MUL {
						seen[r] = true
					}
				}
			}
			return true
		case *ssa.UnOp:
			if alloc, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
				return elems(alloc, depth+1)
			}
		case *ssa.Call:
			if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(v.Call.Args) == 2 {
				return elems(v.Call.Args[0], depth+1) && elems(v.Call.Args[1], depth+1)
			}
		}
		return false
	}
	if !elems(v, 0) {
		return Str{}, false
	}
	// Every use of those values: elements stored (fields set in place,
	// or whole elements copied from local composite literals), the
	// chain itself, len and cap, River's call. Anything else (a helper
	// handed the slice, an alias kept elsewhere) may fill it out of sight.
	for x := range seen {
		if _, isConst := x.(*ssa.Const); isConst {
			continue
		}
		for _, r := range *x.Referrers() {
			switch r := r.(type) {
			case *ssa.IndexAddr:
				argsOf(r)
				for _, r2 := range *r.Referrers() {
					st, ok := r2.(*ssa.Store)
					if !ok || st.Addr != r {
						continue
					}
					switch val := st.Val.(type) {
					case *ssa.UnOp:
						local, ok := val.X.(*ssa.Alloc)
						if val.Op != token.MUL || !ok {
							return Str{}, false
						}
						argsOf(local)
					case *ssa.Const:
					default:
						return Str{}, false
					}
				}
			case *ssa.DebugRef:
			case *ssa.Phi, *ssa.Slice:
				if !seen[r.(ssa.Value)] {
					return Str{}, false
				}
			case *ssa.UnOp:
				if !seen[r] {
					return Str{}, false
				}
			case *ssa.Store:
				// into the slice variable the chain goes through, or
				// (from the variable's side) the variable set
				if !seen[r.Addr] && r.Addr != x {
					return Str{}, false
				}
			case *ssa.Call:
				if b, ok := r.Call.Value.(*ssa.Builtin); ok {
					if b.Name() == "len" || b.Name() == "cap" || b.Name() == "append" && seen[r] {
						continue
					}
					return Str{}, false
				}
				if fn := r.Call.StaticCallee(); fn != nil {
					if obj := funcObject(fn); obj != nil && obj.Pkg() != nil && strings.HasPrefix(obj.Pkg().Path(), riverPath) {
						continue // the InsertMany call itself
					}
				}
				if r.Call.IsInvoke() && strings.HasPrefix(qualifiedName(r.Call.Value.Type()), riverPath) {
					continue
				}
				return Str{}, false
			case *ssa.MakeClosure:
				// Captured by a closure (the callback of a transaction
				// helper) that only hands it to River.
				if !onlyToRiver(r, x) {
					return Str{}, false
				}
			default:
				return Str{}, false
			}
		}
	}
	return kinds, found
}

// onlyToRiver reports whether the closure mc uses its captured x only in
// calls into River (and len, cap).
func onlyToRiver(mc *ssa.MakeClosure, x ssa.Value) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for j, b := range mc.Bindings {
		if b == x && (j >= len(fn.FreeVars) || !usedOnlyByRiver(fn.FreeVars[j], 0)) {
			return false
		}
	}
	return true
}

// usedOnlyByRiver reports whether v (a closure's captured value, or the
// slice loaded from a captured variable) is only handed to River.
func usedOnlyByRiver(v ssa.Value, depth int) bool {
	if depth > 2 {
		return false
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.MUL || !usedOnlyByRiver(r, depth+1) {
				return false
			}
		case *ssa.Call:
			if bi, ok := r.Call.Value.(*ssa.Builtin); ok && (bi.Name() == "len" || bi.Name() == "cap") {
				continue
			}
			if callee := r.Call.StaticCallee(); callee != nil {
				if obj := funcObject(callee); obj != nil && obj.Pkg() != nil && strings.HasPrefix(obj.Pkg().Path(), riverPath) {
					continue
				}
			}
			if r.Call.IsInvoke() && strings.HasPrefix(qualifiedName(r.Call.Value.Type()), riverPath) {
				continue
			}
			return false
		default:
			return false
		}
	}
	return true
}

func asynqEnqueue(taskIdx int) model {
	return func(c *callSite) {
		c.emit(Pending{Op: OpSubject, Kind: Job, Text: c.str(taskIdx, handleTask)})
		c.e.checkTxEnqueue(c, "asynq's "+c.fn.Name(), "")
	}
}

// asynqTask traces a *asynq.Task to the NewTask call that made it.
func (e *Engine) asynqTask(v ssa.Value, fr *frame) Str {
	if call, ok := v.(*ssa.Call); ok && staticKey(call.Call) == asynqPath+".NewTask" && len(call.Call.Args) > 0 {
		return e.trace(call.Call.Args[0], fr, handleString)
	}
	return unknownStr()
}
