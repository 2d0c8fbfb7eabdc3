// Package other meets the policy's denials of writes, jobs and webhooks,
// and its tenant scopes.
package other

import "github.com/authvet/authvet/grant"

var Purge = grant.Grant{
	UnboundedWrites: []string{"users"},          // want `grant Purge: unbounded write "users" denied by policy "acme"`
	Jobs:            []string{"purge_all"},      // want `grant Purge: job "purge_all" denied by policy "acme"`
	Webhooks:        []string{"internal.audit"}, // want `grant Purge: webhook "internal.audit" denied by policy "acme"`
	TenantScope:     grant.CrossTenant,          // want `grant Purge: tenant scope "cross_tenant" is not allowed \(allowed: scoped\) \(policy "acme"\)`
	Reversibility:   grant.Compensable,
}

// Conforming: silent.
var Notes = grant.Grant{
	Writes:        []string{"notes"},
	Reversibility: grant.Reversible,
}
