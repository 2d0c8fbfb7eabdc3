// Package handlers reaches effects through another package and uses a
// grant declared in a third.
package handlers

import (
	"context"
	"database/sql"
	"net/http"

	"crosspkg/grants"
	"crosspkg/store"
)

type Server struct{ store *store.Store }

// A grant named only in directives still needs its package imported and
// used, as Go requires of every import.
var _ = grants.CategoryEditor

//agent:operable grant=grants.CategoryEditor
func (s *Server) CreateCategory(ctx context.Context, name string) error {
	return s.store.CreateCategory(ctx, name)
}

//agent:operable grant=grants.CategoryEditor
func (s *Server) CreateTag(ctx context.Context, name string) error {
	return s.store.CreateTag(ctx, name) // want `CreateTag writes "tags", which grant CategoryEditor does not allow; .* \(at \S*store.go:\d+\)$`
}

//agent:operable grant=grants.CategoryEditor // want `DeleteTags is declared reversible by grant CategoryEditor, but its effects floor it at compensable`
func (s *Server) DeleteTags(ctx context.Context) error {
	return s.store.DeleteAllTags(ctx) // want `DeleteTags writes every row of "tags"` `DeleteTags runs a raw query on "tags"`
}

//agent:operable grant=grants.CategoryEditor
func (s *Server) Wrapper(ctx context.Context) error {
	if err := s.store.Exec(ctx, "UPDATE categories SET n = 1 WHERE tenant_id = $1 AND id = $2", 1, 2); err != nil {
		return err
	}
	return s.store.Exec(ctx, "UPDATE tags SET n = 1 WHERE tenant_id = $1 AND id = $2", 1, 2) // want `Wrapper writes "tags"`
}

//agent:operable grant=grants.CategoryEditor
func (s *Server) TxCallback(ctx context.Context) error {
	return s.store.InTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO categories (tenant_id) VALUES ($1)", 1); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO tags (tenant_id) VALUES ($1)", 1) // want `TxCallback writes "tags"`
		return err
	})
}

//agent:operable grant=grants.CategoryEditor
func (s *Server) HandlePassedIn(ctx context.Context, db *sql.DB) error {
	ok, err := db.PrepareContext(ctx, "UPDATE categories SET n = 1 WHERE tenant_id = $1 AND id = $2")
	if err != nil {
		return err
	}
	store.Run(ctx, ok, 1, 2)
	bad, err := db.PrepareContext(ctx, "UPDATE tags SET n = 1 WHERE tenant_id = $1 AND id = $2")
	if err != nil {
		return err
	}
	return store.Run(ctx, bad, 1, 2) // want `HandlePassedIn writes "tags"`
}

//agent:operable grant=grants.CategoryEditor // want `RequestPassedIn is declared reversible by grant CategoryEditor, but its effects floor it at compensable: an outbound call to "https://api.example.com/v1/tags/7" at \S*handlers.go:\d+ \(reaching \S*store.go:\d+\)`
func (s *Server) RequestPassedIn(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, "PUT", "https://api.example.com/v1/tags/7", nil)
	return store.Send(http.DefaultClient, req) // want `RequestPassedIn calls out to "https://api.example.com/v1/tags/7" \(PUT\)`
}

// ClientPassedIn hands the other package a client it was handed: its
// Transport is out of sight, so the URL is not proved.
//
//agent:operable grant=grants.CategoryEditor
func (s *Server) ClientPassedIn(ctx context.Context, c *http.Client) error {
	req, _ := http.NewRequestWithContext(ctx, "PUT", "https://api.example.com/v1/tags/7", nil)
	return store.Send(c, req) // want `ClientPassedIn sends a request through an \*http.Client whose Transport the analysis cannot see`
}

//agent:operable grant=grants.CategoryEditor
func (s *Server) RangeOtherPackage(ctx context.Context) {
	for id := range s.store.Categories(ctx) {
		s.store.Exec(ctx, "UPDATE categories SET seen = true WHERE tenant_id = $1 AND id = $2", 1, id)
	}
	for range s.store.Tags(ctx, 1) { // want `RangeOtherPackage writes "tags"`
	}
}

//agent:operable grant=grants.CategoryEditor
func (s *Server) LoopBodyThroughIterator(ctx context.Context, db *sql.DB) {
	for id := range s.store.Categories(ctx) {
		db.Exec("DELETE FROM tags WHERE tenant_id = $1 AND id = $2", 1, id) // want `LoopBodyThroughIterator writes "tags"`
	}
}

//agent:operable grant=grants.CategoryEditor
func (s *Server) FactoryOtherPackage(ctx context.Context, db *sql.DB) error {
	if err := store.Deleter(db, "categories")(1); err != nil {
		return err
	}
	del := store.Deleter(db, "tags")
	return del(2) // want `FactoryOtherPackage writes "tags"`
}

type Category struct{}

func (Category) TableName() string { return "categories" }

type Tag struct{}

func (Tag) TableName() string { return "tags" }

//agent:operable grant=grants.CategoryEditor
func (s *Server) ModelTables(ctx context.Context, db *sql.DB) error {
	store.Insert(ctx, db, Category{})
	store.Insert(ctx, db, Tag{}) // want `ModelTables writes "tags"`
	return nil
}

// insertVia passes its model on: the table is still the caller's to say.
func insertVia(ctx context.Context, db *sql.DB, m store.Model) error {
	return store.Insert(ctx, db, m)
}

//agent:operable grant=grants.CategoryEditor
func (s *Server) ModelTablesTwoHops(ctx context.Context, db *sql.DB, m store.Model) error {
	insertVia(ctx, db, Category{})
	insertVia(ctx, db, Tag{})    // want `ModelTablesTwoHops writes "tags"`
	return insertVia(ctx, db, m) // want `ModelTablesTwoHops (calls TableName through the interface store.Model|runs SQL).*\(and 1 more unprovable site through this call\)`
}
