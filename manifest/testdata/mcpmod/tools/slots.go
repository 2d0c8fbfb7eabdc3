package tools

import (
	"context"
	"database/sql"

	"example.com/mcpdep/hub"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Handlers whose clients come from another module's constructors (vet
// mode: unprovable function fields), resolved by the manifest through
// every store into those fields.

var auditDB *sql.DB

type NoArgs struct{}

func newHub() *hub.Client {
	c := hub.New(nil).WithToken("t")
	c.SetLoud(&hub.Loud{Notify: func(msg string) {
		_, _ = auditDB.Exec("INSERT INTO audit (msg) VALUES ($1)", msg)
	}})
	return c
}

// HubMe: a GET through a copied client whose CheckRedirect only an
// inert policy is ever stored into: read-only.
func HubMe(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	code, err := hub.New(nil).WithToken("t").Me(ctx)
	return &mcp.CallToolResult{}, code, err
}

// HubQuiet: a notifier field that only holds a literal calling nothing.
func HubQuiet(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	hub.New(nil).PingQuiet("hi")
	return &mcp.CallToolResult{}, nil, nil
}

// HubLoud: the field holds the literal above, which writes audit.
func HubLoud(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	newHub().PingLoud("hi")
	return &mcp.CallToolResult{}, nil, nil
}

// HubCustom: the field holds whatever NewCustom was handed (here, an
// exported variable any package may set): it stays unprovable.
func HubCustom(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	c := hub.New(nil)
	c.SetCustom(hub.NewCustom(Notifier))
	c.PingCustom("hi")
	return &mcp.CallToolResult{}, nil, nil
}

var Notifier func(string)

// Fetcher is called through a method value handed to a helper, as
// github-mcp-server's searchHandler(ctx, deps.GetClient, ...): what it
// does is what its implementations in the module do.
type Fetcher interface {
	Fetch(ctx context.Context) (string, error)
}

type readFetcher struct{}

func (readFetcher) Fetch(ctx context.Context) (string, error) { return "x", nil }

// Saver is implemented by a type that writes.
type Saver interface {
	Save(ctx context.Context) error
}

type dbSaver struct{ db *sql.DB }

func (s dbSaver) Save(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM drafts")
	return err
}

func fetchWith(ctx context.Context, get func(context.Context) (string, error)) (string, error) {
	return get(ctx)
}

func saveWith(ctx context.Context, save func(context.Context) error) error {
	return save(ctx)
}

type SlotDeps struct {
	F Fetcher
	S Saver
}

func (d *SlotDeps) FetchTool(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	s, err := fetchWith(ctx, d.F.Fetch)
	return &mcp.CallToolResult{}, s, err
}

func (d *SlotDeps) SaveTool(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, nil, saveWith(ctx, d.S.Save)
}

// RegisterSlots registers the tools above, each claiming read-only.
func RegisterSlots(srv *mcp.Server, d *SlotDeps) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(srv, &mcp.Tool{Name: "hub_me", Annotations: ro}, HubMe)
	mcp.AddTool(srv, &mcp.Tool{Name: "hub_quiet", Annotations: ro}, HubQuiet)
	mcp.AddTool(srv, &mcp.Tool{Name: "hub_loud", Annotations: ro}, HubLoud)
	mcp.AddTool(srv, &mcp.Tool{Name: "hub_custom", Annotations: ro}, HubCustom)
	mcp.AddTool(srv, &mcp.Tool{Name: "fetch", Annotations: ro}, d.FetchTool)
	mcp.AddTool(srv, &mcp.Tool{Name: "save", Annotations: ro}, d.SaveTool)
}

// Hooked keeps its callbacks in exported fields (any package may set
// them; here only Wire does): a handler
// calling its receiver's field is unprovable under vet, and resolved by
// the manifest through the stores into the field.
type Hooked struct {
	OnSave func(ctx context.Context) error
	OnRead func(ctx context.Context) error
}

func Wire(db *sql.DB) *Hooked {
	return &Hooked{
		OnSave: func(ctx context.Context) error {
			_, err := db.ExecContext(ctx, "UPDATE drafts SET done = true WHERE tenant_id = $1", 1)
			return err
		},
		OnRead: func(ctx context.Context) error { return nil },
	}
}

func (h *Hooked) SaveHook(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, nil, h.OnSave(ctx)
}

func (h *Hooked) ReadHook(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, nil, h.OnRead(ctx)
}

func RegisterHooks(srv *mcp.Server, h *Hooked) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(srv, &mcp.Tool{Name: "hook_save", Annotations: ro}, h.SaveHook)
	mcp.AddTool(srv, &mcp.Tool{Name: "hook_read", Annotations: ro}, h.ReadHook)
}

func isShort(s string) bool { return len(s) < 8 }

func recordAudit(s string) bool {
	_, err := auditDB.Exec("INSERT INTO audit (msg) VALUES ($1)", s)
	return err == nil
}

// PolicyCheck: the rule field holds what On is handed, which only reads
// its argument.
func PolicyCheck(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, hub.NewPolicy().On(isShort).Check("x"), nil
}

// GatePass: the rule field holds what Use is handed, which writes audit.
func GatePass(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, hub.NewGate().Use(recordAudit).Pass("x"), nil
}

func RegisterRules(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "policy_check"}, PolicyCheck)
	mcp.AddTool(srv, &mcp.Tool{Name: "gate_pass"}, GatePass)
}

// RouteMatch: the router's rules hold what Allow is handed, which only
// reads its argument.
func RouteMatch(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, hub.NewRouter().Allow("https", isShort).Match("https", "x"), nil
}

// MuxMatch: the mux's rules hold what Add is handed, which writes audit.
func MuxMatch(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{}, hub.NewMux().Add("https", recordAudit).Match("https", "x"), nil
}

func RegisterRoutes(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "route_match"}, RouteMatch)
	mcp.AddTool(srv, &mcp.Tool{Name: "mux_match"}, MuxMatch)
}
