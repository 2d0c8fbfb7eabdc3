// Package g is class G of the fail-closed corpus: the SQL reader. Every
// statement the reader cannot classify is unprovable, and no dialect
// reading hides a write or a missing tenant predicate. Each shape has a
// clean twin that must produce no diagnostic.
package g

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/authvet/authvet/grant"
)

var Drafter = grant.Grant{
	Writes:        []string{"refunds", "refund_notes"},
	TenantScope:   grant.Scoped,
	Reversibility: grant.Irreversible,
}

// Sweeper may read across tenants: shapes about writes use it, so that
// the only diagnostic is the write.
var Sweeper = grant.Grant{
	Writes:        []string{"refunds", "refund_notes"},
	TenantScope:   grant.CrossTenant,
	Reversibility: grant.Irreversible,
}

type Server struct {
	db   *sql.DB       // driver unknown: read as PostgreSQL and as MySQL
	pool *pgxpool.Pool // PostgreSQL only
}

// ---------------------------------------------------------------------
// Shapes named in the issue.
// ---------------------------------------------------------------------

// Call: a stored procedure does whatever it does.
//
//agent:operable grant=Sweeper
func (s *Server) Call(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("CALL purge_refunds($1)", 1) // want `Call runs a statement the analysis does not model \(CALL\)`
}

// DoBlock: an anonymous code block.
//
//agent:operable grant=Sweeper
func (s *Server) DoBlock(w http.ResponseWriter, r *http.Request) {
	s.pool.Exec(r.Context(), `DO $$ BEGIN DELETE FROM payouts; END $$`) // want `DoBlock runs a statement the analysis does not model \(DO\)`
}

// ExplainAnalyze runs the statement it explains.
//
//agent:operable grant=Sweeper
func (s *Server) ExplainAnalyze(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("EXPLAIN ANALYZE DELETE FROM payouts") // want `ExplainAnalyze writes every row of "payouts"`
}

// ExplainPlan only plans: twin of ExplainAnalyze.
//
//agent:operable grant=Sweeper
func (s *Server) ExplainPlan(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("EXPLAIN DELETE FROM payouts")
}

// DropSchema names no table.
//
//agent:operable grant=Sweeper
func (s *Server) DropSchema(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("DROP SCHEMA billing CASCADE") // want `DropSchema runs a statement the analysis does not model \(DROP\)`
}

// PartialDDL: the constant prefix fixes no table.
//
//agent:operable grant=Sweeper
func (s *Server) PartialDDL(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("DROP TABLE " + r.FormValue("t")) // want `PartialDDL runs (SQL whose constant prefix|a statement the analysis does not model)`
}

// SelectInto creates and fills a table.
//
//agent:operable grant=Sweeper
func (s *Server) SelectInto(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("SELECT * INTO payouts_copy FROM refunds WHERE tenant_id = $1", 1) // want `SelectInto writes "payouts_copy"`
}

// SelectIntoVars fills variables (MySQL), not a table: twin of SelectInto.
//
//agent:operable grant=Sweeper
func (s *Server) SelectIntoVars(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("SELECT id INTO @x FROM refunds WHERE tenant_id = ?", 1)
}

// InsertSelect copies every tenant's rows.
//
//agent:operable grant=Drafter
func (s *Server) InsertSelect(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("INSERT INTO refund_notes (refund_id) SELECT id FROM payouts WHERE created_at < $1", 1) // want `InsertSelect runs a raw query on "payouts" with no tenant predicate`
}

// InsertSelectScoped: twin of InsertSelect.
//
//agent:operable grant=Drafter
func (s *Server) InsertSelectScoped(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("INSERT INTO refund_notes (refund_id) SELECT id FROM payouts WHERE tenant_id = $1", 1)
}

// JoinedPredicate: u.tenant_id scopes users, not refunds.
//
//agent:operable grant=Drafter
func (s *Server) JoinedPredicate(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT r.id FROM refunds r JOIN users u ON u.id = r.user_id WHERE u.tenant_id = $1", 1) // want `JoinedPredicate runs a raw query on "refunds" with no tenant predicate`
}

