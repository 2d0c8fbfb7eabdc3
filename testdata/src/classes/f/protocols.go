package f

import (
	"context"
	"database/sql"
	"encoding/gob"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"iter"
	"log"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// --- F32: methods the standard library finds on a value by a type
// assertion, beyond the interface it was handed as (io.Copy asking for
// WriterTo and ReaderFrom, io.WriteString for StringWriter, errors.Is
// for Is), and protocol methods of encoding/xml, encoding/gob, a JSON
// map's keys and a panic's value. Each writes "audit"; each twin's type
// has the same methods and does nothing.

type auditDoc struct{ db *sql.DB }

func (d auditDoc) audit()                             { d.db.Exec("INSERT INTO audit (line) VALUES ($1)", "x") }
func (d auditDoc) MarshalJSON() ([]byte, error)       { d.audit(); return []byte(`{}`), nil }
func (d auditDoc) MarshalText() ([]byte, error)       { d.audit(); return []byte("k"), nil }
func (d auditDoc) GobEncode() ([]byte, error)         { d.audit(); return nil, nil }
func (d auditDoc) Read(p []byte) (int, error)         { return 0, io.EOF }
func (d auditDoc) WriteTo(w io.Writer) (int64, error) { d.audit(); return 0, nil }
func (d auditDoc) Write(p []byte) (int, error)        { return len(p), nil }
func (d auditDoc) ReadFrom(r io.Reader) (int64, error) {
	d.audit()
	return 0, nil
}
func (d auditDoc) WriteString(s string) (int, error) { d.audit(); return len(s), nil }
func (d auditDoc) MarshalXML(e *xml.Encoder, st xml.StartElement) error {
	d.audit()
	return e.EncodeElement("v", st)
}
func (d auditDoc) Error() string        { return "denied" }
func (d auditDoc) Is(target error) bool { d.audit(); return false }

type quietDoc struct{ n int }

func (d quietDoc) MarshalJSON() ([]byte, error)       { return []byte(`{}`), nil }
func (d quietDoc) MarshalText() ([]byte, error)       { return []byte("k"), nil }
func (d quietDoc) GobEncode() ([]byte, error)         { return nil, nil }
func (d quietDoc) Read(p []byte) (int, error)         { return 0, io.EOF }
func (d quietDoc) WriteTo(w io.Writer) (int64, error) { return 0, nil }
func (d quietDoc) Write(p []byte) (int, error)        { return len(p), nil }
func (d quietDoc) ReadFrom(r io.Reader) (int64, error) {
	return 0, nil
}
func (d quietDoc) WriteString(s string) (int, error) { return len(s), nil }
func (d quietDoc) MarshalXML(e *xml.Encoder, st xml.StartElement) error {
	return e.EncodeElement("v", st)
}
func (d quietDoc) Error() string        { return "denied" }
func (d quietDoc) Is(target error) bool { return false }

// Types with one protocol method each, so each encoder is tried alone.
type xmlOnly struct{ db *sql.DB }

func (d xmlOnly) MarshalXML(e *xml.Encoder, st xml.StartElement) error {
	d.db.Exec("INSERT INTO audit (line) VALUES ($1)", "xml")
	return e.EncodeElement("v", st)
}

type gobOnly struct{ db *sql.DB }

func (d gobOnly) GobEncode() ([]byte, error) {
	d.db.Exec("INSERT INTO audit (line) VALUES ($1)", "gob")
	return nil, nil
}

var errDenied = errors.New("denied")

// writeJSON is the reply helper most services have: v is any.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

//agent:operable grant=Refunds
func JSONViaHelper(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, auditDoc{db: db}) // want `JSONViaHelper writes "audit"`
}

//agent:operable grant=Refunds
func JSONViaHelperTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, quietDoc{})
}

//agent:operable grant=Refunds
func CopyWriterTo(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	io.Copy(w, auditDoc{db: db}) // want `CopyWriterTo writes "audit"`
}

//agent:operable grant=Refunds
func CopyReaderFrom(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	io.Copy(auditDoc{db: db}, strings.NewReader("x")) // want `CopyReaderFrom writes "audit"`
}

//agent:operable grant=Refunds
func CopyTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	io.Copy(w, quietDoc{})
	io.Copy(quietDoc{}, strings.NewReader("x"))
	io.WriteString(quietDoc{}, "x")
}

//agent:operable grant=Refunds
func WriteStringMethod(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	io.WriteString(auditDoc{db: db}, "x") // want `WriteStringMethod writes "audit"`
}

//agent:operable grant=Refunds
func ErrorsIs(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	if errors.Is(auditDoc{db: db}, errDenied) { // want `ErrorsIs writes "audit"`
		w.WriteHeader(http.StatusForbidden)
	}
}

//agent:operable grant=Refunds
func ErrorsIsTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	if errors.Is(quietDoc{}, errDenied) {
		w.WriteHeader(http.StatusForbidden)
	}
}

