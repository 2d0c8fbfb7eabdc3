// Command shop serves the billing API.
package main

import (
	"database/sql"
	"log"
	"net/http"
	"os"

	"example.com/shop/billing"
)

func main() {
	// A database/sql driver is registered by the deployment's build
	// (e.g. a blank import of a Postgres driver); the example keeps to
	// the standard library.
	db, err := sql.Open(os.Getenv("SHOP_DB_DRIVER"), os.Getenv("SHOP_DB_DSN"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	srv := billing.NewServer(db, os.Getenv("STRIPE_KEY"))

	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/refunds", srv.DraftRefund)
	mux.HandleFunc("GET /api/refunds", srv.ListRefunds)
	mux.HandleFunc("GET /api/refunds/{id}", srv.RefundStatus)
	mux.HandleFunc("POST /api/payouts", srv.DraftPayout)

	addr := ":8080"
	if a := os.Getenv("SHOP_ADDR"); a != "" {
		addr = a
	}
	log.Printf("shop listening on %s", addr)
	log.Fatal(http.ListenAndServe(addr, mux))
}
