package k

import (
	"context"
	"database/sql"
	"net/http"
	"sync"

	"classes/k/adapt"
	"classes/k/kit"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// --- K10: a method value returned instead of a literal. SPEC §3 names
// function literals; a bound method the constructor hands out as the
// handler is the same handler as func(...) { return h.hold(...) }, and
// fail-closed (§4.1) does not let its effects fall out of the ledger for
// being spelled without a literal. Reported where the method value is made.

type holder struct{ db *sql.DB }

func (h *holder) holdPayout(w http.ResponseWriter, r *http.Request) {
	h.db.Exec("UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
}

func (h *holder) holdRefund(w http.ResponseWriter, r *http.Request) {
	h.db.Exec("UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
}

//agent:operable grant=Refunds
func MethodValueRoute(db *sql.DB) http.HandlerFunc {
	h := &holder{db: db}
	return h.holdPayout // want `MethodValueRoute writes "payouts"`
}

//agent:operable grant=Refunds
func MethodValueRouteTwin(db *sql.DB) http.HandlerFunc {
	h := &holder{db: db}
	return h.holdRefund
}

// --- K11: the constructor registers the literal itself, through the
// SDK's generic AddTool (which wraps and stores it).

// FP: a literal registered or stored by a handler constructor is the handler (SPEC §3), yet the store is reported as detached
//
//agent:operable grant=Refunds
func RegisterVoidPayout(s *mcp.Server, db *sql.DB) {
	mcp.AddTool(s, &mcp.Tool{Name: "void_payout"}, func(ctx context.Context, req *mcp.CallToolRequest, in VoidIn) (*mcp.CallToolResult, any, error) {
		_, err := db.ExecContext(ctx, "UPDATE payouts SET state = 'void' WHERE tenant_id = $1 AND id = $2", 1, in.ID) // want `RegisterVoidPayout writes "payouts"`
		return text("voided"), nil, err
	})
}

// FP: a literal registered or stored by a handler constructor is the handler (SPEC §3), yet the store is reported as detached
//
//agent:operable grant=Refunds
func RegisterVoidRefund(s *mcp.Server, db *sql.DB) {
	mcp.AddTool(s, &mcp.Tool{Name: "void_refund"}, func(ctx context.Context, req *mcp.CallToolRequest, in VoidIn) (*mcp.CallToolResult, any, error) {
		_, err := db.ExecContext(ctx, "UPDATE refunds SET state = 'void' WHERE tenant_id = $1 AND id = $2", 1, in.ID)
		return text("voided"), nil, err
	})
}

// --- K12: the project's own NewTool helper (SPEC §9): the literal has the
// project's signature, and the helper wraps it into an SDK handler.

type Deps struct{ DB *sql.DB }

type projectHandler func(ctx context.Context, deps Deps, req *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, any, error)

func NewTool(tool mcp.Tool, deps Deps, h projectHandler) ServerTool {
	return ServerTool{Tool: tool, Handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, _, err := h(ctx, deps, req, nil)
		return res, err
	}}
}

//agent:operable grant=Refunds
func ReleasePayoutTool(deps Deps) ServerTool {
	return NewTool(mcp.Tool{Name: "release_payout"}, deps, func(ctx context.Context, deps Deps, req *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, any, error) {
		_, err := deps.DB.ExecContext(ctx, "UPDATE payouts SET held = false WHERE tenant_id = $1 AND id = $2", 1, args["id"]) // want `ReleasePayoutTool writes "payouts"`
		return text("released"), nil, err
	})
}

//agent:operable grant=Refunds
func ReleaseRefundTool(deps Deps) ServerTool {
	return NewTool(mcp.Tool{Name: "release_refund"}, deps, func(ctx context.Context, deps Deps, req *mcp.CallToolRequest, args map[string]any) (*mcp.CallToolResult, any, error) {
		_, err := deps.DB.ExecContext(ctx, "UPDATE refunds SET held = false WHERE tenant_id = $1 AND id = $2", 1, args["id"])
		return text("released"), nil, err
	})
}

// --- K13: the literal wrapped by middleware before it is returned.

func withRecover(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer func() { recover() }()
		h(w, r)
	}
}

//agent:operable grant=Refunds
func WrappedRoute(db *sql.DB) http.HandlerFunc {
	return withRecover(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `WrappedRoute writes "payouts"`
	})
}