// OwnAliasPredicate: twin of JoinedPredicate.
//
//agent:operable grant=Drafter
func (s *Server) OwnAliasPredicate(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT r.id FROM refunds r JOIN users u ON u.id = r.user_id WHERE r.tenant_id = $1", 1)
}

// HashComment: '#' is a comment in MySQL, an operator in PostgreSQL.
//
//agent:operable grant=Sweeper
func (s *Server) HashComment(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("UPDATE refunds SET state = 'void' WHERE tenant_id = ? AND id = ? # \n ;DELETE FROM payouts", 1, 2) // want `HashComment writes every row of "payouts"`
}

// BackslashEscape: '\” continues the string in MySQL.
//
//agent:operable grant=Sweeper
func (s *Server) BackslashEscape(w http.ResponseWriter, r *http.Request) {
	s.db.Exec(`UPDATE refunds SET note = '\' WHERE tenant_id = ? AND id = ?;DELETE FROM payouts; -- '`, 1, 2) // want `BackslashEscape writes every row of "payouts"` `BackslashEscape writes every row of "refunds"`
}

// MySQLDeleteAlias names refunds, not the alias r.
//
//agent:operable grant=Sweeper
func (s *Server) MySQLDeleteAlias(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("DELETE p FROM payouts p JOIN users u ON u.id = p.user_id WHERE p.tenant_id = ? AND u.banned", 1) // want `MySQLDeleteAlias writes "payouts"`
}

// CutTargetList: a runtime text after "DELETE FROM refunds, p" may name more.
//
//agent:operable grant=Sweeper
func (s *Server) CutTargetList(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("DELETE FROM refunds, p"+r.FormValue("t"), 1) // want `CutTargetList runs SQL whose constant prefix`
}

// CastParam: CAST($1 AS uuid) is a bind parameter (no false positive).
//
//agent:operable grant=Drafter
func (s *Server) CastParam(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("DELETE FROM refunds WHERE tenant_id = CAST($1 AS uuid) AND id = $2::uuid", 1, 2)
}

// ---------------------------------------------------------------------
// New shapes.
// ---------------------------------------------------------------------

// MySQLDashNoSpace: MySQL starts a comment at "--" only when whitespace
// follows; "?--1" is "? - -1", and the ;DELETE after it runs.
//
//agent:operable grant=Sweeper
func (s *Server) MySQLDashNoSpace(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("UPDATE refunds SET state = 'void' WHERE tenant_id = ? AND id = ? --1; DELETE FROM payouts", 1, 2) // want `MySQLDashNoSpace writes every row of "payouts"`
}

// MySQLDashSpace: twin of MySQLDashNoSpace, a comment in every dialect.
//
//agent:operable grant=Sweeper
func (s *Server) MySQLDashSpace(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("UPDATE refunds SET state = 'void' WHERE tenant_id = ? AND id = ? -- 1; DELETE FROM payouts", 1, 2)
}

// MySQLVersionComment: MySQL executes the text of /*! ... */.
//
//agent:operable grant=Drafter
func (s *Server) MySQLVersionComment(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT id FROM refunds WHERE tenant_id = ? /*!50000 OR 1 = 1 */", 1) // want `MySQLVersionComment runs a raw query on "refunds" with no tenant predicate`
}

// PlainComment: twin of MySQLVersionComment, a comment in every dialect.
//
//agent:operable grant=Drafter
func (s *Server) PlainComment(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT id FROM refunds WHERE tenant_id = ? /* OR 1 = 1 */", 1)
}

// NestedComment: PostgreSQL block comments nest. The reader closes the
// comment at the first "*/" and reads the rest as a string; PostgreSQL
// closes it at the second and runs the DELETE.
//
//agent:operable grant=Sweeper
func (s *Server) NestedComment(w http.ResponseWriter, r *http.Request) {
	s.pool.Exec(r.Context(), `INSERT INTO refunds (tenant_id, note) VALUES (7, 'x') /* a /* b */ ' */; DELETE FROM payouts; -- '`) // want `NestedComment (writes every row of "payouts"|runs SQL the reader cannot parse)`
}

