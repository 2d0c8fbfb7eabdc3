package effects

import (
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/authvet/authvet/effects/internal/sqltext"
)

// pgx v5: github.com/jackc/pgx/v5 (Conn, the Tx interface, Batch,
// Identifier) and pgxpool (Pool, Conn). Argument indexes count the
// receiver.
const (
	pgxPath     = "github.com/jackc/pgx/v5"
	pgxpoolPath = "github.com/jackc/pgx/v5/pgxpool"
)

const pgconnPath = pgxPath + "/pgconn"

// pgxLibrary: the pgx v5 module (pgx, pgxpool, pgconn, pgtype, ...).
// Every exported call is a model, safe, or unknown: an unknown call
// handed a handle or a string is unprovable.
func pgxLibrary() *Library {
	l := &Library{
		Name:        "pgx",
		Paths:       []string{pgxPath},
		Modelled:    true,
		Models:      map[string]model{},
		IfaceModels: map[string]model{},
		Handles: []string{
			pgxPath + ".Conn", pgxPath + ".Tx", pgxPath + ".Batch", pgxPath + ".LargeObjects", pgxPath + ".LargeObject",
			pgxpoolPath + ".Pool", pgxpoolPath + ".Conn", pgxpoolPath + ".Tx",
			pgconnPath + ".PgConn", pgconnPath + ".HijackedConn", pgconnPath + ".Pipeline", pgconnPath + ".Batch",
			pgxPath + "/pgproto3.Frontend",
		},
		SinkIfaces:   []string{pgxPath + ".Tx"},
		ReaderIfaces: []string{pgxPath + ".Rows", pgxPath + ".Row", pgxPath + ".BatchResults", pgxPath + ".CopyFromSource", pgxPath + ".CollectableRow"},
		TxBegins: append(append(keys(pgxPath+".Conn.", "Begin", "BeginTx"), keys(pgxpoolPath+".Pool.", "Begin", "BeginTx")...),
			append(keys(pgxpoolPath+".Conn.", "Begin", "BeginTx"), pgxPath+".Tx.Begin", pgxpoolPath+".Tx.Begin")...),
		TxCommits: append(keys(pgxPath+".Tx.", "Commit", "Rollback"), keys(pgxpoolPath+".Tx.", "Commit", "Rollback")...),
		TxHandles: []string{pgxPath + ".Tx", pgxpoolPath + ".Tx"},
		Safe: []string{
			// Opening, configuring, pooling, pinging, type maps: not effects.
			pgxPath + ".Connect", pgxPath + ".ConnectConfig", pgxPath + ".ConnectWithOptions", pgxPath + ".ParseConfig", pgxPath + ".ParseConfigWithOptions",
			pgxPath + ".NamedArgs.RewriteQuery", pgxPath + ".StrictNamedArgs.RewriteQuery", pgxPath + ".Batch.Queue", pgxPath + ".Batch.Len",
			pgxPath + ".LargeObject.Read", pgxPath + ".LargeObject.Seek", pgxPath + ".LargeObject.Tell", pgxPath + ".LargeObject.Close",
			pgxpoolPath + ".New", pgxpoolPath + ".NewWithConfig", pgxpoolPath + ".ParseConfig",
			pgxpoolPath + ".Stat.*", pgxpoolPath + ".Config.*", pgxPath + ".ConnConfig.*", pgconnPath + ".Config.*",
			pgconnPath + ".Connect", pgconnPath + ".ConnectConfig", pgconnPath + ".ConnectWithOptions", pgconnPath + ".ParseConfig", pgconnPath + ".ParseConfigWithOptions",
			pgconnPath + ".NewCommandTag", pgconnPath + ".NetworkAddress", pgconnPath + ".NewParseConfigError",
			pgxPath + "/pgtype.*", pgxPath + "/stdlib.*", pgxPath + "/tracelog.*", pgxPath + "/multitracer.*", pgxPath + "/log/testingadapter.*",
		},
	}
	l.Safe = append(l.Safe, keys(pgxPath+".Conn.", "Begin", "BeginTx", "Close", "Config", "Deallocate", "DeallocateAll", "IsClosed", "LoadType", "LoadTypes", "PgConn", "Ping", "TypeMap", "WaitForNotification")...)
	l.Safe = append(l.Safe, keys(pgxpoolPath+".Pool.", "Acquire", "AcquireAllIdle", "AcquireFunc", "Begin", "BeginTx", "Close", "Config", "Ping", "Reset", "Stat")...)
	l.Safe = append(l.Safe, keys(pgxpoolPath+".Conn.", "Begin", "BeginTx", "Conn", "Hijack", "Ping", "Release")...)
	l.Safe = append(l.Safe, keys(pgxpoolPath+".Tx.", "Begin", "Commit", "Rollback", "Conn")...)
	l.Safe = append(l.Safe, keys(pgconnPath+".PgConn.", "CancelRequest", "CheckConn", "CleanupDone", "Close", "CustomData", "Deallocate", "EscapeString", "IsBusy", "IsClosed", "PID", "ParameterStatus", "Ping", "SecretKey", "SyncConn", "TxStatus", "WaitForNotification", "Conn")...)
	for _, recv := range []string{pgxPath + ".Conn", pgxpoolPath + ".Pool", pgxpoolPath + ".Conn", pgxpoolPath + ".Tx"} {
		for _, name := range []string{"Exec", "Query", "QueryRow"} {
			l.Models[recv+"."+name] = pgText(arg(recv + "." + name + ".sql"))
		}
		l.Models[recv+".CopyFrom"] = copyFromModel
		l.Models[recv+".SendBatch"] = sendBatchModel
	}
	// pgx.Tx is an interface: its methods are modelled on the calls
	// through it, and it is never benign.
	for _, name := range []string{"Exec", "Query", "QueryRow"} {
		l.IfaceModels[pgxPath+".Tx."+name] = pgText(arg(pgxPath + ".Tx." + name + ".sql"))
	}
	l.IfaceModels[pgxPath+".Tx.CopyFrom"] = copyFromModel
	l.IfaceModels[pgxPath+".Tx.SendBatch"] = sendBatchModel
	// A batch's results read what SendBatch already sent (its model
	// counts every queued statement); closing them releases the pool's
	// connection.
	for _, name := range []string{"Exec", "Query", "QueryRow", "Close"} {
		l.IfaceModels[pgxPath+".BatchResults."+name] = func(*callSite) {}
	}
	for _, name := range []string{"Commit", "Rollback", "Begin", "Conn"} {
		l.IfaceModels[pgxPath+".Tx."+name] = func(*callSite) {}
	}
	// Prepare(ctx, name, sql): the statement runs wherever the name is
	// executed (Exec(ctx, name) reads like SQL text but is not): its
	// effects count where it is prepared.
	l.IfaceModels[pgxPath+".Tx.Prepare"] = pgText(arg(pgxPath + ".Tx.Prepare.sql"))
	for _, key := range []string{pgxPath + ".Conn.Prepare", pgxpoolPath + ".Tx.Prepare", pgconnPath + ".PgConn.Prepare"} {
		l.Models[key] = pgText(arg(key + ".sql"))
	}
	// pgconn runs SQL text too: Exec may hold several statements; COPY
	// text names its table.
	for _, name := range []string{"Exec", "ExecParams", "CopyFrom", "CopyTo"} {
		l.Models[pgconnPath+".PgConn."+name] = pgText(arg(pgconnPath + ".PgConn." + name + ".sql"))
	}
	// A pipeline or a pgconn batch runs the SQL queued on it: the site
	// is where it is queued.
	l.Models[pgconnPath+".Pipeline.SendQueryParams"] = pgText(arg(pgconnPath + ".Pipeline.SendQueryParams.sql"))
	l.Models[pgconnPath+".Pipeline.SendPrepare"] = func(*callSite) {}
	l.Models[pgconnPath+".Batch.ExecParams"] = pgText(arg(pgconnPath + ".Batch.ExecParams.sql"))
	l.Safe = append(l.Safe, keys(pgconnPath+".Pipeline.", "Close", "Flush", "GetResults", "SendDeallocate", "SendFlushRequest", "SendPipelineSync", "Sync")...)
	l.Safe = append(l.Safe, pgconnPath+".PgConn.StartPipeline", pgconnPath+".PgConn.ExecBatch", pgconnPath+".MultiResultReader.*", pgconnPath+".ResultReader.*")
	// BeginFunc and BeginTxFunc run their callback in a transaction.
	// A queued statement's result callback runs when the batch's
	// results are read, within the request.
	for _, name := range []string{"Exec", "Query", "QueryRow"} {
		key := pgxPath + ".QueuedQuery." + name
		l.Models[key] = func(c *callSite) { c.callback(arg(key+".fn"), callFlags{}) }
	}
	l.Models[pgxPath+".BeginFunc"] = txCallback(arg(pgxPath + ".BeginFunc.fn"))
	l.Models[pgxPath+".BeginTxFunc"] = txCallback(arg(pgxPath + ".BeginTxFunc.fn"))
	return l
}

