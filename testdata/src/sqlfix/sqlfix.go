// Package sqlfix exercises database/sql sinks: each handler that must be
// reported has a clean twin that must not.
package sqlfix

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"

	"github.com/authvet/authvet/grant"
)

var RefundDrafter = grant.Grant{
	Writes:        []string{"refunds", "refund_notes"},
	TenantScope:   grant.Scoped,
	Reversibility: grant.Compensable,
}

var Janitor = grant.Grant{
	UnboundedWrites: []string{"sessions"},
	TenantScope:     grant.CrossTenant,
	Reversibility:   grant.Compensable,
}

type Server struct{ db *sql.DB }

//agent:operable grant=RefundDrafter
func (s *Server) DraftPayout(w http.ResponseWriter, r *http.Request) {
	s.db.ExecContext(r.Context(), "INSERT INTO payouts (tenant_id, amount) VALUES ($1, $2)", 1, 2) // want `agent authority: \(\*Server\)\.DraftPayout writes "payouts", which grant RefundDrafter does not allow; add "payouts" to its Writes`
}

//agent:operable grant=RefundDrafter
func (s *Server) DraftRefund(w http.ResponseWriter, r *http.Request) {
	s.db.ExecContext(r.Context(), "INSERT INTO refunds (tenant_id, amount) VALUES ($1, $2)", 1, 2)
}

//agent:operable grant=RefundDrafter
func (s *Server) VoidAll(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(`UPDATE refunds SET state = 'void'`) // want `VoidAll writes every row of "refunds".*add "refunds" to its UnboundedWrites` `VoidAll runs a raw query on "refunds" with no tenant predicate`
}

//agent:operable grant=RefundDrafter
func (s *Server) VoidOne(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(`UPDATE refunds SET state = 'void' WHERE tenant_id = $1 AND id = $2`, 1, 2)
}

//agent:operable grant=RefundDrafter
func (s *Server) ListRefunds(w http.ResponseWriter, r *http.Request) {
	rows, _ := s.db.QueryContext(r.Context(), "SELECT id FROM refunds") // want `ListRefunds runs a raw query on "refunds" with no tenant predicate, which grant RefundDrafter does not allow \(its TenantScope is not cross_tenant\); filter on tenant_id, declare the statement //agent:effect scoped, or set TenantScope: grant.CrossTenant`
	rows.Close()
}

//agent:operable grant=RefundDrafter
func (s *Server) ListRefundsScoped(w http.ResponseWriter, r *http.Request) {
	rows, _ := s.db.QueryContext(r.Context(), "SELECT id FROM refunds WHERE tenant_id = $1 ORDER BY id", 7)
	rows.Close()
}

//agent:operable grant=RefundDrafter
func (s *Server) OrPredicate(w http.ResponseWriter, r *http.Request) {
	s.db.QueryRow("SELECT id FROM refunds WHERE tenant_id = $1 OR 1 = 1", 7) // want `OrPredicate runs a raw query on "refunds"`
}

//agent:operable grant=RefundDrafter
func (s *Server) Truncate(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("TRUNCATE refunds") // want `Truncate writes every row of "refunds"`
}

//agent:operable grant=Janitor
func (s *Server) PurgeSessions(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("TRUNCATE sessions")
	s.db.Exec("DELETE FROM sessions")
}

//agent:operable grant=RefundDrafter
func (s *Server) CTE(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(`WITH moved AS (DELETE FROM refund_notes WHERE tenant_id = $1 RETURNING *) INSERT INTO refunds SELECT * FROM moved`, 1) // want `CTE writes every row of "refund_notes"` `CTE writes every row of "refunds"`
}

//agent:operable grant=RefundDrafter
func (s *Server) Upsert(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(`INSERT INTO refunds (id, tenant_id) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET state = 'draft'`, 1, 2)
}

//agent:operable grant=RefundDrafter
func (s *Server) TwoStatements(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(`INSERT INTO refunds (id) VALUES ($1); DELETE FROM ledger WHERE tenant_id = $2 AND id = $1`, 1, 2) // want `TwoStatements writes "ledger"`
}

