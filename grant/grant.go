package grant

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/authvet/authvet/grant/urlprefix"
)

// TenantScope says whether a handler may run queries that are not filtered
// to the caller's tenant. The zero value means Scoped.
type TenantScope string

// The tenant scopes a Grant may declare.
const (
	// Scoped: every query must filter on the tenant column.
	Scoped TenantScope = "scoped"
	// CrossTenant: queries may span tenants (still recorded in the manifest).
	CrossTenant TenantScope = "cross_tenant"
	// SingleTenant: the application has no tenants, so no query is filtered.
	SingleTenant TenantScope = "none"
)

// Valid reports whether s is the zero value or one of Scoped, CrossTenant
// and SingleTenant.
func (s TenantScope) Valid() bool {
	switch s {
	case "", Scoped, CrossTenant, SingleTenant:
		return true
	}
	return false
}

// Reversibility says how hard a handler's effects are to undo. The values
// are ordered Reversible < Compensable < Irreversible; the zero value is
// not valid and Validate refuses it.
type Reversibility string

// The reversibility levels a Grant may declare, least to most severe.
const (
	// Reversible: every effect can simply be undone (bounded row writes only).
	Reversible Reversibility = "reversible"
	// Compensable: effects cannot be rolled back but can be compensated
	// for (a refund reversed, a follow-up message sent).
	Compensable Reversibility = "compensable"
	// Irreversible: effects cannot be undone or compensated for.
	Irreversible Reversibility = "irreversible"
)

// Rank returns r's position in the order Reversible (0) < Compensable (1)
// < Irreversible (2), or -1 if r is not one of those.
func (r Reversibility) Rank() int {
	switch r {
	case Reversible:
		return 0
	case Compensable:
		return 1
	case Irreversible:
		return 2
	}
	return -1
}

// Valid reports whether r is one of Reversible, Compensable and
// Irreversible.
func (r Reversibility) Valid() bool { return r.Rank() >= 0 }

// Effect kinds, as named by Allows, Floor, the analyzer's diagnostic
// categories and the authority manifest.
const (
	// KindWrite is a bounded write to a table.
	KindWrite = "write"
	// KindUnboundedWrite is a write to a table with no row bound.
	KindUnboundedWrite = "unbounded_write"
	// KindCrossTenant is a raw query on a table with no tenant predicate.
	KindCrossTenant = "cross_tenant"
	// KindOutbound is an HTTP request to a URL, URL prefix or alias.
	KindOutbound = "outbound"
	// KindJob is a job enqueued, by job kind.
	KindJob = "job"
	// KindWebhook is a webhook dispatched, by topic.
	KindWebhook = "webhook"
	// KindDetached is work that outlives the request; no grant allows it.
	KindDetached = "detached"
	// KindUnprovable is a site whose effect cannot be bounded; no grant
	// allows it.
	KindUnprovable = "unprovable"
	// KindAssertedEffectFree is a site declared effect-free with
	// //agent:effect none; it floors reversibility at Compensable.
	KindAssertedEffectFree = "asserted_effect_free"
)

// KindInfo describes one effect kind: the one table the directive keys,
// the configuration's sink effects, the floor and the analyzer's
// messages are derived from.
type KindInfo struct {
	Name string // the kind, as in KindWrite
	// Field is the Grant field that lists its subjects ("" when no
	// grant lists them: cross_tenant is TenantScope, detached and
	// unprovable are never allowed).
	Field string
	// Hatch is the //agent:effect key that declares it ("" when none:
	// cross_tenant is declared with scoped, effect-free with none).
	Hatch string
	// Sink reports whether authvet.yaml may configure a sink of the kind.
	Sink bool
	// Floor is the least Reversibility a handler with the effect may
	// declare.
	Floor Reversibility
	// Noun names a subject of the kind in messages ("table", "URL").
	Noun string
}

// Kinds lists every effect kind.
var Kinds = []KindInfo{
	{Name: KindWrite, Field: "Writes", Hatch: "writes", Sink: true, Floor: Reversible, Noun: "table"},
	{Name: KindUnboundedWrite, Field: "UnboundedWrites", Hatch: "unbounded_writes", Floor: Compensable, Noun: "table"},
	{Name: KindCrossTenant, Floor: Reversible, Noun: "table"},
	{Name: KindOutbound, Field: "Outbound", Hatch: "outbound", Sink: true, Floor: Compensable, Noun: "URL"},
	{Name: KindJob, Field: "Jobs", Hatch: "jobs", Sink: true, Floor: Compensable, Noun: "job kind"},
	{Name: KindWebhook, Field: "Webhooks", Hatch: "webhooks", Sink: true, Floor: Compensable, Noun: "topic"},
	{Name: KindDetached, Floor: Reversible},
	{Name: KindUnprovable, Floor: Reversible},
	{Name: KindAssertedEffectFree, Floor: Compensable},
}

