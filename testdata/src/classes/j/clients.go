package j

import (
	"net/http"
	"time"

	"classes/j/httpx"
)

// --- J20: a client another package (or a helper of this one) builds and
// returns. One as standard as the default client (a timeout, a tuned
// pool) sends where its URL says; one with a transport of the program's
// own, or whose Transport the caller sets after, proves no URL.

//agent:operable grant=Egress
func (s *Server) SharedClientTwin(w http.ResponseWriter, r *http.Request) {
	httpx.New().Get("https://api.stripe.com/v1/charges")
	c := httpx.NewPooled()
	c.Get("https://api.stripe.com/v1/refunds")
	newLocal().Get("https://api.stripe.com/v1/payouts")
}

//agent:operable grant=Egress
func (s *Server) SharedClientOutside(w http.ResponseWriter, r *http.Request) {
	httpx.New().Get("https://hooks.example.com/x") // want `SharedClientOutside calls out to "https://hooks.example.com/x"`
}

//agent:operable grant=Egress
func (s *Server) SharedClientRewired(w http.ResponseWriter, r *http.Request) {
	c := httpx.New()
	c.Transport = relay{}
	c.Get("https://api.stripe.com/v1/charges") // want `SharedClientRewired sends a request through an \*http.Client whose Transport the analysis cannot see`
}

// A pooled transport another package builds with a net.Dialer's own
// DialContext dials the host the URL names; one whose dialer picks the
// address does not prove the URL.
//
//agent:operable grant=Egress
func (s *Server) PooledDialerTwin(w http.ResponseWriter, r *http.Request) {
	(&http.Client{Transport: httpx.PooledTransport()}).Get("https://api.stripe.com/v1/charges")
}

//agent:operable grant=Egress
func (s *Server) PinnedDialer(w http.ResponseWriter, r *http.Request) {
	(&http.Client{Transport: httpx.PinnedDialTransport()}).Get("https://api.stripe.com/v1/charges") // want `PinnedDialer opens a network connection`
}

//agent:operable grant=Egress
func (s *Server) SharedClientPinned(w http.ResponseWriter, r *http.Request) {
	httpx.NewPinned().Get("https://api.stripe.com/v1/charges") // want `SharedClientPinned sends a request through an \*http.Client whose Transport the analysis cannot see`
}

//agent:operable grant=Egress
func (s *Server) LocalClientRewired(w http.ResponseWriter, r *http.Request) {
	c := newLocal()
	c.Transport = relay{}
	c.Get("https://api.stripe.com/v1/charges") // want `LocalClientRewired sends a request through an \*http.Client whose Transport the analysis cannot see`
}

func newLocal() *http.Client { return &http.Client{Timeout: 5 * time.Second} }

type relay struct{}

func (relay) RoundTrip(req *http.Request) (*http.Response, error) {
	req.URL.Host = "relay.example.com"
	return http.DefaultTransport.RoundTrip(req)
}

// --- J21: a client kept in an unexported field of the package's own
// struct, read where the struct was built out of sight (the handler's
// receiver): every store the package makes to the field decides. A
// timeout-only client sends where its URL says; a field some code
// rewires, or fills with a client of the program's own transport,
// proves no URL.

type stripeAPI struct{ hc *http.Client }

func newStripeAPI() *stripeAPI { return &stripeAPI{hc: &http.Client{Timeout: 5 * time.Second}} }

func (a *stripeAPI) charge(r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://api.stripe.com/v1/charges", nil)
	a.hc.Do(req)
}

type hookAPI struct{ hc *http.Client }

func newHookAPI() *hookAPI { return &hookAPI{hc: &http.Client{Timeout: 5 * time.Second}} }

func (a *hookAPI) rewire() { a.hc.Transport = relay{} }

func (a *hookAPI) charge(r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://api.stripe.com/v1/charges", nil)
	a.hc.Do(req)
}

type relayAPI struct{ hc *http.Client }

func newRelayAPI() *relayAPI { return &relayAPI{hc: &http.Client{Transport: relay{}}} }

func (a *relayAPI) charge(r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://api.stripe.com/v1/charges", nil)
	a.hc.Do(req)
}

// A copy of the struct read as a value (valOf(a).hc) still holds the
// same client: rewiring it there rewires the field's.
type copiedAPI struct{ hc *http.Client }

func newCopiedAPI() *copiedAPI { return &copiedAPI{hc: &http.Client{Timeout: 5 * time.Second}} }

func valOf(a *copiedAPI) copiedAPI { return *a }

func (a *copiedAPI) tune() { valOf(a).hc.Transport = relay{} }

func (a *copiedAPI) charge(r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://api.stripe.com/v1/charges", nil)
	a.hc.Do(req)
}

type Billing struct {
	stripe *stripeAPI
	hooks  *hookAPI
	relays *relayAPI
	copies *copiedAPI
}

//agent:operable grant=Egress
func (b *Billing) FieldClientCopied(w http.ResponseWriter, r *http.Request) {
	b.copies.charge(r) // want `FieldClientCopied sends a request through an \*http.Client whose Transport the analysis cannot see`
}

