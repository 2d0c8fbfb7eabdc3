// Package web serves the same handlers over HTTP with chi, gin and echo,
// under group prefixes.
package web

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/go-chi/chi/v5"
	"github.com/labstack/echo/v4"

	"github.com/authvet/authvet/grant"
)

var Viewer = grant.Grant{Reversibility: grant.Reversible}

// Health is served by chi under /api/v1.
//
//agent:operable grant=Viewer
func Health(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }

// Ping is served by gin under /api.
//
//agent:operable grant=Viewer
func Ping(c *gin.Context) { c.String(http.StatusOK, "pong") }

// Version is served by echo under /admin/meta.
//
//agent:operable grant=Viewer
func Version(c echo.Context) error { return c.String(http.StatusOK, "v1") }

// Routes registers every router.
func Routes() {
	r := chi.NewRouter()
	r.Route("/api", func(r chi.Router) {
		r.Route("/v1", func(r chi.Router) {
			r.Get("/health", Health)
		})
	})

	g := gin.New()
	api := g.Group("/api")
	api.GET("/ping", Ping)

	e := echo.New()
	admin := e.Group("/admin")
	meta := admin.Group("/meta")
	meta.GET("/version", Version)
}
