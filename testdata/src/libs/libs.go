// Package libs exercises the library models: pgx, sqlx, gorm, River,
// asynq and go-redis scripts, and enqueues inside transactions.
package libs

import (
	"context"
	"database/sql"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"
	"github.com/riverqueue/river"
	"gorm.io/gorm"

	"libs/redishooks"

	"github.com/authvet/authvet/grant"
)

var Orders = grant.Grant{
	Writes:        []string{"orders", "order_items"},
	Jobs:          []string{"send_receipt"},
	Reversibility: grant.Compensable,
}

type Server struct {
	pool  *pgxpool.Pool
	conn  *pgx.Conn
	db    *sql.DB
	x     *sqlx.DB
	gdb   *gorm.DB
	river *river.Client[pgx.Tx]
	asynq *asynq.Client
}

// --- pgx ---

//agent:operable grant=Orders
func (s *Server) PgxWrites(ctx context.Context) error {
	s.pool.Exec(ctx, "INSERT INTO orders (tenant_id) VALUES ($1)", 1)
	_, err := s.pool.Exec(ctx, "DELETE FROM invoices WHERE tenant_id = $1 AND id = $2", 1, 2) // want `PgxWrites writes "invoices"`
	return err
}

//agent:operable grant=Orders
func (s *Server) PgxTx(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tx.Exec(ctx, "UPDATE orders SET paid = true WHERE tenant_id = $1 AND id = $2", 1, 2)
	tx.Exec(ctx, "UPDATE invoices SET paid = true") // want `PgxTx writes every row of "invoices"` `PgxTx runs a raw query on "invoices"`
	return tx.Commit(ctx)
}

//agent:operable grant=Orders
func (s *Server) PgxCopy(ctx context.Context) error {
	s.conn.CopyFrom(ctx, pgx.Identifier{"order_items"}, []string{"a"}, pgx.CopyFromRows(nil))
	_, err := s.conn.CopyFrom(ctx, pgx.Identifier{"billing", "ledger"}, []string{"a"}, pgx.CopyFromRows(nil)) // want `PgxCopy writes "billing.ledger"`
	return err
}

//agent:operable grant=Orders
func (s *Server) PgxBatch(ctx context.Context) error {
	b := &pgx.Batch{}
	b.Queue("INSERT INTO orders (tenant_id) VALUES ($1)", 1)
	b.Queue("INSERT INTO audit (tenant_id) VALUES ($1)", 1)
	return s.pool.SendBatch(ctx, b).Close() // want `PgxBatch writes "audit"`
}

//agent:operable grant=Orders
func (s *Server) PgxBeginFunc(ctx context.Context) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO audit (tenant_id) VALUES ($1)", 1) // want `PgxBeginFunc writes "audit"`
		return err
	})
}

// --- sqlx ---

//agent:operable grant=Orders
func (s *Server) Sqlx(ctx context.Context, ids []int) error {
	s.x.MustExec("INSERT INTO orders (tenant_id) VALUES ($1)", 1)
	s.x.NamedExec(`INSERT INTO order_items (tenant_id, sku) VALUES (:tenant_id, :sku)`, map[string]any{})
	q, args, _ := sqlx.In("DELETE FROM invoices WHERE tenant_id = ? AND id IN (?)", 1, ids)
	s.x.Exec(s.x.Rebind(q), args...) // want `Sqlx writes "invoices"`
	var n int
	return s.x.Get(&n, "SELECT count(*) FROM orders WHERE tenant_id = $1", 1)
}

//agent:operable grant=Orders
func (s *Server) SqlxSelect(ctx context.Context) error {
	var ids []int
	return s.x.Select(&ids, "SELECT id FROM orders") // want `SqlxSelect runs a raw query on "orders"`
}

//agent:operable grant=Orders
func (s *Server) SqlxPrepared(ctx context.Context) error {
	st, err := s.x.PrepareNamed("UPDATE invoices SET n = :n WHERE tenant_id = :tenant_id AND id = :id")
	if err != nil {
		return err
	}
	_, err = st.Exec(map[string]any{}) // want `SqlxPrepared writes "invoices"`
	return err
}

// --- gorm ---

type Order struct {
	ID       int
	TenantID int
}

type OrderItem struct{ ID int }

type Invoice struct{ ID int }

func (Invoice) TableName() string { return "billing_invoices" }

//agent:operable grant=Orders
func (s *Server) GormCreate(ctx context.Context) error {
	s.gdb.Create(&Order{TenantID: 1})
	s.gdb.WithContext(ctx).Create(&OrderItem{})
	return s.gdb.Create(&Invoice{}).Error // want `GormCreate writes "billing_invoices"`
}

