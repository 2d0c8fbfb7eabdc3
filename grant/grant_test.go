package grant_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/authvet/authvet/grant"
)

// refundDrafter is the grant from the package documentation.
var refundDrafter = grant.Grant{
	Writes:          []string{"refunds", "refund_notes"},
	UnboundedWrites: []string{},
	TenantScope:     grant.Scoped,
	Outbound:        []string{"https://api.stripe.com/v1/refunds", "alias:stripe"},
	Webhooks:        []string{"refund.drafted"},
	Jobs:            []string{"notify_finance"},
	Rate:            "10/min",
	Spend:           "500.00 USD",
	Reversibility:   grant.Compensable,
}

// valid returns a minimal valid grant modified by f.
func valid(f func(g *grant.Grant)) grant.Grant {
	g := grant.Grant{Reversibility: grant.Reversible}
	f(&g)
	return g
}

func TestValidate(t *testing.T) {
	type want struct {
		field string
		index int
		msg   string // substring
	}
	cases := []struct {
		name string
		g    grant.Grant
		want []want // nil: valid
	}{
		{"documented grant", refundDrafter, nil},
		{"minimal", grant.Grant{Reversibility: grant.Irreversible}, nil},
		{"every scope and level", valid(func(g *grant.Grant) {
			g.TenantScope = grant.SingleTenant
			g.Writes = []string{"billing.refunds", `"Quoted"`}
			g.UnboundedWrites = []string{"billing.refunds"}
			g.Outbound = []string{"http://localhost:8080/", "HTTPS://API.X.COM", "alias:a.b-c_d", "grpc:/billing.Billing/Refund", "grpc:/billing.Billing/"}
			g.Rate = "1/sec"
			g.Spend = "0.01 EUR"
		}), nil},
		{"rate units", valid(func(g *grant.Grant) { g.Rate = "100/hour" }), nil},
		{"rate day", valid(func(g *grant.Grant) { g.Rate = "5/day" }), nil},
		{"spend integer", valid(func(g *grant.Grant) { g.Spend = "500 USD" }), nil},
		{"cross tenant", valid(func(g *grant.Grant) { g.TenantScope = grant.CrossTenant }), nil},

		{"missing reversibility", grant.Grant{}, []want{{"Reversibility", -1, "missing Reversibility; set grant.Reversible, grant.Compensable or grant.Irreversible"}}},
		{"unknown reversibility", valid(func(g *grant.Grant) { g.Reversibility = "Reversible" }),
			[]want{{"Reversibility", -1, `unknown Reversibility "Reversible"; valid values are "reversible"`}}},
		{"unknown scope", valid(func(g *grant.Grant) { g.TenantScope = "global" }),
			[]want{{"TenantScope", -1, `unknown TenantScope "global"; valid values are "scoped"`}}},

		{"rate no unit", valid(func(g *grant.Grant) { g.Rate = "10" }), []want{{"Rate", -1, "not N/sec"}}},
		{"rate bad unit", valid(func(g *grant.Grant) { g.Rate = "10/minute" }), []want{{"Rate", -1, "not N/sec"}}},
		{"rate zero", valid(func(g *grant.Grant) { g.Rate = "0/min" }), []want{{"Rate", -1, "N ≥ 1"}}},
		{"rate leading zero", valid(func(g *grant.Grant) { g.Rate = "010/min" }), []want{{"Rate", -1, "not N/sec"}}},
		{"rate sign", valid(func(g *grant.Grant) { g.Rate = "+10/min" }), []want{{"Rate", -1, "not N/sec"}}},
		{"rate negative", valid(func(g *grant.Grant) { g.Rate = "-1/min" }), []want{{"Rate", -1, "not N/sec"}}},
		{"rate spaces", valid(func(g *grant.Grant) { g.Rate = "10 / min" }), []want{{"Rate", -1, "not N/sec"}}},
		{"rate fraction", valid(func(g *grant.Grant) { g.Rate = "1.5/min" }), []want{{"Rate", -1, "not N/sec"}}},
		{"rate no number", valid(func(g *grant.Grant) { g.Rate = "/min" }), []want{{"Rate", -1, "not N/sec"}}},
		{"rate huge", valid(func(g *grant.Grant) { g.Rate = "99999999999999999999/min" }), []want{{"Rate", -1, "too large"}}},

		{"spend no currency", valid(func(g *grant.Grant) { g.Spend = "500.00" }), []want{{"Spend", -1, "not AMOUNT CUR"}}},
		{"spend lower currency", valid(func(g *grant.Grant) { g.Spend = "500.00 usd" }), []want{{"Spend", -1, "3 upper-case letters"}}},
		{"spend long currency", valid(func(g *grant.Grant) { g.Spend = "500.00 USDT" }), []want{{"Spend", -1, "3 upper-case letters"}}},
		{"spend symbol", valid(func(g *grant.Grant) { g.Spend = "$500" }), []want{{"Spend", -1, "not AMOUNT CUR"}}},
		{"spend negative", valid(func(g *grant.Grant) { g.Spend = "-5.00 USD" }), []want{{"Spend", -1, "not AMOUNT CUR"}}},
		{"spend plus", valid(func(g *grant.Grant) { g.Spend = "+5.00 USD" }), []want{{"Spend", -1, "not AMOUNT CUR"}}},
		{"spend zero", valid(func(g *grant.Grant) { g.Spend = "0.00 USD" }), []want{{"Spend", -1, "must be positive"}}},
		{"spend two spaces", valid(func(g *grant.Grant) { g.Spend = "5  USD" }), []want{{"Spend", -1, "3 upper-case letters"}}},
		{"spend trailing dot", valid(func(g *grant.Grant) { g.Spend = "5. USD" }), []want{{"Spend", -1, "not AMOUNT CUR"}}},
		{"spend leading dot", valid(func(g *grant.Grant) { g.Spend = ".5 USD" }), []want{{"Spend", -1, "not AMOUNT CUR"}}},
		{"spend comma", valid(func(g *grant.Grant) { g.Spend = "1,000 USD" }), []want{{"Spend", -1, "not AMOUNT CUR"}}},
		{"spend currency first", valid(func(g *grant.Grant) { g.Spend = "USD 500" }), []want{{"Spend", -1, "not AMOUNT CUR"}}},

		{"outbound relative", valid(func(g *grant.Grant) { g.Outbound = []string{"/v1/refunds"} }), []want{{"Outbound", 0, "relative URL"}}},
		{"outbound scheme", valid(func(g *grant.Grant) { g.Outbound = []string{"ftp://x.com/"} }), []want{{"Outbound", 0, "not http or https"}}},
		{"outbound userinfo", valid(func(g *grant.Grant) { g.Outbound = []string{"alias:ok", "https://u:p@x.com/"} }), []want{{"Outbound", 1, "userinfo"}}},
		{"outbound %2e", valid(func(g *grant.Grant) { g.Outbound = []string{"https://x.com/%2E%2E/"} }), []want{{"Outbound", 0, "%2e"}}},
		{"outbound dotdot", valid(func(g *grant.Grant) { g.Outbound = []string{"https://x.com/v1/../admin"} }), []want{{"Outbound", 0, `".." path segment`}}},
		{"outbound empty alias", valid(func(g *grant.Grant) { g.Outbound = []string{"alias:"} }), []want{{"Outbound", 0, "empty name"}}},
		{"outbound bad grpc", valid(func(g *grant.Grant) { g.Outbound = []string{"grpc:/billing.Billing"} }), []want{{"Outbound", 0, "not grpc:/package.Service/Method"}}},
		{"outbound bad alias", valid(func(g *grant.Grant) { g.Outbound = []string{"alias:a b"} }), []want{{"Outbound", 0, "letters, digits"}}},

		{"empty write", valid(func(g *grant.Grant) { g.Writes = []string{"a", ""} }), []want{{"Writes", 1, "empty subject"}}},
		{"empty unbounded", valid(func(g *grant.Grant) { g.UnboundedWrites = []string{""} }), []want{{"UnboundedWrites", 0, "empty subject"}}},
		{"empty outbound", valid(func(g *grant.Grant) { g.Outbound = []string{""} }), []want{{"Outbound", 0, "empty subject"}}},
		{"empty webhook", valid(func(g *grant.Grant) { g.Webhooks = []string{""} }), []want{{"Webhooks", 0, "empty subject"}}},
		{"empty job", valid(func(g *grant.Grant) { g.Jobs = []string{""} }), []want{{"Jobs", 0, "empty subject"}}},
		{"table space", valid(func(g *grant.Grant) { g.Writes = []string{"refund notes"} }), []want{{"Writes", 0, "whitespace"}}},
		{"table tab", valid(func(g *grant.Grant) { g.UnboundedWrites = []string{"refunds\t"} }), []want{{"UnboundedWrites", 0, "whitespace"}}},

		{"duplicate write", valid(func(g *grant.Grant) { g.Writes = []string{"a", "b", "a"} }), []want{{"Writes", 2, `duplicate subject "a" (first at index 0)`}}},
		{"duplicate unbounded", valid(func(g *grant.Grant) { g.UnboundedWrites = []string{"a", "a"} }), []want{{"UnboundedWrites", 1, "duplicate"}}},
		{"duplicate outbound", valid(func(g *grant.Grant) { g.Outbound = []string{"alias:s", "https://x.com/", "alias:s"} }), []want{{"Outbound", 2, "duplicate"}}},
		{"duplicate webhook", valid(func(g *grant.Grant) { g.Webhooks = []string{"t", "t"} }), []want{{"Webhooks", 1, "duplicate"}}},
		{"duplicate job", valid(func(g *grant.Grant) { g.Jobs = []string{"j", "k", "j"} }), []want{{"Jobs", 2, "duplicate"}}},
		{"same table in both lists", valid(func(g *grant.Grant) { g.Writes = []string{"a"}; g.UnboundedWrites = []string{"a"} }), nil},

		{"every problem reported", grant.Grant{
			Writes:        []string{"a", "a"},
			TenantScope:   "x",
			Outbound:      []string{"https://api.x.com.evil@x/"},
			Rate:          "0/min",
			Spend:         "1 usd",
			Reversibility: "",
		}, []want{
			{"Writes", 1, "duplicate"},
			{"TenantScope", -1, "unknown TenantScope"},
			{"Outbound", 0, "userinfo"},
			{"Rate", -1, "not N/sec"},
			{"Spend", -1, "currency"},
			{"Reversibility", -1, "missing Reversibility"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.g.Validate()
			if c.want == nil {
				if err != nil {
					t.Fatalf("Validate() = %v; want nil", err)
				}
				return
			}
			var ve *grant.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate() = %v (%T); want *grant.ValidationError", err, err)
			}
			if len(ve.Problems) != len(c.want) {
				t.Fatalf("Validate() problems = %v; want %d", ve.Problems, len(c.want))
			}
			for i, w := range c.want {
				p := ve.Problems[i]
				if p.Field != w.field || p.Index != w.index || !strings.Contains(p.Msg, w.msg) {
					t.Errorf("problem %d = %+v; want field %s, index %d, msg containing %q", i, p, w.field, w.index, w.msg)
				}
				if p.Msg != "" && 'A' <= p.Msg[0] && p.Msg[0] <= 'Z' {
					t.Errorf("problem %d message %q starts upper-case", i, p.Msg)
				}
			}
		})
	}
}

