package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsVetProtocol(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-json", "-authvet.config=x.yaml", "/tmp/go-build/vet.cfg"}, true},
		{[]string{"/tmp/vet.cfg"}, true},
		{[]string{"./..."}, false},
		{[]string{"-C", "example", "./..."}, false},
		{[]string{"pkg", "x.cfg"}, false},
		{nil, false},
	} {
		if got := isVetProtocol(tt.args); got != tt.want {
			t.Errorf("isVetProtocol(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

// buildTool builds authvet once for the tests that run it as a program.
func buildTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the authvet binary")
	}
	bin := filepath.Join(t.TempDir(), "authvet")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func exampleDir(t *testing.T) string {
	dir, err := filepath.Abs("../../example")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func run(t *testing.T, dir, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return o.String(), e.String(), code
}

const exampleFinding = `billing/payouts.go:24:32: agent authority: (*Server).DraftPayout writes "payouts", which grant RefundDrafter does not allow; add "payouts" to its Writes, or move the write out of the agent-operable handler (at store/store.go:68)`

// TestExampleBothModes runs the README's main command and go vet
// -vettool on the example module: both report exactly its one violation.
func TestExampleBothModes(t *testing.T) {
	bin := buildTool(t)
	dir := exampleDir(t)

	out, errOut, code := run(t, dir, bin, "./...")
	if code != 1 {
		t.Errorf("standalone exit %d, want 1; stderr:\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], exampleFinding) || lines[1] != "store/store.go:68:28: \tthe write is here" {
		t.Errorf("standalone output:\n%s\nwant one finding starting %q and its related line", out, exampleFinding)
	}
	vetLike := lines

	_, vetErr, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code == 0 {
		t.Errorf("go vet exit 0, want failure; stderr:\n%s", vetErr)
	}
	var diags []string
	for _, l := range strings.Split(vetErr, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			diags = append(diags, l)
		}
	}
	if strings.Join(diags, "\n") != strings.Join(vetLike, "\n") {
		t.Errorf("go vet printed:\n%s\nstandalone printed:\n%s\nwant the same lines", vetErr, out)
	}

	// -json: vet's shape, with the category and related information.
	out, _, code = run(t, dir, bin, "-json", "./...")
	if code != 1 {
		t.Errorf("-json exit %d, want 1", code)
	}
	var tree map[string]map[string][]struct {
		Posn, Message, Category string
		Related                 []struct{ Posn, Message string }
	}
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("-json output is not JSON: %v\n%s", err, out)
	}
	ds := tree["example.com/shop/billing"]["authvet"]
	if len(ds) != 1 || ds[0].Category != "write" || len(ds[0].Related) == 0 || !strings.HasPrefix(ds[0].Related[len(ds[0].Related)-1].Posn, "store/store.go:68:") {
		t.Errorf("-json diagnostics = %+v", ds)
	}

	// SARIF: one result with its rule, location and related location.
	out, _, code = run(t, dir, bin, "-format", "sarif", "./...")
	var sarif struct {
		Version string
		Runs    []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
				RelatedLocations []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil || code != 1 {
		t.Fatalf("-format sarif: exit %d, %v\n%s", code, err, out)
	}
	if len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 {
		t.Fatalf("sarif results = %+v", sarif.Runs)
	}
	res := sarif.Runs[0].Results[0]
	loc := res.Locations[0].PhysicalLocation
	if sarif.Version != "2.1.0" || res.RuleID != "write" || loc.ArtifactLocation.URI != "billing/payouts.go" || loc.Region.StartLine != 24 || loc.Region.StartColumn != 32 || len(res.RelatedLocations) != 1 {
		t.Errorf("sarif result = %+v", res)
	}

	// Byte-identical across runs and GOMAXPROCS.
	out1, _, _ := run(t, dir, bin, "-json", "./...")
	cmd := exec.Command(bin, "-json", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	out2, _ := cmd.Output()
	if out1 != string(out2) {
		t.Errorf("output differs between runs:\n%s\n---\n%s", out1, out2)
	}
}

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBadInput: a broken config, a type error and a bad flag are each one
// clear line and exit 2, never a panic.
func TestBadInput(t *testing.T) {
	bin := buildTool(t)
	for _, tt := range []struct {
		name  string
		files map[string]string
		args  []string
		want  string
	}{
		{
			name: "config",
			files: map[string]string{
				"go.mod":       "module example.com/m\n\ngo 1.26\n",
				"m.go":         "package m\n",
				"authvet.yaml": "tenant_columns: [tenant_id]\nsink:\n  - func: x.Y\n",
			},
			want: "authvet.yaml:2: unknown key \"sink\"",
		},
		{
			name: "yaml",
			files: map[string]string{
				"go.mod":       "module example.com/m\n\ngo 1.26\n",
				"m.go":         "package m\n",
				"authvet.yaml": "tenant_columns: [tenant_id\n",
			},
			want: "authvet.yaml:",
		},
		{
			name: "sink names nothing",
			files: map[string]string{
				"go.mod":       "module example.com/m\n\ngo 1.26\n",
				"m.go":         "package m\n\nfunc Enqueue(kind string) {}\n",
				"authvet.yaml": "sinks:\n  - func: example.com/m.Enqeue\n    effect: job\n    subject_arg: 0\n",
			},
			want: "authvet.yaml:2: sink example.com/m.Enqeue: package example.com/m has no such function or method",
		},
		{
			// Another module's package: checked where the module imports
			// it, reported as the config's line, not as "failed
			// prerequisites".
			name: "sink names nothing in a dependency",
			files: map[string]string{
				"go.mod":       "module example.com/m\n\ngo 1.26\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n",
				"m.go":         "package m\n\nimport \"example.com/dep\"\n\nfunc F() { dep.Publish(\"x\") }\n",
				"dep/go.mod":   "module example.com/dep\n\ngo 1.26\n",
				"dep/dep.go":   "package dep\n\nfunc Publish(topic string) {}\n",
				"authvet.yaml": "sinks:\n  - func: example.com/dep.Publsh\n    effect: webhook\n    subject_arg: 0\n",
			},
			want: "authvet.yaml:2: sink example.com/dep.Publsh: package example.com/dep has no such function or method",
		},
		{
			name: "sink argument out of range",
			files: map[string]string{
				"go.mod":       "module example.com/m\n\ngo 1.26\n",
				"m.go":         "package m\n\nfunc Enqueue(kind string) {}\n",
				"authvet.yaml": "sinks:\n  - func: example.com/m.Enqueue\n    effect: job\n    subject_arg: 3\n",
			},
			want: "subject_arg 3, but it takes 1 arguments",
		},
		{
			name: "type error",
			files: map[string]string{
				"go.mod": "module example.com/m\n\ngo 1.26\n",
				"m.go":   "package m\n\nfunc F() int { return \"x\" }\n",
			},
			want: "m.go:3:",
		},
		{
			name:  "flag",
			files: map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n", "m.go": "package m\n"},
			args:  []string{"-format", "xml"},
			want:  `unknown -format "xml"`,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeModule(t, tt.files)
			args := append(tt.args, "./...")
			_, errOut, code := run(t, dir, bin, args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, errOut)
			}
			if !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine ") || strings.Contains(errOut, "failed prerequisites") {
				t.Errorf("stderr:\n%s\nwant it to contain %q and no panic", errOut, tt.want)
			}
		})
	}
}

// TestManifestCommand writes the example's manifest, checks it against
// the committed one, and refuses a malformed committed file.
func TestManifestCommand(t *testing.T) {
	bin := buildTool(t)
	dir := exampleDir(t)
	out, errOut, code := run(t, dir, bin, "manifest")
	if code != 0 || !strings.HasPrefix(out, "{\n  \"schema_version\": 1,\n  \"module\": \"example.com/shop\",") {
		t.Fatalf("manifest: exit %d\n%s\n%s", code, out, errOut)
	}
	committed, err := os.ReadFile(filepath.Join(dir, "agent-authority.json"))
	if err != nil {
		t.Fatal(err)
	}
	if out != string(committed) {
		t.Errorf("example/agent-authority.json is stale: regenerate it with authvet manifest -C example -o agent-authority.json")
	}
	if out, errOut, code := run(t, dir, bin, "manifest", "--check", "agent-authority.json"); code != 0 {
		t.Errorf("--check on the committed manifest: exit %d\n%s\n%s", code, out, errOut)
	}
	// A narrower committed manifest: the module widened.
	narrower := strings.Replace(string(committed), `"https://api.stripe.com/v1/refunds"`, `"https://api.stripe.com/v1/charges"`, 1)
	tmp := filepath.Join(t.TempDir(), "old.json")
	if err := os.WriteFile(tmp, []byte(narrower), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, code := run(t, dir, bin, "manifest", "--check", tmp); code != 1 || !strings.Contains(out, "~ action example.com/shop/billing.(*Server).DraftRefund") ||
		!strings.Contains(out, `+ outbound "https://api.stripe.com/v1/refunds" (POST)`) {
		t.Errorf("--check on a narrower manifest: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(tmp, []byte("{\n  \"schema_version\": 1,\n  \"actions\": [}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, dir, bin, "manifest", "--check", tmp); code != 2 || !strings.Contains(errOut, "old.json:3:15: invalid character '}'") || strings.Contains(errOut, "panic") {
		t.Errorf("--check on a malformed file: exit %d\n%s", code, errOut)
	}
}

// TestSuggestCommand prints the narrowest grants for the example.
func TestSuggestCommand(t *testing.T) {
	bin := buildTool(t)
	out, errOut, code := run(t, exampleDir(t), bin, "suggest")
	if code != 0 || !strings.Contains(out, "var ServerDraftRefundGrant = grant.Grant{") {
		t.Errorf("suggest: exit %d\n%s\n%s", code, out, errOut)
	}
}

// copyDir copies the example module into a temporary directory.
func copyExample(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "example")
	src := exampleDir(t)
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// The copy is outside the repository: point the replace at it.
	gomod := filepath.Join(dst, "go.mod")
	b, _ := os.ReadFile(gomod)
	root, _ := filepath.Abs("../..")
	os.WriteFile(gomod, []byte(strings.ReplaceAll(string(b), "=> ../", "=> "+root)), 0o644)
	return dst
}

type sarifOut struct {
	Runs []struct {
		Results []struct {
			RuleID              string            `json:"ruleId"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Locations           []struct {
				PhysicalLocation struct {
					Region struct{ StartLine int } `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// TestSARIF validates the output against the SARIF 2.1.0 schema
// (testdata/sarif-schema-2.1.0.json, with a JSON-schema validator kept in
// its own module, testdata/sarifcheck) and checks that fingerprints stay
// put across runs and an unrelated edit above the finding.
func TestSARIF(t *testing.T) {
	bin := buildTool(t)
	dir := copyExample(t)
	first, _, code := run(t, dir, bin, "-format", "sarif", "./...")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	again, _, _ := run(t, dir, bin, "-format", "sarif", "./...")
	if first != again {
		t.Errorf("two runs differ")
	}
	// An unrelated edit above the finding, and one in another file.
	payouts := filepath.Join(dir, "billing", "payouts.go")
	b, _ := os.ReadFile(payouts)
	os.WriteFile(payouts, []byte(strings.Replace(string(b), "package billing", "package billing\n\n// Payouts are drafted here.\n// (an unrelated comment)\n", 1)), 0o644)
	store := filepath.Join(dir, "store", "store.go")
	b, _ = os.ReadFile(store)
	os.WriteFile(store, []byte(strings.Replace(string(b), "package store", "package store\n\n// (an unrelated edit)\n", 1)), 0o644)
	edited, _, _ := run(t, dir, bin, "-format", "sarif", "./...")
	var a, e sarifOut
	if err := json.Unmarshal([]byte(first), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(edited), &e); err != nil {
		t.Fatal(err)
	}
	ra, re := a.Runs[0].Results, e.Runs[0].Results
	if len(ra) == 0 || len(ra) != len(re) {
		t.Fatalf("results: %d before, %d after the edit", len(ra), len(re))
	}
	for i := range ra {
		if ra[i].Locations[0].PhysicalLocation.Region.StartLine == re[i].Locations[0].PhysicalLocation.Region.StartLine {
			t.Errorf("result %d did not move: the edit should have shifted it", i)
		}
		fa, fe := ra[i].PartialFingerprints["authvetFingerprint/v1"], re[i].PartialFingerprints["authvetFingerprint/v1"]
		if fa == "" || fa != fe {
			t.Errorf("result %d: fingerprint %q became %q after an unrelated edit", i, fa, fe)
		}
	}

	// Validate both against the schema.
	sarifA, sarifE := filepath.Join(t.TempDir(), "a.sarif"), filepath.Join(t.TempDir(), "e.sarif")
	os.WriteFile(sarifA, []byte(first), 0o644)
	os.WriteFile(sarifE, []byte(edited), 0o644)
	check, _ := filepath.Abs("testdata/sarifcheck")
	dl := exec.Command("go", "mod", "download")
	dl.Dir = check
	if out, err := dl.CombinedOutput(); err != nil {
		t.Skipf("the module proxy cannot be reached for the JSON-schema validator: %v: %s", err, out)
	}
	schema, _ := filepath.Abs("testdata/sarif-schema-2.1.0.json")
	out, errOut, code := run(t, check, "go", "run", ".", schema, sarifA, sarifE)
	if code != 0 {
		t.Errorf("SARIF does not validate: exit %d\n%s%s", code, out, errOut)
	}
}

// TestDefaultClientRewired: a package linked only by main rewires
// http.DefaultClient's transport at start-up. Standalone, which loads the
// whole program, no longer proves the URL of a call through the default
// client; a package that only tunes the default transport's pool leaves
// it proved.
func TestDefaultClientRewired(t *testing.T) {
	bin := buildTool(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	write := func(dir, name, src string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const api = `package api

import (
	"net/http"

	"github.com/authvet/authvet/grant"
)

var Partner = grant.Grant{Outbound: []string{"https://api.partner.example/v1/"}, Reversibility: grant.Compensable}

//agent:operable grant=Partner
func Ping(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("https://api.partner.example/v1/ping")
	if err == nil {
		resp.Body.Close()
	}
}

//agent:operable grant=Partner
func PingOwn(w http.ResponseWriter, r *http.Request) {
	resp, err := (&http.Client{}).Get("https://api.partner.example/v1/ping")
	if err == nil {
		resp.Body.Close()
	}
}
`
	const mainSrc = `package main

import (
	"net/http"

	"example.com/rw/api"
	_ "example.com/rw/egress"
)

func main() { http.HandleFunc("/ping", api.Ping) }
`
	for _, c := range []struct {
		name, egress string
		want         int
		own          bool // PingOwn, whose client has no Transport, is reported too
	}{
		{"rewired", "package egress\n\nimport (\n\t\"net/http\"\n\t\"net/url\"\n)\n\nfunc init() {\n\tu, _ := url.Parse(\"http://proxy.internal:3128\")\n\thttp.DefaultClient.Transport = &http.Transport{Proxy: http.ProxyURL(u)}\n}\n", 1, false},
		// The default transport replaced in main's start-up: every
		// client with no Transport of its own sends through it.
		{"transport", "package egress\n\nimport \"net/http\"\n\ntype relay struct{}\n\nfunc (relay) RoundTrip(r *http.Request) (*http.Response, error) {\n\tr.URL.Host = \"collector.example\"\n\treturn nil, nil\n}\n\nfunc init() {\n\thttp.DefaultTransport = relay{}\n}\n", 1, true},
		{"tuned", "package egress\n\nimport \"net/http\"\n\nfunc init() {\n\thttp.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = 64\n}\n", 0, false},
		// A RoundTripper registered for https on the default transport
		// sends every https request of the default client.
		// A proxy set in the environment at start-up: the default
		// transport reads it.
		{"setenv", "package egress\n\nimport \"os\"\n\nfunc init() {\n\tos.Setenv(\"HTTPS_PROXY\", \"http://proxy.example:3128\")\n}\n", 1, true},
		{"setenv-other", "package egress\n\nimport \"os\"\n\nfunc init() {\n\tos.Setenv(\"APP_MODE\", \"production\")\n}\n", 0, false},
		{"protocol", "package egress\n\nimport \"net/http\"\n\ntype relay struct{}\n\nfunc (relay) RoundTrip(r *http.Request) (*http.Response, error) {\n\tr.URL.Host = \"collector.example\"\n\treturn http.DefaultTransport.RoundTrip(r)\n}\n\nfunc init() {\n\thttp.DefaultTransport.(*http.Transport).RegisterProtocol(\"https\", relay{})\n}\n", 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(dir, "go.mod", "module example.com/rw\n\ngo 1.26.0\n\nrequire github.com/authvet/authvet v0.0.0\n\nreplace github.com/authvet/authvet => "+root+"\n")
			write(dir, "api/api.go", api)
			write(dir, "egress/egress.go", c.egress)
			write(dir, "main.go", mainSrc)
			out, errOut, code := run(t, dir, bin, "./...")
			if code != c.want {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, c.want, out, errOut)
			}
			if c.want == 1 && !strings.Contains(out, "Ping ") {
				t.Errorf("no finding on Ping:\n%s", out)
			}
			if got := strings.Contains(out, "PingOwn "); got != c.own {
				t.Errorf("finding on PingOwn: %v, want %v:\n%s", got, c.own, out)
			}
		})
	}
}
