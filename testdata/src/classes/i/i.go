// Package i is class I of the fail-closed corpus: bounds that go silent.
// A call cut by a recursion guard, a depth, site or round limit is an
// unprovable site, never silence (SPEC §4.1, "Bounds fail closed"), and a
// function with no Go body is unprovable wherever it is reached. For each
// bounded shape the honest outcomes are the precise effect or an
// unprovable site naming the handler; each shape has a clean twin with
// the same structure and only allowed writes.
package i

import (
	"database/sql"
	"sort"

	"classes/i/b"
	"classes/i/deep"

	"github.com/authvet/authvet/grant"
)

// Narrow allows refunds and their notes, across tenants: the shapes are
// about writes.
var Narrow = grant.Grant{
	Writes:        []string{"refunds", "refund_notes"},
	TenantScope:   grant.CrossTenant,
	Reversibility: grant.Irreversible,
}

type Server struct{ db *sql.DB }

const (
	purgeSQL = "DELETE FROM payouts WHERE tenant_id = $1"
	noteSQL  = "DELETE FROM refund_notes WHERE tenant_id = $1"
)

// ---------------------------------------------------------------------
// Shapes named in the issue.
// ---------------------------------------------------------------------

// --- I1: a closure already on the stack, called again with other
// arguments: each step's statement is only known two levels down.

type step struct {
	sql  string
	next *step
}

//agent:operable grant=Narrow
func (s *Server) ClosureOnStack() {
	var run func(st *step)
	run = func(st *step) {
		if st == nil {
			return
		}
		s.db.Exec(st.sql, 1)
		run(st.next)
	}
	run(&step{"SELECT 1", &step{"SELECT 2", &step{purgeSQL, nil}}}) // want `ClosureOnStack (writes "payouts"|calls a closure that calls itself|runs SQL text that is not constant)`
}

// BOUND (reported by design, the walk stops short of the statement): the statement read at the second level down (st.next.next.sql) is
// not traced, so even an allowed list is unprovable
//
//agent:operable grant=Narrow
func (s *Server) ClosureOnStackTwin() {
	var run func(st *step)
	run = func(st *step) {
		if st == nil {
			return
		}
		s.db.Exec(st.sql, 1)
		run(st.next)
	}
	run(&step{"SELECT 1", &step{"SELECT 2", &step{noteSQL, nil}}}) // want `ClosureOnStackTwin (runs SQL text that is not constant|reaches code past the analysis bounds|calls a closure that calls itself)`
}

// --- I2: maxDepth: forty closures, each capturing the one before.

//agent:operable grant=Narrow
func (s *Server) ClosureChain() {
	purgeChain(s.db)() // want `ClosureChain (writes "payouts"|reaches code past the analysis)`
}

// BOUND (reported by design, the walk stops short of the statement): the depth bound cuts the chain whatever it ends in
//
//agent:operable grant=Narrow
func (s *Server) ClosureChainTwin() {
	noteChain(s.db)() // want `ClosureChainTwin (runs SQL text that is not constant|reaches code past the analysis bounds|calls a closure that calls itself)`
}

// --- I3: a function with no Go body in another package of the module,
// handed no handle.

//agent:operable grant=Narrow
func (s *Server) BodilessNoHandle(p []byte) uint32 {
	return b.Sum(p) // want `BodilessNoHandle calls .*a function with no Go body`
}

//agent:operable grant=Narrow
func (s *Server) BodilessNoHandleTwin(p []byte) uint32 {
	return b.SumGo(p)
}

// --- I4: a recursive func factory through another package's summary
// (the bun crash): rec(3) is Wrap(Wrap(Wrap(base))).

func rec(db *sql.DB, n int) func() {
	if n == 0 {
		return func() { db.Exec(purgeSQL, 1) }
	}
	return b.Wrap(rec(db, n-1))
}

func recNote(db *sql.DB, n int) func() {
	if n == 0 {
		return func() { db.Exec(noteSQL, 1) }
	}
	return b.Wrap(recNote(db, n-1))
}