//agent:operable grant=Orders
func (s *Server) GormUpdate(ctx context.Context, id int) error {
	s.gdb.Model(&Order{}).Where("tenant_id = ? AND id = ?", 1, id).Update("paid", true)
	return s.gdb.Model(&Order{}).Update("paid", true).Error // want `GormUpdate writes every row of "orders"`
}

//agent:operable grant=Orders
func (s *Server) GormTable(ctx context.Context) error {
	return s.gdb.Table("ledger").Where("id = ?", 1).Updates(map[string]any{"n": 1}).Error // want `GormTable writes "ledger"`
}

// The statement's table set by hand: not the Model's.

//agent:operable grant=Orders
func (s *Server) GormStatementTable(ctx context.Context) error {
	tx := s.gdb.Model(&Order{})
	tx.Statement.Table = "payouts"
	return tx.Where("tenant_id = ?", 1).Update("paid", true).Error // want `GormStatementTable writes through gorm to a table the analysis cannot name`
}

//agent:operable grant=Orders
func (s *Server) GormStatementRead(ctx context.Context) error {
	tx := s.gdb.Model(&Order{})
	if tx.Statement.Table == "orders" {
		return tx.Where("tenant_id = ?", 1).Update("paid", true).Error
	}
	return nil
}

//agent:operable grant=Orders
func (s *Server) GormBranch(ctx context.Context, all bool) error {
	q := s.gdb.Model(&Order{})
	if !all {
		q = q.Where("id = ?", 1)
	}
	return q.Delete(&Order{}).Error // want `GormBranch writes every row of "orders"`
}

//agent:operable grant=Orders
func (s *Server) GormBranchBounded(ctx context.Context, mine bool) error {
	q := s.gdb.Model(&Order{}).Where("tenant_id = ?", 1)
	if mine {
		q = q.Where("owner = ?", 2)
	}
	return q.Delete(&Order{}).Error
}

//agent:operable grant=Orders
func (s *Server) GormDeleteRow(ctx context.Context, o *Order) error {
	s.gdb.Delete(&Order{}, 7)
	return s.gdb.Delete(o).Error
}

//agent:operable grant=Orders
func (s *Server) GormExec(ctx context.Context) error {
	return s.gdb.Exec("TRUNCATE orders").Error // want `GormExec writes every row of "orders"`
}

// --- River and asynq ---

type ReceiptArgs struct{ OrderID int }

func (ReceiptArgs) Kind() string { return "send_receipt" }

type RefundArgs struct{ OrderID int }

func (RefundArgs) Kind() string { return "issue_refund" }

//agent:operable grant=Orders
func (s *Server) RiverInsert(ctx context.Context) error {
	s.river.Insert(ctx, ReceiptArgs{OrderID: 1}, nil)
	_, err := s.river.Insert(ctx, RefundArgs{OrderID: 1}, nil) // want `RiverInsert starts job "issue_refund"`
	return err
}

//agent:operable grant=Orders
func (s *Server) RiverMany(ctx context.Context) error {
	_, err := s.river.InsertMany(ctx, []river.InsertManyParams{ // want `RiverMany starts job "issue_refund"`
		{Args: ReceiptArgs{OrderID: 1}},
		{Args: RefundArgs{OrderID: 2}},
	})
	return err
}

//agent:operable grant=Orders
func (s *Server) RiverInTx(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tx.Exec(ctx, "INSERT INTO orders (tenant_id) VALUES ($1)", 1)
	s.river.Insert(ctx, ReceiptArgs{OrderID: 1}, nil) // want `RiverInTx enqueues a job with River.s Insert, which is not transactional, between a transaction.s begin and its commit.*use InsertTx with the transaction`
	return tx.Commit(ctx)
}

//agent:operable grant=Orders
func (s *Server) RiverInsertTx(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tx.Exec(ctx, "INSERT INTO orders (tenant_id) VALUES ($1)", 1)
	s.river.InsertTx(ctx, tx, ReceiptArgs{OrderID: 1}, nil)
	return tx.Commit(ctx)
}

//agent:operable grant=Orders
func (s *Server) RiverAfterCommit(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	tx.Exec(ctx, "INSERT INTO orders (tenant_id) VALUES ($1)", 1)
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	_, err = s.river.Insert(ctx, ReceiptArgs{OrderID: 1}, nil)
	return err
}

//agent:operable grant=Orders
func (s *Server) RiverInGormTx(ctx context.Context) error {
	return s.gdb.Transaction(func(tx *gorm.DB) error {
		tx.Create(&Order{TenantID: 1})
		_, err := s.river.Insert(ctx, ReceiptArgs{OrderID: 1}, nil) // want `RiverInGormTx enqueues a job with River.s Insert, which is not transactional`
		return err
	})
}

