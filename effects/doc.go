// Package effects is authvet's effect model and its derivation from SSA.
//
// An Effect is a kind (write, unbounded_write, cross_tenant, outbound,
// job, webhook, detached, unprovable, asserted_effect_free) and a subject,
// at the innermost site that causes it, with the chain of calls that
// reaches it. The Engine walks the SSA of one package and gives every
// function a Summary: the effects calling it can have, with the sites
// whose SQL text, URL, job kind or callback depends on a parameter kept
// pending as a symbolic string (Str) and resolved at each call. Summaries
// travel between packages as analysis facts.
//
// Library APIs are data: each family has a table of models keyed by
// FuncKey ("pkgpath.Recv.Name") in its own file: sql.go (database/sql),
// http.go (net/http), pgx.go, sqlx.go, gorm.go, jobs.go (River, asynq,
// transactions), std.go (goroutines, structured concurrency, string
// builders), iface.go (interfaces: models, benign and sink lists). The
// standard library and the modelled libraries are modelled, never
// analysed; function values handed to them count at the call.
//
// The SQL reader is effects/sqltext; URLs are read by grant/urlprefix.
// engine.go holds the walk, call.go the dispatch of calls and the
// instantiation of summaries, trace.go the evaluation of values (strings,
// handles, function values), resolve.go the turning of resolved text into
// effects, contract.go interface contracts.
package effects
