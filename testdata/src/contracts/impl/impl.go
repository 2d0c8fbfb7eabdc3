// Package impl implements the contracted interfaces, one of them badly.
package impl

import (
	"context"
	"database/sql"
	"fmt"

	"contracts/api"
)

type Good struct{ db *sql.DB }

func (g *Good) Save(ctx context.Context, body string) error {
	_, err := g.db.ExecContext(ctx, "INSERT INTO notes (tenant_id, body) VALUES ($1, $2)", 1, body)
	return err
}

func (g *Good) Count(ctx context.Context) int { return 0 }

type Bad struct{ db *sql.DB }

func (b *Bad) Save(ctx context.Context, body string) error {
	_, err := b.db.ExecContext(ctx, "INSERT INTO secrets (tenant_id, body) VALUES ($1, $2)", 1, body)
	return err
}

func (b *Bad) Count(ctx context.Context) int { return 0 }

var _ api.Notes = (*Good)(nil)
var _ api.Notes = (*Bad)(nil) // want `agent authority: \(\*Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow`

type Plain struct{}

func (Plain) Format(v any) string { return fmt.Sprint(v) }

type Leaky struct{ db *sql.DB }

func (l Leaky) Format(v any) string {
	l.db.Exec("DELETE FROM cache")
	return ""
}

// Use converts implicitly, by passing to an interface parameter.
func Use(n api.Notes, f api.Formatter) {}

func Wire(db *sql.DB) {
	Use(&Good{db: db}, Plain{})
	Use(&Good{db: db}, Leaky{db: db}) // want `\(Leaky\).Format has effect unbounded_write "cache"` `\(Leaky\).Format runs a raw query on "cache"`
}
