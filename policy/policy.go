package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/authvet/authvet/grant"
	"github.com/authvet/authvet/grant/urlprefix"
)

// Limits are what a policy or one of its rules sets.
type Limits struct {
	MaxReversibility string   // "" when not set
	TenantScopes     []string // nil when not set
	DenyOutbound     []string
	AllowOutbound    []string // nil when not set
	DenyWrites       []string
	DenyJobs         []string
	DenyWebhooks     []string
}

// Policy is an organisation policy.
type Policy struct {
	Name string
	Limits
	Rules []Rule
}

// Rule is a named set of limits for the packages its patterns match.
type Rule struct {
	Name     string
	Packages []string // "example.com/x/pay" or "example.com/x/pay/..."
	Limits
	Line int
}

// Matches reports whether the rule applies to the package pkgPath.
func (r *Rule) Matches(pkgPath string) bool { return MatchPackage(r.Packages, pkgPath) }

// MatchPackage reports whether pkgPath matches one of the Go package
// patterns: an exact path, or a path ending in "/..." for it and its
// subpackages ("example.com/x/pay" does not match "example.com/x/payments").
func MatchPackage(patterns []string, pkgPath string) bool {
	for _, p := range patterns {
		if rest, ok := strings.CutSuffix(p, "/..."); ok {
			if pkgPath == rest || strings.HasPrefix(pkgPath, rest+"/") {
				return true
			}
		} else if pkgPath == p {
			return true
		}
	}
	return false
}

// Violation is one grant element the policy refuses.
type Violation struct {
	Field string // the grant field: "Outbound", "Writes", "Reversibility", ...
	Index int    // the element of a list field, or -1
	Msg   string // outbound "http://x" denied by rule "tls-only"
}

// Judge returns the violations of g, declared in package pkgPath, in the
// policy's order: denials, ceilings, allow lists.
func (p *Policy) Judge(pkgPath string, g grant.Grant) []Violation {
	if p == nil {
		return nil
	}
	var rules []*Rule
	for i := range p.Rules {
		if p.Rules[i].Matches(pkgPath) {
			rules = append(rules, &p.Rules[i])
		}
	}
	var out []Violation
	denied := map[string]map[int]bool{}
	deny := func(field string, entries []string, lists func(*Limits) []string, matches func(deny, entry string) bool, noun string) {
		for i, entry := range entries {
			by := ""
			for _, r := range rules {
				if slices.ContainsFunc(lists(&r.Limits), func(d string) bool { return matches(d, entry) }) {
					by = fmt.Sprintf("rule %q", r.Name)
					break
				}
			}
			if by == "" && slices.ContainsFunc(lists(&p.Limits), func(d string) bool { return matches(d, entry) }) {
				by = p.by()
			}
			if by != "" {
				if denied[field] == nil {
					denied[field] = map[int]bool{}
				}
				denied[field][i] = true
				out = append(out, Violation{Field: field, Index: i, Msg: fmt.Sprintf("%s %q denied by %s", noun, entry, by)})
			}
		}
	}
	// 1. Denials.
	deny("Outbound", g.Outbound, func(l *Limits) []string { return l.DenyOutbound }, urlOverlap, "outbound")
	deny("Writes", g.Writes, func(l *Limits) []string { return l.DenyWrites }, sameName, "write")
	deny("UnboundedWrites", g.UnboundedWrites, func(l *Limits) []string { return l.DenyWrites }, sameName, "unbounded write")
	deny("Jobs", g.Jobs, func(l *Limits) []string { return l.DenyJobs }, sameName, "job")
	deny("Webhooks", g.Webhooks, func(l *Limits) []string { return l.DenyWebhooks }, sameName, "webhook")

	// 2. Ceilings.
	maxRev, revBy := p.MaxReversibility, p.by()
	ruleRev := ""
	for _, r := range rules {
		if r.MaxReversibility != "" && (ruleRev == "" || grant.Reversibility(r.MaxReversibility).Rank() > grant.Reversibility(ruleRev).Rank()) {
			ruleRev, revBy = r.MaxReversibility, fmt.Sprintf("rule %q", r.Name)
		}
	}
	if ruleRev != "" {
		maxRev = ruleRev
	}
	if maxRev != "" && g.Reversibility.Valid() && g.Reversibility.Rank() > grant.Reversibility(maxRev).Rank() {
		out = append(out, Violation{Field: "Reversibility", Index: -1,
			Msg: fmt.Sprintf("reversibility %q exceeds the allowed %q (%s)", g.Reversibility, maxRev, revBy)})
	}
	scopes, scopeBy := p.TenantScopes, p.by()
	var ruleScopes, scopeRules []string
	for _, r := range rules {
		if r.TenantScopes != nil {
			ruleScopes = append(ruleScopes, r.TenantScopes...)
			scopeRules = append(scopeRules, fmt.Sprintf("%q", r.Name))
		}
	}
	if scopeRules != nil {
		scopes, scopeBy = ruleScopes, plural("rule", scopeRules)
	}
	scope := string(g.TenantScope)
	if scope == "" {
		scope = string(grant.Scoped)
	}
	if scopes != nil && !slices.Contains(scopes, scope) {
		allowed := slices.Clone(scopes)
		slices.Sort(allowed)
		out = append(out, Violation{Field: "TenantScope", Index: -1,
			Msg: fmt.Sprintf("tenant scope %q is not allowed (allowed: %s) (%s)", scope, strings.Join(slices.Compact(allowed), ", "), scopeBy)})
	}

	// 3. Allow lists.
	allow, allowBy := p.AllowOutbound, p.by()
	var ruleAllow, allowRules []string
	for _, r := range rules {
		if r.AllowOutbound != nil {
			ruleAllow = append(ruleAllow, r.AllowOutbound...)
			allowRules = append(allowRules, fmt.Sprintf("%q", r.Name))
		}
	}
	if allowRules != nil {
		allow, allowBy = ruleAllow, plural("rule", allowRules)
	}
	if allow != nil {
		for i, entry := range g.Outbound {
			if denied["Outbound"][i] {
				continue // reported as denied
			}
			if !slices.ContainsFunc(allow, func(a string) bool { return urlCovers(a, entry) }) {
				out = append(out, Violation{Field: "Outbound", Index: i,
					Msg: fmt.Sprintf("outbound %q not in the allow list of %s", entry, allowBy)})
			}
		}
	}
	return out
}

