// Package sqlcsvc calls sqlc-generated queries, database/sql flavour
// (DBTX held by Queries, WithTx) and pgx flavour with
// emit_methods_with_db_argument.
package sqlcsvc

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/authvet/authvet/grant"

	"libmod/sqlcsvc/db"
	"libmod/sqlcsvc/pgdb"
)

var Authors = grant.Grant{
	Writes:        []string{"authors"},
	Reversibility: grant.Reversible,
}

var Orders = grant.Grant{
	Writes:        []string{"orders"},
	Reversibility: grant.Compensable,
}

type Server struct {
	q    *db.Queries // made in main: db.New(sqlDB)
	sql  *sql.DB
	pool *pgxpool.Pool
	pq   *pgdb.Queries
}

//agent:operable grant=Authors
func (s *Server) CreateAuthor(ctx context.Context, tenant int64, name string) error {
	_, err := s.q.CreateAuthor(ctx, db.CreateAuthorParams{TenantID: tenant, Name: name})
	return err
}

//agent:operable grant=Authors
func (s *Server) DeleteBook(ctx context.Context, tenant, id int64) error {
	return s.q.DeleteBook(ctx, db.DeleteBookParams{TenantID: tenant, ID: id}) // want `DeleteBook writes "books"`
}

//agent:operable grant=Authors
func (s *Server) InTx(ctx context.Context, tenant, id int64) error {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	qtx := s.q.WithTx(tx)
	if _, err := qtx.CreateAuthor(ctx, db.CreateAuthorParams{TenantID: tenant}); err != nil {
		return err
	}
	if err := qtx.DeleteBook(ctx, db.DeleteBookParams{TenantID: tenant, ID: id}); err != nil { // want `InTx writes "books"`
		return err
	}
	return tx.Commit()
}

//agent:operable grant=Orders
func (s *Server) MarkPaid(ctx context.Context, tenant, id int64) error {
	return s.pq.MarkPaid(ctx, s.pool, tenant, id)
}

//agent:operable grant=Orders
func (s *Server) ArchiveAll(ctx context.Context) error {
	return s.pq.ArchiveOrders(ctx, s.pool) // want `ArchiveAll writes every row of "orders"` `ArchiveAll runs a raw query on "orders" with no tenant predicate`
}

// Clean twin: a tenant-scoped list.
//
//agent:operable grant=Authors
func (s *Server) List(ctx context.Context, tenant int64) (int, error) {
	as, err := s.q.ListAuthors(ctx, tenant)
	return len(as), err
}

// OrderEvents allows the event table sqlc's :copyfrom query fills.
var OrderEvents = grant.Grant{
	Writes:        []string{"order_events"},
	Reversibility: grant.Compensable,
}

// A :copyfrom query inserts through DBTX.CopyFrom into its table.
//
//agent:operable grant=Orders
func (s *Server) RecordEvents(ctx context.Context, tenant, order int64) error {
	_, err := s.pq.InsertOrderEvents(ctx, s.pool, []pgdb.InsertOrderEventsParams{{TenantID: tenant, OrderID: order, Kind: "paid"}}) // want `RecordEvents writes "order_events"`
	return err
}

// Clean twin: a grant that allows the table.
//
//agent:operable grant=OrderEvents
func (s *Server) RecordEventsAllowed(ctx context.Context, tenant, order int64) error {
	_, err := s.pq.InsertOrderEvents(ctx, s.pool, []pgdb.InsertOrderEventsParams{{TenantID: tenant, OrderID: order, Kind: "paid"}})
	return err
}

// EventLog holds a DBTX main injects: the value is out of sight, and the
// call runs CopyFrom by its shape.
type EventLog struct {
	db pgdb.DBTX
	q  *pgdb.Queries
}

//agent:operable grant=Orders
func (l *EventLog) Record(ctx context.Context, tenant, order int64) error {
	_, err := l.q.InsertOrderEvents(ctx, l.db, []pgdb.InsertOrderEventsParams{{TenantID: tenant, OrderID: order, Kind: "paid"}}) // want `Record writes "order_events"`
	return err
}

// Clean twin: a grant that allows the table.
//
//agent:operable grant=OrderEvents
func (l *EventLog) RecordAllowed(ctx context.Context, tenant, order int64) error {
	_, err := l.q.InsertOrderEvents(ctx, l.db, []pgdb.InsertOrderEventsParams{{TenantID: tenant, OrderID: order, Kind: "paid"}})
	return err
}
