package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const full = `# authvet configuration
tenant_columns: [tenant_id, Org_ID]
sinks:
  - func: example.com/shop/queue.Enqueue
    effect: job
    subject_arg: 1
  - func: example.com/shop/hooks.(*Bus).Dispatch
    effect: webhook
    subject_arg: 0
  - {func: example.com/shop/db.Store.Exec, effect: write, subject_arg: 2}
  - func: gopkg.in/yaml.v3.Marshal
    effect: outbound
    subject_arg: 0
  - func: github.com/shurcooL/githubv4.(*Client).Mutate
    effect: outbound
    subject: "https://api.github.com/graphql"
    method: POST
  - func: github.com/shurcooL/githubv4.(*Client).Query
    effect: outbound
    subject: "https://api.github.com/graphql"
    safe: true
  - {func: example.com/shop/cache.Set, effect: none}
  - {func: github.com/redis/go-redis/v9.Cmdable.LPush, effect: outbound, subject: "alias:redis"}
  - {func: example.com/shop/billing.Client.Refund, effect: outbound, subject: "grpc:/billing.v1.Billing/Refund"}
clients:
  - packages: [github.com/stripe/stripe-go/v82/..., example.com/pay]
    outbound: "https://api.stripe.com/"
benign_interfaces:
  - example.com/shop/obs.Logger
  - gopkg.in/yaml.v3.Marshaler
`

