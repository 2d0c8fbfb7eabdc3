package b

import "database/sql"

// Statements prepared, and tables named, in a constructor and kept in
// unexported fields that only this package writes: read where the
// struct was built out of sight, each field holds what the package
// stores to it. A field stored from a constructor's parameter proves no
// text.

type stmtSet struct{ archive *sql.Stmt }

func newStmtSet(db *sql.DB) *stmtSet {
	a, _ := db.Prepare("UPDATE payouts SET archived = true WHERE tenant_id = $1 AND id = $2")
	return &stmtSet{archive: a}
}

type tableRepo struct {
	db    *sql.DB
	table string
}

func newPayoutRepo(db *sql.DB) *tableRepo { return &tableRepo{db: db, table: "payouts"} }

func (r *tableRepo) purge(id int64) {
	r.db.Exec("DELETE FROM "+r.table+" WHERE tenant_id = $1 AND id = $2", 1, id)
}

type namedRepo struct {
	db    *sql.DB
	table string
}

func newNamedRepo(db *sql.DB, table string) *namedRepo { return &namedRepo{db: db, table: table} }

func (r *namedRepo) purge(id int64) {
	r.db.Exec("DELETE FROM "+r.table+" WHERE tenant_id = $1 AND id = $2", 1, id)
}

type FieldServer struct {
	stmts *stmtSet
	repo  *tableRepo
	named *namedRepo
}

//agent:operable grant=Narrow
func (s *FieldServer) ArchivePayout() {
	s.stmts.archive.Exec(1, 2) // want `ArchivePayout writes "payouts"`
}

//agent:operable grant=Wide
func (s *FieldServer) ArchivePayoutTwin() {
	s.stmts.archive.Exec(1, 2)
}

//agent:operable grant=Narrow
func (s *FieldServer) PurgePayout() {
	s.repo.purge(2) // want `PurgePayout writes "payouts"`
}

//agent:operable grant=Wide
func (s *FieldServer) PurgePayoutTwin() {
	s.repo.purge(2)
}

//agent:operable grant=Wide
func (s *FieldServer) PurgeNamed() {
	s.named.purge(2) // want `PurgeNamed runs SQL whose constant prefix "DELETE FROM" does not fix the statement kind and table`
}
