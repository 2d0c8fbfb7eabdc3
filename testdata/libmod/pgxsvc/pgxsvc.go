// Package pgxsvc runs pgx calls whose first query argument rewrites the
// SQL text (pgx.QueryRewriter): what runs is what the rewriter returns.
// pgx's own named arguments are read as parameters.
package pgxsvc

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/authvet/authvet/grant"

	"libmod/pgxsvc/pgxutil"
)

var Payouts = grant.Grant{
	Writes:        []string{"payouts"},
	Reversibility: grant.Compensable,
}

type Server struct{ pool *pgxpool.Pool }

// supportMode drops the tenant condition from whatever it is handed.
type supportMode struct{}

func (supportMode) RewriteQuery(ctx context.Context, conn *pgx.Conn, sql string, args []any) (string, []any, error) {
	return strings.Replace(sql, " AND tenant_id = $2", "", 1), args[:1], nil
}

//agent:operable grant=Payouts
func (s *Server) Hold(ctx context.Context, tenant, id string) error {
	_, err := s.pool.Exec(ctx, "UPDATE payouts SET held = true WHERE id = $1 AND tenant_id = $2", supportMode{}, id, tenant) // want `Hold runs SQL text that the query rewriter supportMode handed with it may rewrite`
	return err
}

// Clean twin: pgx.NamedArgs is pgx's own rewriter of @names.
//
//agent:operable grant=Payouts
func (s *Server) HoldNamed(ctx context.Context, tenant, id string) error {
	_, err := s.pool.Exec(ctx, "UPDATE payouts SET held = true WHERE id = @id AND tenant_id = @tenant", pgx.NamedArgs{"id": id, "tenant": tenant})
	return err
}

// Clean twin: plain arguments.
//
//agent:operable grant=Payouts
func (s *Server) HoldPlain(ctx context.Context, tenant, id string) error {
	_, err := s.pool.Exec(ctx, "UPDATE payouts SET held = true WHERE id = $1 AND tenant_id = $2", id, tenant)
	return err
}

// The rewriter put first by an append on one path.
//
//agent:operable grant=Payouts
func (s *Server) HoldMaybeSupport(ctx context.Context, tenant, id string, support bool) error {
	args := []any{id, tenant}
	if support {
		args = append([]any{supportMode{}}, args...)
	}
	_, err := s.pool.Exec(ctx, "UPDATE payouts SET held = true WHERE id = $1 AND tenant_id = $2", args...) // want `HoldMaybeSupport runs SQL text that the query rewriter supportMode handed with it may rewrite`
	return err
}

// Clean twin: arguments built the same way, with no rewriter.
//
//agent:operable grant=Payouts
func (s *Server) HoldArgs(ctx context.Context, tenant, id string, extra bool) error {
	args := []any{id, tenant}
	if extra {
		args = append(args, true)
	}
	_, err := s.pool.Exec(ctx, "UPDATE payouts SET held = true WHERE id = $1 AND tenant_id = $2", args...)
	return err
}

// A batch queued here and sent by another package's helper: its
// statements are read here.
//
//agent:operable grant=Payouts
func (s *Server) ArchiveBatch(ctx context.Context, tenant, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	b := &pgx.Batch{}
	b.Queue("UPDATE payouts SET archived = true WHERE tenant_id = $1 AND id = $2", tenant, id)
	b.Queue("DELETE FROM payout_notes WHERE tenant_id = $1 AND payout_id = $2", tenant, id)
	if err := pgxutil.SendBatch(ctx, tx, b); err != nil { // want `ArchiveBatch writes "payout_notes"`
		return err
	}
	return tx.Commit(ctx)
}

// Clean twin: only the allowed table.
//
//agent:operable grant=Payouts
func (s *Server) ArchiveBatchAllowed(ctx context.Context, tenant, id int64) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	b := &pgx.Batch{}
	b.Queue("UPDATE payouts SET archived = true WHERE tenant_id = $1 AND id = $2", tenant, id)
	if err := pgxutil.SendBatch(ctx, tx, b); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// scanOne reads one column through an unnamed interface of pgx.Row's
