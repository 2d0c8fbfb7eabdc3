// Package auditerr has an error type whose Error method audits: printing
// the error writes a row. Another team's package, returned as a plain
// error.
package auditerr

import "database/sql"

// Denied audits itself when printed.
type Denied struct {
	DB  *sql.DB
	Msg string
}

func (d *Denied) Error() string {
	d.DB.Exec("INSERT INTO audit (line) VALUES ($1)", d.Msg)
	return d.Msg
}

// Plain is an ordinary error.
type Plain struct{ Msg string }

func (p *Plain) Error() string { return p.Msg }

// Deny returns an error that audits when printed.
func Deny(db *sql.DB, msg string) error { return &Denied{DB: db, Msg: msg} }

// Fail returns an ordinary error.
func Fail(msg string) error { return &Plain{Msg: msg} }
