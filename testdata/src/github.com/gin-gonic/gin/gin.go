// Package gin is a stub of github.com/gin-gonic/gin for fixtures.
package gin

import "net/http"

type ResponseWriter interface {
	http.ResponseWriter
	Status() int
	Size() int
	WriteString(string) (int, error)
}

type Context struct {
	Writer  ResponseWriter
	Request *http.Request
}

func (c *Context) JSON(code int, obj any) {}
