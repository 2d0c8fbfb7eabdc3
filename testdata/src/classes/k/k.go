// Package k is class K of the fail-closed corpus: handler constructors
// (SPEC §3). MCP servers and routers build their handlers as function
// literals inside constructor functions; a directive on the constructor
// covers every literal its body defines, each counted as called once with
// unknown arguments in the constructor's frame, and an effect is reported
// at the call inside the literal that causes it. Every shape is a
// constructor under Refunds whose literal writes "payouts"; its clean twin
// is the same constructor whose literal writes only "refunds".
package k

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/authvet/authvet/grant"
)

// Refunds allows only refund rows.
var Refunds = grant.Grant{
	Writes:        []string{"refunds"},
	Reversibility: grant.Irreversible,
}

type VoidIn struct {
	ID int64 `json:"id"`
}

type VoidOut struct {
	OK bool `json:"ok"`
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// --- K1: (mcp.Tool, typed handler literal), the go-sdk shape.

//agent:operable grant=Refunds
func VoidPayoutTool(db *sql.DB) (mcp.Tool, mcp.ToolHandlerFor[VoidIn, VoidOut]) {
	tool := mcp.Tool{Name: "void_payout", Annotations: &mcp.ToolAnnotations{IdempotentHint: true}}
	return tool, func(ctx context.Context, req *mcp.CallToolRequest, in VoidIn) (*mcp.CallToolResult, VoidOut, error) {
		_, err := db.ExecContext(ctx, "UPDATE payouts SET state = 'void' WHERE tenant_id = $1 AND id = $2", 1, in.ID) // want `VoidPayoutTool writes "payouts"`
		return text("voided"), VoidOut{OK: err == nil}, err
	}
}

//agent:operable grant=Refunds
func VoidRefundTool(db *sql.DB) (mcp.Tool, mcp.ToolHandlerFor[VoidIn, VoidOut]) {
	tool := mcp.Tool{Name: "void_refund", Annotations: &mcp.ToolAnnotations{IdempotentHint: true}}
	return tool, func(ctx context.Context, req *mcp.CallToolRequest, in VoidIn) (*mcp.CallToolResult, VoidOut, error) {
		_, err := db.ExecContext(ctx, "UPDATE refunds SET state = 'void' WHERE tenant_id = $1 AND id = $2", 1, in.ID)
		return text("voided"), VoidOut{OK: err == nil}, err
	}
}

// --- K2: a struct holding the tool and its raw handler.

type ServerTool struct {
	Tool    mcp.Tool
	Handler mcp.ToolHandler
}

//agent:operable grant=Refunds
func PurgePayoutsTool(db *sql.DB) ServerTool {
	return ServerTool{
		Tool: mcp.Tool{Name: "purge_payouts"},
		Handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, err := db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, 2) // want `PurgePayoutsTool writes "payouts"`
			return text("purged"), err
		},
	}
}

//agent:operable grant=Refunds
func PurgeRefundTool(db *sql.DB) ServerTool {
	return ServerTool{
		Tool: mcp.Tool{Name: "purge_refund"},
		Handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, err := db.ExecContext(ctx, "DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, 2)
			return text("purged"), err
		},
	}
}

// --- K3: a router helper returning http.HandlerFunc.

//agent:operable grant=Refunds
func HoldPayoutRoute(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db.ExecContext(r.Context(), "UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id")) // want `HoldPayoutRoute writes "payouts"`
	}
}

//agent:operable grant=Refunds
func HoldRefundRoute(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db.ExecContext(r.Context(), "UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, r.FormValue("id"))
	}
}

// --- K4: a literal nested in a literal: the outer literal is the
// handler, the inner one does the write when the handler calls it.
// The inner literal is called, so it is a callee: the write is reported
// at the handler literal's call of it, with the inner site as related
// information (as for a local closure, SPEC §5).

//agent:operable grant=Refunds
func NestedCalled(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		write := func(id string) {
			db.Exec("UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, id)
		}
		write(r.FormValue("id")) // want `NestedCalled writes "payouts", .* \(at \S+k.go:\d+\)`
	}
}

//agent:operable grant=Refunds
func NestedCalledTwin(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		write := func(id string) {
			db.Exec("UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, id)
		}
		write(r.FormValue("id"))
	}
}

// --- K5: curried: the constructor returns a literal that returns the
// handler literal (a per-tenant factory).

//agent:operable grant=Refunds
func Curried(db *sql.DB) func(tenant int64) http.HandlerFunc {
	return func(tenant int64) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", tenant, r.FormValue("id")) // want `Curried writes "payouts"`
		}
	}
}

//agent:operable grant=Refunds
func CurriedTwin(db *sql.DB) func(tenant int64) http.HandlerFunc {
	return func(tenant int64) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			db.Exec("DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", tenant, r.FormValue("id"))
		}
	}
}

// --- K6: literals in a map the constructor returns.

//agent:operable grant=Refunds
func ToolMap(db *sql.DB) map[string]mcp.ToolHandler {
	return map[string]mcp.ToolHandler{
		"list": func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("ok"), nil
		},
		"void": func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, err := db.ExecContext(ctx, "UPDATE payouts SET state = 'void' WHERE tenant_id = $1 AND id = $2", 1, 2) // want `ToolMap writes "payouts"`
			return text("voided"), err
		},
	}
}

//agent:operable grant=Refunds
func ToolMapTwin(db *sql.DB) map[string]mcp.ToolHandler {
	return map[string]mcp.ToolHandler{
		"list": func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("ok"), nil
		},
		"void": func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, err := db.ExecContext(ctx, "UPDATE refunds SET state = 'void' WHERE tenant_id = $1 AND id = $2", 1, 2)
			return text("voided"), err
		},
	}
}

