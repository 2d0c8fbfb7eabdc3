// Package pure is another module's tool handler that reaches no sink.
package pure

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type Args struct {
	Text string `json:"text"`
}

func Upper(ctx context.Context, req *mcp.CallToolRequest, args Args) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, strings.ToUpper(args.Text), nil
}
