// Package b is the other side of class I's cross-package shapes: a
// wrapper factory, a callback visitor, a ping-pong partner and a function
// with no Go body.
package b

import "database/sql"

// Wrap returns a function that calls f (the shape that crashed on bun).
func Wrap(f func()) func() { return func() { f() } }

// Visit calls f with n-1 while n is positive.
func Visit(n int, f func(int)) {
	if n > 0 {
		f(n - 1)
	}
}

// Ping runs q when n reaches zero, and otherwise hands the next query to
// pong, which calls back into Ping.
func Ping(db *sql.DB, q string, n int, pong func(*sql.DB, string, int)) {
	if n == 0 {
		db.Exec(q, 1)
		return
	}
	pong(db, "DELETE FROM payouts WHERE tenant_id = $1", n-1)
}

// PingNote is Ping with an allowed next query.
func PingNote(db *sql.DB, q string, n int, pong func(*sql.DB, string, int)) {
	if n == 0 {
		db.Exec(q, 1)
		return
	}
	pong(db, "DELETE FROM refund_notes WHERE tenant_id = $1", n-1)
}

// checksum has no Go body (assembly).
func checksum(p []byte) uint32

// Sum checksums p in assembly: it is handed no handle.
func Sum(p []byte) uint32 { return checksum(p) }

// SumGo checksums p in Go.
func SumGo(p []byte) uint32 {
	var s uint32
	for _, c := range p {
		s = s*31 + uint32(c)
	}
	return s
}

// apply has no Go body and is handed a function value.
func apply(f func())

// Apply runs f in assembly.
func Apply(f func()) { apply(f) }
