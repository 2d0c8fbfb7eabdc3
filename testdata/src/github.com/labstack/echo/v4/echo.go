// Package echo is a stub of github.com/labstack/echo/v4 for fixtures.
package echo

import "net/http"

type Context interface {
	Request() *http.Request
	Param(name string) string
	JSON(code int, i any) error
	String(code int, s string) error
}