// LookupKind returns the description of the named kind.
func LookupKind(name string) (KindInfo, bool) {
	for _, k := range Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return KindInfo{}, false
}

// Grant declares what an agent-callable handler may do. Declare it as a
// package-level variable initialised with a keyed composite literal whose
// fields are all constant expressions; authvet refuses anything else.
type Grant struct {
	// Writes lists the tables the handler may write with bounded writes.
	// Writes, UnboundedWrites name tables as SQL names them (lower-cased
	// unless quoted, schema kept: "billing.refunds").
	Writes []string
	// UnboundedWrites lists the tables the handler may write without a row
	// bound (UPDATE/DELETE with no WHERE, TRUNCATE); it implies Writes.
	UnboundedWrites []string
	// TenantScope says whether queries may span tenants.
	TenantScope TenantScope
	// Outbound lists absolute http(s) URL prefixes, "alias:NAME" entries,
	// and gRPC methods ("grpc:/package.Service/Method", or a whole service
	// as "grpc:/package.Service/") the handler may call.
	Outbound []string
	// Webhooks lists the webhook topics the handler may dispatch.
	Webhooks []string
	// Jobs lists the job kinds the handler may enqueue.
	Jobs []string
	// Rate is the declared call rate, "N/sec", "N/min", "N/hour" or
	// "N/day"; empty when not declared.
	Rate string
	// Spend is the declared spend limit, "AMOUNT CUR" such as
	// "500.00 USD"; empty when not declared.
	Spend string
	// Reversibility is how hard the handler's effects are to undo. It is
	// required.
	Reversibility Reversibility
}

// Problem is one thing wrong with a Grant.
type Problem struct {
	// Field is the name of the Grant field at fault.
	Field string
	// Index is the offending element of a list field, or -1 when the
	// problem is not with one list element.
	Index int
	// Msg is a short lower-case description of the problem.
	Msg string
}

// String formats p as "Field: msg", or "Field[i]: msg" for a list element.
func (p Problem) String() string {
	if p.Index >= 0 {
		return fmt.Sprintf("%s[%d]: %s", p.Field, p.Index, p.Msg)
	}
	return p.Field + ": " + p.Msg
}

// ValidationError is the error Validate returns: every problem found in a
// Grant, in field order.
type ValidationError struct {
	Problems []Problem
}

// Error joins the problems, each formatted as by Problem.String, with "; ".
func (e *ValidationError) Error() string {
	s := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		s[i] = p.String()
	}
	return strings.Join(s, "; ")
}

// Validate reports every problem with g, as a *ValidationError, or returns
// nil if there are none. It refuses a missing or unknown Reversibility, an
// unknown TenantScope, a malformed Rate or Spend, an Outbound entry that is
// not an absolute http(s) URL prefix, "alias:NAME" or "grpc:/pkg.Service/[Method]" (or that defeats its
// own prefix with userinfo, "%2e" or a ".." segment), empty or duplicate
// subjects within one list, and table names containing whitespace.
func (g Grant) Validate() error {
	var ps []Problem
	add := func(field string, index int, format string, args ...any) {
		ps = append(ps, Problem{Field: field, Index: index, Msg: fmt.Sprintf(format, args...)})
	}

	list := func(field string, subjects []string, check func(string) error) {
		first := make(map[string]int, len(subjects))
		for i, s := range subjects {
			if s == "" {
				add(field, i, "empty subject")
				continue
			}
			if j, dup := first[s]; dup {
				add(field, i, "duplicate subject %q (first at index %d)", s, j)
				continue
			}
			first[s] = i
			if check != nil {
				if err := check(s); err != nil {
					add(field, i, "%v", err)
				}
			}
		}
	}
	list("Writes", g.Writes, checkTable)
	list("UnboundedWrites", g.UnboundedWrites, checkTable)

	if !g.TenantScope.Valid() {
		add("TenantScope", -1, "unknown TenantScope %q; valid values are %q (grant.Scoped), %q (grant.CrossTenant) and %q (grant.SingleTenant)",
			string(g.TenantScope), Scoped, CrossTenant, SingleTenant)
	}

	list("Outbound", g.Outbound, urlprefix.CheckEntry)
	list("Webhooks", g.Webhooks, nil)
	list("Jobs", g.Jobs, nil)

	if g.Rate != "" {
		if err := checkRate(g.Rate); err != nil {
			add("Rate", -1, "%v", err)
		}
	}
	if g.Spend != "" {
		if err := checkSpend(g.Spend); err != nil {
			add("Spend", -1, "%v", err)
		}
	}

	switch {
	case g.Reversibility == "":
		add("Reversibility", -1, "missing Reversibility; set grant.Reversible, grant.Compensable or grant.Irreversible")
	case !g.Reversibility.Valid():
		add("Reversibility", -1, "unknown Reversibility %q; valid values are %q (grant.Reversible), %q (grant.Compensable) and %q (grant.Irreversible)",
			string(g.Reversibility), Reversible, Compensable, Irreversible)
	}

	if len(ps) == 0 {
		return nil
	}
	return &ValidationError{Problems: ps}
}

