package manifest

import (
	"bytes"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/authvet/authvet/analyzer"
)

// buildOrSkip builds the manifest of a testdata module; a module that
// needs the module proxy is skipped, with the reason, only when the
// proxy cannot be reached.
// built memoises buildOrSkip per directory: tests only read a manifest.
var built sync.Map // dir → *Manifest

func buildOrSkip(t *testing.T, dir string) *Manifest {
	t.Helper()
	if m, ok := built.Load(dir); ok {
		return m.(*Manifest)
	}
	m := buildOnce(t, dir)
	built.Store(dir, m)
	return m
}

func buildOnce(t *testing.T, dir string) *Manifest {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	dl := exec.Command("go", "mod", "download")
	dl.Dir = abs
	if out, err := dl.CombinedOutput(); err != nil {
		t.Skipf("%s: the module proxy cannot be reached (go mod download: %v: %s)", dir, err, bytes.TrimSpace(out))
	}
	m, err := Build(Options{Dir: abs})
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return m
}

func action(t *testing.T, m *Manifest, fn string) Action {
	t.Helper()
	for _, a := range m.Actions {
		if a.Function == fn {
			return a
		}
	}
	t.Fatalf("no action %s in %s", fn, Marshal(m))
	return Action{}
}

// TestMCPModule runs on tools registered with the real go-sdk v1.8.0 and
// mcp-go v1.2.1, and routes on net/http.
func TestMCPModule(t *testing.T) {
	m := buildOrSkip(t, "testdata/mcpmod")
	if m.Module != "example.com/mcpmod" || m.SchemaVersion != 1 || m.Provenance != "provable" {
		t.Errorf("header: %q %d %q", m.Module, m.SchemaVersion, m.Provenance)
	}
	const pkg = "example.com/mcpmod/tools."

	add := action(t, m, pkg+"(*Server).AddNote")
	if add.Exposure != "mcp-tool" || add.Tool == nil || add.Tool.Name != "add_note" {
		t.Fatalf("AddNote: exposure %q tool %+v", add.Exposure, add.Tool)
	}
	if d := add.Tool.DeclaredAnnotations; d == nil || d.ReadOnlyHint == nil || !*d.ReadOnlyHint || d.DestructiveHint == nil || *d.DestructiveHint {
		t.Errorf("AddNote declared annotations (Ptr(false) folded): %+v", d)
	}
	if d := add.Tool.DerivedAnnotations; d.ReadOnlyHint {
		t.Errorf("AddNote writes notes, derived readOnlyHint true")
	}
	if len(add.Effects) != 1 || add.Effects[0].Kind != "write" || add.Effects[0].Subject != "notes" || add.Effects[0].Location != "tools/tools.go:33" {
		t.Errorf("AddNote effects: %+v", add.Effects)
	}
	if got := strings.Join(add.UnusedGrantEntries, ","); got != "Writes: archive" {
		t.Errorf("AddNote unused grant entries: %q", got)
	}

	list := action(t, m, pkg+"(*Server).ListNotes")
	if list.Tool == nil || list.Tool.Name != "list_notes" || !list.Tool.DerivedAnnotations.ReadOnlyHint || len(list.Effects) != 0 {
		t.Errorf("ListNotes: %+v %+v", list.Tool, list.Effects)
	}

	arch := action(t, m, pkg+"(*Server).Archive")
	if arch.Tool == nil || arch.Tool.Name != "archive" {
		t.Fatalf("Archive (mcp-go): %+v", arch.Tool)
	}
	// mcp-go's defaults are explicit; the option overrides one.
	if d := arch.Tool.DeclaredAnnotations; d == nil || d.ReadOnlyHint == nil || *d.ReadOnlyHint || d.DestructiveHint == nil || *d.DestructiveHint || d.OpenWorldHint == nil || !*d.OpenWorldHint {
		t.Errorf("Archive declared annotations: %+v", d)
	}

	stats := action(t, m, pkg+"(*Server).Stats")
	if stats.Exposure != "http-route" || len(stats.Routes) != 2 ||
		stats.Routes[0] != (Route{Method: "*", Path: "/stats/all"}) || stats.Routes[1] != (Route{Method: "GET", Path: "/stats"}) {
		t.Errorf("Stats routes (a method pattern, and a closure that wraps it): %+v", stats.Routes)
	}

	// Constructors (SPEC §3): a (tool, handler) pair, a slice of
	// definitions ranged over, an mcp-go ServerTool; and mcp-go's typed
	// adapter around a method value.
	page := action(t, m, pkg+"newPageTool")
	if page.Exposure != "mcp-tool" || page.Tool == nil || page.Tool.Name != "page_oncall" || page.Tool.DerivedAnnotations.ReadOnlyHint {
		t.Errorf("newPageTool: %q %+v", page.Exposure, page.Tool)
	}
	if raw := action(t, m, pkg+"rawTools"); raw.Exposure != "mcp-tool" || raw.Tool == nil || raw.Tool.Caveat == "" {
		t.Errorf("rawTools (name not paired yet, so a caveat): %q %+v", raw.Exposure, raw.Tool)
	}
	if slug := action(t, m, pkg+"slugTool"); slug.Tool == nil || slug.Tool.Name != "slug" || !slug.Tool.DerivedAnnotations.ReadOnlyHint {
		t.Errorf("slugTool: %+v", slug.Tool)
	}
	if forget := action(t, m, pkg+"(*Server).Forget"); forget.Tool == nil || forget.Tool.Name != "forget" || len(forget.Effects) != 1 {
		t.Errorf("Forget through NewTypedToolHandler: %+v %+v", forget.Tool, forget.Effects)
	}

	// A registry: NewTool pairs each literal with its handler, and a
	// loop registers them through ServerTool's fields.
	if get := action(t, m, pkg+"GetNote"); get.Exposure != "mcp-tool" || get.Tool == nil || get.Tool.Name != "get_note" || !get.Tool.DerivedAnnotations.ReadOnlyHint {
		t.Errorf("GetNote: %q %+v", get.Exposure, get.Tool)
	}

	// A helper handed the tool's name: one tool per caller, each with the
	// helper's literal's effects; and a handler factory.
	if pin := action(t, m, pkg+"PinNote"); pin.Tool == nil || pin.Tool.Name != "pin_note" || len(pin.Effects) != 1 || pin.Effects[0].Subject != "notes" {
		t.Errorf("PinNote: %+v %+v", pin.Tool, pin.Effects)
	}
	if count := action(t, m, pkg+"CountNotes"); count.Tool == nil || count.Tool.Name != "count_notes" || !count.Tool.DerivedAnnotations.ReadOnlyHint {
		t.Errorf("CountNotes: %+v", count.Tool)
	}

	// Routes under group prefixes: chi Route (nested), gin and echo Group.
	for fn, want := range map[string]Route{
		"example.com/mcpmod/web.Health":  {"GET", "/api/v1/health"},
		"example.com/mcpmod/web.Ping":    {"GET", "/api/ping"},
		"example.com/mcpmod/web.Version": {"GET", "/admin/meta/version"},
		"example.com/mcpmod/web.Notes":   {"GET", "/admin/notes"},
		"example.com/mcpmod/web.Status":  {"GET", "/internal/status"},
		"example.com/mcpmod/web.Stray":   {"GET", "/stray"},
		"example.com/mcpmod/web.Served":  {"GET", "/served"},
	} {
		if a := action(t, m, fn); a.Exposure != "http-route" || len(a.Routes) != 1 || a.Routes[0] != want {
			t.Errorf("%s: %q %+v, want %+v", fn, a.Exposure, a.Routes, want)
		}
	}

	// Ungoverned: delete_notes (from the registry), star_note (through
	// the helper) and purge mutate, ping does not; the registry's
	// AddTool is not an unresolved tool. (Sixteen more are TestSlots', four TestRegistrationShapes'.)
	if len(m.UngovernedTools) != 29 {
		t.Fatalf("ungoverned tools: %+v", m.UngovernedTools)
	}
	// A carrier built as a struct literal, not by the pairing helper,
	// does not vanish.
	if arch := m.UngovernedTools[0]; arch.Tool != "archived_notes" || !arch.Mutating || arch.Handler != pkg+"Archived" {
		t.Errorf("ungoverned archived_notes: %+v", arch)
	}
	if star := m.UngovernedTools[24]; star.Tool != "star_note" || !star.Mutating || star.Handler != pkg+"StarNote" {
		t.Errorf("ungoverned star_note: %+v", star)
	}
	// Handlers in another module (wired with replace): their effects come
	// from the summary facts their package exported, and their paths stay
	// relative.
	if drop := m.UngovernedTools[3]; drop.Tool != "dep_drop" || !drop.Mutating || len(drop.Effects) != 1 ||
		drop.Effects[0].Location != "../mcpdep/writer/writer.go:20" || drop.Location != "../mcpdep/writer/writer.go:19" {
		t.Errorf("another module's writing handler: %+v", drop)
	}
	if upper := m.UngovernedTools[4]; upper.Tool != "dep_upper" || upper.Mutating || len(upper.Effects) != 0 {
		t.Errorf("another module's pure handler: %+v", upper)
	}
	del, ping, purge := m.UngovernedTools[2], m.UngovernedTools[17], m.UngovernedTools[19]
	if del.Tool != "delete_notes" || !del.Mutating || del.Handler != pkg+"DeleteNotes" || len(del.Effects) != 1 || del.Effects[0].Subject != "notes" {
		t.Errorf("ungoverned delete_notes: %+v", del)
	}
	if ping.Tool != "ping" || ping.Mutating || purge.Tool != "purge" || !purge.Mutating || purge.Handler != pkg+"(*Server).Purge" {
		t.Errorf("ungoverned: %+v / %+v", ping, purge)
	}

	// A store injected where the server is wired: unprovable in vet mode,
	// resolved by the call graph here (provenance type_resolved).
	if count := action(t, m, pkg+"(*App).CountAll"); len(count.Effects) != 0 || !count.Tool.DerivedAnnotations.ReadOnlyHint {
		t.Errorf("CountAll through the injected store: %+v %+v", count.Effects, count.Tool)
	}
	if f := action(t, m, pkg+"(*App).ForgetOne"); len(f.Effects) != 1 || f.Effects[0].Subject != "notes" || f.Effects[0].Provenance != "type_resolved" ||
		f.Effects[0].Location != "tools/injected.go:26" || strings.Join(f.Effects[0].Via, ",") != "tools/injected.go:45" {
		t.Errorf("ForgetOne through the injected store: %+v", f.Effects)
	}

	// A REST SDK in go-github's shape: the URL is configuration, the
	// method is proved through NewRequest, Do and a withContext copy. A
	// GET is read-only with its URL unproved; a DELETE is not.
	if g := action(t, m, pkg+"(*REST).GetUser"); len(g.Effects) != 1 || g.Effects[0].Kind != "unprovable" || g.Effects[0].Method != "GET" || !g.Tool.DerivedAnnotations.ReadOnlyHint {
		t.Errorf("GetUser: %+v %+v", g.Effects, g.Tool)
	}
	if d := action(t, m, pkg+"(*REST).DeleteUser"); len(d.Effects) != 1 || d.Effects[0].Method != "DELETE" || d.Tool.DerivedAnnotations.ReadOnlyHint {
		t.Errorf("DeleteUser: %+v %+v", d.Effects, d.Tool)
	}

	// Five lies: add_note claims read-only and writes; archived_notes
	// deletes; delete_user sends
	// a DELETE; forget_one writes through its injected store; page_oncall
	// posts through a client it was handed.
	// (gh_me, gh_user, hook_save, hub_custom, hub_loud, hub_me and save,
	// at 5, 6, 8-11 and 13, are TestSlots'; audited_ping and helped, at
	// 2 and 7, TestRegistrationShapes'; x_drop_export, x_purge_literal,
	// x_wipe_table and z_wipe, at 14-17, TestMCPGoBulk's.)
	if len(m.AnnotationConflicts) != 18 || m.AnnotationConflicts[0].Tool != "add_note" || m.AnnotationConflicts[0].Claim != "readOnlyHint: true" ||
		m.AnnotationConflicts[0].ContradictedBy.Subject != "notes" ||
		m.AnnotationConflicts[1].Tool != "archived_notes" ||
		m.AnnotationConflicts[3].Tool != "delete_user" || m.AnnotationConflicts[3].ContradictedBy.Method != "DELETE" ||
		m.AnnotationConflicts[4].Tool != "forget_one" || m.AnnotationConflicts[4].ContradictedBy.Provenance != "type_resolved" ||
		m.AnnotationConflicts[12].Tool != "page_oncall" || m.AnnotationConflicts[12].ContradictedBy.Kind != "unprovable" {
		t.Errorf("annotation conflicts: %+v", m.AnnotationConflicts)
	}

	// Sensitivity by the last noun of the tool's own field names.
	if r := action(t, m, pkg+"RotateToken"); r.Tool == nil || r.Tool.DerivedAnnotations.SensitiveHint != "secret" {
		t.Errorf("RotateToken (accessToken out): %+v", r.Tool)
	}
	if tc := action(t, m, pkg+"TitleCase"); tc.Tool == nil || tc.Tool.DerivedAnnotations.SensitiveHint != "" {
		t.Errorf("TitleCase (…TokenResult out): %+v", tc.Tool)
	}
	if a := action(t, m, pkg+"(*Server).AddNote"); a.Tool.DerivedAnnotations.SensitiveHint != "" {
		t.Errorf("AddNote (body): %+v", a.Tool.DerivedAnnotations)
	}

	// suggest: what no grant allows is named, not granted.
	var sb bytes.Buffer
	Suggest(&sb, m)
	if out := sb.String(); !strings.Contains(out, "// newPageTool (tools/ctors.go:20, MCP tool \"page_oncall\")\n// no grant allows: unprovable at tools/ctors.go:24: sends a request through an *http.Client whose Transport") ||
		!strings.Contains(out, "var DeleteNotesGrant = grant.Grant{\n\tWrites:        []string{\"notes\"},") {
		t.Errorf("suggest:\n%s", out)
	}

	// --check fails on the conflict and on the mutating ungoverned tool,
	// with nothing else to report.
	o := Check(m, m, false)
	if !o.Failed || !strings.Contains(o.Report, `MCP tool "purge"`) || !strings.Contains(o.Report, `"add_note" declares readOnlyHint: true`) || strings.Contains(o.Report, "~ action") {
		t.Errorf("check against itself:\n%s", o.Report)
	}
	if o := Check(m, m, true); !o.Failed || strings.Contains(o.Report, "error: MCP tool \"purge\"") {
		t.Errorf("--allow-ungoverned lifts the ungoverned failure, never the conflict:\n%s", o.Report)
	}
}

