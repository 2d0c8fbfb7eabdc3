// Package gh is a GraphQL client whose endpoint is configuration: its
// sinks are declared with a constant subject, a method and safe.
package gh

import (
	"context"
	"net/http"
	"strings"
)

type Client struct {
	HTTP     *http.Client
	Endpoint string
}

func (c *Client) Mutate(ctx context.Context, m string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint, strings.NewReader(m))
	if err != nil {
		return err
	}
	_, err = c.HTTP.Do(req)
	return err
}

func (c *Client) Query(ctx context.Context, q string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint, strings.NewReader(q))
	if err != nil {
		return err
	}
	_, err = c.HTTP.Do(req)
	return err
}