func TestValidationErrorString(t *testing.T) {
	err := grant.Grant{Writes: []string{"a", "a"}, Rate: "x"}.Validate()
	want := `Writes[1]: duplicate subject "a" (first at index 0); ` +
		`Rate: rate "x" is not N/sec, N/min, N/hour or N/day with a whole number N ≥ 1; ` +
		`Reversibility: missing Reversibility; set grant.Reversible, grant.Compensable or grant.Irreversible`
	if err == nil || err.Error() != want {
		t.Errorf("Validate().Error() =\n%v\nwant\n%s", err, want)
	}
}

func TestAllows(t *testing.T) {
	scoped := refundDrafter
	cross := refundDrafter
	cross.TenantScope = grant.CrossTenant
	single := refundDrafter
	single.TenantScope = grant.SingleTenant
	zero := refundDrafter
	zero.TenantScope = ""
	wide := grant.Grant{
		UnboundedWrites: []string{"audit_log"},
		Outbound:        []string{"https://api.stripe.com", "http://internal:8080/hooks/", "alias:https://api.x.com/", "grpc:/billing.v1.Billing/", "grpc:/ledger.Ledger/Post"},
		Reversibility:   grant.Compensable,
	}

	cases := []struct {
		g             grant.Grant
		kind, subject string
		want          bool
	}{
		// write / unbounded_write
		{scoped, grant.KindWrite, "refunds", true},
		{scoped, grant.KindWrite, "refund_notes", true},
		{scoped, grant.KindWrite, "payouts", false},
		{scoped, grant.KindWrite, "Refunds", false}, // exact comparison
		{scoped, grant.KindWrite, "", false},
		{scoped, grant.KindUnboundedWrite, "refunds", false},
		{wide, grant.KindWrite, "audit_log", true}, // UnboundedWrites implies Writes
		{wide, grant.KindUnboundedWrite, "audit_log", true},
		{wide, grant.KindUnboundedWrite, "refunds", false},

		// cross_tenant
		{scoped, grant.KindCrossTenant, "raw_query:refunds", false},
		{zero, grant.KindCrossTenant, "raw_query:refunds", false},
		{cross, grant.KindCrossTenant, "raw_query:refunds", true},
		{cross, grant.KindCrossTenant, "", true},
		{single, grant.KindCrossTenant, "raw_query:anything", true},

		// outbound: gRPC methods, on service and method boundaries
		{wide, grant.KindOutbound, "grpc:/billing.v1.Billing/Refund", true},
		{wide, grant.KindOutbound, "grpc:/ledger.Ledger/Post", true},
		{wide, grant.KindOutbound, "grpc:/ledger.Ledger/PostAll", false},
		{wide, grant.KindOutbound, "grpc:/ledger.LedgerAdmin/Post", false},
		{scoped, grant.KindOutbound, "grpc:/billing.v1.Billing/Refund", false},

		// outbound: URL boundaries
		{scoped, grant.KindOutbound, "https://api.stripe.com/v1/refunds", true},
		{scoped, grant.KindOutbound, "https://api.stripe.com/v1/refunds/", true},
		{scoped, grant.KindOutbound, "https://api.stripe.com/v1/refunds/re_1", true},
		{scoped, grant.KindOutbound, "https://api.stripe.com/v1/refunds?x=1", true},
		{scoped, grant.KindOutbound, "https://API.STRIPE.COM:443/v1/refunds", true},
		{scoped, grant.KindOutbound, "https://api.stripe.com/v1/refundsX", false},
		{scoped, grant.KindOutbound, "https://api.stripe.com/v1/", false},
		{scoped, grant.KindOutbound, "https://api.stripe.com/v1/charges", false},
		{scoped, grant.KindOutbound, "http://api.stripe.com/v1/refunds", false},
		{scoped, grant.KindOutbound, "https://api.stripe.com/v1/refunds/../payouts", false},
		{wide, grant.KindOutbound, "https://api.stripe.com/", true},
		{wide, grant.KindOutbound, "https://api.stripe.com/v1/anything", true},
		{wide, grant.KindOutbound, "https://api.stripe.com.evil.example/", false},
		{wide, grant.KindOutbound, "https://api.stripe.com.evil.example/v1", false},
		{wide, grant.KindOutbound, "https://api.stripe.com:8443/", false},
		{wide, grant.KindOutbound, "http://internal:8080/hooks/a", true},
		{wide, grant.KindOutbound, "http://internal:8080/hooks", false},
		{wide, grant.KindOutbound, "http://internal/hooks/a", false},
		// outbound: aliases match exactly, and never a URL
		{scoped, grant.KindOutbound, "alias:stripe", true},
		{scoped, grant.KindOutbound, "alias:Stripe", false},
		{scoped, grant.KindOutbound, "alias:stripe2", false},
		{scoped, grant.KindOutbound, "alias:", false},
		{wide, grant.KindOutbound, "alias:stripe", false},
		{wide, grant.KindOutbound, "https://api.x.com/", false}, // an alias entry is not a URL prefix
		{wide, grant.KindOutbound, "alias:https://api.x.com/", true},
		{wide, grant.KindOutbound, "alias:https://api.stripe.com", false}, // a URL entry is not an alias
		{scoped, grant.KindOutbound, "", false},
		{scoped, grant.KindOutbound, "/v1/refunds", false},

		// job / webhook
		{scoped, grant.KindJob, "notify_finance", true},
		{scoped, grant.KindJob, "refund.drafted", false},
		{scoped, grant.KindJob, "notify", false},
		{scoped, grant.KindWebhook, "refund.drafted", true},
		{scoped, grant.KindWebhook, "notify_finance", false},
		{scoped, grant.KindWebhook, "refund.*", false},

		// never allowed
		{single, grant.KindDetached, "", false},
		{single, grant.KindUnprovable, "refunds", false},
		{single, grant.KindAssertedEffectFree, "", false},
		{scoped, "reversibility", "refunds", false},
		{scoped, "", "refunds", false},
		{scoped, "WRITE", "refunds", false},
	}
	for _, c := range cases {
		if got := c.g.Allows(c.kind, c.subject); got != c.want {
			t.Errorf("Allows(%q, %q) on %+v = %v; want %v", c.kind, c.subject, c.g, got, c.want)
		}
	}
}

