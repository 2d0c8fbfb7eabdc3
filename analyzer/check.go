package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/grant"
)

// lookupGrant resolves the grant= value of a directive.
func (a *run) lookupGrant(h *operable) (*GrantFact, string) {
	name := h.grant
	var obj types.Object
	if pkg, member, ok := strings.Cut(name, "."); ok {
		// The handler's own file first, then any file of the package: a
		// file that names a grant only in directives cannot import its
		// package (Go refuses an unused import).
		pn, _ := a.pass.TypesInfo.Scopes[h.file].Lookup(pkg).(*types.PkgName)
		for _, f := range a.pass.Files {
			if pn != nil {
				break
			}
			pn, _ = a.pass.TypesInfo.Scopes[f].Lookup(pkg).(*types.PkgName)
		}
		var imported *types.Package
		if pn != nil {
			imported = pn.Imported()
		} else {
			// A blank or renamed import (import _ ".../grants") still
			// imports the package: its own name resolves the grant.
			for _, ip := range a.pass.Pkg.Imports() {
				if ip.Name() != pkg {
					continue
				}
				if imported != nil && imported != ip {
					return nil, fmt.Sprintf("grant %s: the package imports two packages named %s (%s and %s); import the grant's under that name", name, pkg, imported.Path(), ip.Path())
				}
				imported = ip
			}
		}
		if imported == nil {
			return nil, fmt.Sprintf("grant %s: no file of the package imports a package named %s", name, pkg)
		}
		obj = imported.Scope().Lookup(member)
	} else {
		obj = a.pass.Pkg.Scope().Lookup(name)
	}
	if obj == nil {
		return nil, fmt.Sprintf("grant %s is not declared", name)
	}
	if !isGrantVar(obj) {
		return nil, fmt.Sprintf("%s is not a grant variable (a package-level var of type grant.Grant)", name)
	}
	if f, ok := a.grants[obj]; ok {
		return f, ""
	}
	var f GrantFact
	if a.pass.ImportObjectFact(obj, &f) {
		return &f, ""
	}
	return nil, fmt.Sprintf("grant %s was not read by authvet (is its package analysed with the same authvet?)", name)
}

// checkHandler reports every effect of the handler its grant does not
// allow, at the call site in the handler that causes it, and a
// reversibility below the floor at the directive.
func (a *run) checkHandler(h *operable, eng *effects.Engine, sum *effects.Summary) {
	g, problem := a.lookupGrant(h)
	name := handlerName(h.decl)
	effs := eng.Finalize(sum, a.module)
	effs = a.unreachedNoneHatches(h, effs)
	if KeepResults {
		obj, _ := a.pass.TypesInfo.Defs[h.decl.Name].(*types.Func)
		a.result.Handlers = append(a.result.Handlers, Handler{Func: obj, Name: name, Pos: h.decl.Name.Pos(), GrantName: h.grant, Grant: g, Effects: effs})
	}
	if problem != "" {
		a.diags = append(a.diags, analysis.Diagnostic{Pos: h.pos, Category: "directive",
			Message: fmt.Sprintf("agent authority: %s: %s", name, problem)})
		return
	}
	var kinds []string
	var floorSetter *effects.Effect
	unprovableAt := map[effects.Position]int{} // report position -> index in a.diags
	extra := map[int]int{}
	said := map[diagKey]bool{}
	sameEffect := map[siteKey]int{} // one effect at one call -> index in a.diags
	for i := range effs {
		e := &effs[i]
		kinds = append(kinds, e.Kind)
		if floorSetter == nil && grant.Floor(e.Kind) == grant.Compensable {
			floorSetter = e
		}
		if e.Kind == effects.AssertedEffectFree {
			if e.Module == a.module {
				continue
			}
			// Another module's //agent:effect none (a dependency, a
			// sibling wired with replace): its author's word binds that
			// module's handlers, not this one's, so the statement is one
			// the analysis could not read (SPEC §4.1).
			c := *e
			c.Kind = effects.Unprovable
			c.Reason = fmt.Sprintf("reaches a statement that module %s declares effect-free (//agent:effect none), which binds only that module's own handlers", e.Module)
			c.Fix = "declare the call in this module with //agent:effect"
			e = &c
		}
		if e.Kind != effects.Unprovable && e.Kind != effects.Detached && g.Grant.Allows(e.Kind, e.Subject) {
			continue
		}
		if e.Kind == effects.Unprovable {
			// One call, one diagnostic: every unprovable site a call
			// reaches (a logger's six interface calls, the alternatives
			// of one string) is reported once, at the call.
			at := e.Report()
			if i, ok := unprovableAt[at]; ok {
				d := &a.diags[i]
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: a.posFor(e.Pos), Message: "also unprovable: " + e.Reason})
				extra[i]++
				continue
			}
			unprovableAt[at] = len(a.diags)
		}
		d := a.effectDiagnostic(name, g.Name, e)
		// Two sites that differ only in what the message does not say
		// (how the analysis reached them) are one finding.
		if k := (diagKey{d.Pos, d.Message}); !said[k] {
			said[k] = true
			// One call, one diagnostic per effect: the same write reached
			// at two sites behind the call (a helper's tx and pool
			// branches) is one finding, the other site related.
			sk := siteKey{d.Pos, e.Kind, e.Subject, e.Method, e.Reason}
			if i, ok := sameEffect[sk]; ok && e.Kind != effects.Unprovable {
				a.diags[i].Related = append(a.diags[i].Related, analysis.RelatedInformation{Pos: a.posFor(e.Pos), Message: siteNoun[e.Kind] + " is also here"})
				continue
			}
			sameEffect[sk] = len(a.diags)
			a.diags = append(a.diags, d)
		}
	}
	for i, n := range extra {
		a.diags[i].Message += fmt.Sprintf(" (and %d more unprovable %s through this call)", n, plural(n, "site", "sites"))
	}
	floor := grant.Floor(kinds...)
	if g.Valid && g.Grant.Reversibility.Valid() && g.Grant.Reversibility.Rank() < floor.Rank() && floorSetter != nil {
		a.diags = append(a.diags, analysis.Diagnostic{
			Pos:      h.pos,
			Category: "reversibility",
			Message: fmt.Sprintf("agent authority: %s is declared %s by grant %s, but its effects floor it at %s: %s at %s; declare Reversibility: grant.Compensable (or grant.Irreversible), or remove the effect",
				name, g.Grant.Reversibility, g.Name, floor, describe(floorSetter), a.where(floorSetter)),
			Related: []analysis.RelatedInformation{{Pos: a.posFor(floorSetter.Report()), Message: "the effect that sets the floor"}},
		})
	}
}