//agent:operable grant=Refunds
func XMLMarshal(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	b, _ := xml.Marshal(xmlOnly{db: db}) // want `XMLMarshal writes "audit"`
	w.Write(b)
}

//agent:operable grant=Refunds
func GobEncode(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	gob.NewEncoder(w).Encode(gobOnly{db: db}) // want `GobEncode writes "audit"`
}

//agent:operable grant=Refunds
func EncodersTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	b, _ := xml.Marshal(quietDoc{})
	w.Write(b)
	gob.NewEncoder(w).Encode(quietDoc{})
	b, _ = json.Marshal(map[quietDoc]int{{}: 1})
	w.Write(b)
}

//agent:operable grant=Refunds
func JSONMapKey(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	b, _ := json.Marshal(map[auditDoc]int{{db: db}: 1}) // want `JSONMapKey writes "audit"`
	w.Write(b)
}

//agent:operable grant=Refunds
func PanicValue(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	defer func() {
		if rec := recover(); rec != nil {
			log.Printf("recovered: %v", rec)
		}
	}()
	panic(auditDoc{db: db}) // want `PanicValue writes "audit"`
}

//agent:operable grant=Refunds
func PanicValueTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	defer func() {
		if rec := recover(); rec != nil {
			log.Printf("recovered: %v", rec)
		}
	}()
	panic(quietDoc{})
}

// --- F33: http.Post reads its body while it sends.

//agent:operable grant=Refunds
func PostBody(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	http.Post(stripe, "text/plain", auditDoc{db: db}) // want `PostBody writes "audit"`
}

//agent:operable grant=Refunds
func PostBodyTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	http.Post(stripe, "text/plain", strings.NewReader("x"))
}

// --- F34: an error a helper of this package returns on one branch and
// nil on the other (validation code), printed by the handler.

type loudErr struct{ db *sql.DB }

func (e loudErr) Error() string {
	e.db.Exec("INSERT INTO audit (line) VALUES ($1)", "invalid")
	return "invalid"
}

func validate(db *sql.DB, id string) error {
	if id == "" {
		return loudErr{db: db}
	}
	return nil
}

func validateQuiet(id string) error {
	if id == "" {
		return quietDoc{}
	}
	return nil
}

//agent:operable grant=Refunds
func ValidateLogged(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	if err := validate(db, r.FormValue("id")); err != nil {
		log.Printf("invalid: %v", err) // want `ValidateLogged writes "audit"`
	}
}

//agent:operable grant=Refunds
func ValidateLoggedTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	if err := validateQuiet(r.FormValue("id")); err != nil {
		log.Printf("invalid: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
	}
}

// --- F35 (clean): a closure writes the reply through the handler's own
// ResponseWriter while the package has a wrapper type whose WriteHeader
// only delegates: the closure's w is the handler's.

type statusRW struct {
	http.ResponseWriter
	code int
}

func (s *statusRW) WriteHeader(c int) { s.code = c; s.ResponseWriter.WriteHeader(c) }

var _ http.ResponseWriter = &statusRW{}

//agent:operable grant=Refunds
func ClosureWritesHeader(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	var once sync.Once
	once.Do(func() { w.WriteHeader(http.StatusNoContent) })
	mux := http.NewServeMux()
	mux.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
}

// --- F36: a status-recording wrapper around the handler's own
// ResponseWriter handed to a reply helper: its promoted Write is the
// wrapped writer's (clean); a wrapper of this package whose Write audits
// is not (another type of the package implementing Write with an effect
// must not make the clean one unprovable).

type auditingRW struct {
	http.ResponseWriter
	db *sql.DB
}

func (a *auditingRW) Write(p []byte) (int, error) {
	a.db.Exec("INSERT INTO audit (line) VALUES ($1)", string(p))
	return a.ResponseWriter.Write(p)
}

func render(w http.ResponseWriter, body string) { io.WriteString(w, body) }

//agent:operable grant=Refunds
func RenderStatusRecorded(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	render(&statusRW{ResponseWriter: w}, "hello")
}

//agent:operable grant=Refunds
func RenderAudited(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	render(&auditingRW{ResponseWriter: w, db: db}, "hello") // want `RenderAudited writes "audit"`
}

// --- F37: an iterator of the program handed to the standard library
// (slices.Collect, iter.Pull): the yield it calls is the library's own.
// The twin's iterator only yields; the other's body writes.

func numbers() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range 3 {
			if !yield(i) {
				return
			}
		}
	}
}

func auditedNumbers(db *sql.DB) iter.Seq[int] {
	return func(yield func(int) bool) {
		db.Exec("INSERT INTO audit (line) VALUES ($1)", "listed")
		for i := range 3 {
			if !yield(i) {
				return
			}
		}
	}
}

//agent:operable grant=Refunds
func CollectNumbers(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	_ = slices.Collect(numbers())
	next, stop := iter.Pull(numbers())
	defer stop()
	next()
}

