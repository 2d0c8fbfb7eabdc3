package effects

import (
	"fmt"
	"go/types"
	"maps"
	"strings"
	"sync"
)

// The arguments the library models read, named as staticcheck's
// knowledge package names them: "FuncKey.param" is the library's own
// parameter name, and the table gives its index in the call, receiver
// counted (database/sql's (*DB).ExecContext(ctx, query, args...) reads
// "database/sql.DB.ExecContext.query", argument 2). Rows name their
// arguments through arg; no model counts indexes of its own.
//
// Every row is checked against the real signature: the standard
// library's in this package's tests, the pinned libraries' in
// internal/realtest.
func argTable() map[string]int {
	t := map[string]int{}
	add := func(i int, param string, funcs ...string) {
		for _, f := range funcs {
			t[f+"."+param] = i
		}
	}
	// database/sql: (recv, [ctx,] query, args...).
	for _, recv := range []string{"DB", "Tx", "Conn"} {
		p := "database/sql." + recv + "."
		if recv != "Conn" {
			add(1, "query", keys(p, "Exec", "Query", "QueryRow", "Prepare")...)
		}
		add(2, "query", keys(p, "ExecContext", "QueryContext", "QueryRowContext", "PrepareContext")...)
	}
	add(1, "stmt", "database/sql.Tx.Stmt")
	add(2, "stmt", "database/sql.Tx.StmtContext")

	// net/http.
	const h = httpPath
	add(0, "url", keys(h+".", "Get", "Head", "Post", "PostForm")...)
	add(1, "url", keys(h+".Client.", "Get", "Head", "Post", "PostForm")...)
	add(2, "body", h+".Post")
	add(3, "body", h+".Client.Post")
	add(1, "req", h+".Client.Do")
	add(1, "req", h+".Transport.RoundTrip")

	add(0, "s", "strings.TrimSpace")

	// The standard library's ways to run a function later.
	add(1, "f", "time.AfterFunc", "context.AfterFunc")
	add(1, "f", "sync.WaitGroup.Go")
	add(1, "f", "golang.org/x/sync/errgroup.Group.Go", "golang.org/x/sync/errgroup.Group.TryGo")

	// The MCP SDKs' registrations: the handler, or the variadic entries.
	add(2, "h", mcpSDKPath+".AddTool")
	add(2, "h", keys(mcpSDKPath+".Server.", "AddTool", "AddPrompt", "AddResource", "AddResourceTemplate")...)
	add(2, "handler", keys(mcpGoPath+".MCPServer.", "AddTool", "AddPrompt", "AddResource", "AddResourceTemplate")...)
	add(1, "tools", mcpGoPath+".MCPServer.AddTools")
	add(1, "prompts", mcpGoPath+".MCPServer.AddPrompts")
	add(1, "resources", mcpGoPath+".MCPServer.AddResources")
	add(1, "resourceTemplates", mcpGoPath+".MCPServer.AddResourceTemplates")

	// pgx v5: (recv, ctx, sql, args...); Prepare(ctx, name, sql).
	for _, recv := range []string{pgxPath + ".Conn", pgxpoolPath + ".Pool", pgxpoolPath + ".Conn", pgxpoolPath + ".Tx", pgxPath + ".Tx"} {
		add(2, "sql", keys(recv+".", "Exec", "Query", "QueryRow")...)
	}
	add(3, "sql", pgxPath+".Tx.Prepare", pgxPath+".Conn.Prepare", pgxpoolPath+".Tx.Prepare", pgconnPath+".PgConn.Prepare")
	add(2, "sql", pgconnPath+".PgConn.Exec", pgconnPath+".PgConn.ExecParams")
	add(3, "sql", pgconnPath+".PgConn.CopyFrom", pgconnPath+".PgConn.CopyTo")
	add(1, "sql", pgconnPath+".Pipeline.SendQueryParams", pgconnPath+".Batch.ExecParams")
	add(1, "fn", keys(pgxPath+".QueuedQuery.", "Exec", "Query", "QueryRow")...)
	add(2, "fn", pgxPath+".BeginFunc")
	add(3, "fn", pgxPath+".BeginTxFunc")

	// sqlx: the handles' methods, the package-level helpers taking a
	// Queryer or an Execer, and the client interfaces.
	const x = sqlxPath
	for _, recv := range []string{"DB", "Tx"} {
		p := x + "." + recv + "."
		add(1, "query", keys(p, "MustExec", "NamedExec", "Queryx", "QueryRowx", "NamedQuery", "Preparex", "PrepareNamed")...)
		add(2, "query", keys(p, "MustExecContext", "NamedExecContext", "QueryxContext", "QueryRowxContext", "PreparexContext", "PrepareNamedContext")...)
		add(2, "query", keys(p, "Select", "Get")...)
	}
	add(2, "query", x+".DB.NamedQueryContext")
	add(3, "query", keys(x+".DB.", "SelectContext", "GetContext")...)
	add(3, "query", keys(x+".Tx.", "SelectContext", "GetContext")...)
	add(2, "query", keys(x+".Conn.", "QueryxContext", "QueryRowxContext", "PreparexContext")...)
	add(3, "query", keys(x+".Conn.", "SelectContext", "GetContext")...)
	// The package's helpers take the handle first: Select(q, dest, query, args...).
	add(2, "query", keys(x+".", "Select", "Get")...)
	add(3, "query", keys(x+".", "SelectContext", "GetContext")...)
	add(1, "query", keys(x+".", "MustExec", "NamedExec", "NamedQuery", "Preparex")...)
	add(2, "query", keys(x+".", "MustExecContext", "NamedExecContext", "NamedQueryContext", "PreparexContext")...)
	add(1, "query", x+".Execer.Exec", x+".Queryer.Query", x+".Queryer.Queryx", x+".Queryer.QueryRowx")
	add(1, "query", keys(x+".Ext.", "Exec", "Query", "Queryx", "QueryRowx")...)
	add(2, "query", x+".ExecerContext.ExecContext")
	add(2, "query", keys(x+".QueryerContext.", "QueryContext", "QueryxContext", "QueryRowxContext")...)
	add(2, "query", keys(x+".ExtContext.", "ExecContext", "QueryContext", "QueryxContext", "QueryRowxContext")...)

	// gorm.
	const g = gormPath
	add(1, "sql", g+".DB.Exec", g+".DB.Raw")
	add(1, "fc", g+".DB.Transaction")
	add(1, "query", g+".DB.Where", g+".DB.Not", g+".DB.Or")
	for _, recv := range []string{"PreparedStmtDB", "PreparedStmtTX", "Tx", "ConnPool"} {
		add(2, "query", keys(g+"."+recv+".", "ExecContext", "QueryContext", "QueryRowContext")...)
	}

	// bun: the handles and bun.IDB, and RunInTx(ctx, opts, fn).
	for _, recv := range []string{"DB", "Tx", "Conn", "IDB"} {
		p := bunPath + "." + recv + "."
		if recv == "DB" || recv == "Tx" {
			add(1, "query", keys(p, "Exec", "Query", "QueryRow")...)
		}
		add(2, "query", keys(p, "ExecContext", "QueryContext", "QueryRowContext")...)
	}
	add(3, "fn", keys(bunPath+".", "DB.RunInTx", "Tx.RunInTx", "Conn.RunInTx")...)
	add(3, "f", bunPath+".IDB.RunInTx")

	// ent's own SQL driver: (recv, ctx, query, args, v).
	for _, recv := range []string{"/dialect/sql.Conn", "/dialect.ExecQuerier", "/dialect.Driver", "/dialect.Tx"} {
		add(2, "query", keys(entPath+recv+".", "Exec", "Query")...)
	}

	// squirrel's statement cache.
	add(1, "query", keys(squirrelPath+".StmtCache.", "Exec", "Query", "QueryRow", "Prepare")...)
	add(2, "query", keys(squirrelPath+".StmtCache.", "ExecContext", "QueryContext", "QueryRowContext", "PrepareContext")...)

	// gorm's builder: the model value, the rows read into, Delete's
	// conditions.
	add(1, "value", keys(g+".DB.", "Create", "CreateInBatches", "Save", "Delete")...)
	add(1, "values", keys(g+".DB.", "Updates", "UpdateColumns")...)
	add(1, "dest", keys(g+".DB.", "FirstOrCreate", "Find", "First", "Last", "Take", "FirstOrInit", "Scan")...)
	add(2, "conds", g+".DB.Delete")

	// Templates: the data whose methods the template calls.
	for _, t := range []string{"text/template.Template.", "html/template.Template."} {
		add(2, "data", t+"Execute")
		add(3, "data", t+"ExecuteTemplate")
	}

	// go-redis: Do(ctx, args...), the command by name.
	for _, recv := range []string{"cmdable", "Pipeline", "UniversalClient", "Pipeliner"} {
		add(2, "args", redisPath+"."+recv+".Do")
	}

	// go-redis: Process(ctx, cmd), a command built by hand.
	for _, recv := range []string{"Client", "Pipeline", "ClusterClient", "Ring", "Conn", "Tx", "UniversalClient", "Pipeliner"} {
		add(2, "cmd", redisPath+"."+recv+".Process")
	}

	// Kafka: the record whose Topic is the topic.
	add(2, "r", franzGoPath+".Client.Produce", franzGoPath+".Client.TryProduce")
	add(2, "rs", franzGoPath+".Client.ProduceSync")

	// Calls that keep what they are handed, to run it later.
	add(1, "finalizer", "runtime.SetFinalizer")
	add(1, "cleanup", "runtime.AddCleanup")
	add(1, "f", "net/http.Server.RegisterOnShutdown")
	add(1, "handler", "net/http.Handle", "net/http.HandleFunc")
	add(2, "handler", "net/http.ServeMux.Handle", "net/http.ServeMux.HandleFunc")
	add(0, "w", "log.SetOutput")
	add(1, "w", "log.Logger.SetOutput")
	add(0, "l", "log/slog.SetDefault")
	add(1, "v", "expvar.Publish")
	add(0, "c", "os/signal.Notify")
	add(1, "val", "sync/atomic.Value.Store", "sync/atomic.Pointer.Store")
	add(1, "new", "sync/atomic.Value.Swap", "sync/atomic.Pointer.Swap")
	add(2, "new", "sync/atomic.Value.CompareAndSwap")
	add(1, "v", keys("container/list.List.", "PushBack", "PushFront", "InsertBefore", "InsertAfter")...)
	add(1, "hook", redisPath+".hooksMixin.AddHook")
	add(2, "script", redisPath+".cmdable.Eval", redisPath+".cmdable.EvalRO", redisPath+".Cmdable.Eval", redisPath+".Cmdable.EvalRO",
		redisPath+".ScriptingFunctionsCmdable.Eval", redisPath+".ScriptingFunctionsCmdable.EvalRO")
	add(0, "src", redisPath+".NewScript", redisPath+".NewScriptServerSHA")

	// Job queues.
	add(2, "args", riverPath+".Client.Insert")
	add(3, "args", riverPath+".Client.InsertTx")
	add(2, "params", riverPath+".Client.InsertMany", riverPath+".Client.InsertManyFast")
	add(3, "params", riverPath+".Client.InsertManyTx", riverPath+".Client.InsertManyFastTx")
	add(1, "task", asynqPath+".Client.Enqueue")
	add(2, "task", asynqPath+".Client.EnqueueContext")

	// gRPC: the full method name.
	add(2, "method", grpcPath+".ClientConn.Invoke", grpcPath+".ClientConnInterface.Invoke")
	add(3, "method", grpcPath+".ClientConn.NewStream", grpcPath+".ClientConnInterface.NewStream")
	add(1, "method", grpcPath+".Invoke")
	add(3, "method", grpcPath+".NewClientStream")

	// Temporal: the workflow, a function value or its type name.
	for _, iface := range []string{temporalPath + "/client.Client", temporalPath + "/internal.Client"} {
		add(3, "workflow", iface+".ExecuteWorkflow")
		add(6, "workflow", iface+".SignalWithStartWorkflow")
	}

	// NATS: the subject, or the message that carries it.
	const n = natsPath
	add(1, "subj", keys(n+".Conn.", "Publish", "PublishRequest", "Request")...)
	add(2, "subj", n+".Conn.RequestWithContext")
	add(1, "m", n+".Conn.PublishMsg")
	add(1, "msg", n+".Conn.RequestMsg")
	add(2, "msg", n+".Conn.RequestMsgWithContext")
	add(1, "subject", keys(n+".EncodedConn.", "Publish", "PublishRequest", "Request")...)
	add(2, "subject", n+".EncodedConn.RequestWithContext")
	add(1, "subj", n+".JetStream.Publish", n+".JetStream.PublishAsync")
	add(1, "m", n+".JetStream.PublishMsg", n+".JetStream.PublishMsgAsync")
	add(2, "subject", n+"/jetstream.Publisher.Publish")
	add(2, "msg", n+"/jetstream.Publisher.PublishMsg")
	add(1, "subject", n+"/jetstream.Publisher.PublishAsync")
	add(1, "msg", n+"/jetstream.Publisher.PublishMsgAsync")

	// Stripe's backend: (recv, method, path, key, params, v).
	for _, v := range stripeMajors {
		p := fmt.Sprintf("%s/v%d", stripeModule, v)
		add(1, "method", p+".Backend.Call", p+".Backend.CallStreaming", p+".Backend.CallRaw", p+".Backend.CallMultipart", p+".RawRequestBackend.RawRequest")
		add(2, "path", p+".Backend.Call", p+".Backend.CallStreaming", p+".Backend.CallRaw", p+".Backend.CallMultipart", p+".RawRequestBackend.RawRequest")
	}
	return t
}

