// Package dynamic exercises calls the analysis must resolve, and the
// dynamic calls it must refuse.
package dynamic

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/labstack/echo/v4"

	"github.com/authvet/authvet/grant"
)

var Notes = grant.Grant{
	Writes:        []string{"notes"},
	Reversibility: grant.Reversible,
}

// Store is an interface with no effect contract.
type Store interface {
	Save(ctx context.Context, note string) error
}

type Server struct {
	db    *sql.DB
	store Store
	hook  func()
	once  sync.Once
}

//agent:operable grant=Notes
func (s *Server) ThroughInterface(ctx context.Context) error {
	return s.store.Save(ctx, "x") // want `ThroughInterface calls Save through the interface dynamic.Store, which the analysis cannot resolve to analysable bodies; declare the statement with //agent:effect, add an effect contract to the interface method, or list the interface in benign_interfaces \(grant Notes cannot bound it\)`
}

//agent:operable grant=Notes
func (s *Server) ThroughInterfaceDeclared(ctx context.Context) error {
	//agent:effect writes(notes) reason="every Store writes only notes"
	return s.store.Save(ctx, "x")
}

//agent:operable grant=Notes
func (s *Server) FieldFunc(ctx context.Context) {
	s.hook() // want `FieldFunc calls a function value the analysis cannot resolve`
}

//agent:operable grant=Notes
func (s *Server) Benign(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "ok")
	w.Write([]byte("ok"))
	var rd io.Reader = strings.NewReader("x")
	io.ReadAll(rd)
	if err := r.Context().Err(); err != nil {
		_ = err.Error()
	}
}

//agent:operable grant=Notes
func (s *Server) LocalClosure(ctx context.Context) {
	write := func(table string) {
		s.db.ExecContext(ctx, "INSERT INTO "+table+" (tenant_id) VALUES ($1)", 1)
	}
	write("notes")
	write("secrets") // want `LocalClosure writes "secrets", .* \(at \S+dynamic.go:\d+\)`
}

//agent:operable grant=Notes
func (s *Server) MethodValue(ctx context.Context) {
	exec := s.db.ExecContext
	exec(ctx, "DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, 2) // want `MethodValue writes "secrets"`
}

//agent:operable grant=Notes
func (s *Server) Deferred(ctx context.Context) {
	defer s.db.Exec("UPDATE secrets SET n = n + 1 WHERE tenant_id = $1", 1) // want `Deferred writes "secrets"`
}

//agent:operable grant=Notes
func (s *Server) SortCallback(ctx context.Context, xs []int) {
	sort.Slice(xs, func(i, j int) bool {
		s.db.Exec("INSERT INTO secrets (tenant_id) VALUES (1)") // want `SortCallback writes "secrets"`
		return xs[i] < xs[j]
	})
	slices.SortFunc(xs, func(a, b int) int { return a - b })
}

//agent:operable grant=Notes
func (s *Server) Once(ctx context.Context) {
	s.once.Do(func() {
		s.db.Exec("INSERT INTO secrets (tenant_id) VALUES (1)") // want `Once writes "secrets"`
	})
}

//agent:operable grant=Notes
func (s *Server) RangeFunc(ctx context.Context, csv string) {
	for part := range strings.SplitSeq(csv, ",") {
		s.db.Exec("INSERT INTO secrets (tenant_id, v) VALUES (1, $1)", part) // want `RangeFunc writes "secrets"`
	}
}

// each is a user-defined iterator.
func each(xs []string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, x := range xs {
			if !yield(x) {
				return
			}
		}
	}
}

// inTx runs fn in a transaction: a callback that the callee calls.
func (s *Server) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

//agent:operable grant=Notes
func (s *Server) Callback(ctx context.Context) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec("INSERT INTO notes (tenant_id) VALUES ($1)", 1); err != nil {
			return err
		}
		_, err := tx.Exec("INSERT INTO secrets (tenant_id) VALUES ($1)", 1) // want `Callback writes "secrets"`
		return err
	})
}

func (s *Server) writeSecret(tx *sql.Tx) error {
	_, err := tx.Exec("INSERT INTO secrets (tenant_id) VALUES ($1)", 1)
	return err
}

//agent:operable grant=Notes
func (s *Server) CallbackMethodValue(ctx context.Context) error {
	return s.inTx(ctx, s.writeSecret) // want `CallbackMethodValue writes "secrets"`
}