//agent:operable grant=Refunds
func CollectAudited(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	_ = slices.Collect(auditedNumbers(db)) // want `CollectAudited writes "audit"`
}

// --- F38: a table of hooks in an unexported package variable that only
// its declaration fills: each hook counts at the call. One whose element
// another function replaces is out of sight.

var quietHooks = []func(ctx context.Context, db *sql.DB) error{
	func(ctx context.Context, db *sql.DB) error { log.Println("pre"); return nil },
}

var loudHooks = []func(ctx context.Context, db *sql.DB) error{
	func(ctx context.Context, db *sql.DB) error {
		_, err := db.ExecContext(ctx, "INSERT INTO audit (line) VALUES ($1)", "pre")
		return err
	},
}

var swappedHooks = []func(ctx context.Context, db *sql.DB) error{
	func(ctx context.Context, db *sql.DB) error { return nil },
}

// SwapHook replaces the first hook.
func SwapHook(h func(ctx context.Context, db *sql.DB) error) { swappedHooks[0] = h }

//agent:operable grant=Refunds
func QuietHooks(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	for _, h := range quietHooks {
		h(r.Context(), db)
	}
}

//agent:operable grant=Refunds
func LoudHooks(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	for _, h := range loudHooks {
		h(r.Context(), db) // want `LoudHooks writes "audit"`
	}
}

//agent:operable grant=Refunds
func SwappedHooks(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	for _, h := range swappedHooks {
		h(r.Context(), db) // want `SwappedHooks calls a function value the analysis cannot resolve`
	}
}

// --- F39: a map of functions the handler builds, ranged over: each value
// counts at the call.

func quietStep(ctx context.Context, db *sql.DB) error { log.Println("step"); return nil }

func loudStep(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "INSERT INTO audit (line) VALUES ($1)", "step")
	return err
}

//agent:operable grant=Refunds
func RangeSteps(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	steps := map[string]func(context.Context, *sql.DB) error{"a": quietStep, "b": quietStep}
	for _, step := range steps {
		step(r.Context(), db)
	}
}

//agent:operable grant=Refunds
func RangeLoudSteps(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	steps := map[string]func(context.Context, *sql.DB) error{"a": quietStep, "b": loudStep}
	for _, step := range steps {
		step(r.Context(), db) // want `RangeLoudSteps writes "audit"`
	}
}

// --- F32b: a value held in an interface field of a struct built here
// (an envelope, a log record, a slice of rows) is encoded and printed
// like one handed directly.

type envelope struct {
	Kind string
	Data any
}

//agent:operable grant=Refunds
func EnvelopeJSON(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(envelope{Kind: "doc", Data: auditDoc{db: db}}) // want `EnvelopeJSON writes "audit"`
}

//agent:operable grant=Refunds
func EnvelopeJSONTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(envelope{Kind: "doc", Data: quietDoc{}})
}

//agent:operable grant=Refunds
func EnvelopePtrLog(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(&envelope{Data: auditDoc{db: db}}) // want `EnvelopePtrLog writes "audit"`
}

//agent:operable grant=Refunds
func EnvelopePtrLogTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	json.NewEncoder(w).Encode(&envelope{Data: quietDoc{}})
}

//agent:operable grant=Refunds
func EnvelopeRows(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	json.Marshal([]envelope{{Kind: "a", Data: quietDoc{}}, {Kind: "b", Data: auditDoc{db: db}}}) // want `EnvelopeRows writes "audit"`
}

//agent:operable grant=Refunds
func EnvelopeRowsTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	json.Marshal([]envelope{{Kind: "a", Data: quietDoc{}}, {Kind: "b", Data: "text"}})
}

//agent:operable grant=Refunds
func EnvelopeNested(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	inner := envelope{Data: auditDoc{db: db}}
	json.Marshal(envelope{Kind: "outer", Data: inner}) // want `EnvelopeNested writes "audit"`
}

//agent:operable grant=Refunds
func EnvelopeSelf(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	e := &envelope{Kind: "loop"}
	e.Data = e
	log.Printf("%v", e)
}

// --- F37b: the same with the iterator a literal of the handler itself:
// handed to the library, it is walked there with the library's yield,
// not as a handler the function makes.

//agent:operable grant=Refunds
func PullLiteral(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	seq := func(yield func(int) bool) {
		for i := range 3 {
			if !yield(i) {
				return
			}
		}
	}
	next, stop := iter.Pull(iter.Seq[int](seq))
	defer stop()
	next()
	slices.SortFunc([]int{2, 1}, func(a, b int) int { return a - b })
}

//agent:operable grant=Refunds
func PullLiteralAudited(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	seq := func(yield func(int) bool) {
		db.Exec("INSERT INTO audit (line) VALUES ($1)", "pulled")
		for i := range 3 {
			if !yield(i) {
				return
			}
		}
	}
	next, stop := iter.Pull(seq) // want `PullLiteralAudited writes "audit"`
	defer stop()
	next()
}
