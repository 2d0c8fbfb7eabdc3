package policy

import (
	"strings"
	"testing"

	"github.com/authvet/authvet/grant"
)

func acme() *Policy {
	return &Policy{
		Name: "acme",
		Limits: Limits{
			MaxReversibility: "compensable",
			TenantScopes:     []string{"scoped"},
			DenyOutbound:     []string{"https://api.x.com/v1/admin"},
			AllowOutbound:    []string{"https://api.stripe.com/", "alias:payments"},
			DenyWrites:       []string{"users"},
		},
		Rules: []Rule{
			{Name: "tls-only", Packages: []string{"example.com/x/..."}, Limits: Limits{DenyOutbound: []string{"http://"}}},
			{Name: "pay", Packages: []string{"example.com/x/pay"}, Limits: Limits{
				MaxReversibility: "irreversible",
				AllowOutbound:    []string{"https://api.x.com/"},
			}},
			{Name: "strict", Packages: []string{"example.com/x/strict"}, Limits: Limits{MaxReversibility: "reversible"}},
			{Name: "batch", Packages: []string{"example.com/x/batch/..."}, Limits: Limits{TenantScopes: []string{"cross_tenant"}}},
			{Name: "reports", Packages: []string{"example.com/x/batch/reports"}, Limits: Limits{TenantScopes: []string{"none"}}},
		},
	}
}

func judge(pkg string, g grant.Grant) string {
	var msgs []string
	for _, v := range acme().Judge(pkg, g) {
		msgs = append(msgs, v.Field+": "+v.Msg)
	}
	return strings.Join(msgs, "\n")
}

func TestOrder(t *testing.T) {
	for _, tc := range []struct {
		name, pkg string
		g         grant.Grant
		want      string
	}{
		{"conforming", "example.com/y", grant.Grant{Outbound: []string{"https://api.stripe.com/v1/refunds"}, Reversibility: grant.Compensable}, ""},
		{"a denial beats an allow", "example.com/x/pay",
			grant.Grant{Outbound: []string{"https://api.x.com/v1/admin/users"}, Reversibility: grant.Reversible},
			`Outbound: outbound "https://api.x.com/v1/admin/users" denied by policy "acme"`},
		{"an entry that covers a denied prefix is denied", "example.com/y",
			grant.Grant{Outbound: []string{"https://api.x.com/"}, Reversibility: grant.Reversible},
			`Outbound: outbound "https://api.x.com/" denied by policy "acme"`},
		{"a rule's denial is named first", "example.com/x/pay",
			grant.Grant{Outbound: []string{"http://api.x.com/v2"}, Reversibility: grant.Reversible},
			`Outbound: outbound "http://api.x.com/v2" denied by rule "tls-only"`},
		{"deny_writes covers unbounded writes", "example.com/y",
			grant.Grant{Writes: []string{"orders"}, UnboundedWrites: []string{"users"}, Reversibility: grant.Compensable},
			`UnboundedWrites: unbounded write "users" denied by policy "acme"`},
		{"a rule ceiling higher than the policy's", "example.com/x/pay",
			grant.Grant{Reversibility: grant.Irreversible}, ""},
		{"the policy's ceiling elsewhere", "example.com/y",
			grant.Grant{Reversibility: grant.Irreversible},
			`Reversibility: reversibility "irreversible" exceeds the allowed "compensable" (policy "acme")`},
		{"a rule ceiling lower than the policy's", "example.com/x/strict",
			grant.Grant{Reversibility: grant.Compensable},
			`Reversibility: reversibility "compensable" exceeds the allowed "reversible" (rule "strict")`},
		{"an unset tenant scope is scoped", "example.com/x/batch",
			grant.Grant{Reversibility: grant.Reversible},
			`TenantScope: tenant scope "scoped" is not allowed (allowed: cross_tenant) (rule "batch")`},
		{"matching rules' scopes are unioned", "example.com/x/batch/reports",
			grant.Grant{TenantScope: grant.SingleTenant, Reversibility: grant.Reversible}, ""},
		{"the policy's scopes elsewhere", "example.com/y",
			grant.Grant{TenantScope: grant.CrossTenant, Reversibility: grant.Reversible},
			`TenantScope: tenant scope "cross_tenant" is not allowed (allowed: scoped) (policy "acme")`},
		{"a rule allow list skips the policy's", "example.com/x/pay",
			grant.Grant{Outbound: []string{"https://api.stripe.com/v1/refunds"}, Reversibility: grant.Reversible},
			`Outbound: outbound "https://api.stripe.com/v1/refunds" not in the allow list of rule "pay"`},
		{"the policy's allow list, on URL boundaries", "example.com/y",
			grant.Grant{Outbound: []string{"https://api.stripe.com.evil.example/", "https://api.stripe.com:443/v1/x"}, Reversibility: grant.Compensable},
			`Outbound: outbound "https://api.stripe.com.evil.example/" not in the allow list of policy "acme"`},
		{"an alias is allowed only as written", "example.com/y",
			grant.Grant{Outbound: []string{"alias:payments", "alias:payroll"}, Reversibility: grant.Compensable},
			`Outbound: outbound "alias:payroll" not in the allow list of policy "acme"`},
		{"pay does not match payments", "example.com/x/payments",
			grant.Grant{Outbound: []string{"https://api.x.com/v2/things"}, Reversibility: grant.Compensable},
			`Outbound: outbound "https://api.x.com/v2/things" not in the allow list of policy "acme"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := judge(tc.pkg, tc.g); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestRuleMatches(t *testing.T) {
	r := Rule{Packages: []string{"example.com/x/pay", "example.com/y/..."}}
	for pkg, want := range map[string]bool{
		"example.com/x/pay":      true,
		"example.com/x/payments": false,
		"example.com/x/pay/sub":  false,
		"example.com/y":          true,
		"example.com/y/z":        true,
		"example.com/yy":         false,
	} {
		if got := r.Matches(pkg); got != want {
			t.Errorf("Matches(%q) = %v, want %v", pkg, got, want)
		}
	}
}