//agent:operable grant=Refunds
func WrappedRouteTwin(db *sql.DB) http.HandlerFunc {
	return withRecover(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	})
}

// --- K14: the literal assigned to a field of a struct returned by pointer.

//agent:operable grant=Refunds
func FieldAssigned(db *sql.DB) *ServerTool {
	t := &ServerTool{Tool: mcp.Tool{Name: "purge_payouts"}}
	t.Handler = func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, 2) // want `FieldAssigned writes "payouts"`
		return text("purged"), err
	}
	return t
}

//agent:operable grant=Refunds
func FieldAssignedTwin(db *sql.DB) *ServerTool {
	t := &ServerTool{Tool: mcp.Tool{Name: "purge_refund"}}
	t.Handler = func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := db.ExecContext(ctx, "DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, 2)
		return text("purged"), err
	}
	return t
}

// --- K15: a generic constructor (one per input type).

//agent:operable grant=Refunds
func TypedVoid[In any](db *sql.DB) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		_, err := db.ExecContext(ctx, "UPDATE payouts SET state = 'void' WHERE tenant_id = $1 AND id = $2", 1, 2) // want `TypedVoid writes "payouts"`
		return text("voided"), nil, err
	}
}

//agent:operable grant=Refunds
func TypedVoidTwin[In any](db *sql.DB) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		_, err := db.ExecContext(ctx, "UPDATE refunds SET state = 'void' WHERE tenant_id = $1 AND id = $2", 1, 2)
		return text("voided"), nil, err
	}
}

var _ = TypedVoid[VoidIn]
var _ = TypedVoidTwin[VoidIn]

// --- K16: one of two literals, chosen by a flag and returned through a
// variable (a phi): both are the handler.

//agent:operable grant=Refunds
func ChosenRoute(db *sql.DB, admin bool) http.HandlerFunc {
	h := func(w http.ResponseWriter, r *http.Request) {
		db.Exec("UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
	if admin {
		h = func(w http.ResponseWriter, r *http.Request) {
			db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `ChosenRoute writes "payouts"`
		}
	}
	return h
}

//agent:operable grant=Refunds
func ChosenRouteTwin(db *sql.DB, admin bool) http.HandlerFunc {
	h := func(w http.ResponseWriter, r *http.Request) {
		db.Exec("UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
	if admin {
		h = func(w http.ResponseWriter, r *http.Request) {
			db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
		}
	}
	return h
}

// --- K17: the constructor stores the literal in a package registry and
// returns nothing.

var registry = map[string]http.HandlerFunc{}

// FP: a literal registered or stored by a handler constructor is the handler (SPEC §3), yet the store is reported as detached
//
//agent:operable grant=Refunds
func RegisterPurge(db *sql.DB) {
	registry["purge"] = func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `RegisterPurge writes "payouts"`
	}
}

// FP: a literal registered or stored by a handler constructor is the handler (SPEC §3), yet the store is reported as detached
//
//agent:operable grant=Refunds
func RegisterPurgeTwin(db *sql.DB) {
	registry["purge_refund"] = func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
}

// --- K18: the literal sent on a channel to the server's setup loop.

// FP: a literal registered or stored by a handler constructor is the handler (SPEC §3), yet the store is reported as detached
//
//agent:operable grant=Refunds
func SendRoute(db *sql.DB, out chan<- http.HandlerFunc) {
	out <- func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `SendRoute writes "payouts"`
	}
}

// FP: a literal registered or stored by a handler constructor is the handler (SPEC §3), yet the store is reported as detached
//
//agent:operable grant=Refunds
func SendRouteTwin(db *sql.DB, out chan<- http.HandlerFunc) {
	out <- func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
}

// --- K19: the literal converted to an interface (http.Handler) and
// returned.

//agent:operable grant=Refunds
func AsHandler(db *sql.DB) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `AsHandler writes "payouts"`
	})
}

//agent:operable grant=Refunds
func AsHandlerTwin(db *sql.DB) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	})
}

// --- K20: a method constructor capturing its receiver's handle.

type Tools struct{ db *sql.DB }

