// Package recursion holds shapes that once sent the engine into
// unbounded recursion: a closure calling itself through a captured
// variable, and a captured request reassigned with WithContext.
package recursion

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/authvet/authvet/grant"
)

var G = grant.Grant{Writes: []string{"nodes"}, Outbound: []string{"https://api.example.com/"}, Reversibility: grant.Compensable}

func Walk(n int) int {
	var rec func(int) int
	rec = func(k int) int {
		if k <= 0 {
			return 0
		}
		return rec(k-1) + 1
	}
	return rec(n)
}

//agent:operable grant=G
func Tree(db *sql.DB, n int) {
	var visit func(int)
	visit = func(k int) {
		if k == 0 {
			db.Exec("DELETE FROM edges WHERE tenant_id = $1 AND id = $2", 1, k)
			return
		}
		db.Exec("UPDATE nodes SET seen = true WHERE tenant_id = $1 AND id = $2", 1, k)
		visit(k - 1)
	}
	visit(n) // want `Tree writes "edges"`
	Walk(n)
}

func send(req *http.Request) (*http.Response, error) {
	f := func() { _ = req.Host } // the capture puts req in a heap cell
	req = req.WithContext(context.Background())
	f()
	return http.DefaultTransport.RoundTrip(req)
}

//agent:operable grant=G
func Send(ctx context.Context) error {
	req, _ := http.NewRequest("GET", "https://api.example.com/x", nil)
	_, err := send(req) // want `Send calls out to a URL that is not constant`
	return err
}

// loop reassigns a captured string in a loop.
func loop(db *sql.DB, parts []string) {
	q := "SELECT 1"
	g := func() { _ = q }
	for _, p := range parts {
		q = q + p
	}
	g()
	db.Exec(q)
}

//agent:operable grant=G
func Loop(db *sql.DB) { loop(db, nil) } // want `Loop runs SQL`

// ringA, ringB and ringC call one another and only ringA writes. ringA
// is summarised first, so ringC and ringB read it while it is still in
// progress: the write reaches them when they are computed again.
func ringA(db *sql.DB, n int) {
	db.Exec("DELETE FROM edges WHERE tenant_id = $1 AND id = $2", 1, n)
	if n > 0 {
		ringB(db, n-1)
	}
}

func ringB(db *sql.DB, n int) {
	if n > 0 {
		ringC(db, n-1)
	}
}

func ringC(db *sql.DB, n int) {
	if n > 0 {
		ringA(db, n-1)
	}
}

//agent:operable grant=G
func RingFromC(db *sql.DB) {
	ringC(db, 5) // want `RingFromC writes "edges"`
}

//agent:operable grant=G
func RingFromB(db *sql.DB) {
	ringB(db, 5) // want `RingFromB writes "edges"`
}

// The clean twin: the same ring writes only what the grant allows.
func ringNodesA(db *sql.DB, n int) {
	db.Exec("UPDATE nodes SET seen = true WHERE tenant_id = $1 AND id = $2", 1, n)
	if n > 0 {
		ringNodesB(db, n-1)
	}
}

func ringNodesB(db *sql.DB, n int) {
	if n > 0 {
		ringNodesC(db, n-1)
	}
}

func ringNodesC(db *sql.DB, n int) {
	if n > 0 {
		ringNodesA(db, n-1)
	}
}

//agent:operable grant=G
func RingNodes(db *sql.DB) {
	ringNodesC(db, 5)
}
