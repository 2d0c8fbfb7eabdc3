package handlers

import (
	"context"
	"database/sql"
)

// This file names the grant only in directives, so it cannot import the
// grants package (Go refuses an unused import): the name resolves through
// the import in handlers.go, as SPEC §3 says.

//agent:operable grant=grants.CategoryEditor
func ThroughOtherFile(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "INSERT INTO audit (tenant_id) VALUES ($1)", 1) // want `ThroughOtherFile writes "audit", which grant CategoryEditor does not allow`
	return err
}

//agent:operable grant=grants.CategoryEditor
func ThroughOtherFileOK(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "INSERT INTO categories (tenant_id) VALUES ($1)", 1)
	return err
}

//agent:operable grant=nosuch.Grant // want `ThroughNoFile: grant nosuch.Grant: no file of the package imports a package named nosuch`
func ThroughNoFile() {}