// method set: handed the library's row, it only reads; handed the
// program's own row type whose Scan writes, the write is found.
func scanOne(row interface{ Scan(...any) error }) int64 {
	var n int64
	row.Scan(&n)
	return n
}

type auditedRow struct{ pool *pgxpool.Pool }

func (r auditedRow) Scan(dest ...any) error {
	_, err := r.pool.Exec(context.Background(), "INSERT INTO payout_notes (tenant_id, note) VALUES (1, 'scanned')")
	return err
}

// Clean twin: pool.QueryRow's pgx.Row, and a transaction's.
//
//agent:operable grant=Payouts
func (s *Server) CountPayouts(ctx context.Context, tenant int64) int64 {
	n := scanOne(s.pool.QueryRow(ctx, "SELECT count(*) FROM payouts WHERE tenant_id = $1", tenant))
	if tx, err := s.pool.Begin(ctx); err == nil {
		n += scanOne(tx.QueryRow(ctx, "SELECT count(*) FROM payouts WHERE tenant_id = $1", tenant))
		tx.Rollback(ctx)
	}
	return n
}

//agent:operable grant=Payouts
func (s *Server) CountAudited(ctx context.Context) int64 {
	return scanOne(auditedRow{pool: s.pool}) // want `CountAudited writes "payout_notes"`
}

// A batch sent on the pool: its statements count at SendBatch, and its
// results read what was sent (on pgx v5.12 and later closing them runs
// the connection's batch tracer, configured at start-up).
//
//agent:operable grant=Payouts
func (s *Server) BatchOnPool(ctx context.Context, tenant, id int64) error {
	b := &pgx.Batch{}
	b.Queue("UPDATE payouts SET seen = true WHERE tenant_id = $1 AND id = $2", tenant, id)
	return s.pool.SendBatch(ctx, b).Close()
}

//agent:operable grant=Payouts
func (s *Server) BatchOnPoolOther(ctx context.Context, tenant, id int64) error {
	b := &pgx.Batch{}
	b.Queue("UPDATE refunds SET seen = true WHERE tenant_id = $1 AND id = $2", tenant, id)
	br := s.pool.SendBatch(ctx, b) // want `BatchOnPoolOther writes "refunds"`
	_, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return err
}

// A queued statement's result callback (pgx v5.4+) runs when the batch's
// results are read: it sets no statement, and what it does counts.

//agent:operable grant=Payouts
func (s *Server) QueueCallback(ctx context.Context, tenant int64, ids []int64) error {
	b := &pgx.Batch{}
	for _, id := range ids {
		b.Queue("UPDATE payouts SET released = true WHERE tenant_id = $1 AND id = $2", tenant, id).
			Exec(func(ct pgconn.CommandTag) error { return nil })
	}
	return s.pool.SendBatch(ctx, b).Close()
}

//agent:operable grant=Payouts
func (s *Server) QueueCallbackAudits(ctx context.Context, tenant int64, ids []int64) error {
	b := &pgx.Batch{}
	for _, id := range ids {
		b.Queue("UPDATE payouts SET released = true WHERE tenant_id = $1 AND id = $2", tenant, id).
			Exec(func(ct pgconn.CommandTag) error {
				_, err := s.pool.Exec(ctx, "INSERT INTO audit_log (what) VALUES ('released')") // want `QueueCallbackAudits writes "audit_log"`
				return err
			})
	}
	return s.pool.SendBatch(ctx, b).Close()
}

//agent:operable grant=Payouts
func (s *Server) QueueCallbackOther(ctx context.Context, tenant int64) error {
	b := &pgx.Batch{}
	b.Queue("DELETE FROM payout_notes WHERE tenant_id = $1", tenant).QueryRow(func(row pgx.Row) error { return nil })
	return s.pool.SendBatch(ctx, b).Close() // want `QueueCallbackOther writes "payout_notes"`
}
