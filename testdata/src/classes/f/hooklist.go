package f

import (
	"context"
	"database/sql"
	"net/http"

	"classes/f/hooklist"
)

// A callback list filled through a method and run in the handler: a
// callback handed to add is walked where it is handed in, so the call
// of the list's elements adds nothing, when the package only ever
// appends to the list and reads its elements. A list whose elements are
// also written another way is not judged so.

type cbList struct{ fns []func(context.Context) error }

func (l *cbList) add(fn func(context.Context) error) { l.fns = append(l.fns, fn) }

func (l *cbList) run(ctx context.Context) error {
	for _, fn := range l.fns {
		if err := fn(ctx); err != nil {
			return err
		}
	}
	return nil
}

//agent:operable grant=Refunds
func ListSamePkg(ctx context.Context, db *sql.DB) error {
	var l cbList
	l.add(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1", 1) // want `ListSamePkg writes "payouts"`
		return err
	})
	return l.run(ctx)
}

//agent:operable grant=Refunds
func ListSamePkgTwin(ctx context.Context, db *sql.DB) error {
	var l cbList
	l.add(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "DELETE FROM orders WHERE tenant_id = $1", 1)
		return err
	})
	return l.run(ctx)
}

//agent:operable grant=Refunds
func ListOtherPkg(ctx context.Context, db *sql.DB) error {
	var l hooklist.List
	l.Add(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1", 1) // want `ListOtherPkg writes "payouts"`
		return err
	})
	return l.Run(ctx)
}

//agent:operable grant=Refunds
func ListOtherPkgTwin(ctx context.Context, db *sql.DB) error {
	var l hooklist.List
	l.Add(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "DELETE FROM orders WHERE tenant_id = $1", 1)
		return err
	})
	return l.Run(ctx)
}

// swapList's elements are also overwritten through a copy of the slice.
type swapList struct{ fns []func(context.Context) error }

func (l *swapList) add(fn func(context.Context) error) { l.fns = append(l.fns, fn) }

func (l *swapList) swap(fn func(context.Context) error) {
	s := l.fns
	s[0] = fn
}

func (l *swapList) run(ctx context.Context) error {
	for _, fn := range l.fns {
		if err := fn(ctx); err != nil {
			return err
		}
	}
	return nil
}

var swapped func(context.Context) error

//agent:operable grant=Refunds
func ListSwapped(ctx context.Context, db *sql.DB) error {
	var l swapList
	l.add(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "DELETE FROM orders WHERE tenant_id = $1", 1)
		return err
	})
	l.swap(swapped)   // want `ListSwapped calls a function value the analysis cannot resolve`
	return l.run(ctx) // want `ListSwapped calls a function value the analysis cannot resolve`
}

// chainList's with returns the list: a handler constructor's helper,
// walked in place. What it appends is still walked where it is handed
// in, not left to the list's call.
type chainList struct{ fns []func(context.Context) error }

func (l *chainList) with(fn func(context.Context) error) *chainList {
	l.fns = append(l.fns, fn)
	return l
}

func (l *chainList) run(ctx context.Context) error {
	for _, fn := range l.fns {
		if err := fn(ctx); err != nil {
			return err
		}
	}
	return nil
}

var payoutsDB *sql.DB

func purgePayouts(ctx context.Context) error {
	_, err := payoutsDB.ExecContext(ctx, "DELETE FROM payouts WHERE tenant_id = $1", 1)
	return err
}

//agent:operable grant=Refunds
func ChainedCtor(db *sql.DB) http.HandlerFunc {
	l := &chainList{}
	l.with(purgePayouts) // want `ChainedCtor writes "payouts"`
	return func(w http.ResponseWriter, r *http.Request) {
		l.run(r.Context())
	}
}

//agent:operable grant=Refunds
func ChainedCtorTwin(db *sql.DB) http.HandlerFunc {
	l := &chainList{}
	l.with(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "DELETE FROM orders WHERE tenant_id = $1", 1)
		return err
	})
	return func(w http.ResponseWriter, r *http.Request) {
		l.run(r.Context())
	}
}
