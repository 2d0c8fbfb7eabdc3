// Package grant is a stub of github.com/authvet/authvet/grant for the
// analysistest fixtures: the analyzer needs only its types.
package grant

type TenantScope string

const (
	Scoped       TenantScope = "scoped"
	CrossTenant  TenantScope = "cross_tenant"
	SingleTenant TenantScope = "none"
)

type Reversibility string

const (
	Reversible   Reversibility = "reversible"
	Compensable  Reversibility = "compensable"
	Irreversible Reversibility = "irreversible"
)

type Grant struct {
	Writes, UnboundedWrites  []string
	TenantScope              TenantScope
	Outbound, Webhooks, Jobs []string
	Rate, Spend              string
	Reversibility            Reversibility
}