// pgText reports the SQL text at argument i, read as PostgreSQL: the
// driver fixes the dialect.
func pgText(i int) model {
	return func(c *callSite) {
		text := c.str(i, handleString)
		if preparedHere(c, text) {
			return // the name of a statement prepared here: counted at its Prepare
		}
		if t := rewriterArg(c, i+1); t != "" {
			// pgx hands the text to the first argument when it is a
			// QueryRewriter: what runs is what its RewriteQuery returns.
			c.unprovable("runs SQL text that the query rewriter "+t+" handed with it may rewrite",
				"pass the arguments without a rewriter (pgx.NamedArgs is read as it is), or declare the statement with //agent:effect")
			return
		}
		c.emit(Pending{Op: OpSQL, Text: text, Dialect: uint8(sqltext.Postgres)})
	}
}

// rewriterArg names the type of the first of the query arguments (the
// variadic slice at argument i) when it may be a pgx.QueryRewriter other
// than pgx's own named arguments, whose @names the SQL reader reads as
// parameters; "" otherwise. The first argument is read through slice
// literals, phis and appends.
func rewriterArg(c *callSite, i int) string {
	v, _, ok := c.value(i)
	if !ok {
		return ""
	}
	var firsts []ssa.Value
	if !firstElems(v, 0, &firsts) {
		// Arguments a helper was handed (q.list(ctx, sql, args...)):
		// taking any rewriter of the package to be among them made
		// every such helper unprovable; they are read as plain.
		return ""
	}
	for _, first := range firsts {
		if mi, ok := first.(*ssa.MakeInterface); ok {
			first = mi.X
		}
		if t := first.Type(); rewrites(t) {
			return typeName(t)
		}
	}
	return ""
}

