package b

import (
	"database/sql"

	"classes/b/reqopts"
)

// --- Functional options: a variadic call with no option has nothing to
// call; an option that writes is the handler's write.

//agent:operable grant=Narrow
func (s *Server) OptionWrites() error {
	return reqopts.Exec(s.db, "UPDATE refunds SET state = 'x' WHERE tenant_id = $1 AND id = $2", func(db *sql.DB) {
		db.Exec("UPDATE payouts SET seen = true WHERE tenant_id = $1 AND id = $2") // want `OptionWrites writes "payouts"`
	})
}

// OptionWritesTwin passes no option at all.
//
//agent:operable grant=Narrow
func (s *Server) OptionWritesTwin() error {
	return reqopts.Exec(s.db, "UPDATE refunds SET state = 'x' WHERE tenant_id = $1 AND id = $2")
}
