// Package refund is a resource package of the SDK, under sdk/... .
package refund

import (
	"context"
	"net/http"

	"sinks/sdk"
)

type Client struct{ B *sdk.Backend }

func (c Client) New(ctx context.Context) error {
	return c.B.Call(ctx, http.MethodPost, "/v1/refunds")
}

func (c Client) Get(ctx context.Context, id string) error {
	return c.B.Call(ctx, http.MethodGet, "/v1/refunds/"+id)
}
