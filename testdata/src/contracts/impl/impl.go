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

// Registries hold values as any or as another interface: a type
// assertion recovers api.Notes later, so the conversion is a way in.
var registry = map[string]any{}

// Saver is an interface of the registry's own, with no contract.
type Saver interface {
	Save(ctx context.Context, body string) error
}

func RegisterAny(db *sql.DB) {
	registry["good"] = &Good{db: db}
	registry["bad"] = &Bad{db: db} // want `\(\*Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow`
}

func RegisterSaver(db *sql.DB) Saver {
	if db == nil {
		return &Good{db: db}
	}
	return &Bad{db: db} // want `\(\*Bad\).Save has effect write "secrets"`
}

// FromRegistry asserts back to the contracted interface: calls through
// it are bounded by the contract, which every way in was checked against.
func FromRegistry(ctx context.Context, name string) error {
	return registry[name].(api.Notes).Save(ctx, "x")
}

// Untyped values that implement no contracted interface are not checked.
func RegisterPlain() { registry["plain"] = Plain{} }
