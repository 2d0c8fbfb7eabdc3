package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Parse reads a committed manifest. A malformed one is an error naming
// the line and column of the problem.
func Parse(name string, data []byte) (*Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		var off int64 = -1
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off = max(se.Offset-1, 0) // the offending byte
		case errors.As(err, &te):
			off = te.Offset
		}
		if off >= 0 {
			line, col := lineCol(data, off)
			return nil, fmt.Errorf("%s:%d:%d: %v", name, line, col, err)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if m.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%s: schema_version %d, want %d", name, m.SchemaVersion, SchemaVersion)
	}
	return &m, nil
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// Outcome is the result of a check.
type Outcome struct {
	Report string // the readable diff and findings
	Failed bool   // exit 1
}

// Check compares the committed manifest with the module as it is. It
// fails on any drift of actions, effects, exposure or grants (a moved
// line alone is not drift), on a mutating ungoverned tool unless
// allowUngoverned, and on any annotation conflict.
func Check(committed, current *Manifest, allowUngoverned bool) Outcome {
	var w strings.Builder
	failed := false
	// Conflicts first, a contradicted readOnlyHint before any other: a
	// server may expose the tool to agents that were promised reads.
	conflicts := slices.Clone(current.AnnotationConflicts)
	slices.SortStableFunc(conflicts, func(x, y Conflict) int {
		return boolRank(y.Claim == "readOnlyHint: true") - boolRank(x.Claim == "readOnlyHint: true")
	})
	for _, c := range conflicts {
		fmt.Fprintf(&w, "error: MCP tool %q declares %s, contradicted by %s at %s\n", c.Tool, c.Claim, effectLine(c.ContradictedBy), c.ContradictedBy.Location)
		failed = true
	}
	old := map[string]Action{}
	for _, a := range committed.Actions {
		old[a.Function] = a
	}
	cur := map[string]Action{}
	for _, a := range current.Actions {
		cur[a.Function] = a
	}
	names := unionKeys(old, cur)
	moved := false
	for _, n := range names {
		o, inOld := old[n]
		c, inCur := cur[n]
		switch {
		case !inOld:
			fmt.Fprintf(&w, "+ action %s (%s, grant %s)\n", n, c.Exposure, grantName(c))
			for _, e := range c.Effects {
				fmt.Fprintf(&w, "    + %s\n", effectLine(e))
			}
			failed = true
			continue
		case !inCur:
			fmt.Fprintf(&w, "- action %s\n", n)
			failed = true
			continue
		}
		var lines []string
		if o.Exposure != c.Exposure {
			lines = append(lines, fmt.Sprintf("    exposure %s -> %s", o.Exposure, c.Exposure))
		}
		if grantName(o) != grantName(c) {
			lines = append(lines, fmt.Sprintf("    grant %s -> %s", grantName(o), grantName(c)))
		}
		lines = append(lines, diffSet("route ", routeSet(o.Routes), routeSet(c.Routes))...)
		lines = append(lines, diffSet("", effectSet(o.Effects), effectSet(c.Effects))...)
		lines = append(lines, diffSet("tool ", toolSet(o.Tool), toolSet(c.Tool))...)
		if len(lines) > 0 {
			fmt.Fprintf(&w, "~ action %s\n%s\n", n, strings.Join(lines, "\n"))
			failed = true
		}
		if o.Location != c.Location || !sameLocations(o.Effects, c.Effects) {
			moved = true
		}
	}
	oldG, curG := grantSets(committed.Grants), grantSets(current.Grants)
	for _, n := range unionKeys(oldG, curG) {
		if lines := diffSet("", oldG[n], curG[n]); len(lines) > 0 {
			fmt.Fprintf(&w, "~ grant %s\n%s\n", n, strings.Join(lines, "\n"))
			failed = true
		}
	}
	if lines := diffSet("ungoverned tool ", ungovernedSet(committed.UngovernedTools), ungovernedSet(current.UngovernedTools)); len(lines) > 0 {
		fmt.Fprintf(&w, "~ ungoverned tools\n%s\n", strings.Join(lines, "\n"))
		failed = true
	}
	for _, u := range current.UngovernedTools {
		if u.Mutating && !allowUngoverned {
			fmt.Fprintf(&w, "error: MCP tool %q (%s, %s) mutates and has no //agent:operable grant; add one, or pass --allow-ungoverned\n", u.Tool, u.Handler, u.Location)
			failed = true
		} else if !u.Mutating {
			fmt.Fprintf(&w, "warning: MCP tool %q (%s, %s) has no //agent:operable grant (it is read-only)\n", u.Tool, u.Handler, u.Location)
		} else {
			fmt.Fprintf(&w, "warning: MCP tool %q (%s, %s) mutates and has no //agent:operable grant (allowed by --allow-ungoverned)\n", u.Tool, u.Handler, u.Location)
		}
	}
	if !failed && moved {
		fmt.Fprintf(&w, "note: locations moved; regenerate the manifest to refresh them\n")
	}
	return Outcome{Report: w.String(), Failed: failed}
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unionKeys returns the keys of both maps, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func grantName(a Action) string {
	if a.Grant == nil {
		return ""
	}
	return a.Grant.Name
}

func effectLine(e EffectEntry) string {
	s := e.Kind
	if e.Subject != "" {
		s += fmt.Sprintf(" %q", e.Subject)
	}
	if e.Method != "" {
		s += " (" + e.Method + ")"
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

func effectSet(es []EffectEntry) map[string]bool {
	m := map[string]bool{}
	for _, e := range es {
		m[effectLine(e)] = true
	}
	return m
}

func routeSet(rs []Route) map[string]bool {
	m := map[string]bool{}
	for _, r := range rs {
		m[r.Method+" "+r.Path] = true
	}
	return m
}

func toolSet(t *Tool) map[string]bool {
	m := map[string]bool{}
	if t == nil {
		return m
	}
	m["name "+t.Name] = true
	if d := t.DerivedAnnotations; d != nil {
		m[fmt.Sprintf("derived readOnlyHint %v", d.ReadOnlyHint)] = true
		m[fmt.Sprintf("derived destructiveHint %v", d.DestructiveHint)] = true
	}
	if a := t.DeclaredAnnotations; a != nil {
		b, _ := json.Marshal(a)
		m["declared "+string(b)] = true
	}
	return m
}

func grantSets(gs []GrantEntry) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, g := range gs {
		m := map[string]bool{
			"reversibility " + g.Reversibility: true,
			"tenant_scope " + g.TenantScope:    true,
			"rate " + g.Rate:                   true,
			"spend " + g.Spend:                 true,
		}
		for field, list := range map[string][]string{"Writes": g.Writes, "UnboundedWrites": g.UnboundedWrites, "Outbound": g.Outbound, "Webhooks": g.Webhooks, "Jobs": g.Jobs} {
			for _, e := range list {
				m[field+": "+e] = true
			}
		}
		out[g.Package+"."+g.Name] = m
	}
	return out
}

func ungovernedSet(us []Ungoverned) map[string]bool {
	m := map[string]bool{}
	for _, u := range us {
		m[fmt.Sprintf("%q %s mutating=%v", u.Tool, u.Handler, u.Mutating)] = true
		for _, e := range u.Effects {
			m[fmt.Sprintf("%q %s", u.Tool, effectLine(e))] = true
		}
	}
	return m
}

// diffSet prints what o has and c lacks (-) and the reverse (+), sorted.
func diffSet(prefix string, o, c map[string]bool) []string {
	var out []string
	for k := range o {
		if !c[k] {
			out = append(out, "    - "+prefix+k)
		}
	}
	for k := range c {
		if !o[k] {
			out = append(out, "    + "+prefix+k)
		}
	}
	slices.SortFunc(out, func(x, y string) int { return strings.Compare(x[6:], y[6:]) })
	return out
}

func sameLocations(a, b []EffectEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Location != b[i].Location {
			return false
		}
	}
	return true
}