func describe(e *effects.Effect) string {
	switch e.Kind {
	case effects.AssertedEffectFree:
		return "an //agent:effect none site"
	case effects.UnboundedWrite:
		return fmt.Sprintf("an unbounded write to %q", e.Subject)
	case effects.Outbound:
		return fmt.Sprintf("an outbound call to %q", e.Subject)
	case effects.Job:
		return fmt.Sprintf("job %q", e.Subject)
	case effects.Webhook:
		return fmt.Sprintf("webhook %q", e.Subject)
	}
	return fmt.Sprintf("%s %q", e.Kind, e.Subject)
}

// siteNoun names the site of an effect, for related information.
var siteNoun = map[string]string{
	effects.Write:          "the write",
	effects.UnboundedWrite: "the unbounded write",
	effects.CrossTenant:    "the raw query",
	effects.Outbound:       "the outbound call",
	effects.Job:            "the enqueue",
	effects.Webhook:        "the dispatch",
	effects.Detached:       "the goroutine's start",
	effects.Unprovable:     "the unprovable site",
}

// listed describes the effects a grant allows by listing their subjects.
var listed = map[string]struct{ verb, field, noun string }{
	effects.Write:   {"writes", "Writes", "write"},
	effects.Job:     {"starts job", "Jobs", "enqueue"},
	effects.Webhook: {"dispatches webhook", "Webhooks", "dispatch"},
}

func (a *run) effectDiagnostic(handler, grantName string, e *effects.Effect) analysis.Diagnostic {
	// The message keeps SPEC §5's shapes verbatim; where the effect is
	// reached through a call, the inner site follows in parentheses (and
	// as related information).
	at := ""
	if len(e.Via) > 0 {
		at = " (at " + a.rel(e.Pos) + ")"
	}
	var msg string
	switch e.Kind {
	case effects.Write, effects.Job, effects.Webhook:
		m := listed[e.Kind]
		msg = fmt.Sprintf("%s %s %q, which grant %s does not allow; add %q to its %s, or move the %s out of the agent-operable handler",
			handler, m.verb, e.Subject, grantName, e.Subject, m.field, m.noun)
	case effects.UnboundedWrite:
		msg = fmt.Sprintf("%s writes every row of %q (an UPDATE or DELETE with no WHERE, a TRUNCATE, or a data-changing CTE), which grant %s does not allow; add %q to its UnboundedWrites, bound the statement with a WHERE, or move the write out of the agent-operable handler",
			handler, e.Subject, grantName, e.Subject)
	case effects.CrossTenant:
		table := strings.TrimPrefix(e.Subject, "raw_query:")
		col := "tenant_id"
		if len(a.cfg.TenantColumns) > 0 {
			col = a.cfg.TenantColumns[0]
		}
		msg = fmt.Sprintf("%s runs a raw query on %q with no tenant predicate, which grant %s does not allow (its TenantScope is not cross_tenant); filter on %s, declare the statement //agent:effect scoped, or set TenantScope: grant.CrossTenant",
			handler, table, grantName, col)
	case effects.Outbound:
		method := ""
		if e.Method != "" {
			method = " (" + e.Method + ")"
		}
		msg = fmt.Sprintf("%s calls out to %q%s, which grant %s does not allow; add %q (or a prefix of it) to its Outbound, or move the call out of the agent-operable handler",
			handler, e.Subject, method, grantName, e.Subject)
	case effects.Detached:
		msg = fmt.Sprintf("%s %s; the work outlives the request it is audited under; use a job the grant names, or sync.WaitGroup.Go / errgroup (no grant allows it, %s included)",
			handler, e.Reason, grantName)
	default: // unprovable
		msg = fmt.Sprintf("%s %s; %s (grant %s cannot bound it)", handler, e.Reason, e.Fix, grantName)
	}
	msg += at
	d := analysis.Diagnostic{
		Pos:      a.posFor(e.Report()),
		Category: e.Kind,
		Message:  "agent authority: " + msg,
	}
	chain := append(slices.Clone(e.Via[min(1, len(e.Via)):]), e.Pos)
	for i, v := range chain {
		if len(e.Via) == 0 {
			break
		}
		if i+1 < len(chain) && (v == chain[i+1] || v == e.Pos) {
			continue // a step the chain repeats, or the site itself
		}
		m := "reached through this call"
		if v == e.Pos {
			m = siteNoun[e.Kind] + " is here"
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: a.posFor(v), Message: m})
	}
	return d
}

