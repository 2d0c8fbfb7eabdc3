package config

import (
	"errors"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/authvet/authvet/grant"
	"github.com/authvet/authvet/grant/urlprefix"
	"github.com/authvet/authvet/policy"
)

var (
	limitKeys       = []string{"max_reversibility", "tenant_scopes", "deny_outbound", "allow_outbound", "deny_writes", "deny_jobs", "deny_webhooks"}
	validPolicyKeys = append([]string{"name", "rules"}, limitKeys...)
	validRuleKeys   = append([]string{"name", "packages"}, limitKeys...)
)

// policy reads the organisation policy.
func (p *parser) policy(keyLine int, v *yaml.Node) (*policy.Policy, error) {
	if isNull(v) {
		return nil, nil
	}
	if v.Kind != yaml.MappingNode {
		return nil, p.errorf(v.Line, "policy: expected a mapping with keys %s", strings.Join(validPolicyKeys, ", "))
	}
	pol := &policy.Policy{}
	err := p.entries(v, "policy: ", validPolicyKeys, func(key string, k, val *yaml.Node) error {
		switch key {
		case "name":
			if !isString(val) || val.Value == "" {
				return p.errorf(val.Line, "policy: name: expected a non-empty string, got %s", describe(val))
			}
			pol.Name = val.Value
		case "rules":
			if val.Kind != yaml.SequenceNode {
				return p.errorf(val.Line, "policy: rules: expected a list of rules (each with name, packages and limits)")
			}
			for _, e := range val.Content {
				r, err := p.rule(deref(e))
				if err != nil {
					return err
				}
				for _, prev := range pol.Rules {
					if prev.Name == r.Name {
						return p.errorf(r.Line, "policy: rules: duplicate rule name %q (first at line %d)", r.Name, prev.Line)
					}
				}
				pol.Rules = append(pol.Rules, r)
			}
		default:
			return p.limit(&pol.Limits, "policy: ", key, val)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if pol.Name == "" {
		return nil, p.errorf(keyLine, "policy: missing required key %q (violations name the policy)", "name")
	}
	return pol, nil
}

func (p *parser) rule(e *yaml.Node) (policy.Rule, error) {
	r := policy.Rule{Line: e.Line}
	if e.Kind != yaml.MappingNode {
		return r, p.errorf(e.Line, "policy: rules: expected a mapping with keys %s", strings.Join(validRuleKeys, ", "))
	}
	err := p.entries(e, "policy: rules: ", validRuleKeys, func(key string, k, val *yaml.Node) error {
		switch key {
		case "name":
			if !isString(val) || val.Value == "" {
				return p.errorf(val.Line, "policy: rules: name: expected a non-empty string, got %s", describe(val))
			}
			r.Name = val.Value
		case "packages":
			pkgs, err := p.packagePatterns(val, "policy: rules: packages")
			if err != nil {
				return err
			}
			r.Packages = pkgs
		default:
			return p.limit(&r.Limits, "policy: rules: ", key, val)
		}
		return nil
	})
	if err != nil {
		return r, err
	}
	if r.Name == "" {
		return r, p.errorf(e.Line, "policy: rules: missing required key %q", "name")
	}
	if len(r.Packages) == 0 {
		return r, p.errorf(e.Line, "policy: rules: rule %q: missing required key %q", r.Name, "packages")
	}
	return r, nil
}

// limit reads one limit key into l.
func (p *parser) limit(l *policy.Limits, where, key string, val *yaml.Node) error {
	switch key {
	case "max_reversibility":
		if !isString(val) || !grant.Reversibility(val.Value).Valid() {
			return p.errorf(val.Line, "%smax_reversibility: expected reversible, compensable or irreversible, got %s", where, describe(val))
		}
		l.MaxReversibility = val.Value
		return nil
	}
	list, err := p.stringList(val, where+key)
	if err != nil {
		return err
	}
	for i, s := range list {
		line := deref(val.Content[i]).Line
		var bad error
		switch key {
		case "tenant_scopes":
			if !grant.TenantScope(s).Valid() || s == "" {
				bad = errors.New("expected scoped, cross_tenant or none")
			}
		case "deny_outbound", "allow_outbound":
			bad = checkOutbound(s)
		default:
			if strings.TrimSpace(s) == "" {
				bad = errors.New("empty name")
			}
		}
		if bad != nil {
			return p.errorf(line, "%s%s: %q: %v", where, key, s, bad)
		}
	}
	switch key {
	case "tenant_scopes":
		l.TenantScopes = list
	case "deny_outbound":
		l.DenyOutbound = list
	case "allow_outbound":
		l.AllowOutbound = list
	case "deny_writes":
		l.DenyWrites = list
	case "deny_jobs":
		l.DenyJobs = list
	case "deny_webhooks":
		l.DenyWebhooks = list
	}
	return nil
}

// stringList reads a list of strings (an empty list is a list: an allow
// list that allows nothing).
func (p *parser) stringList(v *yaml.Node, where string) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.errorf(v.Line, "%s: expected a list of strings, got %s", where, describe(v))
	}
	out := []string{}
	for _, e := range v.Content {
		e = deref(e)
		if !isString(e) {
			return nil, p.errorf(e.Line, "%s: %s is not a string", where, describe(e))
		}
		out = append(out, e.Value)
	}
	return out, nil
}

// checkOutbound validates a policy outbound entry: a URL prefix, a whole
// scheme ("http://"), "alias:NAME" or "grpc:...".
func checkOutbound(s string) error {
	switch {
	case strings.HasPrefix(s, "grpc:"):
		if len(s) == len("grpc:") {
			return errors.New("empty grpc: entry")
		}
		return nil
	case strings.EqualFold(s, "http://"), strings.EqualFold(s, "https://"):
		return nil
	}
	return urlprefix.CheckEntry(s)
}