//agent:operable grant=Orders
func (s *Server) RiverInSQLTx(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	tx.Exec("INSERT INTO orders (tenant_id) VALUES ($1)", 1)
	s.river.Insert(ctx, ReceiptArgs{OrderID: 1}, nil) // want `RiverInSQLTx enqueues a job with River.s Insert,`
	return tx.Commit()
}

//agent:operable grant=Orders
func (s *Server) Asynq(ctx context.Context) error {
	s.asynq.Enqueue(asynq.NewTask("send_receipt", nil))
	t := asynq.NewTask("wipe_data", nil)
	_, err := s.asynq.EnqueueContext(ctx, t) // want `Asynq starts job "wipe_data"`
	return err
}

// enqueue is a helper that takes the job args as a parameter.
func (s *Server) enqueue(ctx context.Context, args river.JobArgs) error {
	_, err := s.river.Insert(ctx, args, nil)
	return err
}

//agent:operable grant=Orders
func (s *Server) ThroughHelper(ctx context.Context) error {
	s.enqueue(ctx, ReceiptArgs{})
	return s.enqueue(ctx, RefundArgs{}) // want `ThroughHelper starts job "issue_refund"`
}

// InsertMany with the params appended in a loop: every element is a
// literal whose Args the analysis reads. Params a helper fills are out of
// sight.

//agent:operable grant=Orders
func (s *Server) RiverManyLoop(ctx context.Context, ids []int) error {
	params := make([]river.InsertManyParams, 0, len(ids))
	for _, id := range ids {
		params = append(params, river.InsertManyParams{Args: RefundArgs{OrderID: id}})
	}
	_, err := s.river.InsertMany(ctx, params) // want `RiverManyLoop starts job "issue_refund"`
	return err
}

//agent:operable grant=Orders
func (s *Server) RiverManyLoopTwin(ctx context.Context, ids []int) error {
	var params []river.InsertManyParams
	for _, id := range ids {
		params = append(params, river.InsertManyParams{Args: ReceiptArgs{OrderID: id}})
	}
	_, err := s.river.InsertMany(ctx, params)
	return err
}

func fillParams(ps []river.InsertManyParams) {
	for i := range ps {
		ps[i] = river.InsertManyParams{Args: RefundArgs{OrderID: i}}
	}
}

//agent:operable grant=Orders
func (s *Server) RiverManyHelper(ctx context.Context) error {
	params := make([]river.InsertManyParams, 2)
	params[0] = river.InsertManyParams{Args: ReceiptArgs{OrderID: 1}}
	fillParams(params)
	_, err := s.river.InsertMany(ctx, params) // want `RiverManyHelper inserts River jobs whose args types are not visible`
	return err
}

// An element of the literal handed in by the caller: its kind is out of
// sight, whatever the other elements say.
//
//agent:operable grant=Orders
func (s *Server) RiverManyMixed(ctx context.Context, extra river.InsertManyParams) error {
	_, err := s.river.InsertMany(ctx, []river.InsertManyParams{ // want `RiverManyMixed inserts River jobs whose args types are not visible`
		{Args: ReceiptArgs{OrderID: 1}},
		extra,
	})
	return err
}

// The params appended in a loop, inserted inside a transaction's
// callback that captured them: the same elements. A callback that also
// appends to them is out of sight.

//agent:operable grant=Orders
func (s *Server) RiverManyInTx(ctx context.Context, ids []int) error {
	var params []river.InsertManyParams
	for _, id := range ids {
		params = append(params, river.InsertManyParams{Args: RefundArgs{OrderID: id}})
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := s.river.InsertManyTx(ctx, tx, params) // want `RiverManyInTx starts job "issue_refund"`
		return err
	})
}

//agent:operable grant=Orders
func (s *Server) RiverManyInTxTwin(ctx context.Context, ids []int) error {
	var params []river.InsertManyParams
	for _, id := range ids {
		params = append(params, river.InsertManyParams{Args: ReceiptArgs{OrderID: id}})
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := s.river.InsertManyTx(ctx, tx, params)
		return err
	})
}

//agent:operable grant=Orders
func (s *Server) RiverManyInTxAppends(ctx context.Context, ids []int, extra river.InsertManyParams) error {
	var params []river.InsertManyParams
	for _, id := range ids {
		params = append(params, river.InsertManyParams{Args: ReceiptArgs{OrderID: id}})
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		params = append(params, extra)
		_, err := s.river.InsertManyTx(ctx, tx, params) // want `RiverManyInTxAppends inserts River jobs whose args types are not visible`
		return err
	})
}

// A Redis script with no go-redis command configured as a sink: one
// that only counts is the cache's; one that pushes, or whose text is out
// of sight, may hand work to another service.

var countScript = redis.NewScript(`return redis.call("INCR", KEYS[1])`)

