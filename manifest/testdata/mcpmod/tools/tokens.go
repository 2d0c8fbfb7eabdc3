package tools

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type rotateIn struct {
	Account string `json:"account"`
}

type rotateOut struct {
	AccessToken string `json:"accessToken"`
}

// RotateToken returns a new token: its output is a secret.
//
//agent:operable grant=Reader
func RotateToken(ctx context.Context, req *mcp.CallToolRequest, in rotateIn) (*mcp.CallToolResult, rotateOut, error) {
	return nil, rotateOut{}, nil
}

type titleOut struct {
	TitleCaseWordsWithTokenResult string
}

// TitleCase's field ends in Result: not a secret.
//
//agent:operable grant=Reader
func TitleCase(ctx context.Context, req *mcp.CallToolRequest, in rotateIn) (*mcp.CallToolResult, titleOut, error) {
	return nil, titleOut{}, nil
}

// RegisterTokens registers the token tools.
func RegisterTokens(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "rotate_token"}, RotateToken)
	mcp.AddTool(srv, &mcp.Tool{Name: "title_case"}, TitleCase)
}
