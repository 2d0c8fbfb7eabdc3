// Package m: methods nested several calls deep on a receiver the handler
// builds in sight. Past the first levels, a method is no longer walked
// inline for its receiver's fields: its summary is instantiated, and
// what it leaves to the receiver's fields (an interface, a function) is
// resolved at the call. Every shape fires under Narrow. The clean twins
// are package n: the same chains on a type whose fields only ever hold
// allowed values, in a package of their own because a call through an
// interface or an unexported function field resolves to every value the
// package converts or stores (README, Limits).
package m

import (
	"context"
	"database/sql"
	"io"
	"strings"
	"text/template"

	"github.com/authvet/authvet/grant"
)

// Narrow allows refunds and one host.
var Narrow = grant.Grant{
	Writes:        []string{"refunds"},
	Outbound:      []string{"https://api.ok.example/"},
	TenantScope:   grant.CrossTenant,
	Reversibility: grant.Irreversible,
}

type Server struct{ db *sql.DB }

type Store interface {
	save(ctx context.Context, id string) error
}

type payouts struct{ db *sql.DB }

func (p *payouts) save(ctx context.Context, id string) error {
	_, err := p.db.ExecContext(ctx, "INSERT INTO payouts (id) VALUES ($1)", id)
	return err
}

func (s *Server) purge(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM payouts WHERE id = $1", id)
	return err
}

// svc's fields are stored values Narrow does not allow.
type svc struct {
	st   Store
	hook func(ctx context.Context, id string) error
}

// --- M1: an interface field read four methods down.

func (s *svc) a(ctx context.Context, id string) error { return s.b(ctx, strings.TrimSpace(id)) }
func (s *svc) b(ctx context.Context, id string) error { return s.c(ctx, id) }
func (s *svc) c(ctx context.Context, id string) error { return s.d(ctx, id) }
func (s *svc) d(ctx context.Context, id string) error { return s.st.save(ctx, id) }

//agent:operable grant=Narrow
func (s *Server) DeepStore(ctx context.Context, id string) error {
	v := &svc{st: &payouts{db: s.db}}
	return v.a(ctx, id) // want `DeepStore writes "payouts"`
}

// --- M2: a function field called four methods down, behind a branch.

func (s *svc) ha(ctx context.Context, id string) error { return s.hb(ctx, id) }
func (s *svc) hb(ctx context.Context, id string) error { return s.hc(ctx, id) }
func (s *svc) hc(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	return s.hd(ctx, id)
}
func (s *svc) hd(ctx context.Context, id string) error { return s.hook(ctx, id) }

//agent:operable grant=Narrow
func (s *Server) DeepHook(ctx context.Context, id string) error {
	v := &svc{hook: s.purge}
	return v.ha(ctx, id) // want `DeepHook writes "payouts"`
}

// --- M4: a receiver a helper builds, reached through another struct's
// methods, the store one field further in.

type outer struct{ in *svc }

func newOuter(st Store) *outer { return &outer{in: &svc{st: st}} }

func (o *outer) run(ctx context.Context, id string) error  { return o.step(ctx, id) }
func (o *outer) step(ctx context.Context, id string) error { return o.in.c(ctx, id) }

//agent:operable grant=Narrow
func (s *Server) DeepOuter(ctx context.Context, id string) error {
	return newOuter(&payouts{db: s.db}).run(ctx, id) // want `DeepOuter writes "payouts"` `DeepOuter writes "payouts"`
}

// --- M5: a template calls every exported method of its data, each from
// its summary; what a method does through the data's fields is resolved
// at the Execute call.

var pageTmpl = template.Must(template.New("p").Parse(`{{.Title}} {{.Stats}}`))

type page struct {
	db *sql.DB
	st Store
}

func (p *page) Title() string { return "payouts" }

func (p *page) Stats() string {
	if err := p.st.save(context.Background(), "seen"); err != nil {
		return err.Error()
	}
	return p.count()
}

func (p *page) count() string {
	p.db.Exec("DELETE FROM payouts WHERE stale")
	return "0"
}

//agent:operable grant=Narrow
func (s *Server) RenderPage(w io.Writer) error {
	return pageTmpl.Execute(w, &page{db: s.db, st: &payouts{db: s.db}}) // want `RenderPage writes "payouts"` `RenderPage writes "payouts"`
}

// --- M6: double dispatch. Each node's Accept calls the visitor, whose
// Visit methods call Accept on the children: the same call resolved
// again inside itself is cut, and what the cut hides is unprovable.

type node interface{ accept(v visitor) }

type visitor interface {
	visitList(l *list)
	visitLeaf(l *leaf)
}

type list struct{ items []node }

func (l *list) accept(v visitor) { v.visitList(l) }

type leaf struct{ id string }

func (l *leaf) accept(v visitor) { v.visitLeaf(l) }

type purger struct{ db *sql.DB }

func (p *purger) visitList(l *list) {
	for _, it := range l.items {
		it.accept(p)
	}
}

func (p *purger) visitLeaf(l *leaf) {
	p.db.Exec("DELETE FROM payouts WHERE id = $1", l.id)
}

//agent:operable grant=Narrow
func (s *Server) Visit(root node) {
	root.accept(&purger{db: s.db}) // want `Visit (writes "payouts"|calls code that calls back into this call)` `Visit (writes "payouts"|calls code that calls back into this call)`
}

// A visitor that hands the children to the visitor it wraps, two deep:
// the write is reached only below a level the cut could stop at.

type wrap struct{ inner visitor }

func (w *wrap) visitList(l *list) {
	for _, it := range l.items {
		it.accept(w.inner)
	}
}

func (w *wrap) visitLeaf(l *leaf) {}

//agent:operable grant=Narrow
func (s *Server) VisitWrapped(root node) {
	root.accept(&wrap{inner: &wrap{inner: &purger{db: s.db}}}) // want `VisitWrapped writes "payouts"` `VisitWrapped calls visitList through the interface m.visitor`
}

// The same through a value receiver handed to a helper as a parameter.

type relay2 struct{ next visitor }

func (r relay2) visitList(l *list) {
	for _, it := range l.items {
		it.accept(r.next)
	}
}

func (r relay2) visitLeaf(l *leaf) {}

func pass(v visitor, n node) { n.accept(v) }

//agent:operable grant=Narrow
func (s *Server) VisitParam(root node) {
	pass(relay2{next: relay2{next: &purger{db: s.db}}}, root) // want `VisitParam writes "payouts"` `VisitParam calls code that calls back into this call`
}

// --- M20: one write, two sites behind one call (a helper's transaction
// and pool branches): one diagnostic at the call, the second site as
// related information (SPEC §5: one site, one diagnostic).

type txKey struct{}

func execCtx(ctx context.Context, db *sql.DB, q string) error {
	if tx, _ := ctx.Value(txKey{}).(*sql.Tx); tx != nil {
		_, err := tx.ExecContext(ctx, q)
		return err
	}
	_, err := db.ExecContext(ctx, q)
	return err
}

//agent:operable grant=Narrow
func (s *Server) CancelOutbox(ctx context.Context) error {
	return execCtx(ctx, s.db, "INSERT INTO outbox (id) VALUES (1)") // want `CancelOutbox writes "outbox"`
}

//agent:operable grant=Narrow
func (s *Server) CancelOutboxTwin(ctx context.Context) error {
	return execCtx(ctx, s.db, "INSERT INTO refunds (id) VALUES (1)")
}
