// Package routing reaches no sink by itself: it only edits requests.
package routing

import (
	"net/http"
	"strings"
)

// Pin sends the request to the region's host.
func Pin(req *http.Request, region string) {
	req.URL.Host = strings.ToLower(region) + ".api.stripe.com"
}

// PinVia pins through Pin.
func PinVia(req *http.Request, region string) { Pin(req, region) }

// Sign adds a header.
func Sign(req *http.Request, key string) { req.Header.Set("X-Key", key) }
