// Package sinkw holds writers another team wrote: one that audits what
// passes through it into a table, one that only counts.
package sinkw

import (
	"database/sql"
	"net/http"
)

// AuditingRW audits every reply it writes.
type AuditingRW struct {
	http.ResponseWriter
	DB *sql.DB
}

func (a *AuditingRW) Write(p []byte) (int, error) {
	a.DB.Exec("INSERT INTO audit (line) VALUES ($1)", string(p))
	return a.ResponseWriter.Write(p)
}

// CountingRW counts the bytes of every reply it writes.
type CountingRW struct {
	http.ResponseWriter
	N int
}

func (c *CountingRW) Write(p []byte) (int, error) {
	c.N += len(p)
	return c.ResponseWriter.Write(p)
}

// AuditWriter audits every line into a table.
type AuditWriter struct{ DB *sql.DB }

func (a *AuditWriter) Write(p []byte) (int, error) {
	a.DB.Exec("INSERT INTO audit (line) VALUES ($1)", string(p))
	return len(p), nil
}
