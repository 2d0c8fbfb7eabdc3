// Package sinks exercises configured sinks, tenant columns and benign
// interfaces from authvet.yaml.
package sinks

import (
	"context"
	"database/sql"

	"github.com/authvet/authvet/grant"

	"sinks/cache"
	"sinks/gh"
	"sinks/hooks"
	"sinks/obs"
	"sinks/othersdk"
	"sinks/queue"
	"sinks/sdk"
	"sinks/sdk/refund"
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

var GitHub = grant.Grant{
	Outbound:      []string{"https://api.github.com/graphql"},
	Reversibility: grant.Irreversible,
}

var Payments = grant.Grant{
	Outbound:      []string{"https://api.stripe.com/", "https://status.example.com/"},
	Reversibility: grant.Irreversible,
}

type Clients struct {
	gh     *gh.Client
	cache  *cache.Cache
	refund refund.Client
	other  *othersdk.Backend
}

// A constant subject stands for the sink's body, whatever URL it builds.
//
//agent:operable grant=GitHub
func (c *Clients) Mutate(ctx context.Context) error {
	if err := c.gh.Query(ctx, "{ viewer { login } }"); err != nil {
		return err
	}
	return c.gh.Mutate(ctx, "mutation { addStar }")
}

//agent:operable grant=Payments
func (c *Clients) MutateUngranted(ctx context.Context) error {
	return c.gh.Mutate(ctx, "mutation { addStar }") // want `MutateUngranted calls out to "https://api.github.com/graphql" \(POST\), which grant Payments does not allow`
}

// effect: none declares the call effect-free; an unconfigured sibling
// method with the same body stays unprovable.
//
//agent:operable grant=GitHub
func (c *Clients) Cache(ctx context.Context) error {
	if err := c.cache.Set("k", "v"); err != nil {
		return err
	}
	return c.cache.Invalidate("k") // want `Cache sends a request through an \*http.Client whose Transport the analysis cannot see`
}

// A configured client: the SDK's requests, whose base URL is runtime
// configuration, go under the declared prefix with the method proved.
//
//agent:operable grant=Payments
func (c *Clients) Refund(ctx context.Context) error {
	if err := sdk.Ping(ctx); err != nil {
		return err
	}
	return c.refund.New(ctx)
}

//agent:operable grant=GitHub
func (c *Clients) RefundUngranted(ctx context.Context) error {
	return c.refund.Get(ctx, "re_1") // want `RefundUngranted calls out to "https://api.stripe.com/" \(GET\), which grant GitHub does not allow`
}

// A constant URL inside the client's packages stays as proved: the
// prefix does not widen it.
//
//agent:operable grant=GitHub
func (c *Clients) PingUngranted(ctx context.Context) error {
	return sdk.Ping(ctx) // want `PingUngranted calls out to "https://status.example.com/ping"`
}

// The same SDK shape in a package no client names stays unprovable.
//
//agent:operable grant=Payments
func (c *Clients) Other(ctx context.Context) error {
	return c.other.Call(ctx, "POST", "/v1/refunds") // want `Other .*unprovable|Other .*not constant|Other .*cannot see`
}

// NotifyFinance is a workflow function: started by value, its name is
// the job's kind.
func NotifyFinance(ctx context.Context) error { return nil }

// WipeEverything is another.
func WipeEverything(ctx context.Context) error { return nil }

//agent:operable grant=Notifier
func StartWorkflows(ctx context.Context) {
	queue.Start(ctx, "notify_finance")
	queue.Start(ctx, "wipe_everything") // want `StartWorkflows starts job "wipe_everything", which grant Notifier does not allow`
	queue.Start(ctx, WipeEverything)    // want `StartWorkflows starts job "WipeEverything", which grant Notifier does not allow`
}