//agent:operable grant=Refunds
func (t *Tools) HoldPayout() (mcp.Tool, mcp.ToolHandler) {
	return mcp.Tool{Name: "hold_payout"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := t.db.ExecContext(ctx, "UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, 2) // want `HoldPayout writes "payouts"`
		return text("held"), err
	}
}

//agent:operable grant=Refunds
func (t *Tools) HoldRefund() (mcp.Tool, mcp.ToolHandler) {
	return mcp.Tool{Name: "hold_refund"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := t.db.ExecContext(ctx, "UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, 2)
		return text("held"), err
	}
}

// --- K21: an immediately-called literal builds and returns the handler
// literal: the outer one is called, the inner one escapes through it.

//agent:operable grant=Refunds
func Immediate(db *sql.DB) http.HandlerFunc {
	return func() http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `Immediate writes "payouts"`
		}
	}()
}

//agent:operable grant=Refunds
func ImmediateTwin(db *sql.DB) http.HandlerFunc {
	return func() http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
		}
	}()
}

// --- K22: the handler literal is made by an unmarked helper the
// constructor returns the result of. It is not defined in the
// constructor's body, but it is the constructor's handler: moving the
// literal one call away must not take its write out of the ledger.
// Reported at the constructor's call of the helper.

func makeDelete(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
}

func makeDeleteRefund(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
}

//agent:operable grant=Refunds
func HelperMade(db *sql.DB) http.HandlerFunc {
	return makeDelete(db) // want `HelperMade writes "payouts"`
}

//agent:operable grant=Refunds
func HelperMadeTwin(db *sql.DB) http.HandlerFunc {
	return makeDeleteRefund(db)
}

// --- K23: tool and handler returned untyped, in a []any.

//agent:operable grant=Refunds
func Untyped(db *sql.DB) []any {
	return []any{mcp.Tool{Name: "purge"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, 2) // want `Untyped writes "payouts"`
		return text("purged"), err
	}}
}

//agent:operable grant=Refunds
func UntypedTwin(db *sql.DB) []any {
	return []any{mcp.Tool{Name: "purge"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := db.ExecContext(ctx, "DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, 2)
		return text("purged"), err
	}}
}

// --- K24: the handler assigned to the named result in a deferred literal.

//agent:operable grant=Refunds
func DeferredResult(db *sql.DB) (h http.HandlerFunc) {
	defer func() {
		h = func(w http.ResponseWriter, r *http.Request) {
			db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `DeferredResult writes "payouts"`
		}
	}()
	return nil
}

//agent:operable grant=Refunds
func DeferredResultTwin(db *sql.DB) (h http.HandlerFunc) {
	defer func() {
		h = func(w http.ResponseWriter, r *http.Request) {
			db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
		}
	}()
	return nil
}

// --- K25: the handler literal is made by a helper that returns it inside
// a struct (the project's own ServerTool), not as a function value. The
// helper is the constructor's: what it makes is the constructor's handler.

type serverTool struct {
	Tool    mcp.Tool
	Handler func(ctx context.Context, id string) error
}

func tableTool(db *sql.DB, name, table string) serverTool {
	return serverTool{Tool: mcp.Tool{Name: name}, Handler: func(ctx context.Context, id string) error {
		_, err := db.ExecContext(ctx, "DELETE FROM "+table+" WHERE tenant_id = $1 AND id = $2", 1, id)
		return err
	}}
}

//agent:operable grant=Refunds
func StructHelper(db *sql.DB) serverTool {
	return tableTool(db, "purge", "payouts") // want `StructHelper writes "payouts"`
}

//agent:operable grant=Refunds
func StructHelperTwin(db *sql.DB) serverTool {
	return tableTool(db, "purge", "refunds")
}

// --- K26: the same helper twice, for two tables, in the slice a
// constructor returns: each call makes its own handler.

//agent:operable grant=Refunds
func StructHelperList(db *sql.DB) []serverTool {
	return []serverTool{
		tableTool(db, "purge_refund", "refunds"),
		tableTool(db, "purge_payout", "payouts"), // want `StructHelperList writes "payouts"`
	}
}

//agent:operable grant=Refunds
func StructHelperListTwin(db *sql.DB) []serverTool {
	return []serverTool{
		tableTool(db, "purge_refund", "refunds"),
		tableTool(db, "purge_refund_again", "refunds"),
	}
}

// --- K27: the helper is in another package (a shared tool kit).

//agent:operable grant=Refunds
func KitHelper(db *sql.DB) kit.Tool {
	return kit.DeleteTool(db, "purge", "payouts") // want `KitHelper writes "payouts"`
}

//agent:operable grant=Refunds
func KitHelperTwin(db *sql.DB) kit.Tool {
	return kit.DeleteTool(db, "purge", "refunds")
}

// --- K28: a helper in another package returns the handler as an
// http.Handler, an interface.

//agent:operable grant=Refunds
func KitRoute(db *sql.DB) http.Handler {
	return kit.Route(db) // want `KitRoute writes "payouts"`
}

//agent:operable grant=Refunds
func KitRouteTwin(db *sql.DB) http.Handler {
	return kit.RouteTwin(db)
}

// --- K29: the constructor returns, as its function result, the literal
// a helper in another package made over the constructor's statement.

//agent:operable grant=Refunds
func KitExec(db *sql.DB) http.HandlerFunc {
	return kit.ExecHandler(db, "DELETE FROM sessions WHERE tenant_id = $1") // want `KitExec writes "sessions"`
}

//agent:operable grant=Refunds
func KitExecTwin(db *sql.DB) http.HandlerFunc {
	return kit.ExecHandler(db, "DELETE FROM refunds WHERE tenant_id = $1")
}

// --- K30: the constructor's literal wrapped by another package's
// middleware chain: the literal is the handler; the chain's logging
// middleware, applied through a function value, is no helper of the
// constructor's, and its call of the wrapped handler is not a site.

//agent:operable grant=Refunds
func Chained(db *sql.DB) http.Handler {
	return kit.Chain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `Chained writes "payouts"`
	}), kit.Log)
}

