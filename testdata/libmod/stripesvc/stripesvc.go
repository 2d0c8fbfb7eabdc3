// Package stripesvc calls Stripe through stripe-go's client: the method
// and path are proved, the base URL is declared by the clients entry of
// libmod's authvet.yaml.
package stripesvc

import (
	"context"

	"github.com/stripe/stripe-go/v82"

	"github.com/authvet/authvet/grant"
)

var Refunds = grant.Grant{
	Outbound:      []string{"https://api.stripe.com/v1/refunds"},
	Reversibility: grant.Compensable,
}

type Server struct{ sc *stripe.Client }

//agent:operable grant=Refunds
func (s *Server) Refund(ctx context.Context, charge string) (string, error) {
	r, err := s.sc.V1Refunds.Create(ctx, &stripe.RefundCreateParams{Charge: stripe.String(charge)})
	if err != nil {
		return "", err
	}
	return r.ID, nil
}

//agent:operable grant=Refunds
func (s *Server) Capture(ctx context.Context, pi string) error {
	_, err := s.sc.V1PaymentIntents.Capture(ctx, pi, nil) // want `Capture calls out to "https://api.stripe.com/v1/payment_intents/" \(POST\)`
	return err
}

var ChargeReader = grant.Grant{
	Outbound:      []string{"https://api.stripe.com/v1/charges"},
	Reversibility: grant.Reversible,
}

// CountCharges lists charges: stripe-go's List encodes the parameters
// with its form package (an encoder cache in a package variable, no I/O:
// not detached work) and reads pages through a query function its
// generic list keeps in a field, which stays unprovable (README, Limits).
//
//agent:operable grant=ChargeReader
func (s *Server) CountCharges(ctx context.Context) (int, error) {
	n := 0
	for _, err := range s.sc.V1Charges.List(ctx, &stripe.ChargeListParams{}) { // want `CountCharges calls a function value the analysis cannot resolve`
		if err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}
