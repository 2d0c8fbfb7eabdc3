package effects

import (
	"golang.org/x/tools/go/ssa"
)

// net/http outbound requests: URL argument index (receiver counted) and
// the method each sends.
var httpURLArgs = map[string]struct {
	url    int
	method string
}{
	"net/http.Get":             {0, "GET"},
	"net/http.Head":            {0, "HEAD"},
	"net/http.Post":            {0, "POST"},
	"net/http.PostForm":        {0, "POST"},
	"net/http.Client.Get":      {1, "GET"},
	"net/http.Client.Head":     {1, "HEAD"},
	"net/http.Client.Post":     {1, "POST"},
	"net/http.Client.PostForm": {1, "POST"},
}

// Calls that send a *http.Request: the argument index of the request.
var httpDoArgs = map[string]int{
	"net/http.Client.Do":           1,
	"net/http.Transport.RoundTrip": 1,
}

// Calls that make a *http.Request: method and URL argument indexes.
var newRequestArgs = map[string]struct{ method, url int }{
	"net/http.NewRequest":            {0, 1},
	"net/http.NewRequestWithContext": {1, 2},
}

func init() {
	for key, a := range httpURLArgs {
		models[key] = func(e *Engine, c *callSite) {
			text := unknownStr()
			if a.url < len(c.args) {
				text = e.trace(c.args[a.url], c.fr, handleString)
			}
			e.emit(Pending{Op: OpURL, Text: text, Method: litStr(a.method), Pos: e.pos(c.pos), Module: e.Module}, c.out)
		}
	}
	for key, i := range httpDoArgs {
		models[key] = func(e *Engine, c *callSite) { e.sendRequest(c.args[i], c) }
	}
}

// sendRequest reports the request req sent at c.
func (e *Engine) sendRequest(req ssa.Value, c *callSite) {
	e.emit(Pending{
		Op:     OpURL,
		Text:   e.trace(req, c.fr, handleReqURL),
		Method: e.trace(req, c.fr, handleReqMethod),
		Pos:    e.pos(c.pos),
		Module: e.Module,
	}, c.out)
}

// request traces a *http.Request back to the NewRequest call that made
// it, returning its URL or its method.
func (e *Engine) request(v ssa.Value, fr *frame, method bool) Str {
	switch v := v.(type) {
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if a, ok := newRequestArgs[staticKey(call.Call)]; ok {
				i := a.url
				if method {
					i = a.method
				}
				return e.trace(call.Call.Args[i], fr, handleString)
			}
		}
	case *ssa.Call:
		switch staticKey(v.Call) {
		case "net/http.Request.WithContext", "net/http.Request.Clone":
			h := handleReqURL
			if method {
				h = handleReqMethod
			}
			return e.trace(v.Call.Args[0], fr, h)
		}
	}
	return unknownStr()
}