// recurse walks a tree; recursion is solved by a fixed point.
func (s *Server) recurse(n int) {
	if n == 0 {
		s.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND depth = 0", 1)
		return
	}
	s.recurse(n - 1)
}

//agent:operable grant=Notes
func (s *Server) Recursive(ctx context.Context) {
	s.recurse(3) // want `Recursive writes "secrets"`
}

//agent:operable grant=Notes
func (s *Server) RangeOwnIterator(ctx context.Context, xs []string) {
	for x := range each(xs) {
		s.db.Exec("INSERT INTO secrets (tenant_id, v) VALUES (1, $1)", x) // want `RangeOwnIterator writes "secrets"`
	}
}

// rows is an iterator whose body writes.
func (s *Server) rows(ctx context.Context) func(func(int) bool) {
	return func(yield func(int) bool) {
		s.db.ExecContext(ctx, "UPDATE secrets SET read = true WHERE tenant_id = $1", 1)
		yield(1)
	}
}

//agent:operable grant=Notes
func (s *Server) IteratorWrites(ctx context.Context) {
	for range s.rows(ctx) { // want `IteratorWrites writes "secrets"`
	}
}

// factory returns a closure over its parameter.
func (s *Server) factory(table string) func() {
	return func() { s.db.Exec("DELETE FROM " + table + " WHERE tenant_id = $1 AND id = $2") }
}

//agent:operable grant=Notes
func (s *Server) Factory(ctx context.Context) {
	f := s.factory("secrets")
	f() // want `Factory writes "secrets"`
	g := s.factory("notes")
	g()
}

// marker mirrors gen.go's mustEmbed in hand-written code, where the
// dynamic call is reported.
func marker(s any) {
	if t, ok := s.(interface{ testEmbeddedByValue() }); ok {
		t.testEmbeddedByValue()
	}
}

// GeneratedCode hands the generated helper a value without the marker
// method: the assertion fails, nothing is called.
//
//agent:operable grant=Notes
func (s *Server) GeneratedCode(ctx context.Context) {
	mustEmbed(s)
}

// GeneratedCodeUnknown hands it a value the analysis cannot see: in
// generated code as in hand-written code, that call is unprovable.
//
//agent:operable grant=Notes
func (s *Server) GeneratedCodeUnknown(ctx context.Context, v any) {
	mustEmbed(v) // want `GeneratedCodeUnknown calls testEmbeddedByValue through the interface`
}

//agent:operable grant=Notes
func (s *Server) HandWritten(ctx context.Context, v any) {
	marker(v) // want `HandWritten calls testEmbeddedByValue through the interface`
}

// embedded has the marker method, and it writes.
type embedded struct{ db *sql.DB }

func (e embedded) testEmbeddedByValue() {
	e.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, 2)
}

// GeneratedCodeResolved hands the generated helper a value whose marker
// method writes: the generated call is resolved to it.
//
//agent:operable grant=Notes
func (s *Server) GeneratedCodeResolved(ctx context.Context) {
	mustEmbed(embedded{db: s.db}) // want `GeneratedCodeResolved writes "secrets"`
}

// Echo handlers call the framework's Context interface; it is benign.
//
//agent:operable grant=Notes
func (s *Server) EchoHandler(c echo.Context) error {
	id := c.Param("id")
	if c.Request().Method == http.MethodGet {
		return c.String(http.StatusOK, id)
	}
	return c.JSON(http.StatusOK, map[string]string{"id": id})
}

// Generic helpers: a method call on a type parameter is static once the
// package's instance is built.
type validator interface{ Validate() error }

type okReq struct{}

func (okReq) Validate() error { return nil }

type badReq struct{ s *Server }

func (b badReq) Validate() error {
	_, err := b.s.db.Exec("INSERT INTO secrets (tenant_id) VALUES (1)")
	return err
}

func validateAll[T validator](xs []T) error {
	for _, x := range xs {
		if err := x.Validate(); err != nil {
			return err
		}
	}
	return nil
}

//agent:operable grant=Notes
func (s *Server) GenericOK(ctx context.Context) error {
	return validateAll([]okReq{{}})
}

