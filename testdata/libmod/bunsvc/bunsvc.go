// Package bunsvc uses bun with its Postgres dialect: the table comes from
// the model's bun tag or type name, or from Table/ModelTableExpr.
package bunsvc

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/authvet/authvet/grant"
)

type User struct {
	bun.BaseModel `bun:"table:users,alias:u"`
	ID            int64 `bun:",pk,autoincrement"`
	TenantID      int64
	Name          string
}

type OrderItem struct {
	ID       int64 `bun:",pk"`
	TenantID int64
}

type Invoice struct {
	bun.BaseModel `bun:"billing_invoices"`
	ID            int64 `bun:",pk"`
}

var Users = grant.Grant{
	Writes:        []string{"users"},
	Reversibility: grant.Compensable,
}

var Reads = grant.Grant{Reversibility: grant.Reversible}

type Server struct{ db *bun.DB }

func Open(sqldb *sql.DB) *Server { return &Server{db: bun.NewDB(sqldb, pgdialect.New())} }

//agent:operable grant=Users
func (s *Server) Create(ctx context.Context, name string) error {
	u := &User{Name: name}
	_, err := s.db.NewInsert().Model(u).Exec(ctx)
	return err
}

// An update by primary key alone reaches any tenant's row: the SQL it
// stands for has no tenant predicate.
//
//agent:operable grant=Users
func (s *Server) Rename(ctx context.Context, u *User) error {
	_, err := s.db.NewUpdate().Model(u).Column("name").WherePK().Exec(ctx) // want `Rename runs a raw query on "users" with no tenant predicate`
	return err
}

// Clean twin: the tenant is bound as well as the key.
//
//agent:operable grant=Users
func (s *Server) RenameScoped(ctx context.Context, tenant int64, u *User) error {
	_, err := s.db.NewUpdate().Model(u).Column("name").WherePK().Where("?TableAlias.tenant_id = ?", tenant).Exec(ctx)
	return err
}

// A WhereOr adds an OR at the top level: the tenant predicate before it
// no longer bounds the statement.
//
//agent:operable grant=Users
func (s *Server) RemoveOr(ctx context.Context, tenant int64) error {
	_, err := s.db.NewDelete().Model((*User)(nil)).Where("tenant_id = ?", tenant).WhereOr("name = ''").Exec(ctx) // want `RemoveOr runs SQL whose WHERE is followed by text that is not constant`
	return err
}

// A condition from runtime text: bun parenthesises it, but the text can
// close the parentheses and add an OR.
//
//agent:operable grant=Users
func (s *Server) RemoveFiltered(ctx context.Context, tenant int64, cond string) error {
	_, err := s.db.NewDelete().Model((*User)(nil)).Where("tenant_id = ?", tenant).Where(cond).Exec(ctx) // want `RemoveFiltered runs SQL whose WHERE is followed by text that is not constant`
	return err
}

// Clean twin: constant conditions only.
//
//agent:operable grant=Users
func (s *Server) RemoveNamed(ctx context.Context, tenant int64, name string) error {
	_, err := s.db.NewDelete().Model((*User)(nil)).Where("tenant_id = ?", tenant).Where("name = ?", name).Exec(ctx)
	return err
}

//agent:operable grant=Users
func (s *Server) Remove(ctx context.Context, tenant, id int64) error {
	q := s.db.NewDelete().Model((*User)(nil))
	q.Where("tenant_id = ?", tenant)
	_, err := q.Where("id = ?", id).Exec(ctx)
	return err
}

//agent:operable grant=Users
func (s *Server) RemoveSome(ctx context.Context, tenant int64, one bool) error {
	q := s.db.NewDelete().Model((*User)(nil))
	if one {
		q.Where("tenant_id = ?", tenant)
	}
	_, err := q.Exec(ctx) // want `RemoveSome writes every row of "users"` `RemoveSome runs a raw query on "users" with no tenant predicate`
	return err
}

//agent:operable grant=Users
func (s *Server) AddItem(ctx context.Context, tenant int64) error {
	_, err := s.db.NewInsert().Model(&OrderItem{TenantID: tenant}).Exec(ctx) // want `AddItem writes "order_items"`
	return err
}

//agent:operable grant=Users
func (s *Server) VoidInvoices(ctx context.Context) error {
	_, err := s.db.NewUpdate().Model((*Invoice)(nil)).Set("void = true").Exec(ctx) // want `VoidInvoices writes every row of "billing_invoices"` `VoidInvoices runs a raw query on "billing_invoices" with no tenant predicate`
	return err
}

//agent:operable grant=Users
func (s *Server) Truncate(ctx context.Context) error {
	_, err := s.db.NewTruncateTable().Model((*User)(nil)).Exec(ctx) // want `Truncate writes every row of "users"`
	return err
}

//agent:operable grant=Users
func (s *Server) Raw(ctx context.Context, id int64) error {
	_, err := s.db.NewRaw("DELETE FROM sessions WHERE tenant_id = ? AND user_id = ?", 1, id).Exec(ctx) // want `Raw writes "sessions"`
	return err
}

