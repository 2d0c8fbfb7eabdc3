package billing

import "github.com/authvet/authvet/grant"

// RefundDrafter is draft-only refund authority for the support agent: it
// may record refunds and ask Stripe to create them, nothing else.
var RefundDrafter = grant.Grant{
	Writes:        []string{"refunds"},
	TenantScope:   grant.Scoped,
	Outbound:      []string{"https://api.stripe.com/v1/refunds"},
	Rate:          "10/min",
	Spend:         "500.00 USD",
	Reversibility: grant.Compensable,
}

// RefundReader may only read refunds, within the caller's tenant.
var RefundReader = grant.Grant{
	TenantScope:   grant.Scoped,
	Reversibility: grant.Reversible,
}