//agent:operable grant=RefundDrafter
func (s *Server) Prepared(w http.ResponseWriter, r *http.Request) {
	stmt, err := s.db.PrepareContext(r.Context(), "INSERT INTO ledger (tenant_id) VALUES (?)")
	if err != nil {
		return
	}
	defer stmt.Close()
	stmt.Exec(1) // want `Prepared writes "ledger"`
}

//agent:operable grant=RefundDrafter
func (s *Server) PreparedOK(w http.ResponseWriter, r *http.Request) {
	stmt, err := s.db.PrepareContext(r.Context(), "INSERT INTO refunds (tenant_id) VALUES (?)")
	if err != nil {
		return
	}
	defer stmt.Close()
	stmt.Exec(1)
}

//agent:operable grant=RefundDrafter
func (s *Server) InTx(w http.ResponseWriter, r *http.Request) {
	tx, _ := s.db.BeginTx(r.Context(), nil)
	defer tx.Rollback()
	tx.Exec("INSERT INTO refunds (tenant_id) VALUES ($1)", 1)
	tx.Exec("DELETE FROM refund_notes WHERE tenant_id = $1 AND refund_id = $2", 1, 2)
	tx.Commit()
}

//agent:operable grant=RefundDrafter
func (s *Server) DynamicSQL(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(r.FormValue("q")) // want `DynamicSQL runs SQL text that is not constant; pass constant SQL text.*\(grant RefundDrafter cannot bound it\)`
}

//agent:operable grant=RefundDrafter
func (s *Server) PrefixFixesTable(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("INSERT INTO refunds (tenant_id, id) VALUES " + r.FormValue("rows"))
}

//agent:operable grant=RefundDrafter
func (s *Server) PrefixNoTable(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("DELETE FROM " + r.FormValue("table")) // want `PrefixNoTable runs SQL whose constant prefix "DELETE FROM" does not fix the statement kind and table`
}

// Sprintf puts runtime text inside the WHERE: it could close the
// parenthesis and add OR ..., so the WHERE proves neither bounds nor
// tenant scope (SPEC §4.1).
//
//agent:operable grant=RefundDrafter
func (s *Server) Sprintf(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(fmt.Sprintf("UPDATE refunds SET state = 'x' WHERE tenant_id = $1 AND id IN (%s)", r.FormValue("ids")), 1) // want `Sprintf runs SQL whose WHERE is followed by text that is not constant`
}

// SprintfScoped declares the statement scoped: its author answers for the tail.
//
//agent:operable grant=RefundDrafter
func (s *Server) SprintfScoped(w http.ResponseWriter, r *http.Request) {
	//agent:effect scoped reason="ids are parsed as integers by the router"
	s.db.Exec(fmt.Sprintf("UPDATE refunds SET state = 'x' WHERE tenant_id = $1 AND id IN (%s)", r.FormValue("ids")), 1)
}

// OrderByTail follows a constant ORDER BY with runtime text: the WHERE is
// closed, its tenant predicate stands.
//
//agent:operable grant=RefundDrafter
func (s *Server) OrderByTail(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT id FROM refunds WHERE tenant_id = $1 ORDER BY "+r.FormValue("sort"), 1)
}

// JoinConditions builds the WHERE from constant conditions joined with AND:
// the tenant predicate is on every path.
//
//agent:operable grant=RefundDrafter
func (s *Server) JoinConditions(w http.ResponseWriter, r *http.Request) {
	conds := []string{"tenant_id = $1"}
	if r.FormValue("open") != "" {
		conds = append(conds, "state = 'open'")
	}
	if r.FormValue("recent") != "" {
		conds = append(conds, "(created_at > now() - interval '1 day' OR pinned)")
	}
	s.db.Query("SELECT id FROM refunds WHERE "+strings.Join(conds, " AND ")+" ORDER BY id", 1)
}

