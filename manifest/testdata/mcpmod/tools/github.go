package tools

import (
	"context"

	gogithub "github.com/google/go-github/v82/github"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// GHMe is github-mcp-server's shape on the real go-github v82: the
// client WithAuthToken copies has its CheckRedirect copied with it, so
// under vet the call is unprovable; the manifest resolves it through
// every store into http.Client.CheckRedirect in the program.
func GHMe(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	c := gogithub.NewClient(nil).WithAuthToken("t")
	u, _, err := c.Users.Get(ctx, "")
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{}, u.GetLogin(), nil
}

func RegisterGitHub(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "gh_me", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, GHMe)
}