var (
	argsOnce sync.Once
	theArgs  map[string]int
)

// arg is the index, receiver counted, of the argument named
// "FuncKey.param". A name missing from the table is a row naming an
// argument nobody checked: it stops the registry from being built, so
// every test fails on it.
func arg(name string) int {
	i, ok := theArgTable()[name]
	if !ok {
		panic(fmt.Sprintf("authvet: library row reads argument %q, which the argument table does not name", name))
	}
	return i
}

// argsAt maps each function of names ("FuncKey.param") to the index of
// the argument named; "FuncKey.*" stands for every argument (-1).
func argsAt(names ...string) map[string]int {
	out := map[string]int{}
	for _, n := range names {
		if key, ok := strings.CutSuffix(n, ".*"); ok {
			out[key] = -1
			continue
		}
		out[n[:strings.LastIndex(n, ".")]] = arg(n)
	}
	return out
}

// paramArg is the index in a call of fn's parameter i: receiver counted.
func paramArg(fn *types.Func, i int) int {
	if fn.Signature().Recv() != nil {
		return i + 1
	}
	return i
}

// NamedArgs returns the argument table, for the tests that check it
// against the real libraries' signatures.
func NamedArgs() map[string]int { return maps.Clone(theArgTable()) }

func theArgTable() map[string]int {
	argsOnce.Do(func() { theArgs = argTable() })
	return theArgs
}
