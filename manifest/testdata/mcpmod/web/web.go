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

// Notes is served by chi under /admin/notes: a sub-router another
// function makes, mounted with Mount.
//
//agent:operable grant=Viewer
func Notes(w http.ResponseWriter, r *http.Request) { w.Write([]byte("[]")) }

// Status is served by net/http under /internal/status: a mux handed
// to StripPrefix and registered under the prefix.
//
//agent:operable grant=Viewer
func Status(w http.ResponseWriter, r *http.Request) { w.Write([]byte("up")) }

// Stray is served by a sub-router mounted twice: listed at its own path.
//
//agent:operable grant=Viewer
func Stray(w http.ResponseWriter, r *http.Request) { w.Write([]byte("?")) }

func notesRouter() http.Handler {
	r := chi.NewRouter()
	r.Get("/notes", Notes)
	return r
}

// Mounted registers sub-routers under prefixes.
func Mounted() {
	root := chi.NewRouter()
	root.Route("/admin", func(r chi.Router) {
		r.Mount("/", notesRouter())
	})

	inner := http.NewServeMux()
	inner.HandleFunc("GET /status", Status)
	outer := http.NewServeMux()
	outer.Handle("/internal/", http.StripPrefix("/internal", inner))

	twice := chi.NewRouter()
	twice.Get("/stray", Stray)
	root.Mount("/a", twice)
	root.Mount("/b", twice)
}

// Served is mounted once, and served directly too: listed at its own
// path.
//
//agent:operable grant=Viewer
func Served(w http.ResponseWriter, r *http.Request) { w.Write([]byte("!")) }

func serveBoth(root chi.Router) {
	both := chi.NewRouter()
	both.Get("/served", Served)
	root.Mount("/m", both)
	go http.ListenAndServe(":8080", both)
}