// posFor converts a Position to a token.Pos of the pass's FileSet. A file
// outside the package gets a small synthetic token.File, so related
// information can point into other packages and modules.
func (a *run) posFor(p effects.Position) token.Pos {
	if !p.IsValid() {
		return token.NoPos
	}
	for _, f := range a.pass.Files {
		tf := a.pass.Fset.File(f.Pos())
		if tf != nil && tf.Name() == p.File {
			if p.Line > tf.LineCount() {
				return token.Pos(tf.Base())
			}
			start := tf.LineStart(p.Line)
			off := int(start) - tf.Base() + p.Col - 1
			if off > tf.Size() {
				off = tf.Size()
			}
			return tf.Pos(off)
		}
	}
	// Lines 1..Line-1 are one byte each; the last line is long enough for Col.
	lines := make([]int, p.Line)
	for i := range lines {
		lines[i] = i
	}
	tf := a.pass.Fset.AddFile(p.File, -1, p.Line+p.Col+1)
	tf.SetLines(lines)
	return tf.Pos(p.Line - 1 + p.Col - 1)
}

// where locates an effect: the handler's call, and the inner site when
// the effect is reached through it.
func (a *run) where(e *effects.Effect) string {
	if len(e.Via) == 0 {
		return a.rel(e.Pos)
	}
	return a.rel(e.Report()) + " (reaching " + a.rel(e.Pos) + ")"
}

// rel prints a position relative to the root of the module that holds it.
func (a *run) rel(p effects.Position) string {
	return fmt.Sprintf("%s:%d", relFile(p.File), p.Line)
}

// relFile makes file relative to the root of its module, or, inside the
// module cache, to "module@version".
func relFile(file string) string {
	if i := strings.Index(filepath.ToSlash(file), "/pkg/mod/"); i >= 0 {
		return filepath.ToSlash(file)[i+len("/pkg/mod/"):]
	}
	for dir := filepath.Dir(file); ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			if r, err := filepath.Rel(dir, file); err == nil {
				return filepath.ToSlash(r)
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return filepath.Base(file)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// handlerName names a handler as a reader finds it: a function by its
// name, a method with its receiver type, (*jobCancelEndpoint).Execute,
// so that three endpoints' Execute methods are told apart.
func handlerName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if se, ok := t.(*ast.StarExpr); ok {
		star, t = "*", se.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr: // a generic receiver T[P]
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return fd.Name.Name
	}
	return "(" + star + id.Name + ")." + fd.Name.Name
}

// siteKey is one effect reported at one call of the handler.
type siteKey struct {
	pos                           token.Pos
	kind, subject, method, reason string
}

type diagKey struct {
	pos token.Pos
	msg string
}

// unreachedNoneHatches adds, for each //agent:effect none in the
// handler's body that covers no site the walk reached (a closure's
// definition: f := func() {...}), the asserted-effect-free site it still
// is: the author took a statement out of the proof, so the handler is
// no longer provably reversible (SPEC §5).
func (a *run) unreachedNoneHatches(h *operable, effs []effects.Effect) []effects.Effect {
	have := map[effects.Position]bool{}
	for i := range effs {
		if effs[i].Kind == effects.AssertedEffectFree {
			have[effs[i].Pos] = true
		}
	}
	for _, ht := range a.hatches {
		if !ht.None || ht.Start < h.decl.Pos() || ht.End > h.decl.End() {
			continue
		}
		at := effects.PositionOf(a.pass.Fset, ht.Start)
		if have[at] {
			continue
		}
		have[at] = true
		effs = append(effs, effects.Effect{Kind: effects.AssertedEffectFree, Reason: ht.Reason, Provenance: effects.Declared, Pos: at, Module: a.module})
	}
	return effs
}
