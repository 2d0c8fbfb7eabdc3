package a

import (
	"context"
	"database/sql"
	"log"
)

// --- A17: a logging decorator made in the handler around a repository
// it also makes. The call through the decorator reaches only the method
// it forwards to; a decorator method that swaps the inner repository
// proves nothing about what the field holds.

type ledger interface {
	Rename(ctx context.Context, id int64) error
	ArchiveAll(ctx context.Context) error
}

type sqlLedger struct{ db *sql.DB }

func (l *sqlLedger) Rename(ctx context.Context, id int64) error {
	_, err := l.db.ExecContext(ctx, "UPDATE refunds SET memo = 'x' WHERE tenant_id = $1 AND id = $2", 1, id)
	return err
}

func (l *sqlLedger) ArchiveAll(ctx context.Context) error {
	_, err := l.db.ExecContext(ctx, "UPDATE payouts SET archived = true")
	return err
}

type loggedLedger struct{ inner ledger }

func (l *loggedLedger) Rename(ctx context.Context, id int64) error {
	log.Printf("rename %d", id)
	return l.inner.Rename(ctx, id)
}

func (l *loggedLedger) ArchiveAll(ctx context.Context) error {
	log.Print("archive all")
	return l.inner.ArchiveAll(ctx)
}

// swap replaces the inner ledger: whoever calls it decides what the
// field holds.
func (l *loggedLedger) swap(next ledger) { l.inner = next }

type swappingLedger struct{ inner ledger }

func (l *swappingLedger) Rename(ctx context.Context, id int64) error {
	l.inner = &sqlLedger{db: nil}
	return l.inner.Rename(ctx, id)
}

func (l *swappingLedger) ArchiveAll(ctx context.Context) error { return l.inner.ArchiveAll(ctx) }

//agent:operable grant=Narrow
func DecoratedRenameTwin(ctx context.Context, db *sql.DB) error {
	var l ledger = &loggedLedger{inner: &sqlLedger{db: db}}
	return l.Rename(ctx, 1)
}

//agent:operable grant=Narrow
func DecoratedArchive(ctx context.Context, db *sql.DB) error {
	var l ledger = &loggedLedger{inner: &sqlLedger{db: db}}
	return l.ArchiveAll(ctx) // want `DecoratedArchive writes every row of "payouts"` `DecoratedArchive runs a raw query on "payouts"`
}

// A decorator method that writes the field: the analysis cannot take
// the field for what the handler stored, so the ledger stored there is
// handed on whole (each of its methods counts where it is stored), and
// the call through the decorator is not resolved.
//
//agent:operable grant=Narrow
func DecoratedSwapping(ctx context.Context, db *sql.DB) error {
	var l ledger = &swappingLedger{inner: &sqlLedger{db: db}} // want `DecoratedSwapping runs a raw query on "payouts"` `DecoratedSwapping writes every row of "payouts"`
	return l.Rename(ctx, 1)                                   // want `DecoratedSwapping runs a raw query on "payouts"` `DecoratedSwapping writes every row of "payouts"` `DecoratedSwapping calls Rename through the interface a.ledger, which the analysis cannot resolve`
}