//agent:operable grant=Narrow
func (s *Server) FactoryRecursion() {
	rec(s.db, 3)() // want `FactoryRecursion (writes "payouts"|calls recursive code|reaches code past the analysis|calls code that calls back into this call)` `FactoryRecursion (writes "payouts"|calls recursive code|reaches code past the analysis|calls code that calls back into this call)`
}

// BOUND (reported by design, the walk stops short of the statement): the depth bound, or the cut of a call resolved again inside itself, stops the factory whatever its base writes
//
//agent:operable grant=Narrow
func (s *Server) FactoryRecursionTwin() {
	recNote(s.db, 3)() // want `FactoryRecursionTwin (runs SQL text that is not constant|reaches code past the analysis bounds|calls a closure that calls itself|calls code that calls back into this call)`
}

// ---------------------------------------------------------------------
// New shapes.
// ---------------------------------------------------------------------

// --- I5: a forty-call chain of named functions in another package.

//agent:operable grant=Narrow
func (s *Server) DeepChain(id int) {
	deep.Purge40(s.db, id) // want `DeepChain (writes "payouts"|reaches code past the analysis)`
}

//agent:operable grant=Narrow
func (s *Server) DeepChainTwin(id int) {
	deep.Note40(s.db, id)
}

// --- I6: recursion across packages through a callback: hop calls
// b.Visit, which calls hop's closure, which calls hop.

func hop(db *sql.DB, q string, n int) {
	if n == 0 {
		db.Exec(q, 1)
		return
	}
	b.Visit(n, func(k int) { hop(db, purgeSQL, k) })
}

func hopNote(db *sql.DB, q string, n int) {
	if n == 0 {
		db.Exec(q, 1)
		return
	}
	b.Visit(n, func(k int) { hopNote(db, noteSQL, k) })
}

//agent:operable grant=Narrow
func (s *Server) CrossPkgCallbackRecursion() {
	hop(s.db, "SELECT 1", 2) // want `CrossPkgCallbackRecursion (writes "payouts"|calls recursive code|reaches code past the analysis)`
}

//agent:operable grant=Narrow
func (s *Server) CrossPkgCallbackRecursionTwin() {
	hopNote(s.db, "SELECT 1", 2)
}

// --- I7: ping-pong across packages: b.Ping picks the next statement and
// calls back pong, which calls b.Ping again.

func pong(db *sql.DB, q string, n int) { b.Ping(db, q, n, pong) }

func pongNote(db *sql.DB, q string, n int) { b.PingNote(db, q, n, pongNote) }

//agent:operable grant=Narrow
func (s *Server) CrossPkgPingPong() {
	b.Ping(s.db, "SELECT 1", 3, pong) // want `CrossPkgPingPong (writes "payouts"|calls recursive code|reaches code past the analysis|runs SQL text that is not constant)`
}

// BOUND (reported by design, the walk stops short of the statement): the statement Ping hands back through pong is not traced
//
//agent:operable grant=Narrow
func (s *Server) CrossPkgPingPongTwin() {
	b.PingNote(s.db, "SELECT 1", 3, pongNote) // want `CrossPkgPingPongTwin (runs SQL text that is not constant|reaches code past the analysis bounds|calls a closure that calls itself)`
}

// --- I8: recursion through a method value, the statements shifting one
// argument per level: the DELETE is run two levels down.

type walker struct{ db *sql.DB }

func (w *walker) shift(a, c string, n int) {
	if n == 0 {
		w.db.Exec(a, 1)
		return
	}
	f := w.shift
	f(c, purgeSQL, n-1)
}

func (w *walker) shiftNote(a, c string, n int) {
	if n == 0 {
		w.db.Exec(a, 1)
		return
	}
	f := w.shiftNote
	f(c, noteSQL, n-1)
}

