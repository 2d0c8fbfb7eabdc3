package f

import (
	"context"
	"log"

	"classes/f/bgo"
)

// --- A dependency's goroutine helper: detached is what the callback
// the handler hands it does, not the goroutine by itself.

//agent:operable grant=Refunds
func (s *Server) RefundLater(ctx context.Context, id int64) {
	bgo.Go(ctx, "refund", func(ctx context.Context) { // want `RefundLater hands a function to code that may run it after the call returns`
		s.db.ExecContext(ctx, "UPDATE orders SET refunded = true WHERE tenant_id = $1 AND id = $2", 1, id)
	})
}

// Clean twin: the callback only logs.
//
//agent:operable grant=Refunds
func (s *Server) LogLater(ctx context.Context, id int64) {
	bgo.Go(ctx, "log", func(context.Context) { log.Printf("refund %d done", id) })
}