func TestFloor(t *testing.T) {
	cases := []struct {
		kinds []string
		want  grant.Reversibility
	}{
		{nil, grant.Reversible},
		{[]string{grant.KindWrite}, grant.Reversible},
		{[]string{grant.KindWrite, grant.KindCrossTenant}, grant.Reversible},
		{[]string{grant.KindDetached}, grant.Reversible},
		{[]string{grant.KindUnprovable}, grant.Reversible},
		{[]string{"something_else"}, grant.Reversible},
		{[]string{grant.KindUnboundedWrite}, grant.Compensable},
		{[]string{grant.KindOutbound}, grant.Compensable},
		{[]string{grant.KindJob}, grant.Compensable},
		{[]string{grant.KindWebhook}, grant.Compensable},
		{[]string{grant.KindAssertedEffectFree}, grant.Compensable},
		{[]string{grant.KindWrite, grant.KindCrossTenant, grant.KindJob}, grant.Compensable},
	}
	for _, c := range cases {
		if got := grant.Floor(c.kinds...); got != c.want {
			t.Errorf("Floor(%q) = %q; want %q", c.kinds, got, c.want)
		}
	}
}

func TestRankAndValid(t *testing.T) {
	ranks := []struct {
		r     grant.Reversibility
		rank  int
		valid bool
	}{
		{grant.Reversible, 0, true},
		{grant.Compensable, 1, true},
		{grant.Irreversible, 2, true},
		{"", -1, false},
		{"Reversible", -1, false},
		{"permanent", -1, false},
	}
	for _, c := range ranks {
		if got := c.r.Rank(); got != c.rank {
			t.Errorf("%q.Rank() = %d; want %d", c.r, got, c.rank)
		}
		if got := c.r.Valid(); got != c.valid {
			t.Errorf("%q.Valid() = %v; want %v", c.r, got, c.valid)
		}
	}
	if !(grant.Reversible.Rank() < grant.Compensable.Rank() && grant.Compensable.Rank() < grant.Irreversible.Rank()) {
		t.Error("reversibility levels are out of order")
	}
	// Floor never exceeds Compensable, so Irreversible is always allowed.
	if grant.Floor(grant.KindOutbound).Rank() > grant.Irreversible.Rank() {
		t.Error("Irreversible is below a floor")
	}

	scopes := []struct {
		s     grant.TenantScope
		valid bool
	}{
		{"", true},
		{grant.Scoped, true},
		{grant.CrossTenant, true},
		{grant.SingleTenant, true},
		{"single_tenant", false},
		{"Scoped", false},
	}
	for _, c := range scopes {
		if got := c.s.Valid(); got != c.valid {
			t.Errorf("TenantScope(%q).Valid() = %v; want %v", c.s, got, c.valid)
		}
	}
}