//agent:operable grant=Notes
func (s *Server) GenericWrites(ctx context.Context) error {
	return validateAll([]badReq{{s: s}}) // want `GenericWrites writes "secrets"`
}

// Function values in package variables set only by their declaration,
// and the standard library's wrappers around a function.
var limits = sync.OnceValue(func() map[string]int { return map[string]int{"pro": 10} })

var now = time.Now

var warm = sync.OnceFunc(func() {
	globalDB.Exec("INSERT INTO secrets (tenant_id) VALUES (1)")
})

var globalDB *sql.DB

//agent:operable grant=Notes
func (s *Server) OnceValueGlobal(ctx context.Context) int {
	_ = now()
	return limits()["pro"]
}

//agent:operable grant=Notes
func (s *Server) OnceFuncWrites(ctx context.Context) {
	warm() // want `OnceFuncWrites writes "secrets"`
	local := sync.OnceFunc(func() {
		s.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, 2) // want `OnceFuncWrites writes "secrets"`
	})
	local()
}

// Gin handlers call the framework's ResponseWriter interface; it is benign.
//
//agent:operable grant=Notes
func (s *Server) GinHandler(c *gin.Context) {
	c.Writer.WriteString("ok")
	_ = c.Writer.Status() + c.Writer.Size()
	c.JSON(http.StatusOK, nil)
}

// Interface values whose concrete values the analysis can see are
// resolved: a conversion here, in a helper of the package, or a value the
// standard library made.
type secretStore struct{ s *Server }

func (ss *secretStore) Save(ctx context.Context, note string) error {
	_, err := ss.s.db.ExecContext(ctx, "INSERT INTO secrets (tenant_id, body) VALUES ($1, $2)", 1, note)
	return err
}

type noteStore struct{ s *Server }

func (ns noteStore) Save(ctx context.Context, note string) error {
	_, err := ns.s.db.ExecContext(ctx, "INSERT INTO notes (tenant_id, body) VALUES ($1, $2)", 1, note)
	return err
}

func (s *Server) pick(secret bool) Store {
	if secret {
		return &secretStore{s: s}
	}
	return noteStore{s: s}
}

//agent:operable grant=Notes
func (s *Server) LocalConversion(ctx context.Context) error {
	var st Store = noteStore{s: s}
	return st.Save(ctx, "x")
}

//agent:operable grant=Notes
func (s *Server) ThroughHelperConversion(ctx context.Context, secret bool) error {
	return s.pick(secret).Save(ctx, "x") // want `ThroughHelperConversion writes "secrets"`
}

type logged struct{ next http.Handler }

func (l logged) ServeHTTP(w http.ResponseWriter, r *http.Request) { l.next.ServeHTTP(w, r) }

func wrap(h http.Handler) http.Handler { return logged{next: h} }

func (s *Server) inner(w http.ResponseWriter, r *http.Request) {
	s.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, 2)
}

func (s *Server) innerOK(w http.ResponseWriter, r *http.Request) {
	io.WriteString(w, "ok")
}

//agent:operable grant=Notes
func (s *Server) Middleware(w http.ResponseWriter, r *http.Request) {
	wrap(http.HandlerFunc(s.innerOK)).ServeHTTP(w, r)
	wrap(http.HandlerFunc(s.inner)).ServeHTTP(w, r) // want `Middleware writes "secrets"`
	http.FileServer(http.Dir("static")).ServeHTTP(w, r)
}

// chunks is a generic iterator: its instance's body is the generic one.
func chunks[T any](xs []T, n int) func(yield func([]T) bool) {
	return func(yield func([]T) bool) {
		for len(xs) > 0 {
			k := min(n, len(xs))
			if !yield(xs[:k]) {
				return
			}
			xs = xs[k:]
		}
	}
}

//agent:operable grant=Notes
func (s *Server) RangeGeneric(ctx context.Context, ids []string) {
	for chunk := range chunks(ids, 100) {
		s.db.Exec("INSERT INTO secrets (tenant_id, v) VALUES (1, $1)", chunk[0]) // want `RangeGeneric writes "secrets"`
	}
}

// Clean twin: the loop body only reads.
//
//agent:operable grant=Notes
func (s *Server) RangeGenericClean(ctx context.Context, ids []string) int {
	n := 0
	for chunk := range chunks(ids, 100) {
		n += len(chunk)
	}
	return n
}
