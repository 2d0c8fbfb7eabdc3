// Package policy judges grants against an organisation policy: the
// `policy:` key of authvet.yaml, which a platform team uses to constrain
// what any grant may declare.
//
// The order is fixed: denials first (the deny lists of the matching
// rules, then the policy's; nothing overrides a denial), then ceilings
// (the highest max_reversibility among matching rules replaces the
// policy's; the union of matching rules' tenant_scopes replaces the
// policy's), then allow lists (if any matching rule has one, the union of
// the matching rules' lists applies and the policy's is skipped). Rules
// match the package that declares the grant, by Go package pattern.
package policy