//agent:operable grant=Refunds
func ChainedTwin(db *sql.DB) http.Handler {
	return kit.Chain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}), kit.Log)
}

// --- K31: the handler a middleware factory of the package builds
// around the constructor's literal (Audit("export")(inner)): the
// factory's literal is part of the handler.

type middleware func(http.Handler) http.Handler

var auditDB *sql.DB

func audit(table string) middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r)
			auditDB.ExecContext(r.Context(), "INSERT INTO "+table+" (tenant_id, path) VALUES ($1, $2)", 1, r.URL.Path)
		})
	}
}

func chain(h http.Handler, mws ...middleware) http.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

//agent:operable grant=Refunds
func AuditedExport() http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return audit("audit_log")(inner) // want `AuditedExport writes "audit_log"`
}

//agent:operable grant=Refunds
func AuditedExportTwin() http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return audit("refunds")(inner)
}

//agent:operable grant=Refunds
func AuditedChain() http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return chain(inner, audit("audit_log")) // want `AuditedChain writes "audit_log"`
}

//agent:operable grant=Refunds
func AuditedChainTwin() http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return chain(inner, audit("refunds"))
}

// A handler from a factory the constructor was handed: out of sight.

//agent:operable grant=Refunds
func AuditedBy(wrap middleware) http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return wrap(inner) // want `AuditedBy calls a function-valued parameter`
}

// A handler a helper of the package takes out of a registry: out of
// sight, so unprovable; its twin's helper builds the handler itself.

var routes sync.Map

func registered(name string) http.Handler {
	v, _ := routes.Load(name)
	return v.(http.Handler)
}

func okRoute(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(name)) })
}

//agent:operable grant=Refunds
func FromRegistry() http.Handler {
	return registered("export") // want `FromRegistry returns a handler built by code the analysis cannot resolve`
}

//agent:operable grant=Refunds
func FromRegistryTwin() http.Handler {
	return okRoute("export")
}

// --- K32: another package's middleware factories applied by its chain
// (kit.Chain(inner, kit.Audit("export"))) or directly: the handler the
// factory's product builds is part of the route.

//agent:operable grant=Refunds
func KitAudited() http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return kit.Chain(inner, kit.RequestID("r-"), kit.Audit("export")) // want `KitAudited writes "audit_log"`
}

//agent:operable grant=Refunds
func KitAuditedDirect() http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return kit.Audit("export")(inner) // want `KitAuditedDirect writes "audit_log"`
}

