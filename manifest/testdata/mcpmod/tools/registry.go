package tools

import (
	"context"
	"database/sql"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Deps is what a tool's handler gets at call time.
type Deps struct{ DB *sql.DB }

// ServerTool carries a tool and its handler to the loop that registers
// it, as large servers do.
type ServerTool struct {
	Tool        mcp.Tool
	HandlerFunc func(deps *Deps) mcp.ToolHandler
}

// NewTool pairs a tool literal with its handler.
func NewTool[In, Out any](tool mcp.Tool, handler func(ctx context.Context, deps *Deps, req *mcp.CallToolRequest, args In) (*mcp.CallToolResult, Out, error)) ServerTool {
	return ServerTool{Tool: tool, HandlerFunc: func(deps *Deps) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in In
			r, _, err := handler(ctx, deps, req, in)
			return r, err
		}
	}}
}

// RegisterFunc registers a copy of the tool.
func (st *ServerTool) RegisterFunc(s *mcp.Server, deps *Deps) {
	toolCopy := st.Tool
	s.AddTool(&toolCopy, st.HandlerFunc(deps))
}

// GetNote reads a note.
//
//agent:operable grant=Reader
func GetNote() ServerTool {
	return NewTool(mcp.Tool{Name: "get_note", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, deps *Deps, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
			rows, err := deps.DB.QueryContext(ctx, "SELECT body FROM notes WHERE tenant_id = $1", 1)
			if err == nil {
				rows.Close()
			}
			return nil, nil, err
		})
}

// DeleteNotes has no directive: an ungoverned tool that mutates.
func DeleteNotes() ServerTool {
	return NewTool(mcp.Tool{Name: "delete_notes", Annotations: &mcp.ToolAnnotations{DestructiveHint: Ptr(true)}},
		func(ctx context.Context, deps *Deps, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
			_, err := deps.DB.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1", 1)
			return nil, nil, err
		})
}

// noteTool is a helper handed the tool's name: one handler literal,
// one tool per caller.
func noteTool(name string) ServerTool {
	return NewTool(mcp.Tool{Name: name},
		func(ctx context.Context, deps *Deps, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
			_, err := deps.DB.ExecContext(ctx, "UPDATE notes SET pinned = true WHERE tenant_id = $1", 1)
			return nil, nil, err
		})
}

// PinNote pins notes.
//
//agent:operable grant=NoteWriter
func PinNote() ServerTool { return noteTool("pin_note") }

// StarNote has no directive.
func StarNote() ServerTool { return noteTool("star_note") }

// NewDynamic pairs a tool with a factory of its handler.
func NewDynamic(tool mcp.Tool, factory func(deps *Deps) mcp.ToolHandlerFor[NoteArgs, any]) ServerTool {
	return ServerTool{Tool: tool, HandlerFunc: func(deps *Deps) mcp.ToolHandler {
		h := factory(deps)
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r, _, err := h(ctx, req, NoteArgs{})
			return r, err
		}
	}}
}

// CountNotes is made by a handler factory.
//
//agent:operable grant=Reader
func CountNotes() ServerTool {
	return NewDynamic(mcp.Tool{Name: "count_notes", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(deps *Deps) mcp.ToolHandlerFor[NoteArgs, any] {
			return func(ctx context.Context, req *mcp.CallToolRequest, args NoteArgs) (*mcp.CallToolResult, any, error) {
				return nil, nil, nil
			}
		})
}

// AllTools lists the registry's tools.
func AllTools() []ServerTool {
	return []ServerTool{GetNote(), DeleteNotes(), PinNote(), StarNote(), CountNotes(), Archived()}
}

// RegisterAll registers every tool of the registry, filtered.
func RegisterAll(s *mcp.Server, deps *Deps, readOnly bool) {
	for _, st := range AllTools() {
		if readOnly && st.Tool.Annotations != nil && !st.Tool.Annotations.ReadOnlyHint {
			continue
		}
		st.RegisterFunc(s, deps)
	}
}

// Archived is a ServerTool built as a literal, not by NewTool: it is
// paired all the same (it must not vanish from the manifest).
func Archived() ServerTool {
	return ServerTool{
		Tool: mcp.Tool{Name: "archived_notes", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		HandlerFunc: func(deps *Deps) mcp.ToolHandler {
			return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				_, err := deps.DB.ExecContext(ctx, "DELETE FROM notes WHERE tenant_id = $1 AND archived", 1)
				return nil, err
			}
		},
	}
}