// JoinWithOr joins an optional condition that has a top-level OR: it would
// reopen the WHERE.
//
//agent:operable grant=RefundDrafter
func (s *Server) JoinWithOr(w http.ResponseWriter, r *http.Request) {
	conds := []string{"tenant_id = $1"}
	if r.FormValue("all") != "" {
		conds = append(conds, "true OR 1 = 1")
	}
	s.db.Query("SELECT id FROM refunds WHERE "+strings.Join(conds, " AND "), 1) // want `JoinWithOr runs SQL whose WHERE is followed by text that is not constant`
}

// JoinTenantOptional adds the tenant predicate on some paths only.
//
//agent:operable grant=RefundDrafter
func (s *Server) JoinTenantOptional(w http.ResponseWriter, r *http.Request) {
	conds := []string{"state = 'open'"}
	if r.FormValue("mine") != "" {
		conds = append(conds, "tenant_id = $1")
	}
	s.db.Query("SELECT id FROM refunds WHERE "+strings.Join(conds, " AND "), 1) // want `JoinTenantOptional runs a raw query on "refunds" with no tenant predicate`
}

//agent:operable grant=RefundDrafter
func (s *Server) Branches(w http.ResponseWriter, r *http.Request) {
	q := "UPDATE refunds SET state = 'void' WHERE tenant_id = $1 AND id = $2"
	if r.FormValue("all") != "" {
		q = "UPDATE refunds SET state = 'void'"
	}
	s.db.Exec(q, 1, 2) // want `Branches writes every row of "refunds"` `Branches runs a raw query on "refunds"`
}

//agent:operable grant=RefundDrafter
func (s *Server) BranchesBounded(w http.ResponseWriter, r *http.Request) {
	q := "UPDATE refunds SET state = 'void' WHERE tenant_id = $1 AND id = $2"
	if r.FormValue("draft") != "" {
		q = "UPDATE refunds SET state = 'draft' WHERE tenant_id = $1 AND id = $2"
	}
	s.db.Exec(q, 1, 2)
}

//agent:operable grant=RefundDrafter
func (s *Server) Unparseable(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("UPDATE SET x = 1") // want `Unparseable runs SQL the reader cannot parse`
}

// helper writes through a wrapper that takes the SQL as a parameter.
func (s *Server) exec(ctx context.Context, query string, args ...any) error {
	_, err := s.db.ExecContext(ctx, query, args...)
	return err
}

//agent:operable grant=RefundDrafter
func (s *Server) ThroughWrapper(w http.ResponseWriter, r *http.Request) {
	s.exec(r.Context(), "INSERT INTO refunds (tenant_id) VALUES ($1)", 1)
	s.exec(r.Context(), "INSERT INTO audit_log (tenant_id) VALUES ($1)", 1) // want `ThroughWrapper writes "audit_log", which grant RefundDrafter does not allow; .* \(at \S*sqlfix/sqlfix.go:\d+\)`
}

// Package-level SQL in variables: one that only its declaration sets
// reads like a constant; one that is reassigned does not.
var insertLedger = "INSERT INTO ledger (tenant_id) VALUES ($1)"

var insertRefund = "INSERT INTO refunds (tenant_id) VALUES ($1)"

var mutable = "INSERT INTO refunds (tenant_id) VALUES ($1)"

func SetMutable(q string) { mutable = q }

//agent:operable grant=RefundDrafter
func (s *Server) GlobalSQL(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(insertRefund, 1)
	s.db.Exec(insertLedger, 1) // want `GlobalSQL writes "ledger"`
	s.db.Exec(mutable, 1)      // want `GlobalSQL runs SQL text that is not constant`
}

// Fields of a struct built here are read back; once the struct is handed
// to code that could change it, they are not.
type stmt struct {
	sql  string
	args []any
}

func mutate(s *stmt) { s.sql = "DELETE FROM refunds" }

//agent:operable grant=RefundDrafter
func (s *Server) FieldSQL(w http.ResponseWriter, r *http.Request) {
	q := stmt{sql: "INSERT INTO ledger (tenant_id) VALUES ($1)", args: []any{1}}
	s.db.Exec(q.sql, q.args...) // want `FieldSQL writes "ledger"`
	p := &stmt{sql: "INSERT INTO refunds (tenant_id) VALUES ($1)"}
	s.db.Exec(p.sql, 1)
	e := &stmt{sql: "INSERT INTO refunds (tenant_id) VALUES ($1)"}
	mutate(e)
	s.db.Exec(e.sql, 1) // want `FieldSQL runs SQL text that is not constant`
}

