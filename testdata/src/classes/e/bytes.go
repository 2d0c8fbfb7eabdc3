package e

import (
	"net/http"
)

// --- E40: text converted to bytes and written in place before it is
// converted back: copy into a subslice, an indexed store, a helper
// handed the bytes. The string is not the constant it was made from.
// The twin only converts and measures.

const insertOrder = "INSERT INTO orders (id, tenant_id) VALUES ($1, $2)"

//agent:operable grant=Refunds
func (s *Server) BytesCopied(w http.ResponseWriter, r *http.Request) {
	q := []byte(insertOrder)
	copy(q[12:], "refund")
	s.db.Exec(string(q), 1, "t") // want `BytesCopied runs SQL text that is not constant`
}

//agent:operable grant=Refunds
func (s *Server) BytesIndexed(w http.ResponseWriter, r *http.Request) {
	u := []byte("https://api.stripe.com/v1/refunds")
	u[8], u[9] = 'e', 'v'
	plain.Get(string(u)) // want `BytesIndexed calls out to a URL that is not constant`
}

//agent:operable grant=Refunds
func (s *Server) BytesHelper(w http.ResponseWriter, r *http.Request) {
	q := []byte(insertOrder)
	retable(q)
	s.db.Exec(string(q), 1, "t") // want `BytesHelper runs SQL text that is not constant`
}

func retable(b []byte) { copy(b[12:], "refund") }

//agent:operable grant=Refunds
func (s *Server) BytesTwin(w http.ResponseWriter, r *http.Request) {
	q := []byte(insertOrder)
	if len(q) > 0 {
		s.db.Exec(string(q), 1, "t")
	}
	plain.Get(string([]byte("https://api.stripe.com/v1/refunds")))
}

// --- E41: an element of a local array or slice literal, chosen at run
// time: every value stored to an element. Twins: every element allowed.

//agent:operable grant=Refunds
func (s *Server) ArrayOneOutside(w http.ResponseWriter, r *http.Request) {
	urls := [2]string{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/payouts"}
	plain.Get(urls[len(r.URL.Path)%2]) // want `ArrayOneOutside calls out to "https://api.stripe.com/v1/payouts"`
}

//agent:operable grant=Refunds
func (s *Server) ArrayRewritten(w http.ResponseWriter, r *http.Request) {
	urls := []string{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refunds/x"}
	urls[1] = r.FormValue("next")
	plain.Get(urls[len(r.URL.Path)%2]) // want `ArrayRewritten calls out to a URL that is not constant`
}

//agent:operable grant=Refunds
func (s *Server) ArrayHandedOn(w http.ResponseWriter, r *http.Request) {
	urls := []string{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refunds/x"}
	shuffle(urls, r.FormValue("next"))
	plain.Get(urls[len(r.URL.Path)%2]) // want `ArrayHandedOn calls out to a URL that is not constant`
}

func shuffle(urls []string, next string) { urls[0] = next }

//agent:operable grant=Refunds
func (s *Server) ArrayTwin(w http.ResponseWriter, r *http.Request) {
	urls := [2]string{"https://api.stripe.com/v1/refunds", "https://api.stripe.com/v1/refunds/batch"}
	plain.Get(urls[len(r.URL.Path)%2])
	more := []string{"https://api.stripe.com/v1/refunds/a", "https://api.stripe.com/v1/refunds/b"}
	if len(more) > 1 {
		plain.Get(more[len(r.URL.Path)%len(more)])
	}
}
