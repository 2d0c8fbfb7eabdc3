// Package httpfix exercises net/http outbound sinks and the URL reader.
package httpfix

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/authvet/authvet/grant"
)

var Stripe = grant.Grant{
	Outbound:      []string{"https://api.stripe.com/v1/refunds", "alias:slack"},
	Reversibility: grant.Compensable,
}

type Server struct{ client *http.Client }

// apiClient is built where the analysis sees it: its Transport is the
// default one, so the URLs of its requests are proved. The server's own
// client field is set by whoever builds the Server, unseen.
var apiClient = &http.Client{Timeout: 10 * time.Second}

//agent:operable grant=Stripe
func (s *Server) Refund(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.stripe.com/v1/refunds/"+id, strings.NewReader("x"))
	if err != nil {
		return err
	}
	resp, err := apiClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

//agent:operable grant=Stripe
func (s *Server) Charge(ctx context.Context, id string) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.stripe.com/v1/charges", nil)
	_, err := apiClient.Do(req) // want `Charge calls out to "https://api.stripe.com/v1/charges" \(POST\), which grant Stripe does not allow; add "https://api.stripe.com/v1/charges" \(or a prefix of it\) to its Outbound`
	return err
}

//agent:operable grant=Stripe
func (s *Server) Lookalike(ctx context.Context) error {
	_, err := http.Get("https://api.stripe.com.evil.example/v1/refunds") // want `Lookalike calls out to "https://api.stripe.com.evil.example/v1/refunds" \(GET\)`
	return err
}

//agent:operable grant=Stripe
func (s *Server) SegmentBoundary(ctx context.Context) error {
	_, err := apiClient.Get("https://api.stripe.com/v1/refundsX") // want `SegmentBoundary calls out to "https://api.stripe.com/v1/refundsX"`
	return err
}

//agent:operable grant=Stripe
func (s *Server) QueryOK(ctx context.Context) error {
	_, err := apiClient.Get("https://api.stripe.com/v1/refunds?limit=10")
	return err
}

//agent:operable grant=Stripe
func (s *Server) NotConstant(ctx context.Context, url string) error {
	_, err := http.Post(url, "application/json", nil) // want `NotConstant calls out to a URL that is not constant; pass a constant URL or a constant scheme://host/ prefix, or declare it with //agent:effect outbound\("..."\) \(grant Stripe cannot bound it\)`
	return err
}

//agent:operable grant=Stripe
func (s *Server) HostNotFixed(ctx context.Context, host string) error {
	_, err := http.Get("https://" + host + "/v1/refunds") // want `HostNotFixed calls out to a URL the analysis refuses`
	return err
}

//agent:operable grant=Stripe
func (s *Server) SprintfPrefix(ctx context.Context, id string) error {
	_, err := http.Get(fmt.Sprintf("https://api.stripe.com/v1/refunds/%s", id))
	return err
}

//agent:operable grant=Stripe
func (s *Server) JoinPath(ctx context.Context, id string) error {
	u, err := url.JoinPath("https://api.stripe.com/v1/refunds", id)
	if err != nil {
		return err
	}
	// A non-constant element proves only scheme and host: JoinPath
	// cleans ".." elements, which climb above the base.
	if _, err := http.Get(u); err != nil { // want `JoinPath calls out to "https://api.stripe.com/" \(GET\)`
		return err
	}
	climb, _ := url.JoinPath("https://api.stripe.com/v1/refunds", "..", "charges")
	_, err = http.Get(climb) // want `JoinPath calls out to "https://api.stripe.com/v1/charges" \(GET\)`
	return err
}

// JoinPathConst joins constant elements: the URL is computed as JoinPath
// computes it, and stays under the granted prefix.
//
//agent:operable grant=Stripe
func (s *Server) JoinPathConst(ctx context.Context) error {
	u, _ := url.JoinPath("https://api.stripe.com/v1", "refunds", "re_1")
	_, err := http.Get(u)
	return err
}

