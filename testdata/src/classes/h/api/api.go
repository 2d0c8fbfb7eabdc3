// Package api declares a contracted interface for class H.
package api

import "context"

// Notes stores notes; every implementation may write only notes.
type Notes interface {
	//agent:effect writes(notes) reason="implementations write the notes table only"
	Save(ctx context.Context, body string) error
}
