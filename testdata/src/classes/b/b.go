// Package b: values handed to other code must not be dropped (SPEC §4.1,
// "Generated files", "Other modules", "Values handed to code that is not
// walked"). Every shape is a handler under Narrow, which does not allow
// what it does; its clean twin runs the same code under Wide, which does.
package b

import (
	"context"
	"database/sql"
	"io"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"classes/b/audit"
	"classes/b/batch"
	"classes/b/db"
	"classes/b/export"
	"classes/b/sorter"
	"classes/b/upload"
	"classes/b/upload2"

	"github.com/authvet/authvet/grant"
)

// Narrow allows only refunds.
var Narrow = grant.Grant{
	Writes:        []string{"refunds"},
	Reversibility: grant.Irreversible,
}

// Wide allows everything the shapes below do.
var Wide = grant.Grant{
	Writes:        []string{"refunds", "payouts", "audit_log", "payout_views"},
	Reversibility: grant.Irreversible,
}

type Server struct {
	db   *sql.DB
	pool *pgxpool.Pool
}

// auditWriter is an io.Writer that records every chunk in audit_log.
type auditWriter struct{ db *sql.DB }

func (w auditWriter) Write(p []byte) (int, error) {
	_, err := w.db.Exec("INSERT INTO audit_log (tenant_id, body) VALUES ($1, $2)", 1, p)
	return len(p), err
}

// markingReader streams payouts and marks each one exported as it goes.
type markingReader struct {
	db     *sql.DB
	tenant int
}

func (r *markingReader) Read(p []byte) (int, error) {
	_, err := r.db.Exec("UPDATE payouts SET exported = true WHERE tenant_id = $1 AND id = $2", r.tenant, 1)
	return 0, err
}

// payoutView lazily records that it was viewed when it is serialised.
type payoutView struct {
	db *sql.DB
	ID int
}

func (v payoutView) MarshalJSON() ([]byte, error) {
	_, err := v.db.Exec("INSERT INTO payout_views (tenant_id, payout_id) VALUES ($1, $2)", 1, v.ID)
	return []byte(`{}`), err
}

// --- B1: an io.Writer handed to an analysed third-party package that
// calls Write on its parameter (a benign interface there).

//agent:operable grant=Narrow
func (s *Server) WriterToDependency(ctx context.Context) error {
	return export.WriteCSV(auditWriter{db: s.db}, []string{"a", "b"}) // want `WriterToDependency writes "audit_log"`
}

//agent:operable grant=Wide
func (s *Server) WriterToDependencyTwin(ctx context.Context) error {
	return export.WriteCSV(auditWriter{db: s.db}, []string{"a", "b"})
}

// --- B2: an io.Reader inside an options struct, drained by the third
// party through io.ReadAll (the standard library).

//agent:operable grant=Narrow
func (s *Server) ReaderInOptions(ctx context.Context) error {
	_, err := upload.Put(ctx, upload.Options{Key: "payouts.csv", Body: &markingReader{db: s.db, tenant: 1}}) // want `ReaderInOptions writes "payouts"`
	return err
}

//agent:operable grant=Wide
func (s *Server) ReaderInOptionsTwin(ctx context.Context) error {
	_, err := upload.Put(ctx, upload.Options{Key: "payouts.csv", Body: &markingReader{db: s.db, tenant: 1}})
	return err
}

// --- B3: a value with a MarshalJSON method handed as any to a third-party
// logger that json.Marshal's it.

//agent:operable grant=Narrow
func (s *Server) MarshalThroughLogger(ctx context.Context) {
	audit.Log(ctx, "payout.viewed", payoutView{db: s.db, ID: 7}) // want `MarshalThroughLogger writes "payout_views"`
}

//agent:operable grant=Wide
func (s *Server) MarshalThroughLoggerTwin(ctx context.Context) {
	audit.Log(ctx, "payout.viewed", payoutView{db: s.db, ID: 7})
}

// --- B4: a third-party generic over a slice of its type parameter.

