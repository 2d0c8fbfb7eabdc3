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
	var deps GHDeps = &ghDeps{token: "t"}
	mcp.AddTool(srv, &mcp.Tool{Name: "gh_user", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, GHUser(deps))
}

// GHDeps is github-mcp-server's dependency interface: the handler gets
// its client at call time. The implementation builds the client with
// WithAuthToken, which makes a transport closure and hands it back
// uncalled: calling GetClient sends nothing, so the tool stays
// read-only (the closure runs when the client sends, and the GET it
// sends is proved where the handler sends it).
type GHDeps interface {
	GetClient(ctx context.Context) (*gogithub.Client, error)
}

type ghDeps struct{ token string }

func (d *ghDeps) GetClient(ctx context.Context) (*gogithub.Client, error) {
	return gogithub.NewClient(nil).WithAuthToken(d.token), nil
}

// GHUser is a handler constructor closing over the dependencies.
func GHUser(deps GHDeps) mcp.ToolHandlerFor[NoArgs, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
		c, err := deps.GetClient(ctx)
		if err != nil {
			return nil, nil, err
		}
		u, _, err := c.Users.Get(ctx, "octocat")
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{}, u.GetLogin(), nil
	}
}