//agent:operable grant=Users
func (s *Server) ByTable(ctx context.Context, tenant int64) error {
	_, err := s.db.NewDelete().TableExpr("audit AS a").Where("tenant_id = ?", tenant).Exec(ctx) // want `ByTable writes "audit"`
	return err
}

//agent:operable grant=Users
func (s *Server) InTx(ctx context.Context, name string) error {
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(&User{Name: name}).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewInsert().Model(&OrderItem{}).Exec(ctx) // want `InTx writes "order_items"`
		return err
	})
}

// Clean twin: a tenant-scoped read.
//
//agent:operable grant=Reads
func (s *Server) List(ctx context.Context, tenant int64) ([]User, error) {
	var users []User
	err := s.db.NewSelect().Model(&users).Where("?TableAlias.tenant_id = ?", tenant).Order("id").Limit(50).Scan(ctx)
	return users, err
}

// A query handed in is out of sight.
//
//agent:operable grant=Users
func (s *Server) RunQuery(ctx context.Context, q *bun.DeleteQuery) error {
	_, err := q.Exec(ctx) // want `RunQuery runs a bun query the analysis cannot follow back`
	return err
}

// insert stores any model row through the interface every handle has: the
// instance's model type names the table.
func insert[T any](ctx context.Context, db bun.IDB, m *T) error {
	_, err := db.NewInsert().Model(m).Exec(ctx)
	return err
}

//agent:operable grant=Users
func (s *Server) CreateGeneric(ctx context.Context, name string) error {
	return insert(ctx, s.db, &User{Name: name})
}

//agent:operable grant=Users
func (s *Server) AddItemGeneric(ctx context.Context, tenant int64) error {
	return insert(ctx, s.db, &OrderItem{TenantID: tenant}) // want `AddItemGeneric writes "order_items"`
}

// Clean twin of AddItemGeneric without generics: the handle is a bun.IDB
// parameter, and the model's table is allowed.
func insertUser(ctx context.Context, db bun.IDB, m *User) error {
	_, err := db.NewInsert().Model(m).Exec(ctx)
	return err
}

//agent:operable grant=Users
func (s *Server) CreateIDB(ctx context.Context, name string) error {
	return insertUser(ctx, s.db, &User{Name: name})
}

// Table takes a list of tables: each is written.

//agent:operable grant=Users
func (s *Server) ByTableName(ctx context.Context, tenant, id int64) error {
	_, err := s.db.NewUpdate().Table("users").Set("name = 'x'").Where("id = ?", id).Where("tenant_id = ?", tenant).Exec(ctx)
	return err
}

//agent:operable grant=Users
func (s *Server) ByTableNames(ctx context.Context, tenant int64) error {
	_, err := s.db.NewDelete().Table("users", "order_items").Where("tenant_id = ?", tenant).Exec(ctx) // want `ByTableNames writes "order_items"`
	return err
}

// Model hooks run around the query: an AfterInsert that writes another
// table is the handler's write. Twin: a BeforeInsert that only fills a
// field.

type Audited struct {
	bun.BaseModel `bun:"table:users"`
	ID            int64 `bun:",pk,autoincrement"`
	TenantID      int64
}

type LedgerEntry struct {
	bun.BaseModel `bun:"table:ledger"`
	ID            int64 `bun:",pk,autoincrement"`
}

var _ bun.AfterInsertHook = (*Audited)(nil)

func (a *Audited) AfterInsert(ctx context.Context, q *bun.InsertQuery) error {
	_, err := q.DB().NewInsert().Model(&LedgerEntry{}).Exec(ctx)
	return err
}

//agent:operable grant=Users
func (s *Server) CreateAudited(ctx context.Context, tenant int64) error {
	_, err := s.db.NewInsert().Model(&Audited{TenantID: tenant}).Exec(ctx) // want `CreateAudited writes "ledger"`
	return err
}

type Stamped struct {
	bun.BaseModel `bun:"table:users"`
	ID            int64 `bun:",pk,autoincrement"`
	Name          string
}

var _ bun.BeforeInsertHook = (*Stamped)(nil)

func (s *Stamped) BeforeInsert(ctx context.Context, q *bun.InsertQuery) error {
	if s.Name == "" {
		s.Name = "unnamed"
	}
	return nil
}

//agent:operable grant=Users
func (s *Server) CreateStamped(ctx context.Context) error {
	_, err := s.db.NewInsert().Model(&Stamped{}).Exec(ctx)
	return err
}

// A bulk update (Model(&slice).Bulk()) is keyed by the rows' primary
// keys, like WherePK (bounded, but not by tenant).

//agent:operable grant=Users
func (s *Server) BulkRename(ctx context.Context, users []User) error {
	_, err := s.db.NewUpdate().Model(&users).Column("name").Bulk().Exec(ctx) // want `BulkRename runs a raw query on "users" with no tenant predicate`
	return err
}

//agent:operable grant=Users
func (s *Server) BulkInvoices(ctx context.Context, invs []Invoice) error {
	_, err := s.db.NewUpdate().Model(&invs).Bulk().Exec(ctx) // want `BulkInvoices writes "billing_invoices"` `BulkInvoices runs a raw query on "billing_invoices" with no tenant predicate`
	return err
}