// NestedCommentClosed: twin of NestedComment, a balanced nested comment.
//
//agent:operable grant=Sweeper
func (s *Server) NestedCommentClosed(w http.ResponseWriter, r *http.Request) {
	s.pool.Exec(r.Context(), `INSERT INTO refunds (tenant_id, note) VALUES (7, 'x') /* a /* b */ c */`)
}

// DollarNotMySQL: only PostgreSQL has dollar quoting. In MySQL (and
// SQLite) $q$ is an identifier, and the ;DELETE between two of them runs.
//
//agent:operable grant=Sweeper
func (s *Server) DollarNotMySQL(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT id AS $q$ FROM refunds WHERE tenant_id = ?; DELETE FROM payouts; SELECT 1 AS $q$", 1) // want `DollarNotMySQL writes every row of "payouts"`
}

// DollarPostgres: twin of DollarNotMySQL, a dollar-quoted note under a
// PostgreSQL driver.
//
//agent:operable grant=Sweeper
func (s *Server) DollarPostgres(w http.ResponseWriter, r *http.Request) {
	s.pool.Exec(r.Context(), "UPDATE refunds SET note = $q$; DELETE FROM payouts; $q$ WHERE tenant_id = $1 AND id = $2", 1, 2)
}

// MariaDBAnalyze: MariaDB's ANALYZE <statement> runs the statement.
//
//agent:operable grant=Sweeper
func (s *Server) MariaDBAnalyze(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("ANALYZE DELETE FROM payouts WHERE tenant_id = ? AND id = ?", 1, 2) // want `MariaDBAnalyze (writes "payouts"|runs a statement the analysis does not model)`
}

// AnalyzeTable: twin of MariaDBAnalyze, statistics only.
//
//agent:operable grant=Sweeper
func (s *Server) AnalyzeTable(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("ANALYZE payouts")
}

// SelfJoinShadow: the predicate binds the second, unaliased copy of
// refunds; the rows returned (x) belong to any tenant.
//
//agent:operable grant=Drafter
func (s *Server) SelfJoinShadow(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT x.id, x.amount FROM refunds x JOIN refunds ON refunds.id = x.parent_id WHERE refunds.tenant_id = $1", 1) // want `SelfJoinShadow runs a raw query on "refunds" with no tenant predicate`
}

// SelfJoinOwn: twin of SelfJoinShadow.
//
//agent:operable grant=Drafter
func (s *Server) SelfJoinOwn(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT x.id, x.amount FROM refunds x JOIN refunds ON refunds.id = x.parent_id WHERE x.tenant_id = $1", 1)
}

// InsertValuesSubquery copies another tenant's data through a scalar
// subquery in VALUES: an INSERT ... SELECT in all but name.
//
//agent:operable grant=Drafter
func (s *Server) InsertValuesSubquery(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("INSERT INTO refund_notes (tenant_id, body) VALUES ($1, (SELECT secret FROM payouts WHERE id = $2))", 1, 2) // want `InsertValuesSubquery runs a raw query on "payouts" with no tenant predicate`
}

// InsertValuesSubqueryScoped: twin of InsertValuesSubquery.
//
//agent:operable grant=Drafter
func (s *Server) InsertValuesSubqueryScoped(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("INSERT INTO refund_notes (tenant_id, body) VALUES ($1, (SELECT secret FROM payouts WHERE tenant_id = $1 AND id = $2))", 1, 2)
}

// MySQLUserVariable: under MySQL, @victim is a session variable that an
// earlier statement set, not a bind parameter.
//
//agent:operable grant=Drafter
func (s *Server) MySQLUserVariable(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("SET @victim = (SELECT tenant_id FROM refunds WHERE id = ?); UPDATE refunds SET state = 'void' WHERE tenant_id = @victim AND id = ?", 1, 2) // want `MySQLUserVariable runs a raw query on "refunds" with no tenant predicate`
}

// PgxNamedArg: twin of MySQLUserVariable; pgx binds @tenant_id itself.
//
//agent:operable grant=Drafter
func (s *Server) PgxNamedArg(ctx context.Context) {
	s.pool.Exec(ctx, "UPDATE refunds SET state = 'void' WHERE tenant_id = @tenant_id AND id = @id", nil)
}