type holdReq struct {
	db *sql.DB
	ID int
}

func (h holdReq) Validate() error {
	_, err := h.db.Exec("UPDATE payouts SET held = true WHERE tenant_id = $1 AND id = $2", 1, h.ID)
	return err
}

//agent:operable grant=Narrow
func (s *Server) GenericSlice(ctx context.Context) error {
	return batch.ValidateAll([]holdReq{{db: s.db, ID: 1}}) // want `GenericSlice writes "payouts"`
}

//agent:operable grant=Wide
func (s *Server) GenericSliceTwin(ctx context.Context) error {
	return batch.ValidateAll([]holdReq{{db: s.db, ID: 1}})
}

// --- B5: a third-party generic type whose method calls the constraint's
// method on the elements it was built with.

type purgeJob struct{ db *sql.DB }

func (j purgeJob) Run() error {
	_, err := j.db.Exec("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, 2)
	return err
}

//agent:operable grant=Narrow
func (s *Server) GenericPool(ctx context.Context) error {
	return batch.NewPool(purgeJob{db: s.db}).RunAll() // want `GenericPool writes "payouts"`
}

//agent:operable grant=Wide
func (s *Server) GenericPoolTwin(ctx context.Context) error {
	return batch.NewPool(purgeJob{db: s.db}).RunAll()
}

// --- B6: sqlc-generated :copyfrom through the generated DBTX, with the
// handler's own pool.

//agent:operable grant=Narrow
func (s *Server) GeneratedCopyFrom(ctx context.Context) error {
	_, err := db.New(s.pool).CopyPayouts(ctx, []db.CopyPayoutsParams{{TenantID: 1, Amount: 5}}) // want `GeneratedCopyFrom writes "payouts"`
	return err
}

// GeneratedCopyFromTwin: DBTX's CopyFrom is a SQL handle's by its
// shape, and the generated package names the table with a constant: a
// grant that allows the table is clean.
//
//agent:operable grant=Wide
func (s *Server) GeneratedCopyFromTwin(ctx context.Context) error {
	_, err := db.New(s.pool).CopyPayouts(ctx, []db.CopyPayoutsParams{{TenantID: 1, Amount: 5}})
	return err
}

// --- B7: sqlc-generated :batchexec, in a transaction through WithTx.

//agent:operable grant=Narrow
func (s *Server) GeneratedBatch(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := db.New(s.pool).WithTx(tx).HoldPayouts(ctx, []db.HoldPayoutsParams{{TenantID: 1, ID: 2}}).Close(); err != nil { // want `GeneratedBatch writes "payouts"`
		return err
	}
	return tx.Commit(ctx)
}

//agent:operable grant=Wide
func (s *Server) GeneratedBatchTwin(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := db.New(s.pool).WithTx(tx).HoldPayouts(ctx, []db.HoldPayoutsParams{{TenantID: 1, ID: 2}}).Close(); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// --- B8: a plain sqlc :exec query through the generated constructor.

//agent:operable grant=Narrow
func (s *Server) GeneratedExec(ctx context.Context) error {
	return db.New(s.pool).DeletePayout(ctx, 1, 2) // want `GeneratedExec writes "payouts"`
}

//agent:operable grant=Wide
func (s *Server) GeneratedExecTwin(ctx context.Context) error {
	return db.New(s.pool).DeletePayout(ctx, 1, 2)
}

// --- B9: a callback in an options struct, which the third party wraps in
// a closure handed to sort.Slice.

//agent:operable grant=Narrow
func (s *Server) CallbackInOptions(ctx context.Context, xs []int) {
	sorter.Sort(xs, sorter.Options{Less: func(a, b int) bool {
		s.db.Exec("UPDATE payouts SET rank = $1 WHERE tenant_id = $2 AND id = $3", a, 1, b) // want `CallbackInOptions writes "payouts"`
		return a < b
	}})
}

//agent:operable grant=Wide
func (s *Server) CallbackInOptionsTwin(ctx context.Context, xs []int) {
	sorter.Sort(xs, sorter.Options{Less: func(a, b int) bool {
		s.db.Exec("UPDATE payouts SET rank = $1 WHERE tenant_id = $2 AND id = $3", a, 1, b)
		return a < b
	}})
}

// --- B10: an io.Reader in an options struct passed by pointer to an
// analysed third party, which drains it with io.ReadAll.

//agent:operable grant=Narrow
func (s *Server) ReaderInOptionsPtr(ctx context.Context) error {
	return upload2.Put(ctx, &upload2.Options{Body: &markingReader{db: s.db, tenant: 1}}) // want `ReaderInOptionsPtr writes "payouts"`
}

//agent:operable grant=Wide
func (s *Server) ReaderInOptionsPtrTwin(ctx context.Context) error {
	return upload2.Put(ctx, &upload2.Options{Body: &markingReader{db: s.db, tenant: 1}})
}

// --- B11: io.Readers in a slice the third party spreads into
// io.MultiReader.

//agent:operable grant=Narrow
func (s *Server) ReadersInSlice(ctx context.Context) error {
	_, err := upload2.Concat([]io.Reader{strings.NewReader("h"), &markingReader{db: s.db, tenant: 1}}) // want `ReadersInSlice writes "payouts"`
	return err
}

//agent:operable grant=Wide
func (s *Server) ReadersInSliceTwin(ctx context.Context) error {
	_, err := upload2.Concat([]io.Reader{strings.NewReader("h"), &markingReader{db: s.db, tenant: 1}})
	return err
}

// --- B12: a value with a MarshalJSON... no: a fmt.Stringer-free value
// whose MarshalJSON writes, handed variadically to a third party that
// spreads it into fmt.Sprintf (fmt calls Format/String/Error; %v on a
// value with MarshalJSON does not, so use a Stringer).

type payoutRef struct {
	db *sql.DB
	ID int
}

func (p payoutRef) String() string {
	p.db.Exec("INSERT INTO payout_views (tenant_id, payout_id) VALUES ($1, $2)", 1, p.ID)
	return "payout"
}

//agent:operable grant=Narrow
func (s *Server) StringerVariadic(ctx context.Context) string {
	return upload2.Logf("viewed %v", payoutRef{db: s.db, ID: 1}) // want `StringerVariadic writes "payout_views"`
}

//agent:operable grant=Wide
func (s *Server) StringerVariadicTwin(ctx context.Context) string {
	return upload2.Logf("viewed %v", payoutRef{db: s.db, ID: 1})
}

// --- B13: a constructor of this package returns a struct whose function
// field is a literal it made (not a parameter); the handler hands the
// struct to the standard library, which calls the field.

type runner struct{ run func() error }

func (r *runner) Launch() error { return r.run() }

func newPurger(db *sql.DB, table string) *runner {
	return &runner{run: func() error {
		_, err := db.Exec("DELETE FROM "+table+" WHERE tenant_id = $1 AND id = $2", 1, 2)
		return err
	}}
}

type launcher interface{ Launch() error }

func runAll(rs ...launcher) {
	for _, r := range rs {
		r.Launch()
	}
}

//agent:operable grant=Narrow
func (s *Server) ConstructedField(ctx context.Context) {
	r := newPurger(s.db, "payouts") // want `ConstructedField writes "payouts"`
	runAll(r)                       // want `ConstructedField runs SQL whose constant prefix "DELETE FROM" does not fix`
}

// PRECISION GAP (honestly unprovable, whatever the grant): the field is
// unexported and only newPurger stores into it, so the call resolves to
// newPurger's literal; but that literal's table is newPurger's parameter,
// which the call of the field no longer knows.
//
//agent:operable grant=Narrow
func (s *Server) ConstructedFieldTwin(ctx context.Context) {
	r := newPurger(s.db, "refunds")
	runAll(r) // want `ConstructedFieldTwin runs SQL whose constant prefix "DELETE FROM" does not fix`
}
