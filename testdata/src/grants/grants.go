// Package grants exercises grant declarations: each refusal, and valid
// declarations that must pass.
package grants

import "github.com/authvet/authvet/grant"

const stripe = "https://api.stripe.com/v1/"

var OK = grant.Grant{
	Writes:          []string{"refunds", "billing.notes"},
	UnboundedWrites: []string{},
	TenantScope:     grant.Scoped,
	Outbound:        []string{stripe + "refunds", "alias:stripe"},
	Webhooks:        []string{"refund.drafted"},
	Jobs:            []string{"notify_finance"},
	Rate:            "10/min",
	Spend:           "500.00 USD",
	Reversibility:   grant.Compensable,
}

var Minimal = grant.Grant{Reversibility: "reversible", UnboundedWrites: nil}

var NoReversibility = grant.Grant{ // want `agent authority: grant NoReversibility: Reversibility: missing Reversibility`
	Writes: []string{"refunds"},
}

var UnknownScope = grant.Grant{
	TenantScope:   "everyone", // want `grant UnknownScope: TenantScope: `
	Reversibility: grant.Reversible,
}

var UnknownReversibility = grant.Grant{
	Reversibility: "undoable", // want `grant UnknownReversibility: Reversibility: `
}

var BadRate = grant.Grant{
	Rate:          "10/minute", // want `grant BadRate: Rate: `
	Reversibility: grant.Reversible,
}

var ZeroRate = grant.Grant{
	Rate:          "0/min", // want `grant ZeroRate: Rate: `
	Reversibility: grant.Reversible,
}

var BadSpend = grant.Grant{
	Spend:         "500 dollars", // want `grant BadSpend: Spend: `
	Reversibility: grant.Reversible,
}

var tables = []string{"refunds"}

var NotConstant = grant.Grant{
	Writes:        tables, // want `grant NotConstant: field Writes is not a constant expression`
	Reversibility: grant.Reversible,
}

var appended = "x"

var NotConstantElem = grant.Grant{
	Jobs:          []string{"a", appended}, // want `grant NotConstantElem: field Jobs is not a constant expression`
	Reversibility: grant.Reversible,
}

func rate() string { return "1/min" }

var CallField = grant.Grant{
	Rate:          rate(), // want `grant CallField: field Rate is not a constant expression`
	Reversibility: grant.Reversible,
}

var Unkeyed = grant.Grant{[]string{"a"}, nil, "", nil, nil, nil, "", "", "reversible"} // want `grant Unkeyed: the literal must be keyed`

var BadOutbound = grant.Grant{
	Outbound: []string{
		"https://api.stripe.com/v1/refunds",
		"api.stripe.com/v1",                    // want `grant BadOutbound: Outbound\[1\]: `
		"https://user:pw@api.stripe.com/v1",    // want `grant BadOutbound: Outbound\[2\]: userinfo`
		"https://api.stripe.com/v1/%2e%2e/x",   // want `grant BadOutbound: Outbound\[3\]: encoded dot`
		"https://api.stripe.com/v1/../charges", // want `grant BadOutbound: Outbound\[4\]: ".." path segment`
	},
	Reversibility: grant.Compensable,
}

var Duplicate = grant.Grant{
	Writes:        []string{"refunds", "refunds"}, // want `grant Duplicate: Writes\[1\]: duplicate`
	Reversibility: grant.Reversible,
}

var FromCall = newGrant() // want `grant FromCall: a grant must be initialised with a keyed grant.Grant\{...\} literal`

func newGrant() grant.Grant { return grant.Grant{Reversibility: grant.Reversible} }

func mutate() {
	OK.Writes = append(OK.Writes, "payouts") // want `agent authority: assigns to grant variable OK`
	OK = grant.Grant{}                       // want `assigns to grant variable OK`
	p := &Minimal                            // want `takes the address of grant variable Minimal`
	_ = p
	OK.Writes[0] = "payouts" // want `assigns to grant variable OK`
	g := OK                  // a copy is fine
	g.Writes = nil
	_ = g
}
