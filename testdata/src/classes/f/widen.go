package f

import (
	"database/sql"
	"encoding/json"
	"io"
	"net/http"

	"classes/f/sinkw"
)

// --- F30: a reply helper widens its http.ResponseWriter to an io.Writer
// (json.NewEncoder(w), io.WriteString(w, s)). The caller's writer is
// still what the standard library writes to: an auditing writer of
// another package makes the reply a write.

func reply(w http.ResponseWriter, v any)        { json.NewEncoder(w).Encode(v) }
func replyText(w http.ResponseWriter, s string) { io.WriteString(w, s) }
func writeAll(w io.WriteCloser, s string)       { io.WriteString(w, s) }

type nopCloser struct{ *sinkw.AuditWriter }

func (nopCloser) Close() error { return nil }

//agent:operable grant=Refunds
func ReplyAudited(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	reply(&sinkw.AuditingRW{ResponseWriter: w, DB: db}, "ok") // want `ReplyAudited writes "audit"`
}

//agent:operable grant=Refunds
func ReplyCounted(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	reply(&sinkw.CountingRW{ResponseWriter: w}, "ok")
}

//agent:operable grant=Refunds
func ReplyPlain(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	reply(w, "ok")
}

//agent:operable grant=Refunds
func ReplyTextAudited(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	replyText(&sinkw.AuditingRW{ResponseWriter: w, DB: db}, "ok") // want `ReplyTextAudited writes "audit"`
}

//agent:operable grant=Refunds
func ReplyTextCounted(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	replyText(&sinkw.CountingRW{ResponseWriter: w}, "ok")
}

// An io.WriteCloser narrowed to an io.Writer.

//agent:operable grant=Refunds
func WriteAllAudited(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	writeAll(nopCloser{&sinkw.AuditWriter{DB: db}}, "ok") // want `WriteAllAudited writes "audit"`
}

type countCloser struct{ *sinkw.CountingRW }

func (countCloser) Close() error { return nil }

//agent:operable grant=Refunds
func WriteAllCounted(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	writeAll(countCloser{&sinkw.CountingRW{ResponseWriter: w}}, "ok")
}