//agent:operable grant=Egress
func (b *Billing) FieldClientTwin(w http.ResponseWriter, r *http.Request) {
	b.stripe.charge(r)
}

//agent:operable grant=Egress
func (b *Billing) FieldClientRewired(w http.ResponseWriter, r *http.Request) {
	b.hooks.charge(r) // want `FieldClientRewired sends a request through an \*http.Client whose Transport the analysis cannot see`
}

//agent:operable grant=Egress
func (b *Billing) FieldClientRelayed(w http.ResponseWriter, r *http.Request) {
	b.relays.charge(r) // want `FieldClientRelayed`
}

var _ = []any{newStripeAPI, newHookAPI, newRelayAPI, (*hookAPI).rewire, newCopiedAPI, (*copiedAPI).tune}

// --- J22: a client built in the handler, handed to a helper that only
// sends through it: the request goes where its URL says. A helper that
// changes the client, itself or through another, proves no URL.

//agent:operable grant=Egress
func (s *Server) HandedClient(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), "POST", "https://hooks.example.com/x", nil)
	httpx.Send(&http.Client{Timeout: time.Second}, req) // want `HandedClient calls out to "https://hooks.example.com/x" \(POST\)`
}

//agent:operable grant=Egress
func (s *Server) HandedClientTwin(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), "POST", "https://api.stripe.com/v1/refunds", nil)
	httpx.Send(&http.Client{Timeout: time.Second}, req)
	c := &http.Client{Timeout: time.Second}
	sendLocal(c, req)
}

func sendLocal(c *http.Client, req *http.Request) {
	c.Do(req)
}

//agent:operable grant=Egress
func (s *Server) HandedClientPinned(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), "POST", "https://api.stripe.com/v1/refunds", nil)
	httpx.SendPinned(&http.Client{Timeout: time.Second}, req) // want `HandedClientPinned sends a request through an \*http.Client whose Transport the analysis cannot see`
}

//agent:operable grant=Egress
func (s *Server) HandedClientConfigured(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), "POST", "https://api.stripe.com/v1/refunds", nil)
	httpx.SendConfigured(&http.Client{Timeout: time.Second}, req) // want `HandedClientConfigured sends a request through an \*http.Client whose Transport the analysis cannot see`
}

// --- J23: a request another package's helper builds and returns, sent
// by another helper that prints its URL on failure: the URL and method
// the helper was given are what is sent. One the helper re-points
// proves no URL.

//agent:operable grant=Egress
func (s *Server) BuiltRequest(w http.ResponseWriter, r *http.Request) {
	req, _ := httpx.NewRequest(r.Context(), http.MethodPost, "https://hooks.example.com/relay")
	httpx.SendChecked(httpx.New(), req) // want `BuiltRequest calls out to "https://hooks.example.com/relay" \(POST\)`
}

//agent:operable grant=Egress
func (s *Server) BuiltRequestTwin(w http.ResponseWriter, r *http.Request) {
	req, _ := httpx.NewRequest(r.Context(), http.MethodPost, "https://api.stripe.com/v1/refunds")
	httpx.SendChecked(httpx.New(), req)
}

//agent:operable grant=Egress
func (s *Server) BuiltRequestRelayed(w http.ResponseWriter, r *http.Request) {
	req, _ := httpx.NewRelayed(r.Context(), http.MethodPost, "https://api.stripe.com/v1/refunds")
	httpx.SendChecked(httpx.New(), req) // want `BuiltRequestRelayed calls out to a URL that is not constant`
}

// The same client handed twice, once to be rewired: it proves no URL.
// Two clients, the sending one untouched, send where the URL says.

//agent:operable grant=Egress
func (s *Server) HandedClientTwice(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), "POST", "https://api.stripe.com/v1/refunds", nil)
	c := &http.Client{Timeout: time.Second}
	httpx.SendVia(c, c, req) // want `HandedClientTwice sends a request through an \*http.Client whose Transport the analysis cannot see`
}

//agent:operable grant=Egress
func (s *Server) HandedClientTwiceTwin(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), "POST", "https://api.stripe.com/v1/refunds", nil)
	httpx.SendVia(&http.Client{Timeout: time.Second}, &http.Client{}, req)
}

// --- J34: a client kept in an unexported field and handed to a helper
// of the package: one that only sends through it leaves the field's
// client as its stores say; one that changes it rewires every send
// through the field.

type partnerAPI struct{ hc *http.Client }

func newPartnerAPI() *partnerAPI { return &partnerAPI{hc: &http.Client{Timeout: 5 * time.Second}} }

func postVia(c *http.Client, u string) {
	req, _ := http.NewRequest(http.MethodPost, u, nil)
	c.Do(req)
}

func (a *partnerAPI) charge(r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://api.stripe.com/v1/charges", nil)
	a.hc.Do(req)
}

func (a *partnerAPI) refund() { postVia(a.hc, "https://api.stripe.com/v1/refunds") }