// checkTable validates a Writes or UnboundedWrites table name.
func checkTable(name string) error {
	if i := strings.IndexFunc(name, unicode.IsSpace); i >= 0 {
		return fmt.Errorf("table name %q contains whitespace", name)
	}
	return nil
}

// rateUnits are the units a Rate may be expressed in.
var rateUnits = []string{"sec", "min", "hour", "day"}

// checkRate validates a non-empty Rate: "N/sec|min|hour|day", N ≥ 1.
func checkRate(rate string) error {
	bad := fmt.Errorf("rate %q is not N/sec, N/min, N/hour or N/day with a whole number N ≥ 1", rate)
	n, unit, ok := strings.Cut(rate, "/")
	if !ok || n == "" || n[0] < '1' || n[0] > '9' || !allDigits(n) {
		return bad
	}
	if _, err := strconv.ParseInt(n, 10, 64); err != nil {
		return fmt.Errorf("rate %q: %s is too large", rate, n)
	}
	if !slices.Contains(rateUnits, unit) {
		return bad
	}
	return nil
}

// checkSpend validates a non-empty Spend: "AMOUNT CUR", a positive decimal
// amount and a 3-letter upper-case currency code.
func checkSpend(spend string) error {
	amount, cur, ok := strings.Cut(spend, " ")
	whole, frac, hasFrac := strings.Cut(amount, ".")
	if !ok || whole == "" || !allDigits(whole) || hasFrac && (frac == "" || !allDigits(frac)) {
		return fmt.Errorf("spend %q is not AMOUNT CUR, a decimal amount and a 3-letter upper-case currency (e.g. \"500.00 USD\")", spend)
	}
	if len(cur) != 3 || !allUpper(cur) {
		return fmt.Errorf("spend %q: currency %q is not 3 upper-case letters", spend, cur)
	}
	if strings.Trim(whole+frac, "0") == "" {
		return fmt.Errorf("spend %q: amount must be positive", spend)
	}
	return nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func allUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// Allows reports whether g allows one effect of the given kind (one of the
// Kind constants) on subject:
//   - write: subject is in Writes or UnboundedWrites;
//   - unbounded_write: subject is in UnboundedWrites;
//   - cross_tenant: TenantScope is CrossTenant or SingleTenant (subject is
//     ignored);
//   - outbound: an "alias:NAME" subject must be in Outbound exactly; a URL
//     or URL prefix must be covered by a URL entry (see urlprefix.Covers:
//     scheme, host and port equal, and the entry's path a whole-segment
//     prefix of the subject's);
//   - job: subject is in Jobs; webhook: subject is in Webhooks;
//   - detached, unprovable and any other kind: never allowed.
//
// Table, job and topic subjects compare exactly.
func (g Grant) Allows(kind, subject string) bool {
	switch kind {
	case KindWrite:
		return slices.Contains(g.Writes, subject) || slices.Contains(g.UnboundedWrites, subject)
	case KindUnboundedWrite:
		return slices.Contains(g.UnboundedWrites, subject)
	case KindCrossTenant:
		return g.TenantScope == CrossTenant || g.TenantScope == SingleTenant
	case KindOutbound:
		if strings.HasPrefix(subject, urlprefix.AliasPrefix) {
			return slices.Contains(g.Outbound, subject)
		}
		for _, e := range g.Outbound {
			if !strings.HasPrefix(e, urlprefix.AliasPrefix) && urlprefix.Covers(e, subject) {
				return true
			}
		}
		return false
	case KindJob:
		return slices.Contains(g.Jobs, subject)
	case KindWebhook:
		return slices.Contains(g.Webhooks, subject)
	}
	return false
}

// Floor returns the least Reversibility a grant may declare for a handler
// with effects of the given kinds: Compensable if any kind is
// unbounded_write, outbound, job, webhook or asserted_effect_free, and
// Reversible otherwise (write, cross_tenant, detached and unprovable set no
// floor).
func Floor(kinds ...string) Reversibility {
	floor := Reversible
	for _, k := range kinds {
		if info, ok := LookupKind(k); ok && info.Floor.Rank() > floor.Rank() {
			floor = info.Floor
		}
	}
	return floor
}