var Strict = grant.Grant{Reversibility: grant.Compensable, TenantScope: grant.CrossTenant}

//agent:operable grant=Strict
func (s *Server) JoinUnsafeWins(w http.ResponseWriter, r *http.Request) {
	q := "DELETE FROM sessions WHERE id = $1"
	if r.FormValue("all") != "" {
		q = "DELETE FROM sessions"
	}
	s.db.Exec(q, 1) // want `JoinUnsafeWins writes every row of "sessions"`
}

// Table names from methods that return a constant.
type Ledger struct{}

func (Ledger) TableName() string { return "ledger" }

type Refund struct{}

func (Refund) TableName() string { return "refunds" }

type model interface{ TableName() string }

func insert[M model](s *Server, m M) {
	s.db.Exec("INSERT INTO "+m.TableName()+" (tenant_id) VALUES ($1)", 1)
}

//agent:operable grant=RefundDrafter
func (s *Server) ConstMethodTable(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("INSERT INTO "+Refund{}.TableName()+" (tenant_id) VALUES ($1)", 1)
	insert(s, Refund{})
	insert(s, Ledger{}) // want `ConstMethodTable writes "ledger"`
}

// A map of statements only its declaration fills: every statement in it
// is one the lookup may run. An exported map may be changed by any
// importer.

var refundOps = map[string]string{
	"draft": "INSERT INTO refunds (tenant_id, amount) VALUES ($1, $2)",
	"note":  "INSERT INTO refund_notes (tenant_id, body) VALUES ($1, $2)",
}

var payoutOps = map[string]string{
	"draft": "INSERT INTO refunds (tenant_id, amount) VALUES ($1, $2)",
	"pay":   "UPDATE payouts SET paid = true WHERE tenant_id = $1 AND id = $2",
}

// ExportedOps is set up here, but any importer may change it.
var ExportedOps = map[string]string{
	"draft": "INSERT INTO refunds (tenant_id, amount) VALUES ($1, $2)",
}

//agent:operable grant=RefundDrafter
func (s *Server) OpByName(ctx context.Context, op string) error {
	q, ok := refundOps[op]
	if !ok {
		return fmt.Errorf("unknown op %q", op)
	}
	_, err := s.db.ExecContext(ctx, strings.TrimSpace(q), 1, 2)
	return err
}

//agent:operable grant=RefundDrafter
func (s *Server) PayoutOpByName(ctx context.Context, op string) error {
	_, err := s.db.ExecContext(ctx, payoutOps[op], 1, 2) // want `PayoutOpByName writes "payouts"`
	return err
}

//agent:operable grant=RefundDrafter
func (s *Server) ExportedOpByName(ctx context.Context, op string) error {
	_, err := s.db.ExecContext(ctx, ExportedOps[op], 1, 2) // want `ExportedOpByName runs SQL text that is not constant`
	return err
}

// A derived table filtered outside on the tenant column it hands on
// unchanged is scoped; one that renames another column to it, or does
// not hand it on, is not.

//agent:operable grant=RefundDrafter
func (s *Server) CountOpenScoped(ctx context.Context, tenant int) error {
	_, err := s.db.QueryContext(ctx, "SELECT count(*) FROM (SELECT id, tenant_id FROM refunds WHERE state = 'open') AS o WHERE o.tenant_id = $1", tenant)
	return err
}

//agent:operable grant=RefundDrafter
func (s *Server) CountOpenRenamed(ctx context.Context, tenant int) error {
	_, err := s.db.QueryContext(ctx, "SELECT count(*) FROM (SELECT id, 7 AS tenant_id FROM refunds) AS o WHERE o.tenant_id = $1", tenant) // want `CountOpenRenamed runs a raw query on "refunds" with no tenant predicate`
	return err
}
