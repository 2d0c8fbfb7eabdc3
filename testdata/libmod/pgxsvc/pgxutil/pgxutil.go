// Package pgxutil holds pgx helpers another package calls: the batch it
// sends is the caller's.
package pgxutil

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// SendBatch sends b on tx and closes the results.
func SendBatch(ctx context.Context, tx pgx.Tx, b *pgx.Batch) error {
	return tx.SendBatch(ctx, b).Close()
}