// MethodValueRecursion re-enters shift through a method value with other
// arguments: the levels walked only read, the level cut deletes.
//
//agent:operable grant=Narrow
func (s *Server) MethodValueRecursion() {
	w := &walker{db: s.db}
	w.shift("SELECT 1", "SELECT 2", 3) // want `MethodValueRecursion (writes "payouts"|calls recursive code|reaches code past the analysis|calls a closure that calls itself)`
}

// Clean twin: every level runs SQL Narrow allows. Past the levels walked
// inline, shiftNote's summary leaves the text to its parameters, and
// each call resolves them.
//
//agent:operable grant=Narrow
func (s *Server) MethodValueRecursionTwin() {
	w := &walker{db: s.db}
	w.shiftNote("SELECT 1", "SELECT 2", 3)
}

// --- I9: recursion through an interface: a relay that calls itself.

type node interface {
	run(db *sql.DB, q string, n int)
}

type relay struct {
	next node
	then string
}

func (r *relay) run(db *sql.DB, q string, n int) {
	if n == 0 {
		db.Exec(q, 1)
		return
	}
	r.next.run(db, r.then, n-1)
}

//agent:operable grant=Narrow
func (s *Server) InterfaceRecursion() {
	r := &relay{then: purgeSQL}
	r.next = r                 // want `InterfaceRecursion (writes "payouts"|calls recursive code|reaches code past the analysis|runs SQL text that is not constant)`
	r.run(s.db, "SELECT 1", 2) // want `InterfaceRecursion (writes "payouts"|calls recursive code|reaches code past the analysis|runs SQL text that is not constant)`
}

// BOUND (reported by design, the walk stops short of the statement): the relay's statement field is not traced through the interface call
//
//agent:operable grant=Narrow
func (s *Server) InterfaceRecursionTwin() {
	r := &relay{then: noteSQL}
	r.next = r                 // want `InterfaceRecursionTwin (runs SQL text that is not constant|reaches code past the analysis bounds|calls a closure that calls itself)`
	r.run(s.db, "SELECT 1", 2) // want `InterfaceRecursionTwin (runs SQL text that is not constant|reaches code past the analysis bounds|calls a closure that calls itself)`
}

// --- I10: generic recursion that swaps its type arguments: the table
// comes from T's constant Table(), and only every other level deletes
// payouts.

type tabler interface{ Table() string }

type RefundT struct{}

func (RefundT) Table() string { return "refunds" }

type PayoutT struct{}

func (PayoutT) Table() string { return "payouts" }

type NoteT struct{}

func (NoteT) Table() string { return "refund_notes" }

func purgeAlt[T, U tabler](db *sql.DB, n int) {
	var t T
	db.Exec("DELETE FROM "+t.Table()+" WHERE tenant_id = $1", 1)
	if n > 0 {
		purgeAlt[U, T](db, n-1)
	}
}

//agent:operable grant=Narrow
func (s *Server) GenericSwap() {
	purgeAlt[RefundT, PayoutT](s.db, 3) // want `GenericSwap (writes "payouts"|calls recursive code|reaches code past the analysis|runs SQL)`
}

//agent:operable grant=Narrow
func (s *Server) GenericSwapTwin() {
	purgeAlt[RefundT, NoteT](s.db, 3)
}

// --- I11: a named recursion whose three statement arguments rotate: the
// DELETE reaches the Exec only on the third level down.

func rotate(db *sql.DB, a, c, d string, n int) {
	if n == 0 {
		db.Exec(a, 1)
		return
	}
	rotate(db, c, d, a, n-1)
}

//agent:operable grant=Narrow
func (s *Server) RotatingRecursion() {
	rotate(s.db, "SELECT 1", "SELECT 2", purgeSQL, 5) // want `RotatingRecursion (writes "payouts"|calls recursive code)`
}

//agent:operable grant=Narrow
func (s *Server) RotatingRecursionTwin() {
	rotate(s.db, "SELECT 1", "SELECT 2", noteSQL, 5)
}

// --- I12: recursion through a standard-library callback (sort.Slice's
// less function).