//agent:operable grant=Refunds
func KitAuditedTwin() http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return kit.Chain(inner, kit.RequestID("r-"), kit.Log)
}

//agent:operable grant=Refunds
func KitAuditedDirectTwin() http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return kit.RequestID("r-")(inner)
}

// --- K33: a handler the constructor hands on that is not its own
// literal (a named function, a struct with ServeHTTP, another
// function's product), wrapped by a middleware or registered on a
// router: it is called too. One the constructor was given is out of
// sight.

type payoutDeleter struct{ db *sql.DB }

func (d payoutDeleter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
}

type refundDeleter struct{ db *sql.DB }

func (d refundDeleter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
}

var namedDB *sql.DB

func deletePayout(w http.ResponseWriter, r *http.Request) {
	namedDB.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
}

func deleteRefund(w http.ResponseWriter, r *http.Request) {
	namedDB.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
}

func newPayoutDeleter(db *sql.DB) http.Handler { return payoutDeleter{db} }

func newRefundDeleter(db *sql.DB) http.Handler { return refundDeleter{db} }

// A local factory around a struct handler.

//agent:operable grant=Refunds
func WrappedStruct(db *sql.DB) http.Handler {
	return audit("refunds")(payoutDeleter{db}) // want `WrappedStruct writes "payouts"`
}

//agent:operable grant=Refunds
func WrappedStructTwin(db *sql.DB) http.Handler {
	return audit("refunds")(refundDeleter{db})
}

// A local factory around a named function.

//agent:operable grant=Refunds
func WrappedNamed() http.Handler {
	return audit("refunds")(http.HandlerFunc(deletePayout)) // want `WrappedNamed writes "payouts"`
}

//agent:operable grant=Refunds
func WrappedNamedTwin() http.Handler {
	return audit("refunds")(http.HandlerFunc(deleteRefund))
}

// Another package's chain around another function's product.

//agent:operable grant=Refunds
func KitWrappedProduct(db *sql.DB) http.Handler {
	return kit.Chain(newPayoutDeleter(db), kit.RequestID("r-")) // want `KitWrappedProduct writes "payouts"`
}

//agent:operable grant=Refunds
func KitWrappedProductTwin(db *sql.DB) http.Handler {
	return kit.Chain(newRefundDeleter(db), kit.RequestID("r-"))
}

// Named handlers registered on a router the constructor returns: called,
// and the router keeping them is no detached work.

//agent:operable grant=Refunds
func RoutedNamed(db *sql.DB) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/payouts", deletePayout) // want `RoutedNamed writes "payouts"`
	mux.Handle("/refunds", refundDeleter{db})
	return mux
}

//agent:operable grant=Refunds
func RoutedNamedTwin(db *sql.DB) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/refunds", deleteRefund)
	mux.Handle("/refunds/x", refundDeleter{db})
	return mux
}

// A handler the constructor was given, handed to another package's
// chain: out of sight. Its twin wraps one it builds.

//agent:operable grant=Refunds
func KitWrappedGiven(h http.Handler) http.Handler {
	return kit.Chain(h, kit.RequestID("r-")) // want `KitWrappedGiven hands on a handler the constructor was given`
}

//agent:operable grant=Refunds
func KitWrappedGivenTwin(db *sql.DB) http.Handler {
	h := newRefundDeleter(db)
	return kit.Chain(h, kit.RequestID("r-"))
}

// A struct handler the constructor builds and returns itself, by value
// or by pointer.

//agent:operable grant=Refunds
func StructByValue() http.Handler {
	d := payoutDeleter{db: namedDB}
	return d // want `StructByValue writes "payouts"`
}

//agent:operable grant=Refunds
func StructByValueTwin() http.Handler {
	d := refundDeleter{db: namedDB}
	return d
}

//agent:operable grant=Refunds
func StructByPointer() http.Handler {
	return &payoutDeleter{db: namedDB} // want `StructByPointer writes "payouts"`
}

//agent:operable grant=Refunds
func StructByPointerTwin() http.Handler {
	return &refundDeleter{db: namedDB}
}

// A handler the constructor was given, returned as is: out of sight.

