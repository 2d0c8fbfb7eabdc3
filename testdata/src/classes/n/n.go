// Package n: the clean twins of package m, the same method chains on a
// receiver built in sight, every field holding a value Narrow allows.
package n

import (
	"context"
	"database/sql"
	"io"
	"strconv"
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

type refunds struct{ db *sql.DB }

func (r *refunds) save(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(ctx, "INSERT INTO refunds (id) VALUES ($1)", id)
	return err
}

func (s *Server) note(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE refunds SET noted = true WHERE id = $1", id)
	return err
}

// ok's fields are only ever stored allowed values.
type ok struct {
	st   Store
	hook func(ctx context.Context, id string) error
}

// --- M1: an interface field read four methods down.

func (s *ok) a(ctx context.Context, id string) error { return s.b(ctx, strings.TrimSpace(id)) }
func (s *ok) b(ctx context.Context, id string) error { return s.c(ctx, id) }
func (s *ok) c(ctx context.Context, id string) error { return s.d(ctx, id) }
func (s *ok) d(ctx context.Context, id string) error { return s.st.save(ctx, id) }

//agent:operable grant=Narrow
func (s *Server) DeepStoreTwin(ctx context.Context, id string) error {
	v := &ok{st: &refunds{db: s.db}}
	return v.a(ctx, id)
}

// --- M2: a function field called four methods down, behind a branch.

func (s *ok) ha(ctx context.Context, id string) error { return s.hb(ctx, id) }
func (s *ok) hb(ctx context.Context, id string) error { return s.hc(ctx, id) }
func (s *ok) hc(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	return s.hd(ctx, id)
}
func (s *ok) hd(ctx context.Context, id string) error { return s.hook(ctx, id) }

//agent:operable grant=Narrow
func (s *Server) DeepHookTwin(ctx context.Context, id string) error {
	v := &ok{hook: s.note}
	return v.ha(ctx, id)
}

// --- M4: a receiver a helper builds, reached through another struct's
// methods, the store one field further in.

type okOuter struct{ in *ok }

func newOKOuter(st Store) *okOuter { return &okOuter{in: &ok{st: st}} }

func (o *okOuter) run(ctx context.Context, id string) error  { return o.step(ctx, id) }
func (o *okOuter) step(ctx context.Context, id string) error { return o.in.c(ctx, id) }

//agent:operable grant=Narrow
func (s *Server) DeepOuterTwin(ctx context.Context, id string) error {
	return newOKOuter(&refunds{db: s.db}).run(ctx, id)
}

// --- Twin of M5: the template's data only formats and reads.

var pageTmpl = template.Must(template.New("p").Parse(`{{.Title}} {{.Stats}}`))

type page struct {
	db *sql.DB
	n  int
}

func (p *page) Title() string { return "refunds" }

func (p *page) Stats() string {
	var n int
	if err := p.db.QueryRow("SELECT count(*) FROM refunds").Scan(&n); err != nil {
		return err.Error()
	}
	return strconv.Itoa(n + p.n)
}

//agent:operable grant=Narrow
func (s *Server) RenderPageTwin(w io.Writer) error {
	return pageTmpl.Execute(w, &page{db: s.db, n: 1})
}

// --- Twin of M6: the visitor only counts.

type node interface{ accept(v visitor) }

type visitor interface {
	visitList(l *list)
	visitLeaf(l *leaf)
}

type list struct{ items []node }

func (l *list) accept(v visitor) { v.visitList(l) }

type leaf struct{ id string }

func (l *leaf) accept(v visitor) { v.visitLeaf(l) }

type counter struct{ n int }

func (c *counter) visitList(l *list) {
	for _, it := range l.items {
		it.accept(c)
	}
}

func (c *counter) visitLeaf(l *leaf) { c.n += len(l.id) }

//agent:operable grant=Narrow
func (s *Server) VisitTwin(root node) int {
	c := &counter{}
	root.accept(c)
	return c.n
}
