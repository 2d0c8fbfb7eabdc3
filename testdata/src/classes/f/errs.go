package f

import (
	"database/sql"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net/http"

	"classes/f/auditerr"
	"classes/f/auditerr/wrap"
)

// --- F31: an error whose Error method writes (another package's type,
// returned as a plain error). Printing it, logging it, wrapping it or
// joining it runs the write. Error values are followed only where such a
// type is in reach; the twins print ordinary errors of the same package.

//agent:operable grant=Refunds
func ErrorPrinted(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	err := auditerr.Deny(db, "denied")
	http.Error(w, err.Error(), http.StatusForbidden) // want `ErrorPrinted writes "audit"`
}

//agent:operable grant=Refunds
func ErrorPrintedTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	err := auditerr.Fail("denied")
	http.Error(w, err.Error(), http.StatusForbidden)
}

//agent:operable grant=Refunds
func ErrorLogged(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	log.Println(auditerr.Deny(db, "denied")) // want `ErrorLogged writes "audit"`
}

//agent:operable grant=Refunds
func ErrorLoggedTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	err := auditerr.Fail("denied")
	log.Println(err)
	slog.Error("denied", "err", err)
}

//agent:operable grant=Refunds
func ErrorSlogged(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	slog.Error("denied", "err", auditerr.Deny(db, "denied")) // want `ErrorSlogged writes "audit"`
}

//agent:operable grant=Refunds
func ErrorWrapped(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	err := fmt.Errorf("handler: %w", auditerr.Deny(db, "denied")) // want `ErrorWrapped writes "audit"`
	w.Write([]byte(err.Error()))
}

//agent:operable grant=Refunds
func ErrorJoined(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	err := errors.Join(errors.New("first"), auditerr.Deny(db, "denied")) // want `ErrorJoined writes "audit"`
	w.Write([]byte(err.Error()))
}

//agent:operable grant=Refunds
func ErrorJoinedTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	err := errors.Join(errors.New("first"), auditerr.Fail("denied"))
	w.Write([]byte(fmt.Errorf("handler: %w", err).Error()))
}

// Through a package that passes the error on, or wraps it.

//agent:operable grant=Refunds
func ErrorPassedOn(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	if err := wrap.Check(db); err != nil {
		log.Printf("check: %v", err) // want `ErrorPassedOn writes "audit"`
	}
}

//agent:operable grant=Refunds
func ErrorWrappedOn(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	if err := wrap.CheckWrapped(db); err != nil { // want `ErrorWrappedOn writes "audit"`
		log.Printf("check: %v", err)
	}
}

//agent:operable grant=Refunds
func ErrorPassedOnTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	if err := wrap.CheckPlain(); err != nil {
		log.Printf("check: %v", err)
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// Through a helper of this package that returns what auditerr returned.

func denied(db *sql.DB) error { return auditerr.Deny(db, "denied") }

func failed() error { return auditerr.Fail("failed") }

//agent:operable grant=Refunds
func ErrorViaHelper(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	err := errors.Join(errors.New("first"), denied(db)) // want `ErrorViaHelper writes "audit"`
	slog.Error("denied", "err", err.Error())
}

//agent:operable grant=Refunds
func ErrorViaHelperTwin(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	err := errors.Join(errors.New("first"), failed())
	slog.Error("failed", "err", err.Error())
}
