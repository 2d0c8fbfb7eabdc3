// Package payments is not matched by the rule pay (policy/pay): the
// policy's ceiling and allow list apply.
package payments

import "github.com/authvet/authvet/grant"

var Charge = grant.Grant{
	Outbound:      []string{"https://api.x.com/v2/charges"}, // want `grant Charge: outbound "https://api.x.com/v2/charges" not in the allow list of policy "acme"`
	Reversibility: grant.Irreversible,                       // want `grant Charge: reversibility "irreversible" exceeds the allowed "compensable" \(policy "acme"\)`
}

// Conforming: silent.
var Refund = grant.Grant{
	Outbound:      []string{"https://api.stripe.com:443/v1/refunds", "alias:payments"},
	Writes:        []string{"refunds"},
	Reversibility: grant.Compensable,
}
