// Package kafkasvc writes to Kafka with kafka-go: a write is a webhook
// whose topic is the writer's.
package kafkasvc

import (
	"context"

	"github.com/segmentio/kafka-go"

	"github.com/authvet/authvet/grant"
)

var Orders = grant.Grant{
	Webhooks:      []string{"orders"},
	Reversibility: grant.Compensable,
}

type Server struct {
	w *kafka.Writer // built in main: its topic is out of sight
}

//agent:operable grant=Orders
func (s *Server) Create(ctx context.Context, id string) error {
	w := &kafka.Writer{Addr: kafka.TCP("kafka:9092"), Topic: "orders"}
	defer w.Close()
	return w.WriteMessages(ctx, kafka.Message{Key: []byte(id)})
}

//agent:operable grant=Orders
func (s *Server) Refund(ctx context.Context, id string) error {
	w := &kafka.Writer{Addr: kafka.TCP("kafka:9092"), Topic: "refunds"}
	defer w.Close()
	return w.WriteMessages(ctx, kafka.Message{Key: []byte(id)}) // want `Refund dispatches webhook "refunds"`
}

//agent:operable grant=Orders
func (s *Server) Shared(ctx context.Context, id string) error {
	return s.w.WriteMessages(ctx, kafka.Message{Key: []byte(id)}) // want `Shared dispatches a webhook whose topic is not constant`
}
