// Package hub is another module's API client in go-github's shape: the
// constructor copies the http.Client it is handed, WithToken copies the
// client's CheckRedirect into a new one, and the notifiers call function
// fields of structs their constructors built. Vet mode cannot see those
// fields' values from the caller; the manifest reads every store into
// them.
package hub

import (
	"context"
	"net/http"
)

type Client struct {
	hc     *http.Client
	quiet  *Quiet
	loud   *Loud
	custom *Custom
}

// New copies hc, as go-github's NewClient does.
func New(hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{}
	}
	hc2 := *hc
	c := &Client{hc: &hc2}
	c.init()
	return c
}

func (c *Client) init() {
	if c.hc == nil {
		c.hc = &http.Client{}
	}
	c.quiet = &Quiet{Notify: func(string) {}}
	// A redirect policy that calls nothing.
	ignore := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	_ = ignore
}

// WithToken returns a copy, CheckRedirect included.
func (c *Client) WithToken(tok string) *Client {
	c2 := &Client{hc: &http.Client{}}
	c2.hc.CheckRedirect = c.hc.CheckRedirect
	c2.init()
	return c2
}

// Me sends a GET.
func (c *Client) Me(ctx context.Context) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.hub.example/user", nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

// Quiet's Notify only ever holds a literal that calls nothing.
type Quiet struct{ Notify func(string) }

// Loud's Notify holds what the importing program stores there.
type Loud struct{ Notify func(string) }

// Custom's Notify holds what its constructor is handed.
type Custom struct{ Notify func(string) }

func NewCustom(f func(string)) *Custom { return &Custom{Notify: f} }

func (c *Client) SetLoud(l *Loud)     { c.loud = l }
func (c *Client) SetCustom(x *Custom) { c.custom = x }

func (c *Client) PingQuiet(msg string) {
	c.quiet.Notify(msg)
}

func (c *Client) PingLoud(msg string) {
	if c.loud != nil {
		c.loud.Notify(msg)
	}
}

func (c *Client) PingCustom(msg string) {
	if c.custom != nil {
		c.custom.Notify(msg)
	}
}

// Policy's rule is what its builder method is handed, as bluemonday's
// style handlers are: the field holds what every call of On passes.
type Policy struct{ rule func(string) bool }

func NewPolicy() *Policy { return &Policy{} }

func (p *Policy) On(rule func(string) bool) *Policy { p.rule = rule; return p }

func (p *Policy) Check(s string) bool {
	if p.rule != nil {
		return p.rule(s)
	}
	return true
}

// Gate is Policy's twin, handed a rule that writes.
type Gate struct{ rule func(string) bool }

func NewGate() *Gate { return &Gate{} }

func (g *Gate) Use(rule func(string) bool) *Gate { g.rule = rule; return g }

func (g *Gate) Pass(s string) bool {
	if g.rule != nil {
		return g.rule(s)
	}
	return true
}

// Router keeps its rules in a map of slices of functions, as
// bluemonday keeps its URL policies: what Allow is handed.
type Router struct {
	rules map[string][]func(string) bool
}

func NewRouter() *Router { return &Router{rules: map[string][]func(string) bool{}} }

func (r *Router) Allow(scheme string, f func(string) bool) *Router {
	r.rules[scheme] = append(r.rules[scheme], f)
	return r
}

func (r *Router) Match(scheme, s string) bool {
	fs, ok := r.rules[scheme]
	if !ok || len(fs) == 0 {
		return false
	}
	for _, f := range fs {
		if f(s) {
			return true
		}
	}
	return false
}

// Mux is Router's twin, handed a rule that writes.
type Mux struct {
	rules map[string][]func(string) bool
}

func NewMux() *Mux { return &Mux{rules: map[string][]func(string) bool{}} }

func (m *Mux) Add(scheme string, f func(string) bool) *Mux {
	m.rules[scheme] = append(m.rules[scheme], f)
	return m
}

func (m *Mux) Match(scheme, s string) bool {
	for _, f := range m.rules[scheme] {
		if f(s) {
			return true
		}
	}
	return false
}
