// Package export is a third-party CSV exporter. It also knows how to read
// rows from database/sql, so it is a package authvet analyses.
package export

import (
	"database/sql"
	"io"
	"strings"
)

// WriteCSV writes lines to whatever writer it is handed.
func WriteCSV(w io.Writer, lines []string) error {
	_, err := w.Write([]byte(strings.Join(lines, "\n")))
	return err
}

// Columns reads a result set's columns.
func Columns(rows *sql.Rows) ([]string, error) { return rows.Columns() }