//agent:operable grant=Stripe
func (s *Server) SprintfHost(ctx context.Context, host string) error {
	_, err := http.Get(fmt.Sprintf("https://%s/v1/refunds", host)) // want `SprintfHost calls out to a URL the analysis refuses`
	return err
}

//agent:operable grant=Stripe
func (s *Server) Relative(ctx context.Context) error {
	_, err := apiClient.Get("/v1/refunds") // want `Relative calls out to a URL the analysis refuses: relative URL "/v1/refunds" names no host`
	return err
}

//agent:operable grant=Stripe
func (s *Server) Userinfo(ctx context.Context) error {
	_, err := apiClient.Get("https://user:pass@api.stripe.com/v1/refunds") // want `Userinfo calls out to a URL the analysis refuses: userinfo`
	return err
}

//agent:operable grant=Stripe
func (s *Server) EncodedDot(ctx context.Context) error {
	_, err := apiClient.Get("https://api.stripe.com/v1/refunds/%2e%2e/charges") // want `EncodedDot calls out to a URL the analysis refuses`
	return err
}

//agent:operable grant=Stripe
func (s *Server) EncodedSlash(ctx context.Context) error {
	_, err := apiClient.Get("https://api.stripe.com/v1/refunds/..%2fcharges") // want `EncodedSlash calls out to a URL the analysis refuses: encoded slash`
	return err
}

//agent:operable grant=Stripe
func (s *Server) EncodedSlashQueryTwin(ctx context.Context) error {
	_, err := apiClient.Get("https://api.stripe.com/v1/refunds?next=%2Fv1%2Fcharges")
	return err
}

//agent:operable grant=Stripe
func (s *Server) DotDot(ctx context.Context) error {
	_, err := apiClient.Get("https://api.stripe.com/v1/refunds/../charges") // want `DotDot calls out to a URL the analysis refuses`
	return err
}

//agent:operable grant=Stripe
func (s *Server) RoundTrip(ctx context.Context) error {
	req, _ := http.NewRequest("DELETE", "https://api.stripe.com/v1/customers/c_1", nil)
	_, err := http.DefaultTransport.RoundTrip(req) // want `RoundTrip calls out to "https://api.stripe.com/v1/customers/c_1" \(DELETE\)`
	return err
}

//agent:operable grant=Stripe
func (s *Server) WithContext(ctx context.Context) error {
	req, _ := http.NewRequest("GET", "https://api.stripe.com/v1/refunds/re_1", nil)
	_, err := apiClient.Do(req.WithContext(ctx))
	return err
}

// UnknownRequest sends a request the analysis cannot trace.
//
//agent:operable grant=Stripe
func (s *Server) UnknownRequest(req *http.Request) error {
	_, err := apiClient.Do(req) // want `UnknownRequest calls out to a URL that is not constant`
	return err
}

//agent:operable grant=Stripe
func (s *Server) Declared(ctx context.Context, req *http.Request) error {
	//agent:effect outbound("alias:slack") reason="the request is built by the Slack client with its base URL"
	_, err := s.client.Do(req)
	return err
}

//agent:operable grant=Stripe
func (s *Server) DeclaredTrailing(ctx context.Context, req *http.Request) error {
	_, err := s.client.Do(req) //agent:effect outbound("alias:slack") reason="Slack client"
	return err
}

//agent:operable grant=Stripe
func (s *Server) DeclaredNotGranted(ctx context.Context, req *http.Request) error {
	//agent:effect outbound("alias:github") reason="GitHub client"
	_, err := s.client.Do(req) // want `DeclaredNotGranted calls out to "alias:github"`
	return err
}

// send is a helper that takes the URL as a parameter.
func (s *Server) send(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, "POST", url, nil)
	if err != nil {
		return err
	}
	_, err = apiClient.Do(req)
	return err
}

