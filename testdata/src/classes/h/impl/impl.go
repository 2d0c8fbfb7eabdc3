// Package impl implements api.Notes structurally: it never imports api,
// so no conversion here is checked against api's contract.
package impl

import (
	"context"
	"database/sql"

	"classes/h/reg"
)

// DB is set at start-up.
var DB *sql.DB

type Good struct{ db *sql.DB }

func (g *Good) Save(ctx context.Context, body string) error {
	_, err := g.db.ExecContext(ctx, "INSERT INTO notes (tenant_id, body) VALUES ($1, $2)", 1, body)
	return err
}

type Bad struct{ db *sql.DB }

func (b *Bad) Save(ctx context.Context, body string) error {
	_, err := b.db.ExecContext(ctx, "INSERT INTO secrets (tenant_id, body) VALUES ($1, $2)", 1, body)
	return err
}

// Plugins register themselves, as database/sql drivers do.
func init() {
	reg.Register("good", &Good{db: DB})
	reg.Register("bad", &Bad{db: DB})
}