type tunedAPI struct{ hc *http.Client }

func newTunedAPI() *tunedAPI { return &tunedAPI{hc: &http.Client{Timeout: 5 * time.Second}} }

func tuneVia(c *http.Client) { c.Transport = relay{} }

func (a *tunedAPI) charge(r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://api.stripe.com/v1/charges", nil)
	a.hc.Do(req)
}

func (a *tunedAPI) tune() { tuneVia(a.hc) }

type Partners struct {
	partner *partnerAPI
	tuned   *tunedAPI
}

//agent:operable grant=Egress
func (p *Partners) FieldClientHelperTwin(w http.ResponseWriter, r *http.Request) {
	p.partner.charge(r)
	p.partner.refund()
}

//agent:operable grant=Egress
func (p *Partners) FieldClientHelperTuned(w http.ResponseWriter, r *http.Request) {
	p.tuned.charge(r) // want `FieldClientHelperTuned sends a request through an \*http.Client whose Transport the analysis cannot see`
}

var _ = []any{newPartnerAPI, newTunedAPI, (*tunedAPI).tune}

// --- J35: the field's client handed to a helper as an interface it only
// calls through; a helper that asserts it back to the client and changes
// it rewires the field.

type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

type ledgerAPI struct{ hc *http.Client }

func newLedgerAPI() *ledgerAPI { return &ledgerAPI{hc: &http.Client{Timeout: 5 * time.Second}} }

func postDoer(d Doer, u string) {
	req, _ := http.NewRequest(http.MethodPost, u, nil)
	d.Do(req)
}

type unwrappedAPI struct{ hc *http.Client }

func newUnwrappedAPI() *unwrappedAPI {
	return &unwrappedAPI{hc: &http.Client{Timeout: 5 * time.Second}}
}

func unwrapVia(d Doer) {
	if c, ok := d.(*http.Client); ok {
		c.Transport = relay{}
	}
}

func (a *unwrappedAPI) charge(r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://api.stripe.com/v1/charges", nil)
	a.hc.Do(req)
}

func (a *unwrappedAPI) tune() { unwrapVia(a.hc) }

type Ledgers struct {
	ledger    *ledgerAPI
	unwrapped *unwrappedAPI
}

//agent:operable grant=Egress
func (l *Ledgers) FieldClientDoerTwin(w http.ResponseWriter, r *http.Request) {
	postDoer(l.ledger.hc, "https://api.stripe.com/v1/refunds")
}

//agent:operable grant=Egress
func (l *Ledgers) FieldClientDoerUnwrapped(w http.ResponseWriter, r *http.Request) {
	l.unwrapped.charge(r) // want `FieldClientDoerUnwrapped sends a request through an \*http.Client whose Transport the analysis cannot see`
}

var _ = []any{newLedgerAPI, newUnwrappedAPI, (*unwrappedAPI).tune}

// --- J40: a client whose constructor sets its exported hook fields to
// package defaults (or leaves them nil): what it calls is what the
// constructor put there, and what the handler sets after.

//agent:operable grant=Egress
func (s *Server) RetryingDefaultsTwin(w http.ResponseWriter, r *http.Request) {
	httpx.NewRetrying().Get(r.Context(), "https://api.stripe.com/v1/charges")
}

//agent:operable grant=Egress
func (s *Server) RetryingHookSet(w http.ResponseWriter, r *http.Request) {
	c := httpx.NewRetrying()
	c.OnRetry = func(int) { http.Get("https://metrics.example.com/retry") } // want `RetryingHookSet calls out to "https://metrics.example.com/retry"`
	c.Get(r.Context(), "https://api.stripe.com/v1/charges")
}

// --- J41: a client built as a value (hc := http.Client{...}) is the
// literal it copies: a timeout sends where the URL says, a Transport
// set in the literal decides.

//agent:operable grant=Egress
func (s *Server) ValueClientTwin(w http.ResponseWriter, r *http.Request) {
	hc := http.Client{Timeout: time.Second}
	hc.Get("https://api.stripe.com/v1/charges")
}

//agent:operable grant=Egress
func (s *Server) ValueClientOutside(w http.ResponseWriter, r *http.Request) {
	hc := http.Client{Timeout: time.Second}
	hc.Get("https://hooks.example.com/x") // want `ValueClientOutside calls out to "https://hooks.example.com/x"`
}

//agent:operable grant=Egress
func (s *Server) ValueClientRelay(w http.ResponseWriter, r *http.Request) {
	hc := http.Client{Transport: relay{}, Timeout: time.Second}
	hc.Get("https://api.stripe.com/v1/charges") // want `ValueClientRelay calls out to a URL that is not constant`
}

//agent:operable grant=Egress
func (s *Server) ValueClientSetAfter(w http.ResponseWriter, r *http.Request) {
	hc := http.Client{Timeout: time.Second}
	hc.Transport = relay{}
	hc.Get("https://api.stripe.com/v1/charges") // want `ValueClientSetAfter calls out to a URL that is not constant`
}
