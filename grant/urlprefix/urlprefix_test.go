package urlprefix

import (
	"strings"
	"testing"
)

type readCase struct {
	text     string
	complete bool
	want     string // "" when an error is expected
	errHas   string // substring of the expected error
}

var readCases = []readCase{
	// Complete text: the URL as written, scheme and host normalised.
	{"https://api.x.com/v1/refunds", true, "https://api.x.com/v1/refunds", ""},
	{"HTTPS://API.X.COM/V1/Refunds?ID=A#Frag", true, "https://api.x.com/V1/Refunds?ID=A#Frag", ""},
	{"http://api.x.com", true, "http://api.x.com", ""},
	{"HtTp://Api.X.Com:8080/", true, "http://api.x.com:8080/", ""},
	{"https://api.x.com:443/v1", true, "https://api.x.com:443/v1", ""},
	{"https://[::1]:8443/x", true, "https://[::1]:8443/x", ""},
	{"https://[FE80::1]/x", true, "https://[fe80::1]/x", ""},
	{"https://127.0.0.1/x", true, "https://127.0.0.1/x", ""},
	{"https://api.x.com/./v1", true, "https://api.x.com/./v1", ""}, // "." is not refused
	{"https://api.x.com/a..b/c.", true, "https://api.x.com/a..b/c.", ""},
	{"https://api.x.com/v1?next=/../x", true, "https://api.x.com/v1?next=/../x", ""}, // ".." in query is not a path segment
	{"https://api.x.com/v1/user@x", true, "https://api.x.com/v1/user@x", ""},         // "@" in the path is not userinfo

	// Partial text: the prefix must fix scheme, host and a path boundary.
	{"https://api.x.com/", false, "https://api.x.com/", ""},
	{"https://api.x.com/v1/", false, "https://api.x.com/v1/", ""},
	{"https://api.x.com/v1/refunds", false, "https://api.x.com/v1/", ""},
	{"https://api.x.com/v1/refunds?id=", false, "https://api.x.com/v1/refunds", ""},
	{"https://api.x.com/v1/refunds#", false, "https://api.x.com/v1/refunds", ""},
	{"https://api.x.com?q=", false, "https://api.x.com", ""},
	{"HTTPS://API.X.COM:8443/V1/re", false, "https://api.x.com:8443/V1/", ""},
	{"https://api.x.com/v1/.", false, "https://api.x.com/v1/", ""},
	{"https://api.x.com", false, "", "does not fix the whole host"},
	{"https://api.x.com:", false, "", "does not fix the whole host"},
	{"https://api.x.com:44", false, "", "does not fix the whole host"},
	{"https://", false, "", "does not fix the whole host"},
	{"https:/", false, "", "does not fix the host"},
	{"https:", false, "", "does not fix the host"},
	{"htt", false, "", "does not fix the scheme and host"},
	{"", false, "", "does not fix the scheme and host"},
	{"/v1/", false, "", `relative URL prefix "/v1/" names no host`},
	{"https://api.x.com/v1/..", false, "", `".." path segment`},

	// Relative URLs, other schemes, no host.
	{"/v1/refunds", true, "", `relative URL "/v1/refunds" names no host`},
	{"v1/refunds", true, "", "relative URL"},
	{"", true, "", "relative URL"},
	{"//api.x.com/v1", true, "", "relative URL"},
	{"?a=b", true, "", "relative URL"},
	{"ftp://api.x.com/", true, "", `scheme "ftp" in URL "ftp://api.x.com/" is not http or https`},
	{"mailto:a@b.c", true, "", "not http or https"},
	{"localhost:8080/x", true, "", "not http or https"},
	{"https:api.x.com/v1", true, "", "no host in URL"},
	{"https:/api.x.com/v1", true, "", "no host in URL"},
	{"https://", true, "", "empty host"},
	{"https:///v1", true, "", "empty host"},
	{"https://:443/v1", true, "", "empty host"},
	{"https://api.x.com:/v1", true, "", "empty port"},
	{"https://api.x.com:4x3/v1", true, "", "invalid port"},
	{"https://api.x.com:99999/v1", true, "", "invalid port"},
	{"https://api x.com/", true, "", "invalid host character"},
	{"https://api.x.com\\@evil.example/", true, "", "userinfo"},
	{"https://api.x.com\\.evil.example/", true, "", "invalid host character"},
	{"https://ap%69.x.com/", true, "", "invalid host character"},
	{"https://[::1/", true, "", "unclosed IPv6 host"},
	{"https://[::1]x/", true, "", "unexpected text after IPv6 host"},
	{"https://[]/", true, "", "empty host"},
	{"https://[::g]/", true, "", "invalid host character"},
	{"https://api.x.com/v1\n", true, "", "control character"},
	{"https://api.ſ.com/", true, "", "invalid host character"},
	{"httpſ://api.x.com/", true, "", "relative URL"},

	// Hygiene refusals, in both modes.
	{"https://user:pass@api.x.com/v1", true, "", "userinfo"},
	{"https://user@api.x.com/v1", true, "", "userinfo"},
	{"https://@api.x.com/v1", true, "", "userinfo"},
	{"https://user:pass@api.x.com/v1/", false, "", "userinfo"},
	{"https://user@api.x.com", false, "", "userinfo"},
	{"https://api.x.com/v1/%2e%2e/admin", true, "", "%2e"},
	{"https://api.x.com/v1/%2E%2E/admin", true, "", "%2e"},
	{"https://api.x.com/v1?q=%2E", true, "", "%2e"},
	{"https://api.x.com/v1/%2e", false, "", "%2e"},
	{"https://api.x.com/a/../b", true, "", `".." path segment`},
	{"https://api.x.com/..", true, "", `".." path segment`},
	{"https://api.x.com/a/..", true, "", `".." path segment`},
	{"https://api.x.com/a/../b/", false, "", `".." path segment`},
	{"https://api.x.com/a/..?q", true, "", `".." path segment`},
	{"https://api.x.com/a\\..\\b", true, "", "backslash in path"},
	{"https://api.x.com/v1/items/..%2fadmin", true, "", "encoded slash"},
	{"https://api.x.com/v1/items/..%2Fadmin", true, "", "encoded slash"},
	{"https://api.x.com/v1/items/..%5cadmin", true, "", "encoded slash"},
	{"https://api.x.com/v1/items/%2F", false, "", "encoded slash"},
	{"https://api.x.com/v1/items?next=%2Fadmin", true, "https://api.x.com/v1/items?next=%2Fadmin", ""},
}

