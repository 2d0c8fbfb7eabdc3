package b

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river"

	"classes/b/domain"
	"classes/b/generic"
	"github.com/authvet/authvet/grant"
)

// Generics of another package, summarised once from their generic
// bodies: what they call on a value of a type parameter (var zero T;
// zero.Table(), h.After(ctx)) and a job kind from a type argument's
// Kind() are read off each instance's type arguments.

// Refunder allows refund rows and receipt jobs.
var Refunder = grant.Grant{
	Writes:        []string{"refunds"},
	Jobs:          []string{"send_receipt"},
	Reversibility: grant.Irreversible,
}

type payoutRow struct{}

func (payoutRow) Table() string { return "payouts" }

type refundRow struct{}

func (refundRow) Table() string { return "refunds" }

var genDB *sql.DB

//agent:operable grant=Refunder
func GenericDelete(ctx context.Context) error {
	r := &generic.Repository[payoutRow]{DB: genDB}
	return r.DeleteByID(ctx, 1, 2) // want `GenericDelete writes "payouts"`
}

//agent:operable grant=Refunder
func GenericDeleteTwin(ctx context.Context) error {
	r := &generic.Repository[refundRow]{DB: genDB}
	return r.DeleteByID(ctx, 1, 2)
}

type auditHook struct{}

func (auditHook) After(ctx context.Context) error {
	_, err := genDB.ExecContext(ctx, "INSERT INTO audit_log (tenant_id, body) VALUES ($1, $2)", 1, "x")
	return err
}

type refundHook struct{}

func (refundHook) After(ctx context.Context) error {
	_, err := genDB.ExecContext(ctx, "UPDATE refunds SET done = true WHERE tenant_id = $1 AND id = $2", 1, 2)
	return err
}

//agent:operable grant=Refunder
func GenericHook(ctx context.Context) error {
	return generic.RunHook[auditHook](ctx) // want `GenericHook writes "audit_log"`
}

//agent:operable grant=Refunder
func GenericHookTwin(ctx context.Context) error {
	return generic.RunHook[refundHook](ctx)
}

// Through a generic of the package that instantiates another with its
// own type parameter.

//agent:operable grant=Refunder
func GenericHookTwice(ctx context.Context) error {
	return generic.Twice[auditHook](ctx) // want `GenericHookTwice writes "audit_log"`
}

//agent:operable grant=Refunder
func GenericHookTwiceTwin(ctx context.Context) error {
	return generic.Twice[refundHook](ctx)
}

// An interface as the type argument: the hook's value is out of sight.

//agent:operable grant=Refunder
func GenericHookIface(ctx context.Context) error {
	return generic.RunHook[generic.Hook](ctx) // want `GenericHookIface calls After through the interface`
}

type refundNotice struct{ ID int64 }

func (refundNotice) Kind() string { return "send_refund_notice" }

type receipt struct{ ID int64 }

func (receipt) Kind() string { return "send_receipt" }

var genJobs *river.Client[*sql.Tx]

//agent:operable grant=Refunder
func GenericEnqueue(ctx context.Context) error {
	return generic.Enqueue(ctx, genJobs, refundNotice{ID: 1}) // want `GenericEnqueue starts job "send_refund_notice"`
}

//agent:operable grant=Refunder
func GenericEnqueueTwin(ctx context.Context) error {
	return generic.Enqueue(ctx, genJobs, receipt{ID: 1})
}

// The type argument from a package that reaches no sink.

//agent:operable grant=Refunder
func GenericDeleteDomain(ctx context.Context) error {
	r := &generic.Repository[domain.Payout]{DB: genDB}
	return r.DeleteByID(ctx, 1, 2) // want `GenericDeleteDomain writes "payouts"`
}

//agent:operable grant=Refunder
func GenericDeleteDomainTwin(ctx context.Context) error {
	r := &generic.Repository[domain.Refund]{DB: genDB}
	return r.DeleteByID(ctx, 1, 2)
}
