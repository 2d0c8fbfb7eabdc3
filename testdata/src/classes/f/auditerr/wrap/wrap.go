// Package wrap passes auditerr's errors on.
package wrap

import (
	"database/sql"
	"fmt"

	"classes/f/auditerr"
)

// Check returns what auditerr.Deny returns.
func Check(db *sql.DB) error { return auditerr.Deny(db, "denied") }

// CheckWrapped wraps it: fmt.Errorf prints it now.
func CheckWrapped(db *sql.DB) error { return fmt.Errorf("check: %w", auditerr.Deny(db, "denied")) }

// CheckPlain returns an ordinary error.
func CheckPlain() error { return auditerr.Fail("denied") }
