package c

import (
	"bytes"
	"context"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ---------------------------------------------------------------------
// New shapes.
// ---------------------------------------------------------------------

// --- C8: COPY (query) TO runs the query: since PostgreSQL 14 it may be a
// DELETE ... RETURNING.

//agent:operable grant=Narrow
func (s *Server) PgConnCopyToDelete(ctx context.Context) error {
	var out bytes.Buffer
	_, err := s.conn.PgConn().CopyTo(ctx, &out, "COPY (DELETE FROM payouts WHERE tenant_id = 7 RETURNING id) TO STDOUT") // want `PgConnCopyToDelete (writes "payouts"|runs a statement the analysis does not model)`
	return err
}

//agent:operable grant=Narrow
func (s *Server) PgConnCopyToDeleteTwin(ctx context.Context) error {
	var out bytes.Buffer
	_, err := s.conn.PgConn().CopyTo(ctx, &out, "COPY (DELETE FROM refunds WHERE tenant_id = 7 RETURNING id) TO STDOUT")
	return err
}

// --- C9: a statement appended to the batch's exported QueuedQueries
// field, not queued with Queue.

//agent:operable grant=Narrow
func (s *Server) BatchFieldAppend(ctx context.Context) error {
	b := &pgx.Batch{}
	b.Queue("INSERT INTO refunds (tenant_id) VALUES ($1)", 1)
	b.QueuedQueries = append(b.QueuedQueries, &pgx.QueuedQuery{SQL: "DELETE FROM payouts WHERE tenant_id = 7"})
	return s.pool.SendBatch(ctx, b).Close() // want `BatchFieldAppend (writes "payouts"|sends a pgx.Batch whose queued statements are not all visible)`
}

//agent:operable grant=Narrow
func (s *Server) BatchFieldAppendTwin(ctx context.Context) error {
	b := &pgx.Batch{}
	b.Queue("INSERT INTO refunds (tenant_id) VALUES ($1)", 1)
	_ = len(b.QueuedQueries)
	return s.pool.SendBatch(ctx, b).Close()
}

// --- C10: Queue returns the *QueuedQuery; its SQL is rewritten before
// the batch is sent.

//agent:operable grant=Narrow
func (s *Server) BatchQueuedSQLRewrite(ctx context.Context) error {
	b := &pgx.Batch{}
	q := b.Queue("SELECT id FROM refunds WHERE tenant_id = $1", 1)
	q.SQL = "DELETE FROM payouts WHERE tenant_id = $1"
	return s.pool.SendBatch(ctx, b).Close() // want `BatchQueuedSQLRewrite (writes "payouts"|sends a pgx.Batch whose queued statements are not all visible)`
}

//agent:operable grant=Narrow
func (s *Server) BatchQueuedSQLRewriteTwin(ctx context.Context) error {
	b := &pgx.Batch{}
	q := b.Queue("SELECT id FROM refunds WHERE tenant_id = $1", 1)
	_ = q.SQL
	return s.pool.SendBatch(ctx, b).Close()
}

// --- C11: pgx's Exec takes a prepared statement's name in place of SQL;
// a statement prepared under a harmless-looking name runs a DELETE.

//
//agent:operable grant=Narrow
func (s *Server) PgxPrepareShadow(ctx context.Context) error {
	if _, err := s.conn.Prepare(ctx, "SELECT 1", "DELETE FROM payouts WHERE tenant_id = 7"); err != nil { // want `PgxPrepareShadow (writes "payouts"|calls pgx.\(\*Conn\).Prepare, which authvet does not model)`
		return err
	}
	_, err := s.conn.Exec(ctx, "SELECT 1")
	return err
}

//agent:operable grant=Narrow
func (s *Server) PgxPrepareShadowTwin(ctx context.Context) error {
	if _, err := s.conn.Prepare(ctx, "SELECT 1", "SELECT 1"); err != nil {
		return err
	}
	_, err := s.conn.Exec(ctx, "SELECT 1")
	return err
}

// --- C12: the same by a plain name.

//agent:operable grant=Narrow
func (s *Server) PgxPrepareByName(ctx context.Context) error {
	if _, err := s.conn.Prepare(ctx, "purge", "DELETE FROM payouts WHERE tenant_id = 7"); err != nil { // want `PgxPrepareByName writes "payouts"`
		return err
	}
	_, err := s.conn.Exec(ctx, "purge")
	return err
}

//agent:operable grant=Narrow
func (s *Server) PgxPrepareByNameTwin(ctx context.Context) error {
	if _, err := s.conn.Prepare(ctx, "note", "INSERT INTO refund_notes (tenant_id) VALUES ($1)"); err != nil {
		return err
	}
	_, err := s.conn.Exec(ctx, "note", 1)
	return err
}

// --- C13: pgconn's ExecPrepared runs a statement by name.

//agent:operable grant=Narrow
func (s *Server) PgConnExecPrepared(ctx context.Context) error {
	pc := s.conn.PgConn()
	if _, err := pc.Prepare(ctx, "p", "DELETE FROM payouts WHERE tenant_id = 7", nil); err != nil { // want `PgConnExecPrepared writes "payouts"`
		return err
	}
	_, err := pc.ExecPrepared(ctx, "p", nil, nil, nil).Close() // want `PgConnExecPrepared (writes "payouts"|calls pgconn.\(\*PgConn\).ExecPrepared, which authvet does not model)`
	return err
}

//agent:operable grant=Narrow
func (s *Server) PgConnExecPreparedTwin(ctx context.Context) error {
	pc := s.conn.PgConn()
	_, err := pc.ExecParams(ctx, "SELECT id FROM refunds WHERE tenant_id = $1", [][]byte{[]byte("7")}, nil, nil, nil).Close()
	return err
}

// --- C14: the wire under pgconn: a raw simple-query message written to
// the connection's net.Conn.

func simpleQuery(sql string) []byte {
	return append(append([]byte{'Q', 0, 0, 0, byte(len(sql) + 5)}, sql...), 0)
}

//agent:operable grant=Narrow
func (s *Server) PgConnRawWire(ctx context.Context) error {
	_, err := s.conn.PgConn().Conn().Write(simpleQuery("DELETE FROM payouts")) // want `PgConnRawWire (writes every row of "payouts"|writes to a network connection \(net.\(Conn\).Write\))`
	return err
}

//agent:operable grant=Narrow
func (s *Server) PgConnRawWireTwin(ctx context.Context) error {
	_ = s.conn.PgConn().PID()
	return nil
}

// --- C15: a statement prepared on the DB and rebound to a transaction
// with Tx.Stmtx.

//agent:operable grant=Narrow
func (s *Server) SqlxStmtxInTx(ctx context.Context) error {
	st, err := s.x.Preparex("DELETE FROM payouts WHERE tenant_id = $1")
	if err != nil {
		return err
	}
	tx := s.x.MustBegin()
	tx.Stmtx(st).MustExec(7) // want `SqlxStmtxInTx (writes "payouts"|runs SQL text that is not constant)`
	return tx.Commit()
}

// PRECISION GAP (honestly unprovable, whatever the grant): Tx.Stmtx is not traced back to the Preparex that made the statement.
//
//agent:operable grant=Narrow
func (s *Server) SqlxStmtxInTxTwin(ctx context.Context) error {
	st, err := s.x.Preparex("DELETE FROM refunds WHERE tenant_id = $1")
	if err != nil {
		return err
	}
	tx := s.x.MustBegin()
	tx.Stmtx(st).MustExec(7) // want `SqlxStmtxInTxTwin runs SQL text that is not constant`
	return tx.Commit()
}

// --- C16: the *sql.Stmt embedded in a *sqlx.Stmt, called directly.

//agent:operable grant=Narrow
func (s *Server) SqlxEmbeddedStmt(ctx context.Context) error {
	st, err := s.x.Preparex("DELETE FROM payouts WHERE tenant_id = $1")
	if err != nil {
		return err
	}
	_, err = st.Stmt.Exec(7) // want `SqlxEmbeddedStmt writes "payouts"`
	return err
}

// The twin prepares a statement on a table the grant allows: the embedded
// *sql.Stmt is traced back to Preparex.
//
//agent:operable grant=Narrow
func (s *Server) SqlxEmbeddedStmtTwin(ctx context.Context) error {
	st, err := s.x.Preparex("DELETE FROM refunds WHERE tenant_id = $1")
	if err != nil {
		return err
	}
	_, err = st.Stmt.Exec(7)
	return err
}

// --- C17: sqlx.In and Rebind on a transaction, through Unsafe.

//agent:operable grant=Narrow
func (s *Server) SqlxInRebindTx(ctx context.Context, ids []int) error {
	q, args, err := sqlx.In("DELETE FROM payouts WHERE tenant_id = ? AND id IN (?)", 7, ids)
	if err != nil {
		return err
	}
	tx := s.x.Unsafe().MustBegin()
	tx.MustExec(tx.Rebind(q), args...) // want `SqlxInRebindTx writes "payouts"`
	return tx.Commit()
}

//agent:operable grant=Narrow
func (s *Server) SqlxInRebindTxTwin(ctx context.Context, ids []int) error {
	q, args, err := sqlx.In("DELETE FROM refunds WHERE tenant_id = ? AND id IN (?)", 7, ids)
	if err != nil {
		return err
	}
	tx := s.x.Unsafe().MustBegin()
	tx.MustExec(tx.Rebind(q), args...)
	return tx.Commit()
}

// --- C18: Updates with a map runs the hooks of the Model's value.

// MISSED: with a map value the hooks of the Model value are not walked
// (gormWrite takes the map as the hook receiver)
//
//agent:operable grant=Narrow
func (s *Server) GormUpdatesMapHook(ctx context.Context) error {
	return s.gdb.Model(&Refund{ID: 1, TenantID: 1}).Where("id = ?", 1).Updates(map[string]any{"state": "void"}).Error // want `GormUpdatesMapHook writes "audit_log"`
}

//agent:operable grant=Wide
func (s *Server) GormUpdatesMapHookTwin(ctx context.Context) error {
	return s.gdb.Model(&Refund{ID: 1, TenantID: 1}).Where("id = ?", 1).Updates(map[string]any{"state": "void"}).Error
}

// --- C19: Create saves the associations it is handed: new payouts rows.

// Claim is a refund row (no hooks) with the payouts it pays out.
type Claim struct {
	ID       int
	TenantID int
	Payouts  []Payout
}

func (Claim) TableName() string { return "refunds" }

// MISSED: the associations a created value carries are not modelled; gorm
// upserts them into their own tables
//
//agent:operable grant=Narrow
func (s *Server) GormAssocAutosave(ctx context.Context) error {
	return s.gdb.Create(&Claim{TenantID: 1, Payouts: []Payout{{Amount: 5}}}).Error // want `GormAssocAutosave (writes "payouts"|creates a gorm model with associations)`
}

//agent:operable grant=Wide
func (s *Server) GormAssocAutosaveTwin(ctx context.Context) error {
	return s.gdb.Create(&Claim{TenantID: 1, Payouts: []Payout{{Amount: 5}}}).Error
}

// --- C20: a scope switches the table: gorm applies Scopes when the
// statement runs, and Table wins over the value's type.

func onPayouts(d *gorm.DB) *gorm.DB { return d.Table("payouts") }

func ofTenant(d *gorm.DB) *gorm.DB { return d.Where("tenant_id = ?", 7) }

//agent:operable grant=Narrow
func (s *Server) GormScopeTable(ctx context.Context) error {
	return s.gdb.Scopes(onPayouts).Where("id = ?", 1).Delete(&Refund{}).Error // want `GormScopeTable (writes "payouts"|writes through gorm to a table the analysis cannot name)`
}

//agent:operable grant=Narrow
func (s *Server) GormScopeTableTwin(ctx context.Context) error {
	return s.gdb.Scopes(ofTenant).Where("id = ?", 1).Delete(&Refund{}).Error
}

// --- C21: a scope that adds no condition does not bound the delete.

func unchanged(d *gorm.DB) *gorm.DB { return d }

//agent:operable grant=Narrow
func (s *Server) GormScopeNoWhere(ctx context.Context) error {
	return s.gdb.Session(&gorm.Session{AllowGlobalUpdate: true}).Scopes(unchanged).Delete(&Refund{}).Error // want `GormScopeNoWhere writes every row of "refunds"`
}

//agent:operable grant=Narrow
func (s *Server) GormScopeNoWhereTwin(ctx context.Context) error {
	return s.gdb.Session(&gorm.Session{AllowGlobalUpdate: true}).Scopes(ofTenant).Delete(&Refund{}).Error
}

// --- C22: the migrator drops a table.

//
//agent:operable grant=Narrow
func (s *Server) GormMigratorDrop(ctx context.Context) error {
	return s.gdb.Migrator().DropTable(&Payout{}) // want `GormMigratorDrop (writes every row of "payouts"|calls (DropTable through the interface gorm.Migrator|gorm.\(\*DB\).Migrator, which authvet does not model))`
}

//agent:operable grant=Narrow
func (s *Server) GormMigratorDropTwin(ctx context.Context) error {
	if s.gdb.Migrator().HasTable(&Payout{}) {
		return nil
	}
	return nil
}

// --- C23: River's job management writes river_job.

//agent:operable grant=Narrow
func (s *Server) RiverJobCancel(ctx context.Context, id int64) error {
	_, err := s.river.JobCancel(ctx, id) // want `RiverJobCancel writes "river_job"`
	return err
}

//agent:operable grant=Narrow
func (s *Server) RiverJobCancelTwin(ctx context.Context, id int64) error {
	_, err := s.river.JobGet(ctx, id)
	return err
}

// --- C24: starting the client's workers, or adding a queue, runs jobs
// outside the request.

//agent:operable grant=Narrow
func (s *Server) RiverQueuesAdd(ctx context.Context) error {
	if err := s.river.Queues().Add("purge", river.QueueConfig{MaxWorkers: 4}); err != nil { // want `RiverQueuesAdd (starts a detached|calls river.\(\*QueueBundle\).Add, which authvet does not model)`
		return err
	}
	return s.river.Start(ctx) // want `RiverQueuesAdd (starts a detached|calls river.\(\*Client\).Start, which authvet does not model)`
}

//agent:operable grant=Narrow
func (s *Server) RiverQueuesAddTwin(ctx context.Context) error {
	_ = s.river.Queues()
	return nil
}

// --- C25: River's driver executor runs raw SQL.

//agent:operable grant=Narrow
func (s *Server) RiverDriverExec(ctx context.Context) error {
	_, err := s.river.Driver().GetExecutor().Exec(ctx, "DELETE FROM payouts WHERE tenant_id = 7") // want `RiverDriverExec (writes "payouts"|calls Exec through the interface riverdriver.Executor)`
	return err
}

//agent:operable grant=Narrow
func (s *Server) RiverDriverExecTwin(ctx context.Context) error {
	_ = s.river.Driver()
	return nil
}

// --- C26: gorm Raw with a data-changing statement, read with Row.

//agent:operable grant=Narrow
func (s *Server) GormRawRow(ctx context.Context) error {
	var id int
	return s.gdb.Raw("DELETE FROM payouts WHERE tenant_id = ? RETURNING id", 7).Row().Scan(&id) // want `GormRawRow writes "payouts"`
}

//agent:operable grant=Narrow
func (s *Server) GormRawRowTwin(ctx context.Context) error {
	var id int
	return s.gdb.Raw("DELETE FROM refunds WHERE tenant_id = ? RETURNING id", 7).Row().Scan(&id)
}

// --- C40: a helper scans through an unnamed interface of the same
// method set as pgx.Row. Handed the library's row, it only reads; handed
// a value of the program's own whose Scan writes, the write is found.

func scanCount(row interface{ Scan(...any) error }) int {
	var n int
	row.Scan(&n)
	return n
}

type auditingRow struct{ conn *pgx.Conn }

func (r auditingRow) Scan(dest ...any) error {
	_, err := r.conn.Exec(context.Background(), "INSERT INTO payouts (tenant_id, note) VALUES ($1, 'scanned')", 1)
	return err
}

//agent:operable grant=Narrow
func (s *Server) CountRowsTwin(w http.ResponseWriter, r *http.Request) {
	scanCount(s.conn.QueryRow(r.Context(), "SELECT count(*) FROM refunds WHERE tenant_id = $1", 1))
	scanCount(s.pool.QueryRow(r.Context(), "SELECT count(*) FROM refunds WHERE tenant_id = $1", 1))
}

//agent:operable grant=Narrow
func (s *Server) CountRowsAudited(w http.ResponseWriter, r *http.Request) {
	scanCount(auditingRow{conn: s.conn}) // want `CountRowsAudited writes "payouts"`
}

// --- C41: a many-to-many association: Create also writes its join table.

// Batch is a refund row with the payouts it covers, joined through
// refund_payouts.
type Batch struct {
	ID       int
	TenantID int
	Payouts  []Payout `gorm:"many2many:refund_payouts;"`
}

func (Batch) TableName() string { return "refunds" }

//agent:operable grant=Wide
func (s *Server) GormManyToMany(ctx context.Context) error {
	return s.gdb.Create(&Batch{TenantID: 1, Payouts: []Payout{{Amount: 5}}}).Error // want `GormManyToMany writes "refund_payouts"`
}

// The same value without its payouts writes no association.
//
//agent:operable grant=Wide
func (s *Server) GormManyToManyTwin(ctx context.Context) error {
	return s.gdb.Create(&Batch{TenantID: 1}).Error
}

// --- C42: the associated model's own hooks run on the rows gorm upserts.

// TicketNote is a refund note whose AfterCreate audits it.
type TicketNote struct {
	ID       int
	TicketID int
	Body     string
}

func (TicketNote) TableName() string { return "refund_notes" }

func (n *TicketNote) AfterCreate(tx *gorm.DB) error {
	return tx.Exec("INSERT INTO audit_log (what) VALUES ('note')").Error
}

// Ticket is a refund row with its notes.
type Ticket struct {
	ID       int
	TenantID int
	Notes    []TicketNote
}

func (Ticket) TableName() string { return "refunds" }

//agent:operable grant=Narrow
func (s *Server) GormAssocHook(ctx context.Context) error {
	return s.gdb.Create(&Ticket{TenantID: 1, Notes: []TicketNote{{Body: "x"}}}).Error // want `GormAssocHook writes "audit_log"`
}

//agent:operable grant=Wide
func (s *Server) GormAssocHookTwin(ctx context.Context) error {
	return s.gdb.Create(&Ticket{TenantID: 1, Notes: []TicketNote{{Body: "x"}}}).Error
}

// --- C43: a Delete after Select(clause.Associations) or Select("Field")
// also deletes the associations' rows and join rows; a plain Delete, or a
// Select of a column, does not.

//agent:operable grant=Narrow
func (s *Server) GormDeleteAssociations(ctx context.Context, id int) error {
	return s.gdb.Select(clause.Associations).Delete(&Batch{ID: id}).Error // want `GormDeleteAssociations writes "refund_payouts"`
}

//agent:operable grant=Narrow
func (s *Server) GormDeleteNamedAssociation(ctx context.Context, id int) error {
	return s.gdb.WithContext(ctx).Select("Payouts").Delete(&Batch{ID: id}).Error // want `GormDeleteNamedAssociation writes "refund_payouts"`
}

//agent:operable grant=Narrow
func (s *Server) GormDeleteHasMany(ctx context.Context, id int) error {
	return s.gdb.Select(clause.Associations).Delete(&Ticket{ID: id}).Error
}

//agent:operable grant=Narrow
func (s *Server) GormDeleteTwin(ctx context.Context, id int) error {
	return s.gdb.Select("TenantID").Delete(&Batch{ID: id}).Error
}

// PayoutClaim is a refund row with the payouts it owns (has many).
type PayoutClaim struct {
	ID      int
	Payouts []Payout
}

func (PayoutClaim) TableName() string { return "refunds" }

//agent:operable grant=Narrow
func (s *Server) GormDeleteOwned(ctx context.Context, id int) error {
	return s.gdb.Select(clause.Associations).Delete(&PayoutClaim{ID: id}).Error // want `GormDeleteOwned writes "payouts"`
}

//agent:operable grant=Narrow
func (s *Server) GormDeleteOwnedTwin(ctx context.Context, id int) error {
	return s.gdb.Delete(&PayoutClaim{ID: id}).Error
}
