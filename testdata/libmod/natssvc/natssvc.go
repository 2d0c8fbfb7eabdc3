// Package natssvc publishes on NATS and JetStream: a publish is a webhook
// whose topic is the subject.
package natssvc

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/authvet/authvet/grant"
)

var Orders = grant.Grant{
	Webhooks:      []string{"orders.created"},
	Reversibility: grant.Compensable,
}

type Server struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	ojs nats.JetStreamContext
}

//agent:operable grant=Orders
func (s *Server) Create(ctx context.Context, id string) error {
	b, _ := json.Marshal(map[string]string{"id": id})
	if err := s.nc.Publish("orders.created", b); err != nil {
		return err
	}
	_, err := s.js.Publish(ctx, "orders.created", b)
	return err
}

//agent:operable grant=Orders
func (s *Server) Cancel(ctx context.Context, id string) error {
	return s.nc.Publish("orders.cancelled", []byte(id)) // want `Cancel dispatches webhook "orders.cancelled"`
}

//agent:operable grant=Orders
func (s *Server) CancelMsg(ctx context.Context, id string) error {
	return s.nc.PublishMsg(&nats.Msg{Subject: "orders.cancelled", Data: []byte(id)}) // want `CancelMsg dispatches webhook "orders.cancelled"`
}

//agent:operable grant=Orders
func (s *Server) Ask(ctx context.Context, id string) error {
	_, err := s.nc.Request("inventory.reserve", []byte(id), 0) // want `Ask dispatches webhook "inventory.reserve"`
	return err
}

//agent:operable grant=Orders
func (s *Server) Stream(ctx context.Context, id string) error {
	_, err := s.js.PublishMsg(ctx, &nats.Msg{Subject: "orders.refunded"}) // want `Stream dispatches webhook "orders.refunded"`
	return err
}

//agent:operable grant=Orders
func (s *Server) Legacy(ctx context.Context, id string) error {
	_, err := s.ojs.Publish("orders.archived", nil) // want `Legacy dispatches webhook "orders.archived"`
	return err
}

//agent:operable grant=Orders
func (s *Server) Dynamic(ctx context.Context, subj string) error {
	return s.nc.Publish(subj, nil) // want `Dynamic dispatches a webhook whose topic is not constant`
}

// A message made by nats.NewMsg whose Subject is set after: the subject
// sent is the one set last. Twin: only the constructor's.

//agent:operable grant=Orders
func (s *Server) Retarget(ctx context.Context, id string) error {
	m := nats.NewMsg("orders.created")
	m.Data = []byte(id)
	m.Subject = "payments.refund"
	return s.nc.PublishMsg(m) // want `Retarget dispatches webhook "payments.refund"`
}

//agent:operable grant=Orders
func (s *Server) NewMsgTwin(ctx context.Context, id string) error {
	m := nats.NewMsg("orders.created")
	m.Data = []byte(id)
	return s.nc.PublishMsg(m)
}
