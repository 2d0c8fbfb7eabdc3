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

// --- F31: a struct of functions (a vtable) the handler fills: an entry
// this path never calls is still walked where it is stored (SPEC §4.1).

type orderOps struct {
	save, wipe func(context.Context) error
}

func (s *Server) saveOrder(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO orders (tenant_id) VALUES ($1)", 1)
	return err
}

func (s *Server) wipePayouts(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1", 1)
	return err
}

//agent:operable grant=Refunds
func (s *Server) VtableUnused(ctx context.Context) error {
	ops := orderOps{save: s.saveOrder, wipe: s.wipePayouts} // want `VtableUnused writes "payouts"`
	return ops.save(ctx)
}

//agent:operable grant=Refunds
func (s *Server) VtableTwin(ctx context.Context) error {
	ops := orderOps{save: s.saveOrder, wipe: s.saveOrder}
	return ops.save(ctx)
}
