// Package store holds the shop's SQL. Handlers in other packages reach
// these writes through method calls; authvet proves them through the
// methods' effect summaries.
package store

import (
	"context"
	"database/sql"
	"time"
)

// Store wraps the shop's database.
type Store struct {
	db *sql.DB
}

// New returns a Store over db.
func New(db *sql.DB) *Store { return &Store{db: db} }

// Refund is a refund as stored.
type Refund struct {
	ID       int64     `json:"id"`
	ChargeID string    `json:"charge_id"`
	Amount   int64     `json:"amount"`
	State    string    `json:"state"`
	Created  time.Time `json:"created"`
}

// CreateRefund inserts a draft refund for tenant and returns its id.
func (s *Store) CreateRefund(ctx context.Context, tenant int64, chargeID string, amount int64) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx,
		"INSERT INTO refunds (tenant_id, charge_id, amount, state, created) VALUES ($1, $2, $3, 'draft', now()) RETURNING id",
		tenant, chargeID, amount).Scan(&id)
	return id, err
}

// SetRefundState records the processor's verdict on one refund.
func (s *Store) SetRefundState(ctx context.Context, tenant, id int64, state string) error {
	_, err := s.db.ExecContext(ctx,
		"UPDATE refunds SET state = $3 WHERE tenant_id = $1 AND id = $2",
		tenant, id, state)
	return err
}

// ListRefunds returns tenant's refunds, newest first.
func (s *Store) ListRefunds(ctx context.Context, tenant int64, limit int) ([]Refund, error) {
	rows, err := s.db.QueryContext(ctx,
		"SELECT id, charge_id, amount, state, created FROM refunds WHERE tenant_id = $1 ORDER BY created DESC LIMIT $2",
		tenant, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Refund
	for rows.Next() {
		var r Refund
		if err := rows.Scan(&r.ID, &r.ChargeID, &r.Amount, &r.State, &r.Created); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// CreatePayout inserts a pending payout for tenant.
func (s *Store) CreatePayout(ctx context.Context, tenant, amount int64) error {
	_, err := s.db.ExecContext(ctx,
		"INSERT INTO payouts (tenant_id, amount, state) VALUES ($1, $2, 'pending')",
		tenant, amount)
	return err
}
