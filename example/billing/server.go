// Package billing serves the shop's refund API to the support agent.
package billing

import (
	"database/sql"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"example.com/shop/store"
)

// Server holds the billing handlers' dependencies.
type Server struct {
	db     *sql.DB
	client *http.Client
	store  *store.Store
	apiKey string
}

// NewServer returns a Server over db that calls Stripe with client.
func NewServer(db *sql.DB, client *http.Client, apiKey string) *Server {
	return &Server{db: db, client: client, store: store.New(db), apiKey: apiKey}
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
