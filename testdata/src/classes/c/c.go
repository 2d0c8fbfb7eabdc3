// Package c is class C of the fail-closed corpus: modelled libraries are
// modelled whole (SPEC §4.1). Every exported API of pgx, pgconn, sqlx,
// gorm and River is a sink, safe, or unknown; an unknown call handed a
// handle, SQL text or a URL is unprovable. Every shape is a handler under
// Narrow, which does not allow what it does; its clean twin uses the same
// API within the grant (under Narrow, or under Wide, which allows it), or
// only reads.
package c

import (
	"bytes"
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"gorm.io/gorm"

	"classes/c/store"

	"github.com/authvet/authvet/grant"
)

// Narrow allows refunds and their notes, across tenants (the shapes are
// about writes, not tenant predicates), and one job.
var Narrow = grant.Grant{
	Writes:        []string{"refunds", "refund_notes"},
	TenantScope:   grant.CrossTenant,
	Jobs:          []string{"send_receipt"},
	Reversibility: grant.Irreversible,
}

// Wide allows everything the shapes below prove.
var Wide = grant.Grant{
	Writes:          []string{"refunds", "refund_notes", "payouts", "audit_log", "river_job"},
	UnboundedWrites: []string{"refunds"},
	TenantScope:     grant.CrossTenant,
	Jobs:            []string{"send_receipt", "purge_payouts"},
	Reversibility:   grant.Irreversible,
}

type Server struct {
	conn  *pgx.Conn
	pool  *pgxpool.Pool
	x     *sqlx.DB
	gdb   *gorm.DB
	river *river.Client[pgx.Tx]
}

// ---------------------------------------------------------------------
// Shapes named in the issue.
// ---------------------------------------------------------------------

// --- C1: pgconn's Exec under pgx's Conn: several statements, no params.

//agent:operable grant=Narrow
func (s *Server) PgConnExec(ctx context.Context) error {
	_, err := s.conn.PgConn().Exec(ctx, "DELETE FROM payouts WHERE tenant_id = 7").ReadAll() // want `PgConnExec writes "payouts"`
	return err
}

//agent:operable grant=Narrow
func (s *Server) PgConnExecTwin(ctx context.Context) error {
	_, err := s.conn.PgConn().Exec(ctx, "DELETE FROM refunds WHERE tenant_id = 7").ReadAll()
	return err
}

// --- C2: pgconn's CopyFrom takes COPY text, not a pgx.Identifier.

//agent:operable grant=Narrow
func (s *Server) PgConnCopyFrom(ctx context.Context) error {
	_, err := s.conn.PgConn().CopyFrom(ctx, bytes.NewReader(nil), "COPY payouts (tenant_id, amount) FROM STDIN") // want `PgConnCopyFrom (writes "payouts"|runs a statement the analysis does not model)`
	return err
}

// PgConnCopyFromTwin copies into a table the grant allows.
//
//agent:operable grant=Narrow
func (s *Server) PgConnCopyFromTwin(ctx context.Context) error {
	_, err := s.conn.PgConn().CopyFrom(ctx, bytes.NewReader(nil), "COPY refunds (tenant_id, amount) FROM STDIN")
	return err
}

// --- C3: sqlx.LoadFile runs a file the analysis does not read.

//agent:operable grant=Narrow
func (s *Server) SqlxLoadFile(ctx context.Context) error {
	_, err := sqlx.LoadFile(s.x, "migrations/purge_payouts.sql") // want `SqlxLoadFile runs the SQL statements of a file`
	return err
}

//agent:operable grant=Narrow
func (s *Server) SqlxLoadFileTwin(ctx context.Context) error {
	//agent:effect writes(refunds) reason="the file only rewrites refunds; reviewed"
	_, err := sqlx.LoadFile(s.x, "migrations/refunds.sql")
	return err
}

// --- C4: gorm's Association mode: Clear deletes (or nulls) every
// association row.

type Payout struct {
	ID       int
	RefundID int
	ClaimID  int
	Amount   int
}

// Refund has payouts gorm saves with it, and hooks that audit it.
type Refund struct {
	ID       int
	TenantID int
	Payouts  []Payout
}

// AfterCreate records every new refund in audit_log, inside gorm's
// transaction.
func (r *Refund) AfterCreate(tx *gorm.DB) error {
	return tx.Exec("INSERT INTO audit_log (tenant_id, refund_id) VALUES (?, ?)", r.TenantID, r.ID).Error
}