func TestRead(t *testing.T) {
	for _, c := range readCases {
		got, err := Read(c.text, c.complete)
		if c.errHas == "" {
			if err != nil || got != c.want {
				t.Errorf("Read(%q, %v) = %q, %v; want %q, nil", c.text, c.complete, got, err, c.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("Read(%q, %v) = %q, nil; want error containing %q", c.text, c.complete, got, c.errHas)
			continue
		}
		if !strings.Contains(err.Error(), c.errHas) {
			t.Errorf("Read(%q, %v) error = %q; want it to contain %q", c.text, c.complete, err, c.errHas)
		}
		if msg := err.Error(); 'A' <= msg[0] && msg[0] <= 'Z' {
			t.Errorf("Read(%q, %v) error %q does not start lower-case", c.text, c.complete, msg)
		}
	}
}

var coversCases = []struct {
	entry, subject string
	want           bool
}{
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refunds", true},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refunds/", true},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refunds/re_1", true},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refunds?x=1", true},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refunds#f", true},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refundsX", false},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1", false},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/", false},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/", false},
	{"https://api.stripe.com/v1/refunds", "https://api.stripe.com", false},
	{"https://api.stripe.com/v1/", "https://api.stripe.com/v1/", true},
	{"https://api.stripe.com/v1/", "https://api.stripe.com/v1/refunds", true},
	{"https://api.stripe.com/v1/", "https://api.stripe.com/v1", false},
	{"https://api.stripe.com/v1/", "https://api.stripe.com/v10/", false},
	{"https://api.stripe.com", "https://api.stripe.com", true},
	{"https://api.stripe.com", "https://api.stripe.com/", true},
	{"https://api.stripe.com", "https://api.stripe.com/anything?q#f", true},
	{"https://api.stripe.com/", "https://api.stripe.com", true},
	{"https://api.stripe.com/", "https://api.stripe.com/v1/x", true},
	{"https://api.stripe.com", "https://api.stripe.com.evil.example/", false},
	{"https://api.stripe.com/", "https://api.stripe.com.evil.example/", false},
	{"https://api.stripe.com", "https://evil.example/api.stripe.com", false},
	{"https://api.stripe.com", "https://stripe.com/", false},
	{"https://stripe.com", "https://api.stripe.com/", false},
	// Case: scheme and host ignore case, path does not.
	{"HTTPS://API.Stripe.COM/v1", "https://api.stripe.com/v1/x", true},
	{"https://api.stripe.com/v1", "https://API.STRIPE.COM/v1", true},
	{"https://api.stripe.com/v1", "https://api.stripe.com/V1", false},
	// Scheme.
	{"https://api.stripe.com/", "http://api.stripe.com/", false},
	{"http://api.stripe.com/", "https://api.stripe.com/", false},
	// Ports: the explicit default port equals none.
	{"https://api.stripe.com/", "https://api.stripe.com:443/", true},
	{"https://api.stripe.com:443/", "https://api.stripe.com/v1", true},
	{"http://api.stripe.com/", "http://api.stripe.com:80/", true},
	{"http://api.stripe.com:80/", "http://api.stripe.com/", true},
	{"https://api.stripe.com/", "https://api.stripe.com:80/", false},
	{"http://api.stripe.com/", "http://api.stripe.com:443/", false},
	{"https://api.stripe.com/", "https://api.stripe.com:8443/", false},
	{"https://api.stripe.com:8443/", "https://api.stripe.com/", false},
	{"https://api.stripe.com:8443/", "https://api.stripe.com:8443/v1", true},
	{"https://api.stripe.com:08443/", "https://api.stripe.com:8443/v1", true},
	// An entry with a query covers only that exact path and query.
	{"https://api.x.com/v1?a=1", "https://api.x.com/v1?a=1", true},
	{"https://api.x.com/v1?a=1", "https://api.x.com/v1?a=2", false},
	{"https://api.x.com/v1?a=1", "https://api.x.com/v1", false},
	{"https://api.x.com/v1?a=1", "https://api.x.com/v1/x?a=1", false},
	// Refused entries or subjects, and aliases, never cover.
	{"alias:stripe", "alias:stripe", false},
	{"alias:stripe", "https://api.stripe.com/", false},
	{"https://api.stripe.com/", "alias:stripe", false},
	{"https://user@api.stripe.com/", "https://api.stripe.com/", false},
	{"https://api.stripe.com/", "https://user@api.stripe.com/", false},
	{"https://api.stripe.com/v1/", "https://api.stripe.com/v1/../admin", false},
	{"https://api.stripe.com/v1/", "https://api.stripe.com/v1/%2e%2e/admin", false},
	{"https://api.stripe.com/v1/..", "https://api.stripe.com/v1/../x", false},
	{"/v1/", "/v1/x", false},
	{"ftp://api.x.com/", "ftp://api.x.com/", false},
	{"", "", false},
	// gRPC methods, on service and method boundaries.
	{"grpc:/billing.Billing/Refund", "grpc:/billing.Billing/Refund", true},
	{"grpc:/billing.Billing/", "grpc:/billing.Billing/Refund", true},
	{"grpc:/billing.Billing/Refund", "grpc:/billing.Billing/RefundAll", false},
	{"grpc:/billing.Billing/", "grpc:/billing.BillingAdmin/Refund", false},
	{"grpc:/billing.Billing", "grpc:/billing.Billing/Refund", false},
	{"grpc:/billing.Billing/", "https://billing/Refund", false},
	{"https://billing/", "grpc:/billing.Billing/Refund", false},
	{"grpc:/billing.Billing/Refund", "grpc:/billing.Billing/Refund/x", false},
}