//agent:operable grant=Refunds
func ReturnsGiven(h http.Handler) http.Handler {
	return h // want `ReturnsGiven returns a handler the constructor was given`
}

// --- K34: handlers a helper makes, built into a route table another
// package's Mount registers.

func archivePayout(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db.Exec("UPDATE payouts SET archived = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
}

func archiveRefund(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db.Exec("UPDATE refunds SET archived = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
}

//agent:operable grant=Refunds
func RouteTable(db *sql.DB) http.Handler {
	return kit.Mount([]kit.Endpoint{
		{Pattern: "POST /refunds/{id}/archive", Handler: archiveRefund(db)},
		{Pattern: "POST /payouts/{id}/archive", Handler: archivePayout(db)}, // want `RouteTable writes "payouts"`
	})
}

//agent:operable grant=Refunds
func RouteTableTwin(db *sql.DB) http.Handler {
	return kit.Mount([]kit.Endpoint{
		{Pattern: "POST /refunds/{id}/archive", Handler: archiveRefund(db)},
	})
}

// --- K35: a router another package's method builds from method values,
// returned by the constructor: its handlers are the constructor's, and
// their registration is no detached work.

//agent:operable grant=Refunds
func ServerRoutes(db *sql.DB) http.Handler {
	return (&kit.Srv{DB: db}).Mux() // want `ServerRoutes writes "payouts"`
}

//agent:operable grant=Refunds
func ServerRoutesTwin(db *sql.DB) http.Handler {
	return (&kit.Srv{DB: db}).RefundMux()
}

// --- K36: an adapter and a middleware of a package that reaches no
// sink: the handler they return calls what they are handed, within the
// request.

//agent:operable grant=Refunds
func Adapted(db *sql.DB) http.Handler {
	return adapt.Query(func(ctx context.Context, _ struct{}) (int64, error) {
		_, err := db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, 2) // want `Adapted writes "payouts"`
		return 0, err
	})
}

//agent:operable grant=Refunds
func AdaptedTwin(db *sql.DB) http.Handler {
	return adapt.Query(func(ctx context.Context, _ struct{}) (int64, error) {
		_, err := db.ExecContext(ctx, "DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, 2)
		return 0, err
	})
}

//agent:operable grant=Refunds
func Logged(db *sql.DB) http.Handler {
	return adapt.Logger(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `Logged writes "payouts"`
	}))
}

//agent:operable grant=Refunds
func LoggedTwin(db *sql.DB) http.Handler {
	return adapt.Logger(payoutDeleterTwin(db))
}

func payoutDeleterTwin(db *sql.DB) http.Handler { return refundDeleter{db} }

// --- K37: a decorator another package's constructor builds, held in a
// variable of its concrete type that the handler literal captures: the
// store it wraps is what runs.

//agent:operable grant=Refunds
func DecoratedDelete(db *sql.DB) http.HandlerFunc {
	s := kit.NewLogging(&kit.Payouts{DB: db})
	return func(w http.ResponseWriter, r *http.Request) {
		s.Delete(r.Context(), 1) // want `DecoratedDelete writes "payouts"`
	}
}

//agent:operable grant=Refunds
func DecoratedDeleteTwin(db *sql.DB) http.HandlerFunc {
	s := kit.NewLogging(&kit.RefundRows{DB: db})
	return func(w http.ResponseWriter, r *http.Request) {
		s.Delete(r.Context(), 1)
	}
}

// --- K38: a handler a helper of the package stores into a field of the
// struct it builds and returns, registered from that field.

type fieldHandlers struct{ Create http.HandlerFunc }

func newPayoutHandlers(db *sql.DB) *fieldHandlers {
	h := &fieldHandlers{}
	h.Create = func(w http.ResponseWriter, r *http.Request) {
		db.Exec("INSERT INTO payouts (tenant_id, amount) VALUES ($1, $2)", 1, 2)
	}
	return h
}

func newRefundHandlers(db *sql.DB) *fieldHandlers {
	h := &fieldHandlers{}
	h.Create = func(w http.ResponseWriter, r *http.Request) {
		db.Exec("INSERT INTO refunds (tenant_id, amount) VALUES ($1, $2)", 1, 2)
	}
	return h
}