//agent:operable grant=Stripe
func (s *Server) ThroughHelper(ctx context.Context) error {
	if err := s.send(ctx, "https://api.stripe.com/v1/refunds"); err != nil {
		return err
	}
	return s.send(ctx, "https://hooks.example.com/x") // want `ThroughHelper calls out to "https://hooks.example.com/x" \(POST\), which grant Stripe .* \(at \S+httpfix.go:\d+\)`
}

// InjectedClient sends through the server's client, whose Transport was
// set by whoever built the Server: a transport may send the request
// anywhere, so the URL is not proved (SPEC §4.1).
//
//agent:operable grant=Stripe
func (s *Server) InjectedClient(ctx context.Context) error {
	_, err := s.client.Get("https://api.stripe.com/v1/refunds") // want `InjectedClient sends a request through an \*http.Client whose Transport the analysis cannot see`
	return err
}

// LocalClient builds its client with a standard transport: proved.
//
//agent:operable grant=Stripe
func (s *Server) LocalClient(ctx context.Context) error {
	c := &http.Client{Transport: http.DefaultTransport, Timeout: time.Second}
	_, err := c.Get("https://api.stripe.com/v1/refunds/re_1")
	return err
}

// rewriter sends every request to another host.
type rewriter struct{ base http.RoundTripper }

func (t *rewriter) RoundTrip(req *http.Request) (*http.Response, error) {
	req.URL.Host = "gateway.evil.example"
	return t.base.RoundTrip(req)
}

// RewritingTransport builds a client whose transport rewrites the host:
// the request's constant URL proves nothing.
//
//agent:operable grant=Stripe
func (s *Server) RewritingTransport(ctx context.Context) error {
	c := &http.Client{Transport: &rewriter{base: http.DefaultTransport}}
	_, err := c.Get("https://api.stripe.com/v1/refunds/re_1") // want `RewritingTransport calls out to a URL that is not constant`
	return err
}

// HostRewritten changes the request's host after NewRequest.
//
//agent:operable grant=Stripe
func (s *Server) HostRewritten(ctx context.Context, host string) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.stripe.com/v1/refunds", nil)
	req.URL.Host = host
	_, err := http.DefaultClient.Do(req) // want `HostRewritten calls out to a URL that is not constant`
	return err
}

// HeaderWritten sets a header after NewRequest: the URL stands (a clean
// twin of HostRewritten).
//
//agent:operable grant=Stripe
func (s *Server) HeaderWritten(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.stripe.com/v1/refunds", nil)
	req.Header.Set("Idempotency-Key", "k")
	_, err := http.DefaultClient.Do(req)
	return err
}

// setHost changes the host of the request it is handed.
func setHost(req *http.Request, host string) { req.URL.Host = host }

// HostRewrittenByHelper hands the request to a helper that changes its host.
//
//agent:operable grant=Stripe
func (s *Server) HostRewrittenByHelper(ctx context.Context, host string) error {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.stripe.com/v1/refunds", nil)
	setHost(req, host)
	_, err := http.DefaultClient.Do(req) // want `HostRewrittenByHelper calls out to a URL that is not constant`
	return err
}

// A transport built here with a RoundTripper registered for https sends
// wherever that RoundTripper does; one without sends where the URL says.

//agent:operable grant=Stripe
func (s *Server) RegisteredProtocol(ctx context.Context) error {
	t := &http.Transport{}
	t.RegisterProtocol("https", &rewriter{base: http.DefaultTransport}) // want `RegisteredProtocol calls out to a URL that is not constant`
	c := &http.Client{Transport: t}
	_, err := c.Get("https://api.stripe.com/v1/refunds/re_1") // want `RegisteredProtocol sends requests through an http.Transport whose`
	return err
}

//agent:operable grant=Stripe
func (s *Server) RegisteredProtocolTwin(ctx context.Context) error {
	t := &http.Transport{MaxIdleConns: 4}
	c := &http.Client{Transport: t}
	_, err := c.Get("https://api.stripe.com/v1/refunds/re_1")
	return err
}
