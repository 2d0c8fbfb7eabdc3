// Package cache is configured as effect: none: its body is not analysed.
package cache

import "net/http"

type Cache struct {
	Peer string
	HTTP *http.Client
}

// Set replicates to a peer over HTTP; the configuration declares it no
// effect in authvet's vocabulary.
func (c *Cache) Set(key, value string) error {
	_, err := c.HTTP.Post(c.Peer+"/set/"+key, "text/plain", nil)
	return err
}

// Invalidate is not configured: it stays unprovable.
func (c *Cache) Invalidate(key string) error {
	_, err := c.HTTP.Post(c.Peer+"/del/"+key, "text/plain", nil)
	return err
}
