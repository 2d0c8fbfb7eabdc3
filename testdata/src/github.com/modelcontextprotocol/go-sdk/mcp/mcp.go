// Package mcp is a minimal stub of github.com/modelcontextprotocol/go-sdk/mcp
// (v1.x) for analysistest fixtures: the real names and signatures of the
// server-side tool API, bodies reduced to what a caller can observe.
package mcp

import (
	"context"
	"encoding/json"
)

type Meta map[string]any

func (m Meta) GetMeta() map[string]any   { return m }
func (m *Meta) SetMeta(x map[string]any) { *m = x }

// Params is implemented by request parameter types.
type Params interface {
	GetMeta() map[string]any
	SetMeta(map[string]any)
	isParams()
}

type CallToolParamsRaw struct {
	Meta      `json:"_meta,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

func (*CallToolParamsRaw) isParams() {}

type ServerSession struct{ id string }

type RequestExtra struct{}

type ServerRequest[P Params] struct {
	Session *ServerSession
	Params  P
	Extra   *RequestExtra
}

type CallToolRequest = ServerRequest[*CallToolParamsRaw]

type Content interface {
	MarshalJSON() ([]byte, error)
}

type TextContent struct {
	Text string
	Meta Meta
}

func (c *TextContent) MarshalJSON() ([]byte, error) { return json.Marshal(c.Text) }

type CallToolResult struct {
	Meta              `json:"_meta,omitempty"`
	Content           []Content `json:"content"`
	StructuredContent any       `json:"structuredContent,omitempty"`
	IsError           bool      `json:"isError,omitempty"`
}

type ToolAnnotations struct {
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	Title           string `json:"title,omitempty"`
}

type Tool struct {
	Meta         `json:"_meta,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  any              `json:"inputSchema"`
	Name         string           `json:"name"`
	OutputSchema any              `json:"outputSchema,omitempty"`
	Title        string           `json:"title,omitempty"`
}

type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type ServerOptions struct {
	Instructions string
}

type serverTool struct {
	tool    *Tool
	handler ToolHandler
}

type Server struct {
	impl  *Implementation
	opts  ServerOptions
	tools map[string]*serverTool
}

func NewServer(impl *Implementation, options *ServerOptions) *Server {
	s := &Server{impl: impl, tools: map[string]*serverTool{}}
	if options != nil {
		s.opts = *options
	}
	return s
}

// ToolHandler handles a call to tools/call with raw arguments.
type ToolHandler func(context.Context, *CallToolRequest) (*CallToolResult, error)

// ToolHandlerFor handles a call to tools/call with typed arguments and results.
type ToolHandlerFor[In, Out any] func(_ context.Context, request *CallToolRequest, input In) (result *CallToolResult, output Out, _ error)

// AddTool adds a Tool to the server, or replaces one with the same name.
func (s *Server) AddTool(t *Tool, h ToolHandler) {
	s.tools[t.Name] = &serverTool{tool: t, handler: h}
}

// AddTool adds a tool and typed tool handler to the server.
func AddTool[In, Out any](s *Server, t *Tool, h ToolHandlerFor[In, Out]) {
	tt := *t
	s.AddTool(&tt, func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
		var in In
		if req.Params != nil && len(req.Params.Arguments) > 0 {
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
		}
		res, _, err := h(ctx, req, in)
		return res, err
	})
}