func TestParseFull(t *testing.T) {
	c, err := Parse("authvet.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"tenant_id", "org_id"}; !reflect.DeepEqual(c.TenantColumns, want) {
		t.Errorf("TenantColumns = %q, want %q", c.TenantColumns, want)
	}
	want := []Sink{
		{Func: "example.com/shop/queue.Enqueue", Effect: "job", SubjectArg: 1, Line: 4,
			PkgPath: "example.com/shop/queue", Name: "Enqueue"},
		{Func: "example.com/shop/hooks.(*Bus).Dispatch", Effect: "webhook", SubjectArg: 0, Line: 7,
			PkgPath: "example.com/shop/hooks", Recv: "Bus", Name: "Dispatch", PtrRecv: true},
		{Func: "example.com/shop/db.Store.Exec", Effect: "write", SubjectArg: 2, Line: 10,
			PkgPath: "example.com/shop/db", Recv: "Store", Name: "Exec"},
		{Func: "gopkg.in/yaml.v3.Marshal", Effect: "outbound", SubjectArg: 0, Line: 11,
			PkgPath: "gopkg.in/yaml.v3", Name: "Marshal"},
		{Func: "github.com/shurcooL/githubv4.(*Client).Mutate", Effect: "outbound", SubjectArg: -1, Line: 14,
			Subject: "https://api.github.com/graphql", Method: "POST",
			PkgPath: "github.com/shurcooL/githubv4", Recv: "Client", Name: "Mutate", PtrRecv: true},
		{Func: "github.com/shurcooL/githubv4.(*Client).Query", Effect: "outbound", SubjectArg: -1, Line: 18,
			Subject: "https://api.github.com/graphql", Safe: true,
			PkgPath: "github.com/shurcooL/githubv4", Recv: "Client", Name: "Query", PtrRecv: true},
		{Func: "example.com/shop/cache.Set", Effect: "none", SubjectArg: -1, Line: 22,
			PkgPath: "example.com/shop/cache", Name: "Set"},
		{Func: "github.com/redis/go-redis/v9.Cmdable.LPush", Effect: "outbound", SubjectArg: -1, Line: 23, Subject: "alias:redis",
			PkgPath: "github.com/redis/go-redis/v9", Recv: "Cmdable", Name: "LPush"},
		{Func: "example.com/shop/billing.Client.Refund", Effect: "outbound", SubjectArg: -1, Line: 24, Subject: "grpc:/billing.v1.Billing/Refund",
			PkgPath: "example.com/shop/billing", Recv: "Client", Name: "Refund"},
	}
	if !reflect.DeepEqual(c.Sinks, want) {
		t.Errorf("Sinks =\n%+v\nwant\n%+v", c.Sinks, want)
	}
	wantClients := []Client{{Packages: []string{"github.com/stripe/stripe-go/v82/...", "example.com/pay"}, Outbound: "https://api.stripe.com/", Line: 26}}
	if !reflect.DeepEqual(c.Clients, wantClients) {
		t.Errorf("Clients =\n%+v\nwant\n%+v", c.Clients, wantClients)
	}
	for pkg, want := range map[string]bool{
		"github.com/stripe/stripe-go/v82":          true,
		"github.com/stripe/stripe-go/v82/refund":   true,
		"github.com/stripe/stripe-go/v820":         false,
		"example.com/pay":                          true,
		"example.com/pay/internal":                 false,
		"github.com/stripe/stripe-go/v81/customer": false,
	} {
		if got := c.ClientFor(pkg) != nil; got != want {
			t.Errorf("ClientFor(%q) = %v, want %v", pkg, got, want)
		}
	}
	if want := []string{"example.com/shop/obs.Logger", "gopkg.in/yaml.v3.Marshaler"}; !reflect.DeepEqual(c.BenignInterfaces, want) {
		t.Errorf("BenignInterfaces = %q, want %q", c.BenignInterfaces, want)
	}
	if c.Path != "authvet.yaml" || len(c.Hash) != 64 {
		t.Errorf("Path, Hash = %q, %q", c.Path, c.Hash)
	}

	// Lookups.
	for _, tc := range []struct {
		pkg, recv, name string
		want            string // Func, or "" for no match
	}{
		{"example.com/shop/queue", "", "Enqueue", "example.com/shop/queue.Enqueue"},
		{"example.com/shop/queue", "", "Dequeue", ""},
		{"example.com/shop/hooks", "Bus", "Dispatch", "example.com/shop/hooks.(*Bus).Dispatch"},
		{"example.com/shop/hooks", "*Bus", "Dispatch", "example.com/shop/hooks.(*Bus).Dispatch"},
		{"example.com/shop/hooks", "", "Dispatch", ""},
		{"example.com/shop/db", "Store", "Exec", "example.com/shop/db.Store.Exec"},
		{"example.com/shop/db", "", "Exec", ""},
		{"gopkg.in/yaml.v3", "", "Marshal", "gopkg.in/yaml.v3.Marshal"},
	} {
		got := c.SinkFor(tc.pkg, tc.recv, tc.name)
		if (got == nil) != (tc.want == "") || got != nil && got.Func != tc.want {
			t.Errorf("SinkFor(%q, %q, %q) = %+v, want %q", tc.pkg, tc.recv, tc.name, got, tc.want)
		}
	}
	if !c.IsBenign("example.com/shop/obs.Logger") || c.IsBenign("example.com/shop/obs.Tracer") {
		t.Error("IsBenign wrong")
	}
	if !c.IsTenantColumn("ORG_ID") || !c.IsTenantColumn("tenant_id") || c.IsTenantColumn("user_id") {
		t.Error("IsTenantColumn wrong")
	}
}

