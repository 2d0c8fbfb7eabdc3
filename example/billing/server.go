// Package billing serves the shop's refund API to the support agent.
package billing

import (
	"database/sql"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"example.com/shop/store"
)

// Server holds the billing handlers' dependencies.
type Server struct {
	db     *sql.DB
	store  *store.Store
	apiKey string
}

// stripeHTTP is the client the handlers call Stripe with. It is built
// here, with the default transport, so authvet sees where its requests
// go; a client handed in from main could carry any transport.
var stripeHTTP = &http.Client{Timeout: 15 * time.Second}

// NewServer returns a Server over db.
func NewServer(db *sql.DB, apiKey string) *Server {
	return &Server{db: db, store: store.New(db), apiKey: apiKey}
}

// tenant is the caller's tenant, set by the auth middleware.
func tenant(r *http.Request) int64 {
	t, _ := strconv.ParseInt(r.Header.Get("X-Tenant-ID"), 10, 64)
	return t
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Warn("encode response", "err", err)
	}
}
