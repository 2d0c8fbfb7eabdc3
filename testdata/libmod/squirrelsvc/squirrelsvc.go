// Package squirrelsvc builds its SQL with squirrel, run through the
// builder (RunWith(db).Exec) and through ToSql then db.ExecContext.
package squirrelsvc

import (
	"context"
	"database/sql"

	sq "github.com/Masterminds/squirrel"

	"github.com/authvet/authvet/grant"
)

var Orders = grant.Grant{
	Writes:        []string{"orders"},
	Reversibility: grant.Compensable,
}

var Reads = grant.Grant{Reversibility: grant.Reversible}

type Server struct{ db *sql.DB }

var psql = sq.StatementBuilder.PlaceholderFormat(sq.Dollar)

//agent:operable grant=Orders
func (s *Server) Create(ctx context.Context, tenant, id string) error {
	_, err := sq.Insert("orders").Columns("tenant_id", "id").Values(tenant, id).RunWith(s.db).ExecContext(ctx)
	return err
}

//agent:operable grant=Orders
func (s *Server) CreateText(ctx context.Context, tenant, id string) error {
	q, args, err := psql.Insert("orders").Columns("tenant_id", "id").Values(tenant, id).ToSql()
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, q, args...)
	return err
}

//agent:operable grant=Orders
func (s *Server) Audit(ctx context.Context, tenant, id string) error {
	_, err := sq.Insert("audit_log").Columns("tenant_id", "id").Values(tenant, id).RunWith(s.db).Exec() // want `Audit writes "audit_log"`
	return err
}

//agent:operable grant=Orders
func (s *Server) Close(ctx context.Context, tenant, id string) error {
	_, err := sq.Update("orders").Set("closed", true).Where(sq.Eq{"tenant_id": tenant, "id": id}).RunWith(s.db).ExecContext(ctx)
	return err
}

//agent:operable grant=Orders
func (s *Server) CloseAll(ctx context.Context) error {
	_, err := sq.Update("orders").Set("closed", true).RunWith(s.db).ExecContext(ctx) // want `CloseAll writes every row of "orders"` `CloseAll runs a raw query on "orders" with no tenant predicate`
	return err
}

//agent:operable grant=Orders
func (s *Server) Purge(ctx context.Context, tenant string, all bool) error {
	q := sq.Delete("orders").Where("tenant_id = ?", tenant)
	if !all {
		q = q.Where("archived")
	}
	text, args, err := q.ToSql()
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, text, args...)
	return err
}

//agent:operable grant=Orders
func (s *Server) PurgeInvoices(ctx context.Context, tenant string) error {
	text, args, _ := sq.Delete("invoices").Where(sq.Eq{"tenant_id": tenant}).ToSql()
	_, err := s.db.ExecContext(ctx, text, args...) // want `PurgeInvoices writes "invoices"`
	return err
}

// UPDATE ... FROM reads the other table: the write is to the UPDATE's.
//
//agent:operable grant=Orders
func (s *Server) CloseFrom(ctx context.Context, tenant string) error {
	_, err := sq.Update("orders").Set("closed", true).From("payouts").Where(sq.Eq{"tenant_id": tenant}).RunWith(s.db).ExecContext(ctx)
	return err
}

// A helper of the package returns the builder.
func ordersFor(tenant string) sq.UpdateBuilder {
	return sq.Update("payouts").Where(sq.Eq{"tenant_id": tenant})
}

//agent:operable grant=Orders
func (s *Server) ViaHelper(ctx context.Context, tenant string) error {
	_, err := ordersFor(tenant).Set("paid", true).RunWith(s.db).ExecContext(ctx) // want `ViaHelper writes "payouts"`
	return err
}