// --- K7: literals appended to a slice of structs the constructor returns.

//agent:operable grant=Refunds
func ToolSlice(db *sql.DB) []ServerTool {
	var tools []ServerTool
	tools = append(tools, ServerTool{Tool: mcp.Tool{Name: "noop"}, Handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("ok"), nil
	}})
	tools = append(tools, ServerTool{Tool: mcp.Tool{Name: "hold"}, Handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := db.ExecContext(ctx, "UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, 2) // want `ToolSlice writes "payouts"`
		return text("held"), err
	}})
	return tools
}

//agent:operable grant=Refunds
func ToolSliceTwin(db *sql.DB) []ServerTool {
	var tools []ServerTool
	tools = append(tools, ServerTool{Tool: mcp.Tool{Name: "noop"}, Handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("ok"), nil
	}})
	tools = append(tools, ServerTool{Tool: mcp.Tool{Name: "hold"}, Handler: func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := db.ExecContext(ctx, "UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, 2)
		return text("held"), err
	}})
	return tools
}

// --- K8: the handle the literal captures is built in the constructor
// from its parameters (a *Store wrapping the *sql.DB), and the SQL is in
// a method of it.

type Store struct{ db *sql.DB }

func (s *Store) HoldPayout(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, id)
	return err
}

func (s *Store) HoldRefund(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, id)
	return err
}

//agent:operable grant=Refunds
func CapturedStore(db *sql.DB) mcp.ToolHandlerFor[VoidIn, any] {
	st := &Store{db: db}
	return func(ctx context.Context, req *mcp.CallToolRequest, in VoidIn) (*mcp.CallToolResult, any, error) {
		return text("held"), nil, st.HoldPayout(ctx, in.ID) // want `CapturedStore writes "payouts"`
	}
}

//agent:operable grant=Refunds
func CapturedStoreTwin(db *sql.DB) mcp.ToolHandlerFor[VoidIn, any] {
	st := &Store{db: db}
	return func(ctx context.Context, req *mcp.CallToolRequest, in VoidIn) (*mcp.CallToolResult, any, error) {
		return text("held"), nil, st.HoldRefund(ctx, in.ID)
	}
}

// --- K9: the handler literal calls another literal the constructor
// defined (a shared step, captured by the handler).
// Reported at the handler literal's call of the step (see K4).

//agent:operable grant=Refunds
func SharedStep(db *sql.DB) http.HandlerFunc {
	hold := func(ctx context.Context, id string) error {
		_, err := db.ExecContext(ctx, "UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, id)
		return err
	}
	return func(w http.ResponseWriter, r *http.Request) {
		hold(r.Context(), r.FormValue("id")) // want `SharedStep writes "payouts", .* \(at \S+k.go:\d+\)`
	}
}

//agent:operable grant=Refunds
func SharedStepTwin(db *sql.DB) http.HandlerFunc {
	hold := func(ctx context.Context, id string) error {
		_, err := db.ExecContext(ctx, "UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, id)
		return err
	}
	return func(w http.ResponseWriter, r *http.Request) {
		hold(r.Context(), r.FormValue("id"))
	}
}

// --- K20: a literal the handler makes and never calls, hands on or
// captures (bound to a variable only _ reads) still counts as called
// once where it is made (SPEC §3).

//agent:operable grant=Refunds
func DeadLiteral(ctx context.Context, db *sql.DB) {
	cleanup := func() {
		db.ExecContext(ctx, "TRUNCATE payouts") // want `DeadLiteral writes every row of "payouts"`
	}
	_ = cleanup
}

//agent:operable grant=Refunds
func DeadLiteralTwin(ctx context.Context, db *sql.DB) {
	cleanup := func() {
		db.ExecContext(ctx, "DELETE FROM refunds WHERE tenant_id = $1 AND id = $2", 1, 2)
	}
	_ = cleanup
}

// --- K21: a helper of the package returns its handlers in a map literal
// or a slice it appends to: the constructor that returns what the helper
// made has them as its own. (A helper that makes no literal, like a
// parser rule returning an interface, is only summarised.)

type kTool struct {
	Name    string
	Handler func(ctx context.Context) error
}

func kToolMap(db *sql.DB, table string) map[string]kTool {
	return map[string]kTool{"wipe": {Handler: func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "DELETE FROM "+table+" WHERE tenant_id = $1 AND id = $2", 1, 2)
		return err
	}}}
}

func kToolList(db *sql.DB) []kTool {
	var ts []kTool
	ts = append(ts, kTool{Name: "hold", Handler: func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, 2)
		return err
	}})
	return ts
}

func kToolListTwin(db *sql.DB) []kTool {
	var ts []kTool
	ts = append(ts, kTool{Name: "hold", Handler: func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "UPDATE refunds SET held = true WHERE tenant_id = $1 AND id = $2", 1, 2)
		return err
	}})
	return ts
}

//agent:operable grant=Refunds
func ToolMapHelper(db *sql.DB) map[string]kTool {
	return kToolMap(db, "payouts") // want `ToolMapHelper writes "payouts"`
}

//agent:operable grant=Refunds
func ToolMapHelperTwin(db *sql.DB) map[string]kTool {
	return kToolMap(db, "refunds")
}

//agent:operable grant=Refunds
func ToolListHelper(db *sql.DB) []kTool {
	return kToolList(db) // want `ToolListHelper writes "payouts"`
}

//agent:operable grant=Refunds
func ToolListHelperTwin(db *sql.DB) []kTool {
	return kToolListTwin(db)
}
