package f

import (
	"context"
	"log"

	"classes/f/bgo"
)

// --- The module's own goroutine helper: its go statement is reached,
// so the handler is detached whatever the callback does (SPEC §4); the
// callback's own work is detached too. (In a dependency of another
// module only the callback's work would count: libmod's bgo.)

//agent:operable grant=Refunds
func (s *Server) RefundLater(ctx context.Context, id int64) {
	bgo.Go(ctx, "refund", func(ctx context.Context) { // want `RefundLater hands a function to code that may run it after the call returns` `RefundLater starts a detached goroutine`
		s.db.ExecContext(ctx, "UPDATE orders SET refunded = true WHERE tenant_id = $1 AND id = $2", 1, id)
	})
}

// Only logs, but on a goroutine of the module's own helper.
//
//agent:operable grant=Refunds
func (s *Server) LogLater(ctx context.Context, id int64) {
	bgo.Go(ctx, "log", func(context.Context) { log.Printf("refund %d done", id) }) // want `LogLater starts a detached goroutine`
}

// Clean twin: the module's helper runs the callback under the request.
//
//agent:operable grant=Refunds
func (s *Server) LogNow(ctx context.Context, id int64) {
	bgo.Run(ctx, "log", func(context.Context) { log.Printf("refund %d done", id) })
}
