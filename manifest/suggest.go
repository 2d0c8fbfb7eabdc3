package manifest

import (
	"bytes"
	"fmt"
	"go/format"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/authvet/authvet/grant"
)

// Suggest writes, for each action and each ungoverned tool, the narrowest
// grant.Grant literal its proved effects need (least privilege): exactly
// the subjects proved, never a union of alternatives the proof did not
// make, never a prefix broader than the proved URL. What no grant can
// allow (an unprovable site, detached work) is listed in comments, to be
// resolved with a declaration or a change.
func Suggest(w io.Writer, m *Manifest) {
	var buf bytes.Buffer
	suggest(&buf, m)
	// gofmt it, as it would be pasted.
	if src, err := format.Source(buf.Bytes()); err == nil {
		w.Write(src)
		return
	}
	w.Write(buf.Bytes())
}

func suggest(w io.Writer, m *Manifest) {
	used := map[string]int{}
	varName := func(name string) string {
		v := grantVarName(name)
		used[v]++
		if n := used[v]; n > 1 {
			v = fmt.Sprintf("%s%d", v, n)
		}
		return v
	}
	for _, a := range m.Actions {
		where := a.Location
		if a.Exposure != "not-exposed" {
			where += ", " + exposure(a)
		}
		writeGrant(w, a.Action, varName(a.Action), where, a.Effects)
	}
	for _, u := range m.UngovernedTools {
		name := u.Tool
		if name == "" {
			name = u.Handler
		}
		writeGrant(w, name, varName(name), fmt.Sprintf("%s, MCP tool %q with no //agent:operable", u.Location, u.Tool), u.Effects)
	}
}

func exposure(a Action) string {
	switch {
	case a.Tool != nil:
		return fmt.Sprintf("MCP tool %q", a.Tool.Name)
	case len(a.Routes) > 0:
		var rs []string
		for _, r := range a.Routes {
			rs = append(rs, r.Method+" "+r.Path)
		}
		return "HTTP " + strings.Join(rs, ", ")
	}
	return a.Exposure
}

func writeGrant(w io.Writer, name, varName, where string, effs []EffectEntry) {
	var writes, unbounded, outbound, webhooks, jobs, kinds, notes []string
	cross := false
	for _, e := range effs {
		kinds = append(kinds, e.Kind)
		switch e.Kind {
		case grant.KindWrite:
			writes = append(writes, e.Subject)
		case grant.KindUnboundedWrite:
			unbounded = append(unbounded, e.Subject)
		case grant.KindOutbound:
			outbound = append(outbound, e.Subject)
		case grant.KindWebhook:
			webhooks = append(webhooks, e.Subject)
		case grant.KindJob:
			jobs = append(jobs, e.Subject)
		case grant.KindCrossTenant:
			cross = true
		default:
			notes = append(notes, fmt.Sprintf("%s at %s: %s", e.Kind, e.Location, e.Reason))
		}
	}
	// An unbounded write implies the bounded one.
	writes = slices.DeleteFunc(sortedSet(writes), func(t string) bool { return slices.Contains(unbounded, t) })
	fmt.Fprintf(w, "// %s (%s)\n", name, where)
	for _, n := range sortedSet(notes) {
		fmt.Fprintf(w, "// no grant allows: %s\n", n)
	}
	fmt.Fprintf(w, "var %s = grant.Grant{\n", varName)
	field := func(key string, vals []string) {
		if vals = sortedSet(vals); len(vals) > 0 {
			fmt.Fprintf(w, "\t%s: []string{%s},\n", key, quoteAll(vals))
		}
	}
	field("Writes", writes)
	field("UnboundedWrites", unbounded)
	field("Outbound", outbound)
	field("Webhooks", webhooks)
	field("Jobs", jobs)
	if cross {
		fmt.Fprintf(w, "\tTenantScope: grant.CrossTenant,\n")
	}
	switch grant.Floor(kinds...) {
	case grant.Compensable:
		fmt.Fprintf(w, "\tReversibility: grant.Compensable, // the floor the effects set; declare grant.Irreversible if they cannot be compensated\n")
	default:
		fmt.Fprintf(w, "\tReversibility: grant.Reversible,\n")
	}
	fmt.Fprintf(w, "}\n\n")
}

func sortedSet(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

func quoteAll(vals []string) string {
	var q []string
	for _, v := range vals {
		q = append(q, fmt.Sprintf("%q", v))
	}
	return strings.Join(q, ", ")
}

// grantVarName makes a Go identifier from a handler or tool name:
// "(*Server).DraftRefund" → ServerDraftRefundGrant, "delete_notes" →
// DeleteNotesGrant.
func grantVarName(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:] // a handler's package path
	}
	var b strings.Builder
	up := true
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "Handler" + s
	}
	return s + "Grant"
}
