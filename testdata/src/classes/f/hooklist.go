package f

import (
	"context"
	"log"
)

// --- F30: a hook list held in a field of a struct the handler builds
// (appended to, assigned, or set in the literal) and run in a loop: each
// call runs what was put there.

type stepHooks struct {
	after []func(context.Context) error
}

//agent:operable grant=Refunds
func (s *Server) FieldHooksTwin(ctx context.Context) error {
	var hk stepHooks
	hk.after = append(hk.after, func(context.Context) error { log.Print("after"); return nil })
	lit := stepHooks{after: []func(context.Context) error{func(context.Context) error { return nil }}}
	for _, h := range append(hk.after, lit.after...) {
		if err := h(ctx); err != nil {
			return err
		}
	}
	return nil
}

//agent:operable grant=Refunds
func (s *Server) FieldHooksWrite(ctx context.Context) error {
	hk := &stepHooks{}
	hk.after = append(hk.after, func(ctx context.Context) error {
		_, err := s.db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1", 1) // want `FieldHooksWrite writes "payouts"`
		return err
	})
	for _, h := range hk.after {
		if err := h(ctx); err != nil { // want `FieldHooksWrite writes "payouts"`
			return err
		}
	}
	return nil
}