func TestKindNames(t *testing.T) {
	got := []string{grant.KindWrite, grant.KindUnboundedWrite, grant.KindCrossTenant, grant.KindOutbound,
		grant.KindJob, grant.KindWebhook, grant.KindDetached, grant.KindUnprovable, grant.KindAssertedEffectFree}
	want := []string{"write", "unbounded_write", "cross_tenant", "outbound",
		"job", "webhook", "detached", "unprovable", "asserted_effect_free"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("kind names = %q; want %q", got, want)
	}
}

func ExampleGrant_Allows() {
	g := grant.Grant{
		Writes:        []string{"refunds"},
		Outbound:      []string{"https://api.stripe.com/v1/refunds", "alias:stripe"},
		Reversibility: grant.Compensable,
	}
	fmt.Println(g.Allows(grant.KindWrite, "refunds"))
	fmt.Println(g.Allows(grant.KindUnboundedWrite, "refunds"))
	fmt.Println(g.Allows(grant.KindOutbound, "https://api.stripe.com/v1/refunds/re_1"))
	fmt.Println(g.Allows(grant.KindOutbound, "https://api.stripe.com/v1/refundsX"))
	fmt.Println(g.Allows(grant.KindOutbound, "https://api.stripe.com.evil.example/v1/refunds"))
	fmt.Println(g.Allows(grant.KindOutbound, "alias:stripe"))
	fmt.Println(grant.Floor(grant.KindWrite, grant.KindOutbound))
	// Output:
	// true
	// false
	// true
	// false
	// false
	// true
	// compensable
}
