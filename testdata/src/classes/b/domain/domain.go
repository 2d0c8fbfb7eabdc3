// Package domain holds entity types and nothing that reaches a sink: it
// is not analysed, and its constant methods are read from syntax.
package domain

// Payout is a row of payouts.
type Payout struct{ ID int64 }

// Table names the entity's table.
func (Payout) Table() string { return "payouts" }

// Refund is a row of refunds.
type Refund struct{ ID int64 }

// Table names the entity's table.
func (Refund) Table() string { return "refunds" }