func TestCovers(t *testing.T) {
	for _, c := range coversCases {
		if got := Covers(c.entry, c.subject); got != c.want {
			t.Errorf("Covers(%q, %q) = %v; want %v", c.entry, c.subject, got, c.want)
		}
	}
}

func TestCheckEntry(t *testing.T) {
	cases := []struct {
		entry  string
		errHas string // "" when valid
	}{
		{"alias:stripe", ""},
		{"alias:Stripe_v2-eu.prod", ""},
		{"alias:0", ""},
		{"https://api.stripe.com/v1/refunds", ""},
		{"https://api.stripe.com", ""},
		{"HTTP://API.X.COM:8080/", ""},
		{"alias:", "empty name"},
		{"alias:a b", "letters, digits"},
		{"alias:a/b", "letters, digits"},
		{"alias:é", "letters, digits"},
		{"Alias:stripe", "not http or https"},
		{"", "relative URL"},
		{"/v1/refunds", "relative URL"},
		{"api.stripe.com/v1", "relative URL"},
		{"ftp://api.x.com/", "not http or https"},
		{"https://user:pass@api.x.com/", "userinfo"},
		{"https://user@api.x.com/", "userinfo"},
		{"https://api.x.com/%2e%2e/", "%2e"},
		{"https://api.x.com/%2E/", "%2e"},
		{"https://api.x.com/a/../b", `".." path segment`},
		{"https://api.x.com/..", `".." path segment`},
		{"https://", "empty host"},
		{"grpc:/billing.Billing/Refund", ""},
		{"grpc:/billing.v1.Billing/", ""},
		{"grpc:/billing.Billing", "not grpc:/package.Service/Method"},
		{"grpc:billing.Billing/Refund", "not grpc:/package.Service/Method"},
		{"grpc:/billing..Billing/Refund", "not grpc:/package.Service/Method"},
		{"grpc:/billing.Billing/Re fund", "not grpc:/package.Service/Method"},
		{"grpc:/", "not grpc:/package.Service/Method"},
	}
	for _, c := range cases {
		err := CheckEntry(c.entry)
		switch {
		case c.errHas == "" && err != nil:
			t.Errorf("CheckEntry(%q) = %v; want nil", c.entry, err)
		case c.errHas != "" && err == nil:
			t.Errorf("CheckEntry(%q) = nil; want error containing %q", c.entry, c.errHas)
		case c.errHas != "" && !strings.Contains(err.Error(), c.errHas):
			t.Errorf("CheckEntry(%q) = %q; want it to contain %q", c.entry, err, c.errHas)
		}
	}
}