//agent:operable grant=Orders
func CountVisit(ctx context.Context, rdb *redis.Client, key string) error {
	if err := countScript.Run(ctx, rdb, []string{key}).Err(); err != nil {
		return err
	}
	return rdb.Eval(ctx, "return redis.call('EXPIRE', KEYS[1], 60)", []string{key}).Err()
}

//agent:operable grant=Orders
func PushViaScript(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Eval(ctx, "return redis.call('RPUSH', KEYS[1], 'job')", []string{key}).Err() // want `PushViaScript runs a Redis script that runs RPUSH`
}

//agent:operable grant=Orders
func ScriptOutOfSight(ctx context.Context, rdb *redis.Client, key, src string) error {
	return redis.NewScript(src).Run(ctx, rdb, []string{key}).Err() // want `ScriptOutOfSight runs a Redis script whose text the analysis cannot read`
}

// Do and Process are no way around the models: a queue command by name
// is what its own method is; a command the analysis cannot name may be
// one. A cache command by name is the cache's business.

//agent:operable grant=Orders
func PublishViaDo(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Do(ctx, "PUBLISH", "invalidate", key).Err() // want `PublishViaDo runs Redis Publish, which may hand work to another service`
}

//agent:operable grant=Orders
func GetViaDo(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Do(ctx, "GET", key).Err()
}

//agent:operable grant=Orders
func DoByName(ctx context.Context, rdb *redis.Client, args []any) error {
	return rdb.Do(ctx, args...).Err() // want `DoByName runs a Redis command through Do whose name the analysis cannot read`
}

//agent:operable grant=Orders
func XAddViaProcess(ctx context.Context, rdb *redis.Client, id string) error {
	return rdb.Process(ctx, redis.NewCmd(ctx, "xadd", "events", "*", "id", id)) // want `XAddViaProcess runs Redis XAdd, which may hand work to another service`
}

//agent:operable grant=Orders
func GetViaProcess(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Process(ctx, redis.NewCmd(ctx, "get", key))
}

// A gorm condition that is SQL text out of sight may add OR ... and
// match every row; a constant one with placeholders, a map or a struct
// is columns gorm builds itself.

//agent:operable grant=Orders
func (s *Server) GormTextFilter(ctx context.Context, filter string) error {
	return s.gdb.WithContext(ctx).Where(filter).Delete(&Order{}).Error // want `GormTextFilter writes "orders" through gorm with a condition that is SQL text the analysis cannot read`
}

//agent:operable grant=Orders
func (s *Server) GormOrText(ctx context.Context, id int, extra string) error {
	return s.gdb.Model(&Order{}).Where("id = ?", id).Or("status = '"+extra+"'").Update("paid", true).Error // want `GormOrText writes "orders" through gorm with a condition`
}

//agent:operable grant=Orders
func (s *Server) GormFilterTwin(ctx context.Context, id int, status string) error {
	s.gdb.Where(map[string]any{"id": id}).Delete(&Order{})
	s.gdb.Where(&Order{TenantID: 1}).Delete(&Order{})
	return s.gdb.WithContext(ctx).Where("id = ? AND status = ?", id, status).Delete(&Order{}).Error
}

// A client hook: the client keeps it and calls what ProcessHook returns
// around every later command, so the closure's write outlives the
// request (detached). A hook that only times commands does nothing.

type auditHook struct{ pool *pgxpool.Pool }

func (h auditHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h auditHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if _, err := h.pool.Exec(ctx, "INSERT INTO audit_log (cmd) VALUES ($1)", 1); err != nil {
			return err
		}
		return next(ctx, cmd)
	}
}

func (h auditHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

type timingHook struct{}

func (timingHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (timingHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		_ = time.Since(start)
		return err
	}
}

func (timingHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

//agent:operable grant=Orders
func (s *Server) AuditedRedis(ctx context.Context, rdb *redis.Client) {
	rdb.AddHook(auditHook{pool: s.pool}) // want `AuditedRedis writes "audit_log"` `AuditedRedis hands a value to code that may call its methods after the call returns`
}

//agent:operable grant=Orders
func (s *Server) TimedRedisTwin(ctx context.Context, rdb *redis.Client) {
	rdb.AddHook(timingHook{})
}

// The same hooks from a package of their own.

//agent:operable grant=Orders
func (s *Server) AuditedRedisShared(ctx context.Context, rdb *redis.Client) {
	rdb.AddHook(redishooks.Audit{Pool: s.pool}) // want `AuditedRedisShared writes "audit_log"` `AuditedRedisShared hands a value to code that may call its methods after the call returns`
}

//agent:operable grant=Orders
func (s *Server) TimedRedisSharedTwin(ctx context.Context, rdb *redis.Client) {
	rdb.AddHook(redishooks.Timing{})
}
