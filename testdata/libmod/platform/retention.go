// Package platform is another team's module, wired into libmod with
// replace: its hatches are its own author's word.
package platform

import (
	"context"
	"database/sql"
)

// Trim deletes old orders of every tenant.
func Trim(ctx context.Context, db *sql.DB) error {
	//agent:effect none reason="retention trimming is platform-owned"
	_, err := db.ExecContext(ctx, "DELETE FROM orders WHERE created_at < now() - interval '90 days'")
	return err
}

// Stamp formats a receipt number; it has no effect at all.
func Stamp(n int) string {
	//agent:effect none reason="formatting only"
	s := string(rune('A' + n%26))
	return s
}