//agent:operable grant=Refunds
func FieldRoutes(db *sql.DB) http.Handler {
	h := newPayoutHandlers(db) // want `FieldRoutes writes "payouts"`
	mux := http.NewServeMux()
	mux.HandleFunc("POST /payouts", h.Create)
	return mux
}

//agent:operable grant=Refunds
func FieldRoutesTwin(db *sql.DB) http.Handler {
	h := newRefundHandlers(db)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /refunds", h.Create)
	return mux
}

// A decorator built as a struct value the literal captures; one the
// literal rewires is out of sight.

//agent:operable grant=Refunds
func DecoratedValue(db *sql.DB) http.HandlerFunc {
	s := kit.Audited{Inner: &kit.Payouts{DB: db}}
	return func(w http.ResponseWriter, r *http.Request) {
		s.Delete(r.Context(), 1) // want `DecoratedValue writes "payouts"`
	}
}

//agent:operable grant=Refunds
func DecoratedValueTwin(db *sql.DB) http.HandlerFunc {
	s := kit.Audited{Inner: &kit.RefundRows{DB: db}}
	return func(w http.ResponseWriter, r *http.Request) {
		s.Delete(r.Context(), 1)
	}
}

//agent:operable grant=Refunds
func DecoratedRewired(db *sql.DB, other kit.Store) http.HandlerFunc {
	s := kit.Audited{Inner: &kit.RefundRows{DB: db}}
	return func(w http.ResponseWriter, r *http.Request) {
		s.Inner = other
		s.Delete(r.Context(), 1) // want `DecoratedRewired calls Delete through the interface kit.Store`
	}
}

// --- K39: a helper of the package that returns another package's
// middleware product around the handler it is handed: the handler is
// walked, and the helper's product is no handler out of sight.

func withRequestID(h http.Handler) http.Handler { return kit.RequestID("r-")(h) }

//agent:operable grant=Refunds
func HelperWrapped() http.Handler {
	return withRequestID(http.HandlerFunc(deletePayout)) // want `HelperWrapped writes "payouts"`
}

//agent:operable grant=Refunds
func HelperWrappedTwin() http.Handler {
	return withRequestID(http.HandlerFunc(deleteRefund))
}

// --- K40: a middleware struct of the package, returned by pointer,
// holding the handler it wraps in a field: its ServeHTTP calls that
// handler, and nothing is out of sight.

type authGate struct{ next http.Handler }

func (g authGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") == "" {
		return
	}
	g.next.ServeHTTP(w, r)
}

//agent:operable grant=Refunds
func Gated(db *sql.DB) http.Handler {
	return &authGate{next: payoutDeleter{db}} // want `Gated writes "payouts"`
}

//agent:operable grant=Refunds
func GatedTwin(db *sql.DB) http.Handler {
	return &authGate{next: refundDeleter{db}}
}

// --- K41: another package's helper makes the handler, which calls what
// the constructor's factory returns (typed := factory(deps); typed(...)).
// Directly, and through a helper of this package that wraps the factory
// (github-mcp-server's NewDynamicTool around NewServerTool).

//agent:operable grant=Refunds
func PurgeByDeps(db *sql.DB) kit.Tool {
	return kit.DepsTool("purge", func(deps any) func(ctx context.Context, id string) error {
		return func(ctx context.Context, id string) error {
			_, err := db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, id) // want `PurgeByDeps writes "payouts"`
			return err
		}
	})
}

//agent:operable grant=Refunds
func PurgeByDepsTwin(db *sql.DB) kit.Tool {
	return kit.DepsTool("purge", func(deps any) func(ctx context.Context, id string) error {
		return func(ctx context.Context, id string) error {
			_, err := db.ExecContext(ctx, "DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, id)
			return err
		}
	})
}

type dynDeps struct{ db *sql.DB }

func dynTool(name string, h func(deps dynDeps) func(ctx context.Context, id string) error) kit.Tool {
	return kit.DepsTool(name, func(d any) func(ctx context.Context, id string) error {
		return h(d.(dynDeps))
	})
}

//agent:operable grant=Refunds
func PurgeByDyn() kit.Tool {
	return dynTool("purge_dyn", func(deps dynDeps) func(ctx context.Context, id string) error {
		return func(ctx context.Context, id string) error {
			_, err := deps.db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, id) // want `PurgeByDyn writes "payouts"`
			return err
		}
	})
}