func viaSort(db *sql.DB, q string, n int) {
	if n == 0 {
		db.Exec(q, 1)
		return
	}
	xs := []int{2, 1}
	sort.Slice(xs, func(i, j int) bool {
		viaSort(db, purgeSQL, n-1)
		return xs[i] < xs[j]
	})
}

func viaSortNote(db *sql.DB, q string, n int) {
	if n == 0 {
		db.Exec(q, 1)
		return
	}
	xs := []int{2, 1}
	sort.Slice(xs, func(i, j int) bool {
		viaSortNote(db, noteSQL, n-1)
		return xs[i] < xs[j]
	})
}

//agent:operable grant=Narrow
func (s *Server) StdCallbackRecursion() {
	viaSort(s.db, "SELECT 1", 2) // want `StdCallbackRecursion (writes "payouts"|calls recursive code|reaches code past the analysis)`
}

//agent:operable grant=Narrow
func (s *Server) StdCallbackRecursionTwin() {
	viaSortNote(s.db, "SELECT 1", 2)
}

// --- I13: a linked list of statements walked by a named recursive
// function: the summary's text is a field path that grows each round.

func runSteps(db *sql.DB, st *step) {
	if st == nil {
		return
	}
	db.Exec(st.sql, 1)
	runSteps(db, st.next)
}

//agent:operable grant=Narrow
func (s *Server) NamedListRecursion() {
	runSteps(s.db, &step{"SELECT 1", &step{"SELECT 2", &step{"SELECT 3", &step{purgeSQL, nil}}}}) // want `NamedListRecursion (writes "payouts"|calls recursive code|runs SQL text that is not constant)`
}

// BOUND (reported by design, the walk stops short of the statement): the statement field path grows each round and is cut to non-constant
//
//agent:operable grant=Narrow
func (s *Server) NamedListRecursionTwin() {
	runSteps(s.db, &step{"SELECT 1", &step{"SELECT 2", &step{"SELECT 3", &step{noteSQL, nil}}}}) // want `NamedListRecursionTwin (runs SQL text that is not constant|reaches code past the analysis bounds|calls a closure that calls itself)`
}

// --- I14: a function with no Go body handed a closure that writes.

func (s *Server) purge() { s.db.Exec(purgeSQL, 1) }

func (s *Server) note() { s.db.Exec(noteSQL, 1) }

//agent:operable grant=Narrow
func (s *Server) BodilessCallback() {
	b.Apply(s.purge) // want `BodilessCallback (writes "payouts"|calls .*a function with no Go body)`
}

// The twin runs the method value in Go: a no-body call is unprovable
// whatever it is handed.
//
//agent:operable grant=Narrow
func (s *Server) BodilessCallbackTwin() {
	f := s.note
	f()
}

// --- I15: a closure calling itself with shifted statements: the levels
// walked read, the level cut deletes.

//
//agent:operable grant=Narrow
func (s *Server) ClosureShift() {
	var sh func(a, c string, n int)
	sh = func(a, c string, n int) {
		if n == 0 {
			s.db.Exec(a, 1)
			return
		}
		sh(c, purgeSQL, n-1)
	}
	sh("SELECT 1", "SELECT 2", 3) // want `ClosureShift (writes "payouts"|calls a closure that calls itself|reaches code past the analysis)`
}

//agent:operable grant=Narrow
func (s *Server) ClosureShiftTwin() {
	var sh func(a, c string, n int)
	sh = func(a, c string, n int) {
		if n == 0 {
			s.db.Exec(a, 1)
			return
		}
		sh(c, noteSQL, n-1)
	}
	sh("SELECT 1", "SELECT 2", 3) // want `ClosureShiftTwin (runs SQL text that is not constant|reaches code past the analysis bounds|calls a closure that calls itself)`
}

// --- I16: more effect sites than a summary holds.

//agent:operable grant=Narrow
func (s *Server) ManySites() {
	manySites(s.db) // want `ManySites (writes "payouts"|calls a function that reaches more than)`
}

//agent:operable grant=Narrow
func (s *Server) ManySitesTwin() {
	manyNotes(s.db)
}
