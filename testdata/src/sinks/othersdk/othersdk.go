// Package othersdk has the same shape as sdk, but no client entry.
package othersdk

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
