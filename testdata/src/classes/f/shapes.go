package f

import (
	"database/sql"
	"net/http"
)

// --- F42: a method asked for through an unnamed interface
// (v.(interface{ Flush() })) that a benign interface provides
// (http.Flusher) is judged as a call through that interface: resolved
// on the values the analysis sees, harmless out of sight unless a type
// of the package implements it with an effect. Twin: the handler's own
// ResponseWriter flushed through it.

func flushIt(v any) {
	if f, ok := v.(interface{ Flush() }); ok {
		f.Flush()
	}
}

//agent:operable grant=Refunds
func FlushShapeTwin(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("ok"))
	flushIt(w)
}

// spool flushes its lines into a table.
type spool struct {
	db    *sql.DB
	lines []string
}

func (s *spool) Flush() {
	for _, l := range s.lines {
		s.db.Exec("INSERT INTO spool (line) VALUES ($1)", l)
	}
}

//agent:operable grant=Refunds
func FlushShapeSpool(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	flushIt(&spool{db: db, lines: []string{"a"}}) // want `FlushShapeSpool writes "spool"`
}

type flushSource struct{ out any }

//agent:operable grant=Refunds
func FlushShapeUnseen(src *flushSource, w http.ResponseWriter, r *http.Request) {
	if f, ok := src.out.(interface{ Flush() }); ok {
		f.Flush() // want `FlushShapeUnseen calls Flush through the interface interface\{Flush\(\)\}, which \*spool of this package implements with effects`
	}
}
