// Package api declares a contracted interface for class H.
package api

import "context"

// Notes stores notes; every implementation may write only notes.
type Notes interface {
	//agent:effect writes(notes) reason="implementations write the notes table only"
	Save(ctx context.Context, body string) error
}

// Pool saves to every store it holds, through the constraint.
type Pool[T Notes] struct{ Items []T }

func (p *Pool[T]) SaveAll(ctx context.Context, body string) error {
	for _, n := range p.Items {
		if err := n.Save(ctx, body); err != nil {
			return err
		}
	}
	return nil
}
