package sqltext

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func l(s ...string) []string { return s }

type tcase struct {
	name    string
	sql     string
	partial bool
	want    []Statement
	err     string // substring of the expected error; "" means no error
}

var cases = []tcase{
	// SELECT
	{name: "select join where", sql: `SELECT r.id, u.name FROM refunds r JOIN users u ON u.id = r.user_id WHERE r.tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds", "users"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "select no from", sql: `SELECT 1`, want: []Statement{{Kind: Select}}},
	{name: "select from dual", sql: `SELECT NOW() FROM DUAL`, want: []Statement{{Kind: Select}}},
	{name: "select subquery in from and where", sql: `SELECT * FROM (SELECT * FROM refunds WHERE tenant_id = $1) x WHERE x.id IN (SELECT refund_id FROM audits)`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("audits", "refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "select through scoped cte", sql: `WITH r AS (SELECT id FROM orders WHERE tenant_id = $1 AND created_at > $2) SELECT count(*) FROM r`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("orders"), TenantBound: l("tenant_id")}}},
	{name: "select through unscoped cte", sql: `WITH r AS (SELECT id FROM orders) SELECT count(*) FROM r`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("orders")}}},
	{name: "select through scoped subquery", sql: `SELECT count(*) FROM (SELECT id FROM orders WHERE tenant_id = $1) AS r`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("orders"), TenantBound: l("tenant_id")}}},
	{name: "derived table bound outside", sql: `SELECT count(*) FROM (SELECT id, tenant_id FROM orders WHERE status = 'open') AS o WHERE o.tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("orders"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "derived table star bound outside", sql: `SELECT * FROM (SELECT o.* FROM orders o) d WHERE tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("orders"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "derived table renamed column", sql: `SELECT * FROM (SELECT id, 7 AS tenant_id FROM orders) o WHERE o.tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("orders"), HasWhere: true}}},
	{name: "derived table other column renamed", sql: `SELECT * FROM (SELECT id, owner_id AS tenant_id FROM orders) o WHERE o.tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("orders"), HasWhere: true}}},
	{name: "derived table join", sql: `SELECT * FROM (SELECT * FROM orders JOIN customers ON customers.id = orders.customer_id) o WHERE o.tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("customers", "orders"), HasWhere: true}}},
	{name: "derived table column not projected", sql: `SELECT * FROM (SELECT id FROM orders) o WHERE tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "orders", Reads: l("orders"), HasWhere: true}}},
	{name: "union intersects bound", sql: `SELECT id FROM a WHERE tenant_id = $1 AND x = 1 UNION ALL SELECT id FROM b WHERE tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "a", Reads: l("a", "b"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "union branch unbound", sql: `SELECT id FROM a WHERE tenant_id = $1 UNION SELECT id FROM b`,
		want: []Statement{{Kind: Select, Table: "a", Reads: l("a", "b")}}},
	{name: "select for update", sql: `select * from refunds where id = $1 and tenant_id = $2 for update skip locked`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("id", "tenant_id")}}},
	{name: "select order limit", sql: `SELECT * FROM refunds WHERE tenant_id = ? ORDER BY id LIMIT 10 OFFSET 5`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "is distinct from not a clause", sql: `SELECT a IS DISTINCT FROM b FROM t WHERE tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "extract from in parens", sql: `SELECT EXTRACT(YEAR FROM created_at) FROM t`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t")}}},
	{name: "left join using lateral function", sql: `SELECT * FROM a LEFT OUTER JOIN b USING (id) CROSS JOIN LATERAL unnest(a.tags) AS tag, c`,
		want: []Statement{{Kind: Select, Table: "a", Reads: l("a", "b", "c")}}},
	{name: "values query", sql: `VALUES (1), (2)`, want: []Statement{{Kind: Select}}},
	{name: "table query", sql: `TABLE refunds`, want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds")}}},
	{name: "parenthesised union", sql: `(SELECT id FROM a) UNION (SELECT id FROM b) ORDER BY 1`,
		want: []Statement{{Kind: Select, Table: "a", Reads: l("a", "b")}}},
	{name: "exists subquery", sql: `SELECT 1 FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.a_id = a.id) AND a.tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "a", Reads: l("a", "b"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "mysql lock in share mode", sql: "SELECT * FROM `refunds` WHERE `tenant_id` = ? LOCK IN SHARE MODE",
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},

	// tenant binding trick cases
	{name: "or 1=1 not bound", sql: `SELECT * FROM refunds WHERE tenant_id = $1 OR 1=1`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true}}},
	{name: "or other not bound", sql: `DELETE FROM refunds WHERE a = $1 OR tenant_id = $2`,
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds"), HasWhere: true}}},
	{name: "between and", sql: `SELECT * FROM refunds WHERE x BETWEEN $1 AND $2 AND tenant_id = $3`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "not between and", sql: `SELECT * FROM refunds WHERE x NOT BETWEEN $1 AND $2 AND org_id = $3`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("org_id")}}},
	{name: "parenthesised conjunct at-param", sql: `UPDATE refunds SET status = 'x' WHERE (tenant_id = @tenant) AND id = @id`,
		want: []Statement{{Kind: Update, Table: "refunds", Writes: l("refunds"), HasWhere: true, TenantBound: l("id", "tenant_id")}}},
	{name: "nested and group flattened", sql: `SELECT * FROM t WHERE ((a = 1 AND (tenant_id = $1)))`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "or inside parens", sql: `SELECT * FROM t WHERE (tenant_id = $1 OR true) AND id = $2`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true, TenantBound: l("id")}}},
	{name: "and binds tighter than a later or", sql: `SELECT * FROM t WHERE tenant_id = $1 AND status = 'held' OR status = 'review'`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true}}},
	{name: "or before the tenant conjunct", sql: `DELETE FROM t WHERE id = $1 OR parent_id = $1 AND tenant_id = $2`,
		want: []Statement{{Kind: Delete, Table: "t", Writes: l("t"), HasWhere: true}}},
	{name: "tenant bound on every or branch", sql: `UPDATE t SET x = 1 WHERE tenant_id = $1 AND id = $2 OR tenant_id = $1 AND parent_id = $2`,
		want: []Statement{{Kind: Update, Table: "t", Writes: l("t"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "or inside a case is no branch", sql: `SELECT * FROM t WHERE tenant_id = $1 AND CASE WHEN a OR b THEN true END`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "named colon param", sql: `SELECT * FROM orgs_data WHERE org_id = :org_id`,
		want: []Statement{{Kind: Select, Table: "orgs_data", Reads: l("orgs_data"), HasWhere: true, TenantBound: l("org_id")}}},
	{name: "quoted column question", sql: `DELETE FROM items WHERE "tenant_id" = ?`,
		want: []Statement{{Kind: Delete, Table: "items", Writes: l("items"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "qualified column", sql: `SELECT * FROM refunds t WHERE t.tenant_id = $2 AND t.id = $1`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("id", "tenant_id")}}},
	{name: "param first", sql: `SELECT * FROM refunds WHERE $1 = tenant_id`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "cast param", sql: `SELECT * FROM refunds WHERE tenant_id = $1::uuid AND b = $2::character varying(10)`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("b", "tenant_id")}}},
	{name: "cast then is null not bound", sql: `SELECT * FROM refunds WHERE tenant_id = $1::uuid IS NULL`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true}}},
	{name: "in not bound literal not bound column not bound", sql: `SELECT * FROM t WHERE tenant_id IN ($1) AND org_id = 5 AND x = y AND z >= $2 AND w <=> $3`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true}}},
	{name: "param in string is not param", sql: `SELECT * FROM t WHERE tenant_id = '$1'`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true}}},
	{name: "case and not split", sql: `SELECT * FROM t WHERE CASE WHEN a AND b THEN tenant_id = $1 END AND id = ?1`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true, TenantBound: l("id")}}},
	{name: "sqlite double equals", sql: `SELECT * FROM [Refunds] WHERE [tenant_id] == ?1`,
		want: []Statement{{Kind: Select, Table: "Refunds", Reads: l("Refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "null not column", sql: `SELECT * FROM t WHERE NULL = $1`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true}}},
	{name: "param minus not bound", sql: `SELECT * FROM t WHERE tenant_id = $1 + 0`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t"), HasWhere: true}}},

	// INSERT
	{name: "insert values", sql: `INSERT INTO refunds (a, b) VALUES ($1, $2)`,
		want: []Statement{{Kind: Insert, Table: "refunds", Writes: l("refunds")}}},
	{name: "insert select", sql: `INSERT INTO archive SELECT * FROM refunds WHERE tenant_id = $1`,
		want: []Statement{{Kind: Insert, Table: "archive", Writes: l("archive"), Reads: l("refunds"), SourceTable: "refunds", SourceHasWhere: true, SourceBound: l("tenant_id")}}},
	{name: "insert on conflict do update returning", sql: `INSERT INTO refunds (id, a) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET a = EXCLUDED.a RETURNING id`,
		want: []Statement{{Kind: Insert, Table: "refunds", Writes: l("refunds"), OnConflictUpdate: true}}},
	{name: "insert on conflict do nothing", sql: `INSERT INTO refunds (id) VALUES ($1) ON CONFLICT DO NOTHING`,
		want: []Statement{{Kind: Insert, Table: "refunds", Writes: l("refunds")}}},
	{name: "mysql insert ignore", sql: "INSERT IGNORE INTO `shop`.`orders` (a) VALUES (?)",
		want: []Statement{{Kind: Insert, Table: "shop.orders", Writes: l("shop.orders")}}},
	{name: "mysql replace into", sql: `REPLACE INTO kv (k, v) VALUES (?, ?)`,
		want: []Statement{{Kind: Insert, Table: "kv", Writes: l("kv"), OnConflictUpdate: true}}},
	{name: "mysql on duplicate key", sql: `INSERT INTO counters (k, n) VALUES (?, 1) ON DUPLICATE KEY UPDATE n = n + VALUES(n)`,
		want: []Statement{{Kind: Insert, Table: "counters", Writes: l("counters"), OnConflictUpdate: true}}},
	{name: "sqlite insert or replace", sql: `INSERT OR REPLACE INTO [kv] (k, v) VALUES (?1, ?2)`,
		want: []Statement{{Kind: Insert, Table: "kv", Writes: l("kv"), OnConflictUpdate: true}}},
	{name: "sqlite insert or ignore", sql: `INSERT OR IGNORE INTO kv (k) VALUES (?)`,
		want: []Statement{{Kind: Insert, Table: "kv", Writes: l("kv")}}},
	{name: "insert subquery in values", sql: `INSERT INTO t (a) VALUES ((SELECT max(a) FROM u))`,
		want: []Statement{{Kind: Insert, Table: "t", Writes: l("t"), Reads: l("u"), ValueSources: []Source{{Table: "u"}}}}},
	{name: "insert default values", sql: `INSERT INTO t DEFAULT VALUES`, want: []Statement{{Kind: Insert, Table: "t", Writes: l("t")}}},
	{name: "mysql insert set", sql: `INSERT INTO t SET a = 1, b = (SELECT 2 FROM u)`,
		want: []Statement{{Kind: Insert, Table: "t", Writes: l("t"), Reads: l("u"), ValueSources: []Source{{Table: "u"}}}}},

	// UPDATE
	{name: "update from", sql: `UPDATE refunds r SET amount = p.amount FROM payments p WHERE p.id = r.payment_id AND r.tenant_id = $1 RETURNING r.id`,
		want: []Statement{{Kind: Update, Table: "refunds", Writes: l("refunds"), Reads: l("payments"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "update no where", sql: `UPDATE refunds SET status = 'void'`,
		want: []Statement{{Kind: Update, Table: "refunds", Writes: l("refunds")}}},
	{name: "mysql update modifiers", sql: "UPDATE LOW_PRIORITY IGNORE `refunds` SET a = 1 WHERE tenant_id = ? ORDER BY id LIMIT 1",
		want: []Statement{{Kind: Update, Table: "refunds", Writes: l("refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "update only as", sql: `UPDATE ONLY billing.refunds AS x SET a = 1 WHERE x.tenant_id = $1`,
		want: []Statement{{Kind: Update, Table: "billing.refunds", Writes: l("billing.refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "update quoted upper", sql: `UPDATE "Billing"."Refunds" SET "Amount" = 0 WHERE id = $1`,
		want: []Statement{{Kind: Update, Table: "Billing.Refunds", Writes: l("Billing.Refunds"), HasWhere: true, TenantBound: l("id")}}},
	{name: "update subquery in set", sql: `UPDATE t SET a = (SELECT b FROM u WHERE u.id = t.id) WHERE t.tenant_id = $1`,
		want: []Statement{{Kind: Update, Table: "t", Writes: l("t"), Reads: l("u"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "mysql multi table update", sql: `UPDATE a JOIN b ON a.id = b.a_id SET a.x = b.y WHERE a.tenant_id = ?`,
		want: []Statement{{Kind: Update, Table: "a", Writes: l("a", "b"), Reads: l("b"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "sqlite update or replace", sql: `UPDATE OR REPLACE t SET a = 1`,
		want: []Statement{{Kind: Update, Table: "t", Writes: l("t")}}},

	// DELETE
	{name: "delete using", sql: `DELETE FROM refunds USING payments p WHERE p.id = refunds.payment_id AND refunds.tenant_id = $1 RETURNING *`,
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds"), Reads: l("payments"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "delete no where", sql: `DELETE FROM sessions`, want: []Statement{{Kind: Delete, Table: "sessions", Writes: l("sessions")}}},
	{name: "delete from only", sql: `DELETE FROM ONLY public.x WHERE tenant_id = $1`,
		want: []Statement{{Kind: Delete, Table: "public.x", Writes: l("public.x"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "mysql delete join", sql: `DELETE t FROM t JOIN u ON u.id = t.u_id WHERE t.tenant_id = ?`,
		want: []Statement{{Kind: Delete, Table: "t", Writes: l("t"), Reads: l("t", "u"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "mysql delete alias", sql: `DELETE r FROM refunds AS r JOIN users u ON u.id = r.user_id WHERE u.banned`,
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds"), Reads: l("refunds", "users"), HasWhere: true}}},
	{name: "mysql delete low priority quick", sql: `DELETE LOW_PRIORITY QUICK IGNORE FROM logs WHERE created < ? LIMIT 100`,
		want: []Statement{{Kind: Delete, Table: "logs", Writes: l("logs"), HasWhere: true}}},

	// TRUNCATE, MERGE
	{name: "truncate two", sql: `TRUNCATE TABLE ONLY a, b.c RESTART IDENTITY CASCADE`,
		want: []Statement{{Kind: Truncate, Table: "a", Writes: l("a", "b.c")}}},
	{name: "truncate bare", sql: `truncate sessions`, want: []Statement{{Kind: Truncate, Table: "sessions", Writes: l("sessions")}}},
	{name: "merge", sql: `MERGE INTO refunds r USING (SELECT * FROM staging) s ON s.id = r.id WHEN MATCHED THEN UPDATE SET a = s.a WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)`,
		want: []Statement{{Kind: Merge, Table: "refunds", Writes: l("refunds"), Reads: l("staging")}}},

	// WITH
	{name: "data changing cte", sql: `WITH RECURSIVE x AS (DELETE FROM a WHERE tenant_id = $1 RETURNING *), y AS (SELECT * FROM c) INSERT INTO b SELECT * FROM x`,
		want: []Statement{{Kind: Insert, Table: "b", Writes: l("a", "b"), Reads: l("c"), DataChangingCTE: true, SourceTable: "a", SourceBound: l("tenant_id")}}},
	{name: "select only cte", sql: `WITH recent AS (SELECT * FROM refunds WHERE created > now()) UPDATE t SET a = 1 FROM recent WHERE t.id = recent.id`,
		want: []Statement{{Kind: Update, Table: "t", Writes: l("t"), Reads: l("refunds"), HasWhere: true}}},
	{name: "with select data changing", sql: `WITH moved AS (UPDATE a SET x = 1 WHERE id = $1 RETURNING id) SELECT * FROM moved`,
		want: []Statement{{Kind: Select, Table: "a", Writes: l("a"), DataChangingCTE: true, TenantBound: l("id")}}}, // the rows the UPDATE's WHERE chose
	{name: "cte with columns materialized", sql: `WITH x (id) AS NOT MATERIALIZED (SELECT id FROM a) SELECT * FROM x JOIN b ON b.id = x.id WHERE b.tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "a", Reads: l("a", "b"), HasWhere: true}}}, // b.tenant_id scopes b, not x's table

	// multiple statements, comments, strings
	{name: "two statements", sql: `UPDATE a SET x=1 WHERE id=$1; DELETE FROM b`,
		want: []Statement{{Kind: Update, Table: "a", Writes: l("a"), HasWhere: true, TenantBound: l("id")}, {Kind: Delete, Table: "b", Writes: l("b")}}},
	{name: "comment with where", sql: "-- UPDATE x SET y WHERE tenant_id = $1\n/* WHERE; DELETE */ DELETE FROM refunds # mysql WHERE\n",
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds")}}},
	{name: "string with semicolon", sql: `UPDATE notes SET body = '; DELETE FROM x' WHERE tenant_id = $1;;`,
		want: []Statement{{Kind: Update, Table: "notes", Writes: l("notes"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "escaped quote and E string", sql: `UPDATE t SET a = 'it''s', b = E'\'; DROP' WHERE tenant_id = $1`,
		want: []Statement{{Kind: Update, Table: "t", Writes: l("t"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "dollar quoted opaque", sql: `UPDATE t SET body = $body$ WHERE tenant_id = $1; $body$ WHERE x.y = $1`,
		want: []Statement{{Kind: Update, Table: "t", Writes: l("t"), HasWhere: true}}}, // x.y binds another table's column
	{name: "dollar identifier", sql: `SELECT a$b FROM t$1 WHERE tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "t$1", Reads: l("t$1"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "case insensitive whitespace", sql: "  dElEtE\n\tfrom\n  Refunds\nwhere\n  TENANT_ID\n=\n$1  ",
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},

	// Other
	{name: "create table", sql: `CREATE TABLE IF NOT EXISTS billing.refunds (id int)`, want: []Statement{{Kind: Other, Table: "billing.refunds"}}},
	{name: "create index", sql: `CREATE UNIQUE INDEX CONCURRENTLY idx ON ONLY refunds (id)`, want: []Statement{{Kind: Other, Table: "refunds"}}},
	{name: "drop alter", sql: `DROP TABLE IF EXISTS a; ALTER TABLE ONLY b ADD COLUMN c int`,
		want: []Statement{{Kind: Other, Table: "a"}, {Kind: Other, Table: "b"}}},
	{name: "copy", sql: `COPY refunds FROM STDIN`, want: []Statement{{Kind: Insert, Table: "refunds", Writes: l("refunds")}}},
	{name: "copy columns to stdout", sql: `COPY refunds (id, amount) TO STDOUT`, want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds")}}},
	{name: "copy query", sql: `COPY (DELETE FROM payouts WHERE id = 7 RETURNING id) TO STDOUT`, want: []Statement{{Kind: Delete, Table: "payouts", Writes: l("payouts"), HasWhere: true}}},
	{name: "copy program", sql: `COPY refunds TO PROGRAM 'curl x'`, want: []Statement{{Kind: Other, Table: "refunds"}}},
	{name: "transaction control", sql: `BEGIN; SET LOCAL app.tenant = '1'; COMMIT`,
		want: []Statement{{Kind: Control}, {Kind: Control}, {Kind: Control}}},
	{name: "pragma vacuum explain call", sql: `PRAGMA foreign_keys = ON; VACUUM; EXPLAIN SELECT 1; CALL p()`,
		want: []Statement{{Kind: Other}, {Kind: Other}, {Kind: Control}, {Kind: Other}}},
	{name: "set role is not a setting", sql: `SET ROLE billing_admin; SET SESSION AUTHORIZATION x; RESET ROLE; SET search_path TO billing`,
		want: []Statement{{Kind: Other}, {Kind: Other}, {Kind: Other}, {Kind: Control}}},
	{name: "do and grant and drop schema", sql: `DO $$ BEGIN DELETE FROM refunds; END $$; GRANT SELECT ON refunds TO x; DROP SCHEMA billing CASCADE`,
		want: []Statement{{Kind: Other}, {Kind: Other}, {Kind: Other}}},
	{name: "explain analyze runs the statement", sql: `EXPLAIN ANALYZE DELETE FROM refunds`,
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds")}}},
	{name: "explain options analyze", sql: `EXPLAIN (ANALYZE, BUFFERS) UPDATE refunds SET x = 1 WHERE tenant_id = $1`,
		want: []Statement{{Kind: Update, Table: "refunds", Writes: l("refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "explain without analyze plans", sql: `EXPLAIN DELETE FROM refunds`, want: []Statement{{Kind: Control}}},
	{name: "select into creates", sql: `SELECT * INTO archive_refunds FROM refunds WHERE tenant_id = $1`,
		want: []Statement{{Kind: Insert, Table: "archive_refunds", Writes: l("archive_refunds"), Reads: l("refunds"), SourceTable: "refunds", SourceHasWhere: true, SourceBound: l("tenant_id")}}},
	{name: "select into temp table", sql: `SELECT id INTO TEMP TABLE t FROM refunds`,
		want: []Statement{{Kind: Insert, Table: "t", Writes: l("t"), Reads: l("refunds"), SourceTable: "refunds"}}},
	{name: "select into variables", sql: `SELECT id INTO @x FROM refunds WHERE tenant_id = ?`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "select into outfile", sql: `SELECT * INTO OUTFILE '/tmp/x' FROM refunds`, err: "writes a file"},
	{name: "create table as", sql: `CREATE TABLE refunds_snapshot AS SELECT * FROM refunds WHERE tenant_id = $1`,
		want: []Statement{{Kind: Insert, Table: "refunds_snapshot", Writes: l("refunds_snapshot"), Reads: l("refunds"), SourceTable: "refunds", SourceHasWhere: true, SourceBound: l("tenant_id")}}},
	{name: "create materialized view as", sql: `CREATE MATERIALIZED VIEW v AS SELECT * FROM refunds`,
		want: []Statement{{Kind: Insert, Table: "v", Writes: l("v"), Reads: l("refunds"), SourceTable: "refunds"}}},
	{name: "insert select source", sql: `INSERT INTO archive SELECT * FROM refunds WHERE created_at < $1`,
		want: []Statement{{Kind: Insert, Table: "archive", Writes: l("archive"), Reads: l("refunds"), SourceTable: "refunds", SourceHasWhere: true}}},
	{name: "joined table predicate does not scope", sql: `UPDATE refunds r SET x = 1 FROM orders o WHERE o.tenant_id = $1 AND r.order_id = o.id`,
		want: []Statement{{Kind: Update, Table: "refunds", Writes: l("refunds"), Reads: l("orders"), HasWhere: true}}},
	{name: "own alias predicate scopes", sql: `SELECT * FROM refunds r JOIN customers c ON c.id = r.customer_id WHERE r.tenant_id = $1`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("customers", "refunds"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "cast param binds", sql: `DELETE FROM refunds WHERE tenant_id = CAST($1 AS uuid) AND id = $2::uuid`,
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds"), HasWhere: true, TenantBound: l("id", "tenant_id")}}},
	{name: "cast of a setting does not bind", sql: `DELETE FROM refunds WHERE tenant_id = CAST(current_setting('x') AS uuid)`,
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds"), HasWhere: true}}},

	// errors
	{name: "empty", sql: "", err: "empty SQL text"},
	// PostgreSQL ends a line comment at a lone carriage return: the
	// OR true and the DELETE after it are SQL, not comment.
	{name: "comment ended by carriage return", sql: "SELECT * FROM notes WHERE tenant_id = $1 -- x\rOR true",
		want: []Statement{{Kind: Select, Table: "notes", Reads: l("notes"), HasWhere: true}}},
	{name: "statement after carriage return comment", sql: "SELECT 1 -- x\r; DELETE FROM refunds",
		want: []Statement{{Kind: Select}, {Kind: Delete, Table: "refunds", Writes: l("refunds")}}},
	{name: "only comments", sql: " -- nothing\n ; ", err: "empty SQL text"},
	{name: "garbage", sql: "hello world", err: "unrecognised statement"},
	{name: "update no table", sql: "UPDATE SET x = 1", err: "cannot read the target table of UPDATE"},
	{name: "insert no table", sql: "INSERT INTO (a) VALUES (1)", err: "cannot read the target table of INSERT"},
	{name: "unbalanced open", sql: "SELECT * FROM t WHERE (a = 1", err: "unbalanced parentheses"},
	{name: "unbalanced close", sql: "SELECT * FROM t WHERE a = 1)", err: "unbalanced parentheses"},
	{name: "unterminated string", sql: "SELECT 'abc", err: "unterminated string literal"},
	{name: "unterminated comment", sql: "SELECT 1 /* x", err: "unterminated comment"},
	{name: "unterminated quote", sql: `SELECT * FROM "refunds`, err: "unterminated quoted identifier"},
	{name: "unterminated dollar", sql: `SELECT $x$ abc`, err: "unterminated dollar-quoted string"},
	{name: "select from nothing", sql: "SELECT * FROM WHERE x = 1", err: "cannot read the FROM clause"},
	{name: "update without set", sql: "UPDATE t WHERE x = 1", err: "cannot read the SET clause of UPDATE"},
	{name: "truncate nothing", sql: "TRUNCATE TABLE", err: "cannot read the target table of TRUNCATE"},
	{name: "too deep", sql: "SELECT " + strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201), err: "nesting too deep"},
	{name: "delete subquery target", sql: "DELETE FROM (SELECT 1) x", err: "cannot read the target table of DELETE"},
	{name: "insert no values", sql: "INSERT INTO t", err: "cannot read the values of INSERT"},
	{name: "with no main", sql: "WITH x AS (SELECT 1)", err: "missing statement"},

	// partial texts
	{name: "partial insert", sql: `INSERT INTO refunds (a, b) VALUES `, partial: true,
		want: []Statement{{Kind: Insert, Table: "refunds", Writes: l("refunds"), Truncated: true}}},
	{name: "partial delete open paren", sql: `DELETE FROM refunds WHERE tenant_id = $1 AND id IN (`, partial: true,
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds"), HasWhere: true, TenantBound: l("tenant_id"), Truncated: true, OpenWhere: true}}},
	{name: "partial delete no target", sql: `DELETE FROM `, partial: true, err: "not fixed"},
	{name: "partial target may continue", sql: `DELETE FROM refunds`, partial: true, err: "not fixed"},
	{name: "partial qualified target may continue", sql: `UPDATE billing.`, partial: true, err: "not fixed"},
	{name: "partial kind may continue", sql: `UPD`, partial: true, err: "not fixed"},
	{name: "partial select where", sql: `SELECT * FROM refunds WHERE id = `, partial: true,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, Truncated: true, OpenWhere: true}}},
	{name: "partial where closed by order by", sql: `SELECT * FROM refunds WHERE tenant_id = $1 ORDER BY `, partial: true,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), HasWhere: true, TenantBound: l("tenant_id"), Truncated: true}}},
	{name: "partial where closed by limit", sql: `UPDATE refunds SET x = 1 WHERE tenant_id = $1 RETURNING `, partial: true,
		want: []Statement{{Kind: Update, Table: "refunds", Writes: l("refunds"), HasWhere: true, TenantBound: l("tenant_id"), Truncated: true}}},
	{name: "partial cut target list", sql: `DELETE FROM carts, c`, partial: true, err: "not fixed"},
	{name: "partial insert select source open", sql: `INSERT INTO archive SELECT * FROM refunds WHERE tenant_id = $1 `, partial: true,
		want: []Statement{{Kind: Insert, Table: "archive", Writes: l("archive"), Reads: l("refunds"), Truncated: true, OpenWhere: true, SourceTable: "refunds", SourceHasWhere: true, SourceBound: l("tenant_id")}}},
	{name: "partial select no table", sql: `SELECT * FROM `, partial: true, err: "not fixed"},
	{name: "partial open string", sql: `UPDATE refunds SET note = 'abc`, partial: true,
		want: []Statement{{Kind: Update, Table: "refunds", Writes: l("refunds"), Truncated: true}}},
	{name: "partial open comment", sql: `DELETE FROM refunds WHERE tenant_id = $1 /* `, partial: true,
		want: []Statement{{Kind: Delete, Table: "refunds", Writes: l("refunds"), HasWhere: true, TenantBound: l("tenant_id"), Truncated: true, OpenWhere: true}}},
	{name: "partial two statements", sql: `DELETE FROM a WHERE id = $1; UPDATE b SET x = `, partial: true,
		want: []Statement{{Kind: Delete, Table: "a", Writes: l("a"), HasWhere: true, TenantBound: l("id")}, {Kind: Update, Table: "b", Writes: l("b"), Truncated: true}}},
	{name: "partial after semicolon", sql: `DELETE FROM a WHERE id = $1; `, partial: true, err: "ends before the next statement"},
	{name: "partial cte unknown main", sql: `WITH x AS (DELETE FROM a RETURNING *) `, partial: true, err: "not fixed"},
	{name: "partial mysql delete no from", sql: `DELETE r `, partial: true, err: "not fixed"},
	{name: "partial empty", sql: `  `, partial: true, err: "empty SQL text"},
	{name: "partial select table may continue", sql: `SELECT * FROM refunds`, partial: true, err: "not fixed"},
	{name: "partial select table followed by space", sql: `SELECT * FROM refunds `, partial: true,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds"), Truncated: true}}},
	{name: "partial insert target may continue", sql: `INSERT INTO refunds`, partial: true, err: "not fixed"},
	{name: "mysql delete using form", sql: `DELETE FROM t1, t2 USING t1 JOIN t2 ON t1.id = t2.id WHERE t1.tenant_id = ?`,
		want: []Statement{{Kind: Delete, Table: "t1", Writes: l("t1", "t2"), Reads: l("t1", "t2"), HasWhere: true, TenantBound: l("tenant_id")}}},
	{name: "table function then table", sql: `SELECT * FROM generate_series(1, 3) g JOIN refunds r ON true`,
		want: []Statement{{Kind: Select, Table: "refunds", Reads: l("refunds")}}},
	{name: "cte shadows table in subquery", sql: `WITH x AS (SELECT id FROM a) DELETE FROM y WHERE id IN (SELECT id FROM x)`,
		want: []Statement{{Kind: Delete, Table: "y", Writes: l("y"), Reads: l("a"), HasWhere: true}}},
	{name: "column label keyword", sql: `SELECT count(*) AS order FROM t`,
		want: []Statement{{Kind: Select, Table: "t", Reads: l("t")}}},
}

func TestParse(t *testing.T) {
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.sql, Options{Partial: tc.partial})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Parse(%q) error = %v, want containing %q (got %+v)", tc.sql, err, tc.err, got)
				}
				if got != nil {
					t.Fatalf("Parse(%q) returned statements with an error: %+v", tc.sql, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", tc.sql, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Parse(%q):\n%s", tc.sql, diff(got, tc.want))
			}
		})
	}
}

func diff(got, want []Statement) string {
	var b strings.Builder
	if len(got) != len(want) {
		fmt.Fprintf(&b, "got %d statements, want %d\n", len(got), len(want))
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w Statement
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		gv, wv := reflect.ValueOf(g), reflect.ValueOf(w)
		for f := 0; f < gv.NumField(); f++ {
			if !reflect.DeepEqual(gv.Field(f).Interface(), wv.Field(f).Interface()) {
				fmt.Fprintf(&b, "  [%d].%s: got %#v, want %#v\n", i, gv.Type().Field(f).Name, gv.Field(f).Interface(), wv.Field(f).Interface())
			}
		}
	}
	return b.String()
}

func TestDialects(t *testing.T) {
	mysql := "DELETE FROM cart_items WHERE tenant_id = ? # AND more\n"
	for _, d := range []Dialect{AnyDialect, MySQL} {
		sts, err := Parse(mysql, Options{Dialect: d})
		if err != nil || len(sts[0].TenantBound) != 1 {
			t.Errorf("dialect %d: # comment: %+v %v", d, sts, err)
		}
	}
	// In PostgreSQL '#' is an operator: the condition is not the bare binding.
	sts, err := Parse("DELETE FROM t WHERE tenant_id = $1 # 1", Options{Dialect: Postgres})
	if err != nil || len(sts[0].TenantBound) != 0 {
		t.Errorf("postgres #: %+v %v", sts, err)
	}
	// A backslash escapes the quote only in MySQL: read that way, the
	// string swallows the rest of the text.
	text := `UPDATE notes SET body = 'C:\' WHERE tenant_id = ?`
	if _, err := Parse(text, Options{Dialect: MySQL}); err == nil {
		t.Errorf("mysql backslash: want an unterminated string")
	}
	if sts, err := Parse(text, Options{Dialect: Postgres}); err != nil || len(sts[0].TenantBound) != 1 {
		t.Errorf("postgres backslash: %+v %v", sts, err)
	}
	hidden := `UPDATE notes SET body = 'it\'s; DELETE FROM notes; --' WHERE tenant_id = ?`
	sts, err = Parse(hidden, Options{Dialect: Postgres})
	if err == nil && len(sts) < 2 {
		t.Errorf("postgres reading must expose the DELETE: %+v", sts)
	}
}

// TestDialectLexing: each dialect's own comments, quotes and variables,
// read the way that dialect's server runs them.
func TestDialectLexing(t *testing.T) {
	for _, c := range []struct {
		name    string
		d       Dialect
		sql     string
		stmts   int    // statements read
		last    Kind   // kind of the last statement
		bound   int    // len(TenantBound) of the first statement
		sources string // ValueSources[0].Table of the first statement
	}{
		{"mysql -- needs a space", MySQL, "UPDATE r SET a = 1 WHERE tenant_id = ? AND id = ? --1; DELETE FROM p", 2, Delete, 1, ""},
		{"mysql -- comment", MySQL, "UPDATE r SET a = 1 WHERE tenant_id = ? -- 1; DELETE FROM p", 1, Update, 1, ""},
		{"postgres -- comment", Postgres, "UPDATE r SET a = 1 WHERE tenant_id = $1 --1; DELETE FROM p", 1, Update, 1, ""},
		{"mysql executable comment", MySQL, "SELECT id FROM r WHERE tenant_id = ? /*!50000 OR 1 = 1 */", 1, Select, 0, ""},
		{"mariadb executable comment", MySQL, "SELECT id FROM r WHERE tenant_id = ? /*M!100100 OR 1 = 1 */", 1, Select, 0, ""},
		{"plain comment", MySQL, "SELECT id FROM r WHERE tenant_id = ? /* OR 1 = 1 */", 1, Select, 1, ""},
		{"postgres nested comment", Postgres, "INSERT INTO r (a) VALUES (1) /* a /* b */ ' */; DELETE FROM p; -- '", 2, Delete, 0, ""},
		{"postgres nested comment closed", Postgres, "INSERT INTO r (a) VALUES (1) /* a /* b */ c */", 1, Insert, 0, ""},
		{"mysql no dollar quoting", MySQL, "SELECT id AS $q$ FROM r WHERE tenant_id = ?; DELETE FROM p; SELECT 1 AS $q$", 3, Select, 1, ""},
		{"mysql user variable", MySQL, "UPDATE r SET a = 1 WHERE tenant_id = @victim", 1, Update, 0, ""},
		{"pgx named argument", Postgres, "UPDATE r SET a = 1 WHERE tenant_id = @tenant_id", 1, Update, 1, ""},
		{"mariadb analyze statement", MySQL, "ANALYZE DELETE FROM p WHERE id = ?", 1, Delete, 1, ""},
		{"analyze table", MySQL, "ANALYZE TABLE p", 1, Control, 0, ""},
		{"self join by alias", Postgres, "SELECT x.id FROM r x JOIN r ON r.id = x.parent_id WHERE r.tenant_id = $1", 1, Select, 0, ""},
		{"values subquery", Postgres, "INSERT INTO n (tenant_id, b) VALUES ($1, (SELECT s FROM p WHERE id = $2))", 1, Insert, 0, "p"},
	} {
		sts, err := Parse(c.sql, Options{Dialect: c.d})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(sts) != c.stmts || sts[len(sts)-1].Kind != c.last || len(sts[0].TenantBound) != c.bound {
			t.Errorf("%s: got %+v, want %d statements, the last %s, %d bound", c.name, sts, c.stmts, c.last, c.bound)
			continue
		}
		if got := sts[0].ValueSources; c.sources != "" && (len(got) == 0 || got[0].Table != c.sources) {
			t.Errorf("%s: value sources %+v, want %s", c.name, got, c.sources)
		}
	}
}

func TestConjunctive(t *testing.T) {
	for cond, want := range map[string]bool{
		"tenant_id = @tenant":            true,
		"(a = 1 OR b = 2)":               true,
		"status = 'open' AND x = $2":     true,
		"a = 1 OR b = 2":                 false,
		"a = 1; DELETE FROM t":           false,
		"name ILIKE @n || '%'":           true,
		"x IN (SELECT 1 UNION SELECT 2)": true,
		"a = 1) OR (1 = 1":               false,
		"":                               false,
	} {
		if got := Conjunctive(cond); got != want {
			t.Errorf("Conjunctive(%q) = %v, want %v", cond, got, want)
		}
	}
}

// TestPrefixes: every prefix of every case, read as partial text, agrees
// with the full reading or is refused (the property FuzzParse also checks).
func TestPrefixes(t *testing.T) {
	for _, tc := range cases {
		if tc.partial || tc.err != "" {
			continue
		}
		checkPrefixes(t, tc.sql)
	}
}

// checkPrefixes checks that no partial reading of a prefix of sql is
// safer than the full reading: the same statements before the cut, and
// for the cut one either Other (refused) or the same kind and table, no
// write the full text does not have, and, unless its WHERE is open, no
// WHERE or tenant binding the full text does not have.
func checkPrefixes(t *testing.T, sql string) {
	full, err := Parse(sql, Options{})
	if err != nil {
		return
	}
	for i := 1; i < len(sql); i++ {
		pre, err := Parse(sql[:i], Options{Partial: true})
		if err != nil {
			continue
		}
		if len(pre) > len(full) {
			t.Fatalf("prefix %q reads %d statements, the full text %d", sql[:i], len(pre), len(full))
		}
		for k, st := range pre {
			want := full[k]
			if k < len(pre)-1 {
				st.Truncated = false
				if !reflect.DeepEqual(st, want) {
					t.Fatalf("prefix %q: statement %d reads %+v, the full text %+v", sql[:i], k, st, want)
				}
				continue
			}
			if st.Kind == Other {
				continue // refused: a caller cannot bound it
			}
			if st.Kind != want.Kind || st.Table != want.Table && st.Kind != Select && st.Kind != Control {
				t.Fatalf("prefix %q: %s %q, the full text %s %q", sql[:i], st.Kind, st.Table, want.Kind, want.Table)
			}
			for _, w := range st.Writes {
				if !slices.Contains(want.Writes, w) {
					t.Fatalf("prefix %q writes %q, the full text does not", sql[:i], w)
				}
			}
			if st.OpenWhere {
				continue
			}
			if st.HasWhere && !want.HasWhere {
				t.Fatalf("prefix %q has a WHERE the full text lacks", sql[:i])
			}
			for _, b := range st.TenantBound {
				if !slices.Contains(want.TenantBound, b) {
					t.Fatalf("prefix %q binds %q, the full text does not", sql[:i], b)
				}
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, tc := range cases {
		f.Add(tc.sql, tc.partial)
	}
	f.Fuzz(func(t *testing.T, sql string, partial bool) {
		if !partial && len(sql) < 400 {
			checkPrefixes(t, sql)
		}
		got, err := Parse(sql, Options{Partial: partial})
		again, err2 := Parse(sql, Options{Partial: partial})
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() || !reflect.DeepEqual(got, again) {
			t.Fatalf("Parse not deterministic on %q", sql)
		}
		if err != nil {
			if got != nil {
				t.Fatalf("statements returned with error %v", err)
			}
			return
		}
		if len(got) == 0 {
			t.Fatalf("nil error but no statements for %q", sql)
		}
		for i, st := range got {
			for _, w := range st.Writes {
				if w == "" {
					t.Fatalf("empty write in %+v", st)
				}
			}
			for _, r := range st.Reads {
				if r == "" {
					t.Fatalf("empty read in %+v", st)
				}
			}
			switch st.Kind {
			case Insert, Update, Delete, Truncate, Merge:
				if st.Table == "" {
					t.Fatalf("%s without a table for %q", st.Kind, sql)
				}
			case Select, Other, Control:
			default:
				t.Fatalf("unknown kind %q", st.Kind)
			}
			if st.Truncated != (partial && i == len(got)-1) {
				t.Fatalf("Truncated wrong for %q: %+v", sql, st)
			}
		}
	})
}
