// Package clean is a corpus of ordinary, conforming agent-operable
// handlers: every one of them stays inside its grant, so the analyzer
// must report nothing here. A diagnostic on this package is a false
// positive.
package clean

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io"
	"iter"
	"log"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"
	"unicode"

	"github.com/authvet/authvet/grant"
)

// Reader is read-only authority: no writes, tenant-scoped queries only.
var Reader = grant.Grant{
	TenantScope:   grant.Scoped,
	Reversibility: grant.Reversible,
}

// Writer may write orders and their notes, bounded, within one tenant.
var Writer = grant.Grant{
	Writes:        []string{"orders", "order_notes", "audit_log"},
	TenantScope:   grant.Scoped,
	Reversibility: grant.Reversible,
}

// Refunder may draft refunds and call Stripe's refunds API.
var Refunder = grant.Grant{
	Writes:        []string{"refunds"},
	TenantScope:   grant.Scoped,
	Outbound:      []string{"https://api.stripe.com/v1/refunds"},
	Rate:          "10/min",
	Spend:         "500.00 USD",
	Reversibility: grant.Compensable,
}

type Server struct {
	db     *sql.DB
	logger *slog.Logger
}

// stripeClient is built where the analysis sees its Transport (the
// default one), so the URLs its requests go to are proved.
var stripeClient = &http.Client{Timeout: 10 * time.Second}

type Order struct {
	ID       int64     `json:"id"`
	TenantID int64     `json:"tenant_id"`
	Total    int64     `json:"total"`
	Note     string    `json:"note,omitempty"`
	Created  time.Time `json:"created"`
}

var (
	pageTmpl = htmltemplate.Must(htmltemplate.New("page").Parse(`<h1>{{.Title}}</h1>`))
	textTmpl = texttemplate.Must(texttemplate.New("txt").Parse("order {{.ID}}: {{.Total}}\n"))

	errNotFound = errors.New("not found")
)

func tenantOf(r *http.Request) int64 {
	t, _ := strconv.ParseInt(r.Header.Get("X-Tenant"), 10, 64)
	return t
}

