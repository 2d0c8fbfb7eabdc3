// Package sqlxsvc prepares its statements with sqlx: what a *sqlx.Stmt
// runs is the text Preparex was handed, through the *sql.Stmt it embeds.
package sqlxsvc

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/authvet/authvet/grant"
)

var Exports = grant.Grant{
	Writes:        []string{"report_exports"},
	TenantScope:   grant.CrossTenant,
	Reversibility: grant.Compensable,
}

//agent:operable grant=Exports
func PurgeRun(ctx context.Context, db *sqlx.DB, runID int64) error {
	stmt, err := db.PreparexContext(ctx, "DELETE FROM report_exports WHERE run_id = $1")
	if err != nil {
		return err
	}
	defer stmt.Close()
	_, err = stmt.ExecContext(ctx, runID)
	return err
}

//agent:operable grant=Exports
func PurgeAudit(ctx context.Context, db *sqlx.DB, runID int64) error {
	stmt, err := db.Preparex("DELETE FROM audit_log WHERE run_id = $1")
	if err != nil {
		return err
	}
	defer stmt.Close()
	_, err = stmt.ExecContext(ctx, runID) // want `PurgeAudit writes "audit_log"`
	return err
}

//agent:operable grant=Exports
func PurgeInTx(ctx context.Context, tx *sqlx.Tx, runID int64) error {
	stmt, err := tx.PreparexContext(ctx, "DELETE FROM audit_log WHERE run_id = $1")
	if err != nil {
		return err
	}
	_, err = stmt.Exec(runID) // want `PurgeInTx writes "audit_log"`
	return err
}
