// Package store queues statements on a batch its caller sends.
package store

import "github.com/jackc/pgx/v5"

// QueuePurge queues a payout purge on b.
func QueuePurge(b *pgx.Batch, id int) {
	b.Queue("DELETE FROM payouts WHERE tenant_id = $1 AND id = $2", 1, id)
}

// QueueNote queues a refund note on b.
func QueueNote(b *pgx.Batch, id int) {
	b.Queue("INSERT INTO refund_notes (tenant_id, refund_id) VALUES ($1, $2)", 1, id)
}
