// Package pay is matched by the rules tls-only and pay.
package pay

import "github.com/authvet/authvet/grant"

// Deny beats allow: the rule pay allows https://api.x.com/, the policy
// denies its admin prefix.
var Admin = grant.Grant{
	Outbound:      []string{"https://api.x.com/v1/admin/users"}, // want `grant Admin: outbound "https://api.x.com/v1/admin/users" denied by policy "acme"`
	Reversibility: grant.Reversible,
}

// A rule's denial, named.
var Plain = grant.Grant{
	Outbound:      []string{"http://api.x.com/v2/"}, // want `grant Plain: outbound "http://api.x.com/v2/" denied by rule "tls-only"`
	Reversibility: grant.Reversible,
}

// The rule's ceiling (irreversible) replaces the policy's (compensable);
// the rule's allow list replaces the policy's.
var Charge = grant.Grant{
	Outbound:      []string{"https://api.x.com/v2/charges"},
	Reversibility: grant.Irreversible,
}

// The policy's allow list is skipped where a rule has one.
var Stripe = grant.Grant{
	Outbound:      []string{"https://api.stripe.com/v1/refunds"}, // want `grant Stripe: outbound "https://api.stripe.com/v1/refunds" not in the allow list of rule "pay"`
	Reversibility: grant.Compensable,
}
