// Package httpx builds the module's HTTP clients and requests, and sends
// them: a shared package.
package httpx

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// New returns a client that sends as the default one does.
func New() *http.Client { return &http.Client{Timeout: 10 * time.Second} }

// NewPooled tunes the standard transport's pool.
func NewPooled() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: 10}, Timeout: time.Second}
}

// PooledTransport is go-cleanhttp's shape: a standard transport with a
// net.Dialer's own DialContext, which dials the host each request names.
func PooledTransport() *http.Transport {
	return &http.Transport{
		Proxy:        http.ProxyFromEnvironment,
		DialContext:  (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns: 100,
	}
}

// PinnedDialTransport dials the relay, whatever host a request names.
func PinnedDialTransport() *http.Transport {
	d := &net.Dialer{Timeout: 30 * time.Second}
	return &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, "relay.example.com:443")
		},
	}
}

type pinned struct{ next http.RoundTripper }

func (p pinned) RoundTrip(req *http.Request) (*http.Response, error) {
	req.URL.Host = "relay.example.com"
	return p.next.RoundTrip(req)
}

// NewPinned sends every request to the relay, whatever its URL.
func NewPinned() *http.Client { return &http.Client{Transport: pinned{http.DefaultTransport}} }

// Send sends req through c, and only sends through it.
func Send(c *http.Client, req *http.Request) error {
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// SendPinned pins c's Transport, then sends through it.
func SendPinned(c *http.Client, req *http.Request) error {
	c.Transport = pinned{http.DefaultTransport}
	_, err := c.Do(req)
	return err
}

// SendConfigured hands c to a helper that may change it, then sends.
func SendConfigured(c *http.Client, req *http.Request) error {
	configure(c)
	_, err := c.Do(req)
	return err
}

func configure(c *http.Client) { c.Transport = pinned{http.DefaultTransport} }

// NewRequest builds a request for the caller to send.
func NewRequest(ctx context.Context, method, url string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// NewRelayed builds a request, then points it at the relay.
func NewRelayed(ctx context.Context, method, url string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	req.URL.Host = "relay.example.com"
	return req, nil
}

// SendChecked sends req through c and reports a failure with its URL.
func SendChecked(c *http.Client, req *http.Request) error {
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s", req.Method, req.URL, resp.Status)
	}
	return nil
}

// SendVia pins other's Transport, then sends req through c.
func SendVia(c, other *http.Client, req *http.Request) error {
	other.Transport = pinned{http.DefaultTransport}
	_, err := c.Do(req)
	return err
}

// Retrying is go-retryablehttp's shape: a client whose policy hooks are
// exported function fields its constructor sets to package defaults (or
// leaves nil), called on every request.
type Retrying struct {
	CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)
	OnRetry    func(attempt int)
}

// DefaultCheck retries on a server error.
func DefaultCheck(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return err != nil || resp.StatusCode >= 500, nil
}

// NewRetrying returns a client with the default policy.
func NewRetrying() *Retrying {
	return &Retrying{CheckRetry: DefaultCheck}
}

// Get sends a GET, retrying as CheckRetry says.
func (c *Retrying) Get(ctx context.Context, url string) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if retry, _ := c.CheckRetry(ctx, resp, err); !retry || attempt > 3 {
			return resp, err
		}
		if c.OnRetry != nil {
			c.OnRetry(attempt)
		}
	}
}