// 1. JSON response of a tenant-scoped read ($N placeholders).
//
//agent:operable grant=Reader
func (s *Server) GetOrder(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	var o Order
	err = s.db.QueryRowContext(r.Context(),
		"SELECT id, tenant_id, total FROM orders WHERE tenant_id = $1 AND id = $2",
		tenantOf(r), id).Scan(&o.ID, &o.TenantID, &o.Total)
	if errors.Is(err, sql.ErrNoRows) {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	json.NewEncoder(w).Encode(o)
}

// 2. List with `?` placeholders, deferred rows.Close, url query params.
//
//agent:operable grant=Reader
func (s *Server) ListOrders(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 100 {
		limit = 50
	}
	rows, err := s.db.QueryContext(r.Context(),
		"SELECT id, total FROM orders WHERE tenant_id = ? ORDER BY id LIMIT ?", tenantOf(r), limit)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer rows.Close()
	var out []Order
	for rows.Next() {
		var o Order
		if err := rows.Scan(&o.ID, &o.Total); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Total > out[j].Total })
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// 3. Named parameter form :tenant_id, html/template execution.
//
//agent:operable grant=Reader
func (s *Server) OrderPage(w http.ResponseWriter, r *http.Request) {
	var title string
	s.db.QueryRowContext(r.Context(),
		"SELECT title FROM orders WHERE tenant_id = :tenant_id AND id = :id",
		sql.Named("tenant_id", tenantOf(r)), sql.Named("id", r.PathValue("id"))).Scan(&title)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pageTmpl.Execute(w, map[string]string{"Title": title}); err != nil {
		log.Printf("render: %v", err)
	}
}

// 4. text/template to the ResponseWriter.
//
//agent:operable grant=Reader
func (s *Server) OrderText(w http.ResponseWriter, r *http.Request) {
	o := Order{ID: 1, Total: 200}
	w.Header().Set("Content-Type", "text/plain")
	textTmpl.Execute(w, o)
}

// 5. JSON decode of the request, INSERT into a granted table.
//
//agent:operable grant=Writer
func (s *Server) CreateOrder(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Total int64  `json:"total"`
		Note  string `json:"note"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, "bad json: "+err.Error(), http.StatusBadRequest)
		return
	}
	start := time.Now()
	res, err := s.db.ExecContext(r.Context(),
		"INSERT INTO orders (tenant_id, total, note, created) VALUES ($1, $2, $3, $4)",
		tenantOf(r), in.Total, in.Note, start)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	id, _ := res.LastInsertId()
	slog.Info("order created", "id", id, "took", time.Since(start))
	w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(w, `{"id":%d}`, id)
}

// 6. UPDATE with a tenant predicate into a granted table.
//
//agent:operable grant=Writer
func (s *Server) UpdateNote(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 4096))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	note := strings.TrimSpace(string(body))
	_, err = s.db.ExecContext(r.Context(),
		"UPDATE orders SET note = $3 WHERE tenant_id = $1 AND id = $2",
		tenantOf(r), r.PathValue("id"), note)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// 7. Outbound call under a granted prefix, plus a draft row.
//
//agent:operable grant=Refunder
func (s *Server) DraftRefund(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if _, err := s.db.ExecContext(ctx,
		"INSERT INTO refunds (tenant_id, charge_id, state) VALUES ($1, $2, 'draft')", tenantOf(r), id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.stripe.com/v1/refunds/"+id, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	req.Header.Set("Authorization", "Bearer sk_test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", "application/json")
	io.Copy(w, resp.Body)
}

// 8. Outbound via the server's own client with a POST body.
//
//agent:operable grant=Refunder
func (s *Server) CreateRefund(w http.ResponseWriter, r *http.Request) {
	form := strings.NewReader("charge=" + r.PathValue("charge"))
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, "https://api.stripe.com/v1/refunds", form)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := stripeClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.WriteHeader(resp.StatusCode)
}

// 9. slices.SortFunc and strings.Builder.
//
//agent:operable grant=Reader
func (s *Server) Summary(w http.ResponseWriter, r *http.Request) {
	rows, err := s.db.QueryContext(r.Context(), "SELECT id, total FROM orders WHERE tenant_id = $1", tenantOf(r))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer rows.Close()
	var os []Order
	for rows.Next() {
		var o Order
		rows.Scan(&o.ID, &o.Total)
		os = append(os, o)
	}
	slices.SortFunc(os, func(a, b Order) int {
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	var b strings.Builder
	for _, o := range os {
		b.WriteString(strconv.FormatInt(o.ID, 10))
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(o.Total, 10))
		b.WriteByte('\n')
	}
	io.WriteString(w, b.String())
}

var (
	configOnce sync.Once
	currency   string
)

// 10. sync.Once.Do with a closure.
//
//agent:operable grant=Reader
func (s *Server) Currency(w http.ResponseWriter, r *http.Request) {
	configOnce.Do(func() {
		currency = strings.ToUpper("usd")
	})
	w.Write([]byte(currency))
}

// 11. Range-over-func: strings.SplitSeq.
//
//agent:operable grant=Reader
func (s *Server) Tags(w http.ResponseWriter, r *http.Request) {
	var tags []string
	for tag := range strings.SplitSeq(r.URL.Query().Get("tags"), ",") {
		if t := strings.TrimSpace(tag); t != "" {
			tags = append(tags, t)
		}
	}
	json.NewEncoder(w).Encode(tags)
}

// 12. Range-over-func: maps.Keys and slices.Sorted.
//
//agent:operable grant=Reader
func (s *Server) Headers(w http.ResponseWriter, r *http.Request) {
	var names []string
	for k := range maps.Keys(r.Header) {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range slices.Sorted(maps.Keys(r.URL.Query())) {
		names = append(names, "q:"+k)
	}
	fmt.Fprintln(w, strings.Join(names, ","))
}

// 13. errors.Is / fmt.Errorf wrapping, through a read helper.
//
//agent:operable grant=Reader
func (s *Server) Lookup(w http.ResponseWriter, r *http.Request) {
	o, err := s.findOrder(r.Context(), tenantOf(r), r.PathValue("id"))
	switch {
	case errors.Is(err, errNotFound):
		http.Error(w, "no such order", http.StatusNotFound)
		return
	case err != nil:
		s.logger.Error("lookup", "err", err)
		http.Error(w, "internal", http.StatusInternalServerError)
		return
	}
	json.NewEncoder(w).Encode(o)
}

func (s *Server) findOrder(ctx context.Context, tenant int64, id string) (Order, error) {
	var o Order
	err := s.db.QueryRowContext(ctx, "SELECT id, total FROM orders WHERE tenant_id = $1 AND id = $2", tenant, id).Scan(&o.ID, &o.Total)
	if errors.Is(err, sql.ErrNoRows) {
		return o, fmt.Errorf("order %s: %w", id, errNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("order %s: %w", id, err)
	}
	return o, nil
}

// 14. sync.WaitGroup.Go with a closure doing an allowed write.
//
//agent:operable grant=Writer
func (s *Server) BulkNotes(w http.ResponseWriter, r *http.Request) {
	var in []string
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tenant := tenantOf(r)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed int
	for _, note := range in {
		wg.Go(func() {
			_, err := s.db.ExecContext(r.Context(),
				"INSERT INTO order_notes (tenant_id, body) VALUES ($1, $2)", tenant, note)
			if err != nil {
				mu.Lock()
				failed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	fmt.Fprintf(w, "%d failed\n", failed)
}

// audit is a same-package helper doing an allowed write.
func (s *Server) audit(ctx context.Context, tenant int64, action string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO audit_log (tenant_id, action, at) VALUES ($1, $2, $3)",
		tenant, action, time.Now().UTC())
	return err
}

// 15. Same-package helper doing an allowed write.
//
//agent:operable grant=Writer
func (s *Server) CancelOrder(w http.ResponseWriter, r *http.Request) {
	tenant := tenantOf(r)
	if _, err := s.db.ExecContext(r.Context(),
		"UPDATE orders SET state = 'cancelled' WHERE tenant_id = $1 AND id = $2", tenant, r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if err := s.audit(r.Context(), tenant, "cancel"); err != nil {
		log.Println("audit:", err)
	}
	w.WriteHeader(http.StatusNoContent)
}

// 16. Method value called through a local variable.
//
//agent:operable grant=Writer
func (s *Server) AuditPing(w http.ResponseWriter, r *http.Request) {
	record := s.audit
	if err := record(r.Context(), tenantOf(r), "ping"); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// 17. bufio scanning of the request body and a buffered writer.
//
//agent:operable grant=Reader
func (s *Server) CountLines(w http.ResponseWriter, r *http.Request) {
	sc := bufio.NewScanner(r.Body)
	n := 0
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			n++
		}
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintf(bw, "lines=%d\n", n)
}

// 18. crypto/sha256 hashing and hex encoding.
//
//agent:operable grant=Reader
func (s *Server) Checksum(w http.ResponseWriter, r *http.Request) {
	h := sha256.New()
	if _, err := io.Copy(h, r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	sum := sha256.Sum256([]byte(r.PathValue("id")))
	w.Header().Set("ETag", hex.EncodeToString(sum[:8]))
	io.WriteString(w, hex.EncodeToString(h.Sum(nil)))
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// 19. uuid-like random ID via crypto/rand, inserted into a granted table.
//
//agent:operable grant=Writer
func (s *Server) AddNote(w http.ResponseWriter, r *http.Request) {
	id := newID()
	_, err := s.db.ExecContext(r.Context(),
		"INSERT INTO order_notes (id, tenant_id, order_id, body) VALUES ($1, $2, $3, $4)",
		id, tenantOf(r), r.PathValue("id"), r.FormValue("body"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Location", "/notes/"+id)
	w.WriteHeader(http.StatusCreated)
}

// 20. A plain, non-HTTP function handler.
//
//agent:operable grant=Reader
func Quote(ctx context.Context, db *sql.DB, id int64) (string, error) {
	var total int64
	var tenant int64 = 1
	if err := db.QueryRowContext(ctx, "SELECT total FROM orders WHERE tenant_id = $1 AND id = $2", tenant, id).Scan(&total); err != nil {
		return "", fmt.Errorf("quote %d: %w", id, err)
	}
	return fmt.Sprintf("%d.%02d USD", total/100, total%100), nil
}

// render writes through a plain io.Writer.
func render(out io.Writer, os []Order) error {
	for _, o := range os {
		if _, err := fmt.Fprintf(out, "%d\t%d\n", o.ID, o.Total); err != nil {
			return err
		}
	}
	return nil
}

// 21. A handler writing via an io.Writer helper.
//
//agent:operable grant=Reader
func (s *Server) Export(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/tab-separated-values")
	if err := render(w, []Order{{ID: 1, Total: 2}}); err != nil {
		log.Printf("export: %v", err)
	}
}

// 22. slog with a logger value, durations, time formatting.
//
//agent:operable grant=Reader
func (s *Server) Health(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	err := s.db.PingContext(ctx)
	elapsed := time.Since(start)
	s.logger.InfoContext(ctx, "health", slog.Duration("elapsed", elapsed), slog.Bool("ok", err == nil))
	if err != nil {
		http.Error(w, "db down", http.StatusServiceUnavailable)
		return
	}
	fmt.Fprintf(w, "ok %s at %s\n", elapsed.Round(time.Millisecond), start.Format(time.RFC3339))
}

// 23. Transaction: tenant-scoped read then bounded writes, rollback deferred.
//
//agent:operable grant=Writer
func (s *Server) MoveNote(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tenant := tenantOf(r)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer tx.Rollback()
	var body string
	if err := tx.QueryRowContext(ctx, "SELECT body FROM order_notes WHERE tenant_id = $1 AND id = $2", tenant, r.PathValue("id")).Scan(&body); err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM order_notes WHERE tenant_id = $1 AND id = $2", tenant, r.PathValue("id")); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO order_notes (tenant_id, order_id, body) VALUES ($1, $2, $3)", tenant, r.PathValue("to"), body); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if err := tx.Commit(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// 24. bytes.Buffer + json.Marshal + a closure called directly.
//
//agent:operable grant=Reader
func (s *Server) Preview(w http.ResponseWriter, r *http.Request) {
	format := func(o Order) string {
		return "#" + strconv.FormatInt(o.ID, 10) + " " + strconv.Quote(o.Note)
	}
	var buf bytes.Buffer
	buf.WriteString(format(Order{ID: 7, Note: r.URL.Query().Get("note")}))
	data, err := json.Marshal(map[string]string{"preview": buf.String()})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Write(data)
}

// 25. Deferred closure and a method value passed to a helper.
//
//agent:operable grant=Writer
func (s *Server) Touch(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() {
		log.Printf("touch took %v", time.Since(start))
	}()
	tenant := tenantOf(r)
	id := r.PathValue("id")
	_, err := s.db.ExecContext(r.Context(), `UPDATE orders SET updated_at = now() WHERE tenant_id = $1 AND id = $2`, tenant, id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// 26. Outbound via fmt.Sprintf with a constant format under the granted prefix.
//
//agent:operable grant=Refunder
func (s *Server) RefundStatus(w http.ResponseWriter, r *http.Request) {
	url := fmt.Sprintf("https://api.stripe.com/v1/refunds/%s", r.PathValue("id"))
	req, err := http.NewRequestWithContext(r.Context(), "GET", url, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := stripeClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	var out struct {
		Status string `json:"status"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	json.NewEncoder(w).Encode(out)
}

// orders is a same-package iterator over a tenant's orders.
func (s *Server) orders(ctx context.Context, tenant int64) iter.Seq2[Order, error] {
	return func(yield func(Order, error) bool) {
		rows, err := s.db.QueryContext(ctx, "SELECT id, total FROM orders WHERE tenant_id = $1 ORDER BY id", tenant)
		if err != nil {
			yield(Order{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var o Order
			if err := rows.Scan(&o.ID, &o.Total); err != nil {
				yield(Order{}, err)
				return
			}
			if !yield(o, nil) {
				return
			}
		}
	}
}

// 27. Range-over-func over a same-package iterator, with a bounded write
// in the loop body.
//
//agent:operable grant=Writer
func (s *Server) FlagLarge(w http.ResponseWriter, r *http.Request) {
	tenant := tenantOf(r)
	n := 0
	for o, err := range s.orders(r.Context(), tenant) {
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if o.Total > 100000 {
			s.db.ExecContext(r.Context(), "UPDATE orders SET flagged = true WHERE tenant_id = $1 AND id = $2", tenant, o.ID)
			n++
		}
	}
	fmt.Fprintf(w, "flagged %d\n", n)
}

// 28. Standard-library function values: strings.Map, slices.IndexFunc,
// strings.FieldsFunc, errors.As.
//
//agent:operable grant=Reader
func (s *Server) Normalize(w http.ResponseWriter, r *http.Request) {
	q := strings.Map(unicode.ToLower, r.URL.Query().Get("q"))
	parts := strings.FieldsFunc(q, func(c rune) bool { return c == ',' || unicode.IsSpace(c) })
	i := slices.IndexFunc(parts, func(p string) bool { return strings.HasPrefix(p, "#") })
	var ne *strconv.NumError
	if _, err := strconv.Atoi(r.URL.Query().Get("n")); errors.As(err, &ne) {
		http.Error(w, ne.Func+": "+ne.Num, http.StatusBadRequest)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"parts": parts, "tag": i})
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// 29. sync.Pool, json.Unmarshal, http.MaxBytesReader, a JSON slog logger
// writing to the response.
//
//agent:operable grant=Reader
func (s *Server) Echo(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if _, err := buf.ReadFrom(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	logger := slog.New(slog.NewJSONHandler(w, nil))
	logger.Info("echo", "keys", len(v))
}

// 30. A closure stored in a local and called on two paths.
//
//agent:operable grant=Writer
func (s *Server) Reopen(w http.ResponseWriter, r *http.Request) {
	tenant := tenantOf(r)
	fail := func(code int, err error) {
		s.logger.Warn("reopen", "err", err)
		http.Error(w, http.StatusText(code), code)
	}
	res, err := s.db.ExecContext(r.Context(), "UPDATE orders SET state = 'open' WHERE tenant_id = ? AND id = ?", tenant, r.PathValue("id"))
	if err != nil {
		fail(http.StatusInternalServerError, err)
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		fail(http.StatusNotFound, errNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