// BeforeUpdate records every change too.
func (r *Refund) BeforeUpdate(tx *gorm.DB) error {
	return tx.Exec("INSERT INTO audit_log (tenant_id, refund_id, op) VALUES (?, ?, 'update')", r.TenantID, r.ID).Error
}

// Note has no associations and no hooks.
type Note struct {
	ID       int
	RefundID int
}

func (Note) TableName() string { return "refund_notes" }

//agent:operable grant=Narrow
func (s *Server) GormAssocClear(ctx context.Context) error {
	return s.gdb.Model(&Refund{ID: 1}).Association("Payouts").Clear() // want `GormAssocClear (writes "payouts"|calls gorm.\(\*Association\).Clear, which authvet does not model)`
}

//agent:operable grant=Narrow
func (s *Server) GormAssocClearTwin(ctx context.Context) error {
	if n := s.gdb.Model(&Refund{ID: 1}).Association("Payouts").Count(); n > 0 {
		return nil
	}
	var ps []Payout
	return s.gdb.Model(&Refund{ID: 1}).Association("Payouts").Find(&ps)
}

// --- C5: a model hook (AfterCreate) writes another table.

//agent:operable grant=Narrow
func (s *Server) GormAfterCreateHook(ctx context.Context) error {
	return s.gdb.Create(&Refund{TenantID: 1}).Error // want `GormAfterCreateHook writes "audit_log"`
}

//agent:operable grant=Wide
func (s *Server) GormAfterCreateHookTwin(ctx context.Context) error {
	return s.gdb.Create(&Refund{TenantID: 1}).Error
}

// --- C6: River's periodic jobs: Add schedules a job kind forever.

type PurgeArgs struct{}

func (PurgeArgs) Kind() string { return "purge_payouts" }

type ReceiptArgs struct{}

func (ReceiptArgs) Kind() string { return "send_receipt" }

func purgeEveryHour() (river.JobArgs, *river.InsertOpts) { return PurgeArgs{}, nil }

//agent:operable grant=Narrow
func (s *Server) RiverPeriodicAdd(ctx context.Context) error {
	s.river.PeriodicJobs().Add(river.NewPeriodicJob(river.PeriodicInterval(time.Hour), purgeEveryHour, nil)) // want `RiverPeriodicAdd (starts job "purge_payouts"|calls river.\(\*PeriodicJobBundle\).Add, which authvet does not model)`
	return nil
}

//agent:operable grant=Narrow
func (s *Server) RiverPeriodicAddTwin(ctx context.Context) error {
	_, err := s.river.Insert(ctx, ReceiptArgs{}, nil)
	_ = s.river.PeriodicJobs()
	return err
}

// --- C7: a pgx.Batch whose statements a helper queues.

// queuePurge is a helper of this package.
func queuePurge(b *pgx.Batch) {
	b.Queue("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, 2)
}

func queueNote(b *pgx.Batch) {
	b.Queue("INSERT INTO refund_notes (tenant_id, refund_id) VALUES ($1, $2)", 1, 2)
}

//agent:operable grant=Narrow
func (s *Server) BatchLocalHelper(ctx context.Context) error {
	b := &pgx.Batch{}
	b.Queue("INSERT INTO refunds (tenant_id) VALUES ($1)", 1)
	queuePurge(b)
	return s.pool.SendBatch(ctx, b).Close() // want `BatchLocalHelper writes "payouts"`
}

//agent:operable grant=Narrow
func (s *Server) BatchLocalHelperTwin(ctx context.Context) error {
	b := &pgx.Batch{}
	b.Queue("INSERT INTO refunds (tenant_id) VALUES ($1)", 1)
	queueNote(b)
	return s.pool.SendBatch(ctx, b).Close()
}

//agent:operable grant=Narrow
func (s *Server) BatchOtherPackage(ctx context.Context) error {
	b := &pgx.Batch{}
	store.QueuePurge(b, 2)
	return s.pool.SendBatch(ctx, b).Close() // want `BatchOtherPackage (writes "payouts"|sends a pgx.Batch whose queued statements are not all visible)`
}

// PRECISION GAP (honestly unprovable, whatever the grant): a batch queued by another package is not followed.
//
//agent:operable grant=Narrow
func (s *Server) BatchOtherPackageTwin(ctx context.Context) error {
	b := &pgx.Batch{}
	store.QueueNote(b, 2)
	return s.pool.SendBatch(ctx, b).Close() // want `BatchOtherPackageTwin sends a pgx.Batch whose queued statements are not all visible`
}
