package effects

import (
	"fmt"
	"slices"
	"strings"

	"github.com/authvet/authvet/effects/internal/sqltext"
	"github.com/authvet/authvet/grant/urlprefix"
)

// resolve turns a pending site whose text no longer depends on
// parameters into effects: proved ones, or unprovable ones with reasons.
func (e *Engine) resolve(p Pending) []Effect {
	var out []Effect
	base := Effect{Pos: p.Pos, Via: p.Via, Module: p.Module, Provenance: Syntactic}
	if p.Prov != "" {
		base.Provenance = p.Prov
	}
	add := func(kind, subject string) {
		eff := base
		eff.Kind, eff.Subject = kind, subject
		out = append(out, eff)
	}
	unprovable := func(reason, fix string) {
		if p.Discharged {
			return
		}
		eff := base
		eff.Kind, eff.Reason, eff.Fix, eff.Provenance = Unprovable, reason, fix, ""
		out = append(out, eff)
	}
	// A request whose URL cannot be read: a configured client for the
	// package that sends it may declare where it goes (Finalize).
	egress := func(reason, fix string) {
		before := len(out)
		unprovable(reason, fix)
		for i := before; i < len(out); i++ {
			out[i].Egress, out[i].Pkg, out[i].Method = true, p.Pkg, constantMethod(p.Method)
		}
	}
	if p.Op == OpEgress {
		egress(p.Reason, p.Fix)
		// The path an SDK proves (Stripe's B.Call(method, "/v1/refunds",
		// ...)) goes under the configured client's base URL.
		if path := egressPath(p.Text); path != "" {
			for i := range out {
				out[i].Subject = path
			}
		}
		return out
	}
	for _, t := range p.Text.texts() {
		switch p.Op {
		case OpSQL:
			e.resolveSQL(t, p.Scoped, sqltext.Dialect(p.Dialect), add, unprovable)
		case OpURL:
			if t.Text == "" && !t.Complete {
				egress("calls out to a URL that is not constant",
					`pass a constant URL or a constant scheme://host/ prefix, or declare it with //agent:effect outbound("...")`)
				continue
			}
			subject, err := urlprefix.Read(t.Text, t.Complete)
			if err != nil {
				egress("calls out to a URL the analysis refuses: "+err.Error(),
					`spell the URL as the absolute host and path it reaches, or declare it with //agent:effect outbound("...")`)
				continue
			}
			before := len(out)
			add(Outbound, subject)
			for i := before; i < len(out); i++ {
				out[i].Method, out[i].Safe = constantMethod(p.Method), p.Safe
			}
		case OpSubject:
			if p.Kind == Outbound && strings.HasPrefix(t.Text, urlprefix.AliasPrefix) && t.Complete {
				add(Outbound, t.Text) // a configured sink's alias
				continue
			}
			if p.Kind == Outbound {
				// A gRPC call: the subject is the method's full name.
				subject := t.Text
				if !strings.HasPrefix(subject, urlprefix.GRPCPrefix) {
					subject = urlprefix.GRPCPrefix + subject // a full method name, "/pkg.Service/Method"
				}
				if !t.Complete && strings.HasSuffix(subject, "/") && urlprefix.CheckGRPC(subject) == nil {
					// "/pkg.Service/"+op: a constant service, the method
					// chosen at run time; gRPC routes on the last "/", so
					// the call stays in the service.
					add(Outbound, subject)
					continue
				}
				if !t.Complete || urlprefix.CheckGRPC(subject) != nil {
					unprovable("calls a gRPC method whose full name is not constant",
						`call the generated client stub, or declare it with //agent:effect outbound("grpc:/package.Service/Method")`)
					continue
				}
				add(Outbound, subject)
				continue
			}
			noun := map[string]string{Job: "starts a job whose kind", Webhook: "dispatches a webhook whose topic"}[p.Kind]
			key := map[string]string{Job: "jobs", Webhook: "webhooks"}[p.Kind]
			if !t.Complete || t.Text == "" {
				unprovable(noun+" is not constant",
					fmt.Sprintf(`pass a constant, or declare it with //agent:effect %s("...")`, key))
				continue
			}
			add(p.Kind, t.Text)
		}
	}
	return out
}

// egressPath is the constant path of an egress, up to its last segment
// boundary when the rest is not constant, or "".
func egressPath(s Str) string {
	ts := s.texts()
	if len(ts) != 1 || !strings.HasPrefix(ts[0].Text, "/") || strings.Contains(ts[0].Text, "..") {
		return ""
	}
	path := ts[0].Text
	if !ts[0].Complete {
		path = path[:strings.LastIndex(path, "/")+1]
	}
	return path
}

