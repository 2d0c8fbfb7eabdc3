// Package store writes.
package store

import (
	"context"
	"database/sql"
)

// DB is the process's database.
var DB *sql.DB

// PurgeGlobal deletes a tenant's payouts.
func PurgeGlobal(ctx context.Context, tenant string) error {
	_, err := DB.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1", tenant)
	return err
}

// GlobalPurger purges through DB.
type GlobalPurger struct{}

// Purge deletes a tenant's payouts.
func (GlobalPurger) Purge(ctx context.Context, tenant string) error { return PurgeGlobal(ctx, tenant) }
