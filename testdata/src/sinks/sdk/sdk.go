// Package sdk is an API client whose base URL and HTTP client are
// runtime configuration (as stripe-go's backends are); authvet-sinks.yaml
// names it under clients.
package sdk

import (
	"context"
	"net/http"
)

type Backend struct {
	URL  string
	HTTP *http.Client
}

func (b *Backend) Call(ctx context.Context, method, path string) error {
	req, err := http.NewRequestWithContext(ctx, method, b.URL+path, nil)
	if err != nil {
		return err
	}
	_, err = b.HTTP.Do(req)
	return err
}

// Ping reaches a constant URL: the analysis proves it, and the client
// entry does not widen it.
func Ping(ctx context.Context) error {
	_, err := http.Get("https://status.example.com/ping")
	return err
}
