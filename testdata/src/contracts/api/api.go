// Package api declares interfaces whose methods carry effect contracts.
package api

import "context"

// Notes stores notes; every implementation may write only notes.
type Notes interface {
	//agent:effect writes(notes) reason="implementations write the notes table only"
	Save(ctx context.Context, body string) error

	// Count has no contract: calls through it are unprovable.
	Count(ctx context.Context) int
}

// Formatter is declared effect-free.
type Formatter interface {
	Format(v any) string //agent:effect none reason="formatters are pure"
}
