// Package blank imports the grants package only for its name: a blank
// import is still an import, so grants.X resolves through it (SPEC §3:
// a user never needs var _ = grants.X).
package blank

import (
	"context"
	"database/sql"

	_ "crosspkg/grants"
)

//agent:operable grant=grants.CategoryEditor
func BlankImport(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "INSERT INTO audit (tenant_id) VALUES ($1)", 1) // want `BlankImport writes "audit", which grant CategoryEditor does not allow`
	return err
}

//agent:operable grant=grants.CategoryEditor
func BlankImportTwin(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "INSERT INTO categories (tenant_id) VALUES ($1)", 1)
	return err
}
