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