// rewrites reports whether t is a pgx.QueryRewriter other than pgx's
// named arguments.
func rewrites(t types.Type) bool {
	switch qualifiedName(t) {
	case pgxPath + ".NamedArgs", pgxPath + ".StrictNamedArgs":
		return false
	}
	return types.NewMethodSet(t).Lookup(nil, "RewriteQuery") != nil || types.NewMethodSet(types.NewPointer(t)).Lookup(nil, "RewriteQuery") != nil
}

// firstElems collects the values that may be the first element of the
// slice v; false when one is out of sight.
func firstElems(v ssa.Value, depth int, out *[]ssa.Value) bool {
	if depth > 8 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.Slice:
		if _, ok := x.X.(*ssa.Alloc); !ok {
			return false
		}
		if els := sliceElems(x); len(els) > 0 {
			*out = append(*out, els[0])
		}
		return true
	case *ssa.Phi:
		for _, ed := range x.Edges {
			if !firstElems(ed, depth+1, out) {
				return false
			}
		}
		return true
	case *ssa.Call:
		if b, ok := x.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(x.Call.Args) == 2 {
			return firstElems(x.Call.Args[0], depth+1, out) && firstElems(x.Call.Args[1], depth+1, out)
		}
	}
	return false
}

// preparedHere reports whether text is a bare name that a Prepare call of
// the same function prepares (pgx runs the prepared statement when Exec
// is handed its name).
func preparedHere(c *callSite, text Str) bool {
	ts := text.texts()
	if len(ts) != 1 || !ts[0].Complete || !bareName(ts[0].Text) || c.fr == nil {
		return false
	}
	found := false
	eachInstr([]*ssa.Function{c.fr.fn}, func(_ *ssa.Function, in ssa.Instruction) {
		call, ok := in.(ssa.CallInstruction)
		if found || !ok {
			return
		}
		cc := call.Common()
		name := ""
		if cc.IsInvoke() {
			name = cc.Method.Name()
		} else if fn := cc.StaticCallee(); fn != nil {
			name = fn.Name()
		}
		if name != "Prepare" {
			return
		}
		args := cc.Args
		if !cc.IsInvoke() {
			args = args[1:] // the receiver
		}
		if len(args) >= 2 {
			if k, ok := args[1].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String && constant.StringVal(k.Value) == ts[0].Text {
				found = true
			}
		}
	})
	return found
}

func bareName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// copyFromModel: CopyFrom(ctx, tableName pgx.Identifier, ...) inserts rows
// into the table the Identifier names.
func copyFromModel(c *callSite) {
	v, _, live := c.value(2)
	table, ok := "", false
	if live {
		table, ok = identifier(v)
	}
	if !ok {
		c.unprovable("copies rows into a table whose pgx.Identifier is not constant",
			`name the table with a constant pgx.Identifier{"schema", "table"}, or declare it with //agent:effect writes(...)`)
		return
	}
	c.add(Write, table, Syntactic)
	// The row source's methods run during the call; the handle itself
	// is what the model stands for, so it is not handed off (a DBTX
	// parameter would be asked for its CopyFrom again by the caller).
	c.handOffArgs(2)
}

