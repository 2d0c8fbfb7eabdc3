// Package batch's rule allows only cross-tenant grants.
package batch

import "github.com/authvet/authvet/grant"

// An unset TenantScope is scoped, and judged as such.
var Nightly = grant.Grant{ // want `grant Nightly: tenant scope "scoped" is not allowed \(allowed: cross_tenant\) \(rule "batch"\)`
	Reversibility: grant.Reversible,
}

var Sweep = grant.Grant{
	TenantScope:   grant.CrossTenant,
	Reversibility: grant.Reversible,
}
