// Package grpcsvc calls a gRPC service through its generated client: the
// RPC is the subject, "grpc:/package.Service/Method".
package grpcsvc

import (
	"context"

	"google.golang.org/grpc"

	"github.com/authvet/authvet/grant"

	"libmod/grpcsvc/billingpb"
)

var Refunds = grant.Grant{
	Outbound:      []string{"grpc:/billing.v1.Billing/Refund"},
	Reversibility: grant.Compensable,
}

var ReadOnly = grant.Grant{Reversibility: grant.Compensable}

var WholeService = grant.Grant{
	Outbound:      []string{"grpc:/billing.v1.Billing/"},
	Reversibility: grant.Compensable,
}

// Server gets its client from main: the implementation is out of sight.
type Server struct {
	billing billingpb.BillingClient
	conn    *grpc.ClientConn
}

//agent:operable grant=Refunds
func (s *Server) Refund(ctx context.Context, id string) error {
	_, err := s.billing.Refund(ctx, &billingpb.RefundRequest{ChargeID: id})
	return err
}

//agent:operable grant=ReadOnly
func (s *Server) RefundReadOnly(ctx context.Context, id string) error {
	_, err := s.billing.Refund(ctx, &billingpb.RefundRequest{ChargeID: id}) // want `RefundReadOnly calls out to "grpc:/billing.v1.Billing/Refund"`
	return err
}

//agent:operable grant=Refunds
func (s *Server) LookThenRefund(ctx context.Context, id string) error {
	if _, err := s.billing.GetCharge(ctx, &billingpb.GetChargeRequest{ID: id}); err != nil { // want `LookThenRefund calls out to "grpc:/billing.v1.Billing/GetCharge"`
		return err
	}
	_, err := s.billing.Refund(ctx, &billingpb.RefundRequest{ChargeID: id})
	return err
}

//agent:operable grant=WholeService
func (s *Server) Anything(ctx context.Context, id string) error {
	c := billingpb.NewBillingClient(s.conn)
	if _, err := c.GetCharge(ctx, &billingpb.GetChargeRequest{ID: id}); err != nil {
		return err
	}
	_, err := c.Watch(ctx, &billingpb.WatchRequest{})
	return err
}

// A raw Invoke with a method that is not constant cannot be proved.
//
//agent:operable grant=WholeService
func (s *Server) RawInvoke(ctx context.Context, method string) error {
	return s.conn.Invoke(ctx, method, nil, nil) // want `RawInvoke calls a gRPC method whose full name is not constant`
}

//agent:operable grant=Refunds
func (s *Server) RawInvokeConst(ctx context.Context) error {
	return s.conn.Invoke(ctx, "/billing.v1.Billing/Refund", nil, nil)
}

// A constant service with the method chosen at run time stays in that
// service (gRPC routes on the last "/"): a whole-service grant covers it,
// a one-method grant does not; a prefix that stops inside the service
// name proves nothing.

//agent:operable grant=WholeService
func (s *Server) AnyBillingMethod(ctx context.Context, op string) error {
	return s.conn.Invoke(ctx, "/billing.v1.Billing/"+op, nil, nil)
}

//agent:operable grant=Refunds
func (s *Server) AnyBillingMethodNarrow(ctx context.Context, op string) error {
	return s.conn.Invoke(ctx, "/billing.v1.Billing/"+op, nil, nil) // want `AnyBillingMethodNarrow calls out to "grpc:/billing.v1.Billing/"`
}

//agent:operable grant=WholeService
func (s *Server) AnyBillingService(ctx context.Context, svc string) error {
	return s.conn.Invoke(ctx, "/billing.v1.Billing"+svc+"/Refund", nil, nil) // want `AnyBillingService calls a gRPC method whose full name is not constant`
}