// checkReadInvariants asserts the properties every successful Read result
// must have.
func checkReadInvariants(t *testing.T, text string, complete bool) {
	got, err := Read(text, complete)
	if err != nil {
		return
	}
	again, err := Read(got, true)
	if err != nil || again != got {
		t.Fatalf("Read(%q, %v) = %q, but Read(%q, true) = %q, %v", text, complete, got, got, again, err)
	}
	if !Covers(got, got) {
		t.Fatalf("Read(%q, %v) = %q, which does not cover itself", text, complete, got)
	}
	if CheckEntry(got) != nil {
		t.Fatalf("Read(%q, %v) = %q, which CheckEntry refuses: %v", text, complete, got, CheckEntry(got))
	}
	if !complete {
		// The proved prefix covers the complete URL the known text starts.
		if full, err := Read(text, true); err == nil && !Covers(got, full) {
			t.Fatalf("partial Read(%q) = %q does not cover the complete reading %q", text, got, full)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, c := range readCases {
		f.Add(c.text, c.complete)
	}
	for _, c := range coversCases {
		f.Add(c.entry, true)
		f.Add(c.subject, false)
	}
	f.Fuzz(checkReadInvariants)
}

func FuzzCovers(f *testing.F) {
	for _, c := range coversCases {
		f.Add(c.entry, c.subject)
	}
	f.Fuzz(func(t *testing.T, entry, subject string) {
		got := Covers(entry, subject)
		if strings.HasPrefix(entry, GRPCPrefix) || strings.HasPrefix(subject, GRPCPrefix) {
			// gRPC entries only cover gRPC subjects, both well formed.
			if got && (CheckGRPC(entry) != nil || CheckGRPC(subject) != nil) {
				t.Fatalf("Covers(%q, %q) = true on a malformed gRPC value", entry, subject)
			}
			return
		}
		if _, err := Read(entry, true); err != nil && got {
			t.Fatalf("Covers(%q, %q) = true, but the entry does not read: %v", entry, subject, err)
		}
		if _, err := Read(subject, true); err != nil && got {
			t.Fatalf("Covers(%q, %q) = true, but the subject does not read: %v", entry, subject, err)
		}
		checkReadInvariants(t, entry, true)
		checkReadInvariants(t, subject, false)
		// Covering is unaffected by normalising either side.
		ne, err1 := Read(entry, true)
		ns, err2 := Read(subject, true)
		if err1 == nil && err2 == nil && Covers(ne, ns) != got {
			t.Fatalf("Covers(%q, %q) = %v, but Covers(%q, %q) = %v", entry, subject, got, ne, ns, !got)
		}
	})
}
