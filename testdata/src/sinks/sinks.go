// Package sinks exercises configured sinks, tenant columns and benign
// interfaces from authvet.yaml.
package sinks

import (
	"context"
	"database/sql"

	"github.com/authvet/authvet/grant"

	"sinks/hooks"
	"sinks/obs"
	"sinks/queue"
)

var Notifier = grant.Grant{
	Jobs:          []string{"notify_finance"},
	Webhooks:      []string{"refund.drafted"},
	Reversibility: grant.Compensable,
}

type Server struct {
	db  *sql.DB
	bus *hooks.Bus
	log obs.Logger
}

//agent:operable grant=Notifier
func (s *Server) Notify(ctx context.Context, kind string) {
	s.log.Info("notifying")
	queue.Enqueue(ctx, "notify_finance", nil)
	queue.Enqueue(ctx, "wipe_everything", nil) // want `Notify starts job "wipe_everything", which grant Notifier does not allow; add "wipe_everything" to its Jobs`
	queue.Enqueue(ctx, kind, "notify_finance") // want `Notify starts a job whose kind is not constant; .*\(grant Notifier cannot bound it\)`
	s.bus.Dispatch("refund.drafted", nil)
	s.bus.Dispatch("refund.paid", nil) // want `Notify dispatches webhook "refund.paid"`
}

//agent:operable grant=Notifier
func (s *Server) OrgScoped(ctx context.Context) {
	s.db.QueryContext(ctx, "SELECT id FROM refunds WHERE org_id = ? AND id = ?", 1, 2)
	s.db.QueryContext(ctx, "SELECT id FROM refunds WHERE account_id = ?", 1) // want `OrgScoped runs a raw query on "refunds" with no tenant predicate.*filter on tenant_id`
}

//agent:operable grant=Notifier
func (s *Server) NotifyInTx(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	queue.Enqueue(ctx, "notify_finance", nil) // want `NotifyInTx enqueues a job with sinks/queue.Enqueue, which is not transactional, between a transaction's begin and its commit`
	return tx.Commit()
}

//agent:operable grant=Notifier
func (s *Server) NotifyAfterCommit(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return queue.Enqueue(ctx, "notify_finance", nil)
}
