package httpfix

import (
	"context"
	"net/http"

	"httpfix/routing"
)

//agent:operable grant=Stripe
func (s *Server) RefundRegion(ctx context.Context, region string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.stripe.com/v1/refunds", nil)
	if err != nil {
		return err
	}
	routing.PinVia(req, region)
	_, err = apiClient.Do(req) // want `RefundRegion calls out to a URL that is not constant`
	return err
}

// Clean twin: a helper of a package that reaches no sink only signs.
//
//agent:operable grant=Stripe
func (s *Server) RefundSigned(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.stripe.com/v1/refunds", nil)
	if err != nil {
		return err
	}
	routing.Sign(req, key)
	_, err = apiClient.Do(req)
	return err
}