func TestParseDefaults(t *testing.T) {
	for _, text := range []string{"", "# nothing here\n", "~\n", "---\n", "sinks:\nbenign_interfaces: []\n"} {
		c, err := Parse("authvet.yaml", []byte(text))
		if err != nil {
			t.Errorf("Parse(%q): %v", text, err)
			continue
		}
		if !reflect.DeepEqual(c.TenantColumns, []string{"tenant_id"}) || len(c.Sinks) != 0 || len(c.BenignInterfaces) != 0 {
			t.Errorf("Parse(%q) = %+v, want defaults", text, c)
		}
		if c.Hash == "" || c.Path != "authvet.yaml" {
			t.Errorf("Parse(%q): Hash %q Path %q", text, c.Hash, c.Path)
		}
	}
	d := Default()
	if d.Hash != "" || d.Path != "" || !d.IsTenantColumn("Tenant_ID") || d.SinkFor("a", "", "b") != nil || d.IsBenign("a.B") {
		t.Errorf("Default() = %+v", d)
	}
	var nilCfg *Config
	if !nilCfg.IsTenantColumn("tenant_id") || nilCfg.SinkFor("a", "", "b") != nil || nilCfg.IsBenign("a.B") {
		t.Error("nil *Config does not behave as default")
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"unknown top key", "tenant_columns: [a]\nsink: []\n", 2,
			`unknown key "sink" (valid keys: tenant_columns, sinks, clients, benign_interfaces, policy)`},
		{"duplicate top key", "sinks: []\ntenant_columns: [a]\nsinks: []\n", 3, `duplicate key "sinks" (first at line 1)`},
		{"policy without a name", "tenant_columns: [a]\npolicy:\n  rules: []\n", 2,
			`policy: missing required key "name"`},
		{"policy rule unknown key", "policy:\n  name: acme\n  rules:\n    - name: r\n      packages: [example.com/x/...]\n      deny_outbund: [\"http://\"]\n", 6,
			`unknown key "deny_outbund" in policy: rules`},
		{"policy ceiling", "policy:\n  name: acme\n  max_reversibility: sometimes\n", 3,
			`policy: max_reversibility: expected reversible, compensable or irreversible`},
		{"policy outbound", "policy:\n  name: acme\n  allow_outbound:\n    - https://api.x.com/\n    - ftp://x\n", 5,
			`policy: allow_outbound: "ftp://x"`},
		{"policy scope", "policy:\n  name: acme\n  tenant_scopes: [scoped, global]\n", 3,
			`policy: tenant_scopes: "global": expected scoped, cross_tenant or none`},
		{"policy rule packages", "policy:\n  name: acme\n  rules:\n    - name: r\n      packages: [example.com/.../x]\n", 5,
			`"..." is allowed only as a final "/..."`},
		{"policy rule without packages", "policy:\n  name: acme\n  rules:\n    - name: r\n      max_reversibility: reversible\n", 4,
			`rule "r": missing required key "packages"`},
		{"top is a list", "- a\n- b\n", 1, "expected a mapping"},
		{"top is a scalar", "hello\n", 1, "expected a mapping"},
		{"columns scalar", "tenant_columns: x\n", 1, "tenant_columns: expected a list of column names"},
		{"columns mapping", "tenant_columns:\n  a: b\n", 2, "tenant_columns: expected a list of column names"},
		{"columns null", "tenant_columns:\n", 1, "tenant_columns: expected a list of column names"},
		{"columns empty", "tenant_columns: []\n", 1, "tenant_columns: the list is empty"},
		{"column empty string", "tenant_columns:\n  - tenant_id\n  - \"\"\n", 3, `tenant_columns: "" is not a column name`},
		{"column bad ident", "tenant_columns: [tenant_id, 1org]\n", 1, `"1org" is not a column name`},
		{"column with space", "tenant_columns:\n  - org id\n", 2, `"org id" is not a column name`},
		{"column number", "tenant_columns: [12]\n", 1, `"12" is not a column name`},
		{"column list", "tenant_columns: [[a]]\n", 1, "a list is not a column name"},
		{"sinks scalar", "sinks: queue.Enqueue\n", 1, "sinks: expected a list of sinks"},
		{"sink scalar", "sinks:\n  - queue.Enqueue\n", 2, "sinks: expected a mapping with keys func, effect, subject_arg"},
		{"sink unknown key", "sinks:\n  - func: a/b.C\n    effect: job\n    topic: x\n", 4,
			`unknown key "topic" in sinks (valid keys: func, effect, subject_arg, subject, method, safe)`},
		{"sink subject not a string", "sinks:\n  - func: a/b.C\n    effect: job\n    subject: [x]\n", 4,
			`sinks: subject: expected a constant subject`},
		{"sink subject and subject_arg", "sinks:\n  - func: a/b.C\n    effect: job\n    subject: x\n    subject_arg: 0\n", 2,
			`sinks: a/b.C: give subject_arg or subject, not both`},
		{"sink none with subject", "sinks:\n  - func: a/b.C\n    effect: none\n    subject_arg: 0\n", 2,
			`sinks: a/b.C: effect none takes no subject_arg or subject`},
		{"sink method on a job", "sinks:\n  - func: a/b.C\n    effect: job\n    subject: x\n    method: POST\n", 2,
			`sinks: a/b.C: method and safe apply to outbound sinks only`},
		{"sink lower-case method", "sinks:\n  - func: a/b.C\n    effect: outbound\n    subject: https://x.example/\n    method: post\n", 5,
			`sinks: method: expected an HTTP method in capitals`},
		{"sink safe not bool", "sinks:\n  - func: a/b.C\n    effect: outbound\n    subject: https://x.example/\n    safe: yes please\n", 5,
			`sinks: safe: expected true or false`},
		{"sink outbound subject not a URL", "sinks:\n  - func: a/b.C\n    effect: outbound\n    subject: api.example\n", 2,
			`sinks: a/b.C: subject "api.example"`},
		{"sink outbound subject a malformed gRPC method", "sinks:\n  - func: a/b.C\n    effect: outbound\n    subject: grpc:/billing.Billing\n", 2,
			`sinks: a/b.C: subject "grpc:/billing.Billing": gRPC entry`},
		{"clients not a list", "clients: x\n", 1, "clients: expected a list of clients"},
		{"client unknown key", "clients:\n  - packages: [a/b]\n    outbound: https://x.example/\n    url: y\n", 4,
			`unknown key "url" in clients (valid keys: packages, outbound)`},
		{"client missing outbound", "clients:\n  - packages: [a/b]\n", 2, `clients: missing required key "outbound"`},
		{"client missing packages", "clients:\n  - outbound: https://x.example/\n", 2, `clients: missing required key "packages"`},
		{"client empty packages", "clients:\n  - packages: []\n    outbound: https://x.example/\n", 2, "clients: packages: expected a list"},
		{"client bad pattern", "clients:\n  - packages: [a/.../b]\n    outbound: https://x.example/\n", 2, `clients: packages: "a/.../b"`},
		{"client bad prefix", "clients:\n  - packages: [a/b]\n    outbound: ftp://x.example/\n", 3, `clients: outbound "ftp://x.example/"`},
		{"sink duplicate key", "sinks:\n  - func: a/b.C\n    effect: job\n    effect: write\n    subject_arg: 0\n", 4,
			`duplicate key "effect" in sinks (first at line 3)`},
		{"sink missing func", "sinks:\n  - effect: job\n    subject_arg: 0\n", 2, `sinks: missing required key "func"`},
		{"sink missing effect", "sinks:\n  - func: a/b.C\n    subject_arg: 0\n", 2, `sinks: missing required key "effect"`},
		{"sink missing subject_arg", "sinks:\n\n  - func: a/b.C\n    effect: job\n", 3, `sinks: missing required key "subject_arg" (or a constant "subject")`},
		{"func empty", "sinks:\n  - func: \"\"\n    effect: job\n    subject_arg: 0\n", 2, "sinks: func: expected a qualified function name"},
		{"func list", "sinks:\n  - func: [a]\n    effect: job\n    subject_arg: 0\n", 2, "sinks: func: expected a qualified function name"},
		{"func no dot", "sinks:\n  - func: example.com/shop/queue\n    effect: job\n    subject_arg: 0\n", 2, `sinks: func "example.com/shop/queue": want pkgpath.Name`},
		{"func no pkg", "sinks:\n  - func: .Enqueue\n    effect: job\n    subject_arg: 0\n", 2, "missing package path"},
		{"func space", "sinks:\n  - func: example.com/my shop/queue.Enqueue\n    effect: job\n    subject_arg: 0\n", 2, "package path contains a space"},
		{"func bad name", "sinks:\n  - func: example.com/q.9x\n    effect: job\n    subject_arg: 0\n", 2, `name "9x" is not a Go identifier`},
		{"func bad ptr recv", "sinks:\n  - func: example.com/q.(*Bus.Dispatch\n    effect: job\n    subject_arg: 0\n", 2, "want pkgpath.Name"},
		{"func empty ptr recv", "sinks:\n  - func: example.com/q.(*).Dispatch\n    effect: job\n    subject_arg: 0\n", 2, `receiver "" is not a Go identifier`},
		{"effect unknown", "sinks:\n  - func: a/b.C\n    effect: email\n    subject_arg: 0\n", 3,
			`sinks: effect "email" is not one of write, outbound, job, webhook, none`},
		{"effect list", "sinks:\n  - func: a/b.C\n    effect: [job]\n    subject_arg: 0\n", 3, "sinks: effect a list is not one of"},
		{"subject_arg negative", "sinks:\n  - func: a/b.C\n    effect: job\n    subject_arg: -1\n", 4, "sinks: subject_arg: expected an argument index"},
		{"subject_arg string", "sinks:\n  - func: a/b.C\n    effect: job\n    subject_arg: \"1\"\n", 4, "sinks: subject_arg: expected an argument index"},
		{"subject_arg float", "sinks:\n  - func: a/b.C\n    effect: job\n    subject_arg: 1.5\n", 4, "sinks: subject_arg: expected an argument index"},
		{"subject_arg null", "sinks:\n  - func: a/b.C\n    effect: job\n    subject_arg:\n", 4, "got an empty value"},
		{"duplicate sink", "sinks:\n  - func: a/b.(*C).D\n    effect: job\n    subject_arg: 0\n  - func: a/b.C.D\n    effect: write\n    subject_arg: 1\n", 5,
			"sinks: duplicate sink for a/b.C.D (first at line 2)"},
		{"benign scalar", "benign_interfaces: a/b.C\n", 1, "benign_interfaces: expected a list"},
		{"benign unqualified", "benign_interfaces: [Logger]\n", 1, `benign_interfaces: "Logger": want pkgpath.Name`},
		{"benign dot in dir only", "benign_interfaces: [example.com/obs]\n", 1, `want pkgpath.Name`},
		{"benign bad name", "benign_interfaces:\n  - example.com/obs.\n", 2, `name "" is not a Go identifier`},
		{"benign number", "benign_interfaces: [1]\n", 1, `"1" is not a qualified interface name`},
		{"yaml syntax", "tenant_columns: [a\nsinks: []\n", 1, "did not find expected"},
		{"yaml tab", "sinks:\n\t- func: a\n", 2, "found character that cannot start any token"},
		{"yaml bad anchor", "tenant_columns: *cols\n", 0, "unknown anchor 'cols' referenced"},
		{"two documents", "tenant_columns: [a]\n---\nsinks: []\n", 2, "only one YAML document is allowed"},
		{"complex key", "? [a]\n: b\n", 1, "expected a key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("conf/authvet.yaml", []byte(tc.text))
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", c)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if e.Path != "conf/authvet.yaml" {
				t.Errorf("Path = %q", e.Path)
			}
			if e.Line != tc.line {
				t.Errorf("Line = %d, want %d (%v)", e.Line, tc.line, err)
			}
			if !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("Msg = %q, want it to contain %q", e.Msg, tc.msg)
			}
			if strings.HasPrefix(e.Msg, "yaml:") || strings.Contains(e.Msg, "line ") && strings.HasPrefix(tc.name, "yaml") {
				t.Errorf("Msg %q still carries yaml's prefix", e.Msg)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	for _, tc := range []struct {
		e    *Error
		want string
	}{
		{&Error{Path: "authvet.yaml", Line: 7, Msg: `unknown key "sink"`}, `authvet.yaml:7: unknown key "sink"`},
		{&Error{Path: "x/authvet.yaml", Msg: "boom"}, "x/authvet.yaml: boom"},
		{&Error{Line: 2, Msg: "boom"}, "authvet.yaml:2: boom"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
	_, err := Parse("authvet.yaml", []byte("tenant_columns: [a]\nsink: []\n"))
	want := `authvet.yaml:2: unknown key "sink" (valid keys: tenant_columns, sinks, clients, benign_interfaces, policy)`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestHashStable(t *testing.T) {
	a, err := Parse("a.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("b.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash != b.Hash {
		t.Errorf("hash depends on path: %s vs %s", a.Hash, b.Hash)
	}
	c, err := Parse("a.yaml", []byte(full+"# comment\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Hash == a.Hash {
		t.Error("hash did not change with content")
	}
	// sha256 of the empty input.
	e, err := Parse("e.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"; e.Hash != want {
		t.Errorf("empty hash = %s, want %s", e.Hash, want)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindAndLoad(t *testing.T) {
	root := t.TempDir()
	// root/authvet.yaml sits above the module: Find must not reach it.
	write(t, filepath.Join(root, FileName), "tenant_columns: [outer]\n")
	mod := filepath.Join(root, "mod")
	write(t, filepath.Join(mod, "go.mod"), "module example.com/m\n")
	deep := filepath.Join(mod, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}

	if got := Find(deep); got != "" {
		t.Errorf("Find without a config in the module = %q, want \"\"", got)
	}

	write(t, filepath.Join(mod, FileName), "tenant_columns: [org_id]\n")
	want := filepath.Join(mod, FileName)
	if got := Find(deep); got != want {
		t.Errorf("Find(deep) = %q, want %q", got, want)
	}
	if got := Find(mod); got != want {
		t.Errorf("Find(mod) = %q, want %q", got, want)
	}

	// A nearer config wins.
	nearer := filepath.Join(mod, "a", FileName)
	write(t, nearer, "")
	if got := Find(deep); got != nearer {
		t.Errorf("Find(deep) = %q, want %q", got, nearer)
	}

	// A directory named authvet.yaml is not a config.
	other := filepath.Join(root, "other")
	write(t, filepath.Join(other, "go.mod"), "module example.com/o\n")
	if err := os.MkdirAll(filepath.Join(other, "x", FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(filepath.Join(other, "x")); got != "" {
		t.Errorf("Find(other/x) = %q, want \"\"", got)
	}

	// Relative directories work.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(deep)
	if got := Find("."); got != nearer {
		t.Errorf("Find(\".\") = %q, want %q", got, nearer)
	}
	t.Chdir(wd)

	c, err := Load(want)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != want || !c.IsTenantColumn("ORG_ID") || c.IsTenantColumn("tenant_id") {
		t.Errorf("Load = %+v", c)
	}

	_, err = Load(filepath.Join(root, "missing.yaml"))
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, fs.ErrNotExist) || e.Line != 0 {
		t.Errorf("Load(missing) = %v", err)
	}
	if err != nil && strings.Count(err.Error(), "missing.yaml") != 1 {
		t.Errorf("Load(missing) error repeats the path: %v", err)
	}

	write(t, filepath.Join(root, "bad.yaml"), "sinks: []\nsinks: []\n")
	if _, err := Load(filepath.Join(root, "bad.yaml")); err == nil || !strings.Contains(err.Error(), "bad.yaml:2: duplicate key") {
		t.Errorf("Load(bad) = %v", err)
	}
}

func TestNoPanic(t *testing.T) {
	for _, text := range []string{
		"\x00", "[", "{", "a: &a [*a]\n", "sinks: &s\n  - *s\n", "sinks:\n  - &m {func: a/b.C, effect: job, subject_arg: 0}\n  - *m\n",
		"tenant_columns: !!binary aGVsbG8=\n", "<<: {a: b}\n", "sinks: [{<<: {func: a/b.C}}]\n",
	} {
		_, err := Parse("authvet.yaml", []byte(text))
		if err == nil {
			t.Errorf("Parse(%q) succeeded", text)
		} else if _, ok := err.(*Error); !ok {
			t.Errorf("Parse(%q) error %T", text, err)
		}
	}
}