// identifier reads a constant pgx.Identifier{...} literal: a slice of a
// local array whose elements are stored constants. Unquoted parts are
// lower-cased, as SQL would, unless they carry upper case (pgx quotes
// each part, so case is significant).
func identifier(v ssa.Value) (string, bool) {
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return "", false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return "", false
	}
	parts := map[int64]string{}
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		idx, ok := ia.Index.(*ssa.Const)
		if !ok || idx.Value == nil {
			return "", false
		}
		i, _ := constant.Int64Val(idx.Value)
		for _, r2 := range *ia.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
				c, ok := st.Val.(*ssa.Const)
				if !ok || c.Value == nil || c.Value.Kind() != constant.String {
					return "", false
				}
				parts[i] = constant.StringVal(c.Value)
			}
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	out := make([]string, len(parts))
	for i := range out {
		p, ok := parts[int64(i)]
		if !ok {
			return "", false
		}
		out[i] = p
	}
	return strings.Join(out, "."), true
}

// sendBatchModel: SendBatch(ctx, b) runs every statement queued on b with
// b.Queue(sql, ...).
func sendBatchModel(c *callSite) {
	v, fr, live := c.value(2)
	if _, isParam := rootParam(binding{v: v, fr: fr}); live && isParam {
		// A batch the caller queued (a helper's SendBatch(ctx, tx, b)):
		// its statements are read where it is made.
		c.emit(Pending{Op: OpSQL, Text: c.str(2, handleBatch)})
		return
	}
	text, ok := Str{}, false
	if live {
		text, ok = batchSQL(c.e, v, fr)
	}
	if !ok {
		c.unprovable("sends a pgx.Batch whose queued statements are not all visible",
			"queue the statements on a local pgx.Batch in the same function, or declare what they do with //agent:effect")
		return
	}
	c.emit(Pending{Op: OpSQL, Text: text})
}

// batchSQL collects the SQL of every b.Queue call on a batch made in the
// same function, or queued by a helper of this package it is handed to.
// A batch handed to other code is not all visible.
func batchSQL(e *Engine, b ssa.Value, fr *frame) (Str, bool) {
	if _, ok := b.(*ssa.Alloc); !ok {
		return Str{}, false
	}
	var text Str
	found := false
	if !queuedSQL(e, b, fr, 0, &text, &found) {
		return Str{}, false
	}
	return text, found
}

func queuedSQL(e *Engine, b ssa.Value, fr *frame, depth int, text *Str, found *bool) bool {
	if depth > 4 {
		return false
	}
	for _, r := range *b.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			key := staticKey(r.Call)
			switch {
			case key == pgxPath+".Batch.Queue" && len(r.Call.Args) >= 2 && r.Call.Args[0] == b:
				if queuedRewritten(r) {
					return false // q := b.Queue(...); q.SQL = ...
				}
				*text = unionStr(*text, e.trace(r.Call.Args[1], fr, handleString))
				*found = true
			case key == pgxPath+".Batch.Len":
			case sendsBatch(r.Call):
			default:
				// A helper of this package that queues on it.
				cf, _ := e.localReturns(r, fr)
				if cf == nil {
					return false
				}
				for i, a := range r.Call.Args {
					if a == b && i < len(cf.fn.Params) && !queuedSQL(e, cf.fn.Params[i], cf, depth+1, text, found) {
						return false
					}
				}
			}
		case *ssa.FieldAddr:
			// b.QueuedQueries read is harmless; a store to it (append
			// of a hand-made QueuedQuery) queues what Queue never saw.
			for _, r2 := range *r.Referrers() {
				if _, isStore := r2.(*ssa.Store); isStore {
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

// queuedRewritten reports whether the *QueuedQuery a Queue call returns
// has a field written (its SQL replaced) or is kept elsewhere.
func queuedRewritten(call *ssa.Call) bool {
	for _, r := range *call.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			for _, r2 := range *r.Referrers() {
				if _, isStore := r2.(*ssa.Store); isStore {
					return true
				}
			}
		case *ssa.DebugRef:
		case *ssa.Call:
			switch staticKey(r.Call) {
			case pgxPath + ".QueuedQuery.Exec", pgxPath + ".QueuedQuery.Query", pgxPath + ".QueuedQuery.QueryRow":
				if r.Call.Args[0] == ssa.Value(call) && !slices.Contains(r.Call.Args[1:], ssa.Value(call)) {
					continue // sets the result callback, not the statement
				}
			}
			return true // handed on: it may be changed there
		case ssa.CallInstruction:
			return true // handed on: it may be changed there
		case *ssa.Store, *ssa.MakeInterface:
			return true
		}
	}
	return false
}

func sendsBatch(c ssa.CallCommon) bool {
	if c.IsInvoke() {
		return c.Method.Name() == "SendBatch"
	}
	return strings.HasSuffix(staticKey(c), ".SendBatch")
}

// txCallback models a function that runs its callback argument i inside
// a transaction.
func txCallback(i int) model {
	return func(c *callSite) { c.callback(i, callFlags{inTx: true}) }
}
