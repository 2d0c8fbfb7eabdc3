// Package reqopts builds statements with functional options, as SDKs
// build requests (go-github's NewRequest(method, url, body, opts...)).
package reqopts

import "database/sql"

// Option runs before the statement.
type Option func(db *sql.DB)

// Exec runs stmt after every option.
func Exec(db *sql.DB, stmt string, opts ...Option) error {
	for _, opt := range opts {
		opt(db)
	}
	_, err := db.Exec(stmt)
	return err
}