// TestExample checks the README's example module, its determinism and
// the drift the check reports.
func TestExample(t *testing.T) {
	m, err := Build(Options{Dir: "../example"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Build(Options{Dir: "../example"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(Marshal(m), Marshal(again)) {
		t.Fatalf("two runs differ:\n%s\n---\n%s", Marshal(m), Marshal(again))
	}
	draft := action(t, m, "example.com/shop/billing.(*Server).DraftRefund")
	if draft.Exposure != "http-route" || len(draft.Routes) != 1 || draft.Routes[0] != (Route{"POST", "/api/refunds"}) {
		t.Errorf("DraftRefund exposure: %q %+v", draft.Exposure, draft.Routes)
	}
	if o := Check(m, m, false); o.Failed || o.Report != "" {
		t.Errorf("unchanged module: failed=%v\n%s", o.Failed, o.Report)
	}

	// Committed without one effect: the module widened.
	committed, err := Parse("agent-authority.json", Marshal(m))
	if err != nil {
		t.Fatal(err)
	}
	for i := range committed.Actions {
		if committed.Actions[i].Function == draft.Function {
			committed.Actions[i].Effects = committed.Actions[i].Effects[1:]
		}
	}
	o := Check(committed, m, false)
	if !o.Failed || !strings.Contains(o.Report, "~ action example.com/shop/billing.(*Server).DraftRefund") || !strings.Contains(o.Report, `+ outbound "https://api.stripe.com/v1/refunds" (POST)`) {
		t.Errorf("widened effect:\n%s", o.Report)
	}

	// Lines moved, nothing else: not drift.
	committed, _ = Parse("agent-authority.json", Marshal(m))
	committed.Actions[0].Location = "billing/payouts.go:1"
	if o := Check(committed, m, false); o.Failed || !strings.Contains(o.Report, "locations moved") {
		t.Errorf("moved lines: failed=%v\n%s", o.Failed, o.Report)
	}

	// A grant widened.
	committed, _ = Parse("agent-authority.json", Marshal(m))
	committed.Grants[0].Writes = nil
	if o := Check(committed, m, false); !o.Failed || !strings.Contains(o.Report, "+ Writes: refunds") {
		t.Errorf("widened grant:\n%s", o.Report)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{\n  \"schema_version\": 1,\n  \"actions\": [,]\n}", "m.json:3:15: invalid character ','"},
		{"{\"schema_version\": \"one\"}", "m.json:1:25: json: cannot unmarshal string"},
		{"{\"schema_version\": 2}", "m.json: schema_version 2, want 1"},
		{"{\"schema_version\": 1, \"extra\": true}", `m.json: json: unknown field "extra"`},
	} {
		_, err := Parse("m.json", []byte(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want prefix %q", tc.in, err, tc.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	m, err := Build(Options{Dir: "../example"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	Suggest(&buf, m)
	out := buf.String()
	// DraftPayout writes payouts and refunds: exactly those, no outbound;
	// DraftRefund's outbound is the proved URL, not a broader prefix.
	for _, want := range []string{
		"// (*Server).DraftPayout (billing/payouts.go:13, HTTP POST /api/payouts)\nvar ServerDraftPayoutGrant = grant.Grant{\n\tWrites:        []string{\"payouts\", \"refunds\"},\n\tReversibility: grant.Reversible,\n}\n",
		"var ServerDraftRefundGrant = grant.Grant{\n\tWrites:        []string{\"refunds\"},\n\tOutbound:      []string{\"https://api.stripe.com/v1/refunds\"},\n\tReversibility: grant.Compensable,",
		"var ServerListRefundsGrant = grant.Grant{\n\tReversibility: grant.Reversible,\n}\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("suggest output lacks\n%s\n---- got:\n%s", want, out)
		}
	}
	if got := grantVarName("delete_notes"); got != "DeleteNotesGrant" {
		t.Errorf("grantVarName = %q", got)
	}
}

func TestLastNoun(t *testing.T) {
	for name, want := range map[string]string{
		"accessToken":                   "secret",
		"TitleCaseWordsWithTokenResult": "",
		"APIKey":                        "secret",
		"api_key":                       "secret",
		"idempotencyKey":                "",
		"password":                      "secret",
		"passwordHint":                  "",
		"email":                         "pii",
		"emailVerified":                 "",
		"cardNumber":                    "pii",
		"pageNumber":                    "",
		"body":                          "",
	} {
		got := ""
		if c := classOf(name); c < len(sensitiveNouns) {
			got = sensitiveNouns[c].class
		}
		if got != want {
			t.Errorf("classOf(%q) = %q, want %q (words %q)", name, got, want, splitWords(name))
		}
	}
}

// ungovernedTool returns the ungoverned tool of m named name.
func ungovernedTool(t *testing.T, m *Manifest, name string) Ungoverned {
	t.Helper()
	for _, u := range m.UngovernedTools {
		if u.Tool == name {
			return u
		}
	}
	t.Fatalf("no ungoverned tool %s", name)
	return Ungoverned{}
}

// TestRegistrationShapes checks tools registered from a slice of
// constructors ranged over, and by a helper handed the tool and the
// handler: each tool is named, with its own handler's effects, and a
// wrapper the helper adds counts only where it does something.
func TestRegistrationShapes(t *testing.T) {
	m := buildOrSkip(t, "testdata/mcpmod")
	tool := func(name string) Ungoverned { return ungovernedTool(t, m, name) }
	for _, u := range m.UngovernedTools {
		if u.Tool == "" {
			t.Errorf("a registration left unresolved: %+v", u)
		}
	}
	if a := tool("ranged_a"); a.Mutating || len(a.Effects) != 0 || a.DeclaredAnnotations == nil || a.DeclaredAnnotations.ReadOnlyHint == nil || !*a.DeclaredAnnotations.ReadOnlyHint {
		t.Errorf("ranged_a: %+v", a)
	}
	if b := tool("ranged_b"); !b.Mutating || len(b.Effects) != 1 || b.Effects[0].Subject != "notes" || b.Handler != "example.com/mcpmod/tools.rangedB" {
		t.Errorf("ranged_b: %+v", b)
	}
	// The forwarding wrapper adds nothing; helped's own write is there.
	if h := tool("helped"); !h.Mutating || len(h.Effects) != 1 || h.Effects[0].Subject != "notes" || h.Handler != "example.com/mcpmod/tools.helped" {
		t.Errorf("helped: %+v", h)
	}
	// The auditing wrapper's write is the tool's, over a handler that
	// only reads.
	if a := tool("audited_ping"); !a.Mutating || len(a.Effects) != 1 || a.Effects[0].Subject != "audit" {
		t.Errorf("audited_ping: %+v", a)
	}
}

// TestSlots: function fields read from structs another module built
// (vet mode: unprovable, the field named) and interface method values
// handed to helpers are resolved through every store into the field,
// and every implementation of the method, in the linked program.
func TestSlots(t *testing.T) {
	m := buildOrSkip(t, "testdata/mcpmod")
	tool := func(name string) Ungoverned { return ungovernedTool(t, m, name) }
	has := func(u Ungoverned, kind, subject, loc string) bool {
		for _, e := range u.Effects {
			if e.Kind == kind && e.Subject == subject && strings.HasPrefix(e.Location, loc) {
				return true
			}
		}
		return false
	}
	// Clean twins: the field only ever holds a literal that calls
	// nothing; the interface's only implementation reads; the function
	// a generic helper calls is what the interface's implementation
	// returns, in the helper's instance (the generic body alone has no
	// values flowing in), and only reads.
	// A field a builder method's parameter is stored into holds what
	// every call of the method passes: only a function that reads; the
	// same for a map of slices of functions a method appends to.
	for _, name := range []string{"hub_quiet", "fetch", "tally", "policy_check", "route_match"} {
		if u := tool(name); u.Mutating || len(u.Effects) != 0 {
			t.Errorf("%s: mutating %v, effects %+v", name, u.Mutating, u.Effects)
		}
	}
	// The builder's twin: what Use is handed writes audit, and the
	// field's call is resolved to it.
	if u := tool("gate_pass"); !u.Mutating || !has(u, "write", "audit", "tools/slots.go:149") || has(u, "unprovable", "", "tools/slots.go:161") {
		t.Errorf("gate_pass: %+v", u.Effects)
	}
	// The router's twin: its map's elements hold a function that writes.
	if u := tool("mux_match"); !u.Mutating || !has(u, "write", "audit", "tools/slots.go:149") || has(u, "unprovable", "", "../mcpdep/hub/hub.go:163") {
		t.Errorf("mux_match: %+v", u.Effects)
	}
	// The generic helper's twin: what it calls deletes.
	if u := tool("tally_purge"); !u.Mutating || !has(u, "write", "notes", "tools/generic.go:56") {
		t.Errorf("tally_purge: %+v", u.Effects)
	}
	// The literal stored into Loud.Notify writes audit.
	if u := tool("hub_loud"); !u.Mutating || !has(u, "write", "audit", "tools/slots.go:22") {
		t.Errorf("hub_loud: %+v", u.Effects)
	}
	// Custom.Notify holds whatever NewCustom is handed: unprovable.
	if u := tool("hub_custom"); !u.Mutating || !has(u, "unprovable", "", "tools/slots.go:51") {
		t.Errorf("hub_custom: %+v", u.Effects)
	}
	// The implementation of Saver writes drafts.
	if u := tool("save"); !u.Mutating || !has(u, "unbounded_write", "drafts", "tools/slots.go:76") {
		t.Errorf("save: %+v", u.Effects)
	}
	// A handler calling its receiver's exported field: the one literal
	// stored there writes; the other field's only literal does nothing.
	if u := tool("hook_save"); !u.Mutating || !has(u, "write", "drafts", "tools/slots.go:125") {
		t.Errorf("hook_save: %+v", u.Effects)
	}
	if u := tool("hook_read"); u.Mutating || len(u.Effects) != 0 {
		t.Errorf("hook_read: %+v", u.Effects)
	}
	// CheckRedirect, copied by WithToken, is resolved through every
	// store in the program: the SDK's own discovery policy (a DNS
	// lookup) is among them, so the site becomes what that does, not
	// the unresolved call.
	u := tool("hub_me")
	if has(u, "unprovable", "", "tools/slots.go:30") || !has(u, "unprovable", "", "github.com/modelcontextprotocol/go-sdk@v1.8.0/oauthex/") {
		t.Errorf("hub_me: %+v", u.Effects)
	}
	// The same on the real go-github v82 (github-mcp-server's GetClient):
	// the copied CheckRedirect is resolved, not left at the call.
	u = tool("gh_me")
	if has(u, "unprovable", "", "tools/github.go:15") || !has(u, "unprovable", "", "github.com/modelcontextprotocol/go-sdk@v1.8.0/oauthex/") {
		t.Errorf("gh_me: %+v", u.Effects)
	}
	// WithAuthToken's transport closure is made and handed back
	// uncalled, by the handler itself (gh_me) or by the implementation
	// of a dependency interface the handler calls (gh_user, resolved
	// through the call graph): it runs when the client sends, as the
	// GET proved at the send, not where the client is built.
	const transport = "github.com/google/go-github/v82@v82.0.0/github/github.go:367"
	for _, name := range []string{"gh_me", "gh_user"} {
		u := tool(name)
		if has(u, "unprovable", "", transport) || !slices.ContainsFunc(u.Effects, func(e EffectEntry) bool { return e.Method == "GET" }) {
			t.Errorf("%s: %+v", name, u.Effects)
		}
	}
}

// TestSlotValuesCycle: fields copied into each other hold what is stored
// into any of them, whichever is asked first.
func TestSlotValuesCycle(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	evil := types.NewFunc(token.NoPos, pkg, "evil", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	x := newSlotIndex(analyzer.Slots{Stores: map[string][]analyzer.SlotStore{
		"p.A.F": {{Pkg: pkg, From: "p.B.F"}, {Pkg: pkg, Func: evil}},
		"p.B.F": {{Pkg: pkg, From: "p.A.F"}},
		"p.C.F": {{Pkg: pkg, From: "p.B.F"}, {Pkg: pkg, Unknown: true}},
		"p.D.F": {{Pkg: pkg, From: "p.C.F"}},
	}})
	for _, k := range []string{"p.A.F", "p.B.F"} {
		if v := x.values(k); v.unknown || len(v.stores) != 1 || v.stores[0].Func != evil {
			t.Errorf("%s: %+v", k, v)
		}
	}
	if v := x.values("p.D.F"); !v.unknown {
		t.Errorf("p.D.F copies a field holding an unknown value: %+v", v)
	}
}

// TestMCPGoBulk runs on mcp-go's bulk shapes: ServerTool literals handed
// to AddTools, and a table of them ranged over into AddTool. Each tool is
// paired with its handler, so a read-only claim the code contradicts is
// a conflict, and a reader's claim stands.
func TestMCPGoBulk(t *testing.T) {
	m := buildOrSkip(t, "testdata/mcpmod")
	pkg := "example.com/mcpmod/tools."
	for fn, want := range map[string]struct {
		tool     string
		readOnly bool
	}{
		"(*Server).XDropExport":   {"x_drop_export", false},
		"(*Server).XListExports":  {"x_list_exports", true},
		"(*Server).XWipeTable":    {"x_wipe_table", false},
		"(*Server).XCountTable":   {"x_count_table", true},
		"(*Server).XPurgeLiteral": {"x_purge_literal", false},
	} {
		a := action(t, m, pkg+fn)
		if a.Tool == nil || a.Tool.Name != want.tool || a.Tool.DerivedAnnotations == nil || a.Tool.DerivedAnnotations.ReadOnlyHint != want.readOnly {
			t.Errorf("%s: %+v", fn, a.Tool)
		}
	}
	conflicts := map[string]bool{}
	for _, c := range m.AnnotationConflicts {
		conflicts[c.Tool] = true
	}
	for tool, want := range map[string]bool{"x_drop_export": true, "x_wipe_table": true, "x_purge_literal": true, "x_list_exports": false, "x_count_table": false} {
		if conflicts[tool] != want {
			t.Errorf("conflict on %s: %v, want %v", tool, conflicts[tool], want)
		}
	}
	for _, u := range m.UngovernedTools {
		if u.Tool == "" || strings.HasPrefix(u.Tool, "x_") {
			t.Errorf("unresolved or ungoverned bulk tool: %+v", u)
		}
	}

	// Handlers a constructor with no directive returns: the constructor
	// is named, with its literal's effects; a ping reads, a wipe writes.
	for _, u := range m.UngovernedTools {
		switch u.Tool {
		case "z_ping":
			if u.Handler != pkg+"pingTool" || u.Mutating || len(u.Effects) != 0 || u.Caveat != "" {
				t.Errorf("z_ping: %+v", u)
			}
		case "z_wipe":
			if u.Handler != pkg+"wipeTool" || !u.Mutating || len(u.Effects) == 0 || u.Effects[0].Subject != "notes" {
				t.Errorf("z_wipe: %+v", u)
			}
		}
	}
	if !conflicts["z_wipe"] || conflicts["z_ping"] {
		t.Errorf("conflicts: %v", conflicts)
	}
}