// Clean twin: a tenant-scoped read.
//
//agent:operable grant=Reads
func (s *Server) List(ctx context.Context, tenant string) ([]string, error) {
	rows, err := psql.Select("id").From("orders").Where(sq.Eq{"tenant_id": tenant}).RunWith(s.db).QueryContext(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

//agent:operable grant=Reads
func (s *Server) ListAll(ctx context.Context) error {
	_, err := sq.Select("id").From("orders").RunWith(s.db).QueryContext(ctx) // want `ListAll runs a raw query on "orders" with no tenant predicate`
	return err
}

// A builder handed in as a parameter is out of sight.
//
//agent:operable grant=Orders
func (s *Server) Run(ctx context.Context, b sq.DeleteBuilder) error {
	_, err := b.RunWith(s.db).ExecContext(ctx) // want `Run runs SQL text that is not constant`
	return err
}

// A statement cache runs the SQL it is handed.
//
//agent:operable grant=Orders
func (s *Server) Cached(ctx context.Context, tenant string) error {
	cache := sq.NewStmtCache(s.db)
	_, err := cache.ExecContext(ctx, "DELETE FROM carts WHERE tenant_id = $1", tenant) // want `Cached writes "carts"`
	return err
}

//agent:operable grant=Reads
func (s *Server) CachedRead(ctx context.Context, tenant string) error {
	var n int
	return sq.NewStmtCache(s.db).QueryRowContext(ctx, "SELECT count(*) FROM orders WHERE tenant_id = $1", tenant).Scan(&n)
}

// A loop that only adds rows to an insert adds nothing the SQL reader
// judges: the statement is the one before the loop.
//
//agent:operable grant=Orders
func (s *Server) CreateMany(ctx context.Context, tenant string, ids []string) error {
	ins := sq.Insert("orders").Columns("tenant_id", "id")
	for _, id := range ids {
		ins = ins.Values(tenant, id)
	}
	_, err := ins.RunWith(s.db).ExecContext(ctx)
	return err
}

//agent:operable grant=Orders
func (s *Server) AuditMany(ctx context.Context, tenant string, ids []string) error {
	ins := sq.Insert("audit_log").Columns("tenant_id", "id")
	for _, id := range ids {
		ins = ins.Values(tenant, id)
	}
	_, err := ins.RunWith(s.db).ExecContext(ctx) // want `AuditMany writes "audit_log"`
	return err
}

// A loop that adds conditions read from runtime data may add an OR.
//
//agent:operable grant=Orders
func (s *Server) CloseMatching(ctx context.Context, tenant string, conds []string) error {
	up := sq.Update("orders").Set("closed", true).Where("tenant_id = ?", tenant)
	for _, c := range conds {
		up = up.Where(c)
	}
	_, err := up.RunWith(s.db).ExecContext(ctx) // want `CloseMatching runs SQL text that is not constant`
	return err
}

// Clean twin: an And literal of Eq literals binds the tenant.
//
//agent:operable grant=Orders
func (s *Server) CloseAnd(ctx context.Context, tenant, id string) error {
	_, err := psql.Update("orders").Set("closed", true).Where(sq.And{sq.Eq{"tenant_id": tenant}, sq.Eq{"id": id}}).RunWith(s.db).ExecContext(ctx)
	return err
}

// An Or literal binds the tenant on one branch only.
//
//agent:operable grant=Orders
func (s *Server) CloseOr(ctx context.Context, tenant, id string) error {
	_, err := psql.Update("orders").Set("closed", true).Where(sq.Or{sq.Eq{"tenant_id": tenant}, sq.Eq{"id": id}}).RunWith(s.db).ExecContext(ctx) // want `CloseOr runs a raw query on "orders" with no tenant predicate`
	return err
}

// INSERT ... SELECT: the rows come from the select, read like any other
// statement: its table and its tenant predicate.
//
//agent:operable grant=Orders
func (s *Server) CopyByStatus(ctx context.Context, status string) error {
	_, err := sq.Insert("orders").Columns("ref", "kind").
		Select(sq.Select("id", "'copy'").From("archived_orders").Where("status = ?", status)).
		PlaceholderFormat(sq.Dollar).RunWith(s.db).ExecContext(ctx) // want `CopyByStatus runs a raw query on "archived_orders" with no tenant predicate`
	return err
}

//agent:operable grant=Orders
func (s *Server) CopyByStatusTwin(ctx context.Context, tenant int64, status string) error {
	_, err := sq.Insert("orders").Columns("ref", "kind").
		Select(sq.Select("id", "'copy'").From("archived_orders").Where(sq.Eq{"tenant_id": tenant, "status": status})).
		PlaceholderFormat(sq.Dollar).RunWith(s.db).ExecContext(ctx)
	return err
}

// Repo keeps squirrel's documented Postgres builder, and a prepared
// purge, in unexported fields only its constructor sets.
type Repo struct {
	db    *sql.DB
	psql  sq.StatementBuilderType
	purge sq.DeleteBuilder
}

func NewRepo(db *sql.DB) *Repo {
	return &Repo{
		db:    db,
		psql:  sq.StatementBuilder.PlaceholderFormat(sq.Dollar).RunWith(db),
		purge: sq.Delete("audit_log").PlaceholderFormat(sq.Dollar),
	}
}

//agent:operable grant=Orders
func (r *Repo) CloseField(ctx context.Context, tenant, id string) error {
	_, err := r.psql.Update("orders").Set("closed", true).Where(sq.Eq{"tenant_id": tenant, "id": id}).ExecContext(ctx)
	return err
}

//agent:operable grant=Orders
func (r *Repo) AuditField(ctx context.Context, tenant, id string) error {
	_, err := r.psql.Insert("audit_log").Columns("tenant_id", "id").Values(tenant, id).ExecContext(ctx) // want `AuditField writes "audit_log"`
	return err
}

//agent:operable grant=Orders
func (r *Repo) PurgeField(ctx context.Context, tenant string) error {
	_, err := r.purge.Where(sq.Eq{"tenant_id": tenant}).RunWith(r.db).ExecContext(ctx) // want `PurgeField writes "audit_log"`
	return err
}

// squirrel's other map predicates (Lt, NotEq, Like, ...) read like Eq,
// with their operators: only an equality binds the tenant.

//agent:operable grant=Orders
func (s *Server) ExpireOld(ctx context.Context, tenant string, days int) error {
	q, args, err := psql.Delete("orders").Where(sq.Eq{"tenant_id": tenant}).Where(sq.Lt{"age_days": days}).ToSql()
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, q, args...)
	return err
}

//agent:operable grant=Orders
func (s *Server) ExpireEveryTenant(ctx context.Context, days int) error {
	q, args, err := psql.Delete("orders").Where(sq.GtOrEq{"age_days": days}).ToSql()
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, q, args...) // want `ExpireEveryTenant runs a raw query on "orders" with no tenant predicate`
	return err
}

//agent:operable grant=Orders
func (s *Server) ExpireOtherTenants(ctx context.Context, tenant string) error {
	_, err := psql.Delete("orders").Where(sq.NotEq{"tenant_id": tenant}).RunWith(s.db).ExecContext(ctx) // want `ExpireOtherTenants runs a raw query on "orders" with no tenant predicate`
	return err
}