func (p *Policy) by() string { return fmt.Sprintf("policy %q", p.Name) }

func plural(noun string, names []string) string {
	if len(names) == 1 {
		return noun + " " + names[0]
	}
	return noun + "s " + strings.Join(names, ", ")
}

func sameName(a, b string) bool { return a == b }

// isOpaque reports whether an outbound value is compared as written:
// "alias:NAME", "grpc:...".
func isOpaque(s string) bool {
	return strings.HasPrefix(s, urlprefix.AliasPrefix) || strings.HasPrefix(s, "grpc:")
}

// schemeOnly reports whether a policy entry names a whole scheme
// ("http://"), and which.
func schemeOnly(s string) (string, bool) {
	scheme, rest, ok := strings.Cut(s, "://")
	return strings.ToLower(scheme), ok && rest == "" && (strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https"))
}

// urlCovers reports whether the policy entry a covers the grant entry g
// on URL boundaries (default ports equal none); opaque entries only
// match as written.
func urlCovers(a, g string) bool {
	if isOpaque(a) || isOpaque(g) {
		return a == g
	}
	if scheme, ok := schemeOnly(a); ok {
		gs, _, _ := strings.Cut(g, "://")
		return strings.EqualFold(gs, scheme)
	}
	return urlprefix.Covers(a, g)
}

// urlOverlap: a grant entry is denied when a denied prefix covers it, or
// when it covers a denied prefix (granting https://api.x.com/ would grant
// the denied https://api.x.com/v1/admin).
func urlOverlap(deny, g string) bool {
	if urlCovers(deny, g) {
		return true
	}
	if isOpaque(deny) || isOpaque(g) {
		return false
	}
	if _, ok := schemeOnly(deny); ok {
		return false
	}
	return urlprefix.Covers(g, deny)
}
