package manifest

import (
	"go/types"

	"github.com/authvet/authvet/analyzer"
	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/grant"
)

// safeMethods only read (RFC 9110 §9.2.1).
var safeMethods = map[string]bool{"GET": true, "HEAD": true, "OPTIONS": true, "TRACE": true}

// idempotentMethods may be repeated with one effect (RFC 9110 §9.2.2).
var idempotentMethods = map[string]bool{"GET": true, "HEAD": true, "OPTIONS": true, "TRACE": true, "PUT": true, "DELETE": true}

// mutates reports whether e may change state: every effect but a
// cross-tenant read and an outbound call with a proved safe method; an
// unprovable site may do anything unless it is an outbound call of
// unproved URL and proved safe method.
func mutates(e effects.Effect) bool {
	switch e.Kind {
	case effects.AssertedEffectFree, effects.CrossTenant:
		return false
	case effects.Outbound:
		return !e.Safe && !safeMethods[e.Method]
	case effects.Unprovable:
		return !(e.Egress && (e.Safe || safeMethods[e.Method]))
	}
	return true
}

// tool makes the tool row of an action: its declared hints, and the
// hints the proof supports.
func (b *builder) tool(t *toolDecl, a *Action, h *analyzer.Handler, sig *types.Signature) *Tool {
	out := &Tool{Name: t.name, DeclaredAnnotations: t.ann}
	if !t.resolved {
		out.Caveat = "the tool's name is not a constant"
	}
	d := &Derived{ReadOnlyHint: true}
	for _, e := range h.Effects {
		if mutates(e) {
			d.ReadOnlyHint = false
		}
	}
	// destructiveHint: upward from the route's verb, by the effects and
	// the grant's reversibility; a read-only tool destroys nothing.
	if !d.ReadOnlyHint {
		for _, r := range a.Routes {
			if r.Method == "DELETE" {
				d.DestructiveHint = true
			}
		}
		for _, e := range h.Effects {
			if e.Kind == effects.UnboundedWrite || e.Kind == effects.Unprovable && mutates(e) {
				d.DestructiveHint = true
			}
		}
		if h.Grant == nil || h.Grant.Grant.Reversibility == grant.Irreversible {
			d.DestructiveHint = true
		}
	}
	// idempotentHint: only from a route's method.
	if len(a.Routes) > 0 {
		idem := true
		for _, r := range a.Routes {
			idem = idem && idempotentMethods[r.Method]
		}
		d.IdempotentHint = &idem
	}
	if h.Grant != nil && h.Grant.Grant.Reversibility == grant.Irreversible {
		f := false
		d.ReversibleHint = &f
	}
	if sig != nil {
		d.SensitiveHint = sensitivity(sig, b.inModule)
	}
	out.DerivedAnnotations = d
	return out
}

// conflicts lists the declared hints of an action's tool that the proof
// contradicts.
func (b *builder) conflicts(a *Action, h *analyzer.Handler) []Conflict {
	ann := a.Tool.DeclaredAnnotations
	if ann == nil {
		return nil
	}
	var out []Conflict
	if ann.ReadOnlyHint != nil && *ann.ReadOnlyHint {
		for _, e := range h.Effects {
			if mutates(e) {
				out = append(out, Conflict{Tool: a.Tool.Name, Claim: "readOnlyHint: true", ContradictedBy: b.effect(e)})
				break
			}
		}
	}
	if ann.DestructiveHint != nil && !*ann.DestructiveHint {
		for _, e := range h.Effects {
			if e.Kind == effects.UnboundedWrite {
				out = append(out, Conflict{Tool: a.Tool.Name, Claim: "destructiveHint: false", ContradictedBy: b.effect(e)})
				break
			}
		}
	}
	return out
}