func constantMethod(s Str) string {
	ts := s.texts()
	if len(ts) != 1 || !ts[0].Complete {
		return ""
	}
	return strings.ToUpper(ts[0].Text)
}

const sqlFix = `pass constant SQL text, or declare what the statement does with //agent:effect writes(...) or //agent:effect none`

// resolveSQL reads one alternative of SQL text. Where the dialect is not
// fixed by the driver, the text is read both ways (PostgreSQL and MySQL
// lexing: '#' comments, backslash escapes) and every reading counts: the
// unsafe one wins.
func (e *Engine) resolveSQL(t Text, scoped bool, dialect sqltext.Dialect, add func(kind, subject string), unprovable func(reason, fix string)) {
	if strings.TrimSpace(t.Text) == "" && !t.Complete {
		unprovable("runs SQL text that is not constant", sqlFix)
		return
	}
	dialects := []sqltext.Dialect{dialect}
	if dialect == sqltext.AnyDialect {
		dialects = []sqltext.Dialect{sqltext.Postgres, sqltext.MySQL}
	}
	for _, d := range dialects {
		stmts, err := sqltext.Parse(t.Text, sqltext.Options{Partial: !t.Complete, Dialect: d})
		if err != nil {
			if t.Complete {
				unprovable(fmt.Sprintf("runs SQL the reader cannot parse (%v)", err), sqlFix)
			} else {
				unprovable(fmt.Sprintf("runs SQL whose constant prefix %q does not fix the statement kind and table (%v)", clip(t.Text), err), sqlFix)
			}
			continue
		}
		for _, st := range stmts {
			e.resolveStatement(st, t, scoped, add, unprovable)
		}
	}
}

// resolveStatement turns one statement the reader read into effects.
func (e *Engine) resolveStatement(st sqltext.Statement, t Text, scoped bool, add func(kind, subject string), unprovable func(reason, fix string)) {
	switch st.Kind {
	case sqltext.Control:
		return // transaction control, settings, plans: no data changes
	case sqltext.Other:
		unprovable(fmt.Sprintf("runs a statement the analysis does not model (%s)", clip(firstWord(t.Text))), sqlFix)
		return
	case sqltext.Insert:
		if st.DataChangingCTE {
			for _, w := range st.Writes {
				add(UnboundedWrite, w)
			}
		} else {
			for _, w := range withTable(st.Writes, st.Table) {
				add(Write, w)
			}
		}
	case sqltext.Update, sqltext.Delete:
		kind := Write
		if st.DataChangingCTE || !st.HasWhere {
			kind = UnboundedWrite
		}
		for _, w := range withTable(st.Writes, st.Table) {
			add(kind, w)
		}
	case sqltext.Truncate, sqltext.Merge:
		for _, w := range withTable(st.Writes, st.Table) {
			add(UnboundedWrite, w)
		}
	case sqltext.Select:
		for _, w := range st.Writes { // data-changing CTEs
			add(UnboundedWrite, w)
		}
	}
	if st.OpenWhere && !scoped {
		// Runtime text after the WHERE may add OR ...: the WHERE proves
		// neither bounds nor tenant scope.
		unprovable(fmt.Sprintf("runs SQL whose WHERE is followed by text that is not constant (after %q), which may add OR ...", clip(t.Text)),
			"build the rest of the WHERE from constant conditions, or declare the statement //agent:effect scoped")
		return
	}
	if scoped {
		return
	}
	switch st.Kind {
	case sqltext.Select, sqltext.Update, sqltext.Delete:
		if st.Table != "" && !e.tenantBound(st.TenantBound) {
			add(CrossTenant, "raw_query:"+st.Table)
		}
	case sqltext.Insert:
		// INSERT ... SELECT (and CREATE TABLE ... AS, SELECT ... INTO):
		// what it copies must be the tenant's own.
		if st.SourceTable != "" && !e.tenantBound(st.SourceBound) {
			add(CrossTenant, "raw_query:"+st.SourceTable)
		}
		for _, v := range st.ValueSources {
			if !e.tenantBound(v.Bound) {
				add(CrossTenant, "raw_query:"+v.Table)
			}
		}
	}
}

func withTable(writes []string, table string) []string {
	if table != "" && !slices.Contains(writes, table) {
		return append(slices.Clone(writes), table)
	}
	return writes
}

func (e *Engine) tenantBound(cols []string) bool {
	tenant := e.Opts.TenantColumns
	if len(tenant) == 0 {
		tenant = []string{"tenant_id"}
	}
	for _, c := range cols {
		for _, t := range tenant {
			if strings.EqualFold(c, t) {
				return true
			}
		}
	}
	return false
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.ToUpper(f[0])
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
