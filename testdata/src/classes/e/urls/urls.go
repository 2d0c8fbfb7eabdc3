// Package urls has helpers another team wrote that take a request's URL:
// one pins it to a region's host, one only reads it.
package urls

import (
	"log"
	"net/url"
)

// Pin sends the URL to the region's host.
func Pin(u *url.URL, region string) { u.Host = region + ".gateway.example" }

// Describe logs the URL.
func Describe(u *url.URL) { log.Println(u.String()) }