//agent:operable grant=Refunds
func PurgeByDynTwin() kit.Tool {
	return dynTool("purge_dyn", func(deps dynDeps) func(ctx context.Context, id string) error {
		return func(ctx context.Context, id string) error {
			_, err := deps.db.ExecContext(ctx, "DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, id)
			return err
		}
	})
}

// --- K42: a handler's own body wraps a handler in the package's
// middleware and serves through it. The handler is no constructor: the
// middleware's literal is not walked where the middleware is called, so
// it is walked where the handler calls it.

func stamp(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", "1")
		next.ServeHTTP(w, r)
	})
}

//agent:operable grant=Refunds
func ServeStamped(w http.ResponseWriter, r *http.Request) {
	stamp(stamp(payoutDeleter{nil})).ServeHTTP(w, r) // want `ServeStamped writes "payouts"`
}

//agent:operable grant=Refunds
func ServeStampedTwin(w http.ResponseWriter, r *http.Request) {
	stamp(stamp(refundDeleter{nil})).ServeHTTP(w, r)
}

// K41, out of sight: the factory returns a handler another package may
// set (an exported variable). It is unprovable where the helper calls
// the factory's product, never taken as doing nothing.

// ExternalPurge is set by whoever wires the server.
var ExternalPurge func(ctx context.Context, id string) error

//agent:operable grant=Refunds
func PurgeByDepsExternal() kit.Tool {
	return kit.DepsTool("purge_ext", func(deps any) func(ctx context.Context, id string) error { // want `PurgeByDepsExternal calls a function value the analysis cannot resolve`
		return ExternalPurge
	})
}

// --- K43: a named function or a method value converted to
// http.HandlerFunc and returned as an http.Handler.

func purgePayoutsFn(w http.ResponseWriter, r *http.Request) {
	payoutDeleter{}.ServeHTTP(w, r)
}

func purgeRefundsFn(w http.ResponseWriter, r *http.Request) {
	refundDeleter{}.ServeHTTP(w, r)
}

//agent:operable grant=Refunds
func NamedAsHandler() http.Handler {
	return http.HandlerFunc(purgePayoutsFn) // want `NamedAsHandler writes "payouts"`
}

//agent:operable grant=Refunds
func NamedAsHandlerTwin() http.Handler {
	return http.HandlerFunc(purgeRefundsFn)
}

//agent:operable grant=Refunds
func MethodAsHandler(h *holder) http.Handler {
	return http.HandlerFunc(h.holdPayout) // want `MethodAsHandler writes "payouts"`
}

//agent:operable grant=Refunds
func MethodAsHandlerTwin(h *holder) http.Handler {
	return http.HandlerFunc(h.holdRefund)
}

// --- K44: a route struct, or a table of them, holding the handler.

type Route struct {
	Pattern string
	Handler http.HandlerFunc
}

//agent:operable grant=Refunds
func PayoutRoute(h *holder) Route {
	return Route{Pattern: "POST /payouts/hold", Handler: h.holdPayout} // want `PayoutRoute writes "payouts"`
}

//agent:operable grant=Refunds
func PayoutRouteTwin(h *holder) Route {
	return Route{Pattern: "POST /refunds/hold", Handler: h.holdRefund}
}

//agent:operable grant=Refunds
func PayoutRoutes(h *holder) []Route {
	return []Route{
		{Pattern: "GET /ping", Handler: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }},
		{Pattern: "POST /payouts/hold", Handler: h.holdPayout}, // want `PayoutRoutes writes "payouts"`
	}
}

//agent:operable grant=Refunds
func PayoutRoutesTwin(h *holder) []Route {
	return []Route{
		{Pattern: "GET /ping", Handler: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }},
		{Pattern: "POST /refunds/hold", Handler: h.holdRefund},
	}
}

//agent:operable grant=Refunds
func PayoutRoutePtr() *Route {
	return &Route{Pattern: "POST /payouts/purge", Handler: purgePayoutsFn} // want `PayoutRoutePtr writes "payouts"`
}

//agent:operable grant=Refunds
func PayoutRoutePtrTwin() *Route {
	return &Route{Pattern: "POST /refunds/purge", Handler: purgeRefundsFn}
}
