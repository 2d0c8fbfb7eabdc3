//go:build !race

// The race run repeats the same analysis over the same libraries: this
// test runs in the plain run only.

package realtest_test

import (
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/authvet/authvet/analyzer"
	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/internal/argcheck"
)

// TestRealLibraries runs the fixtures of testdata/libmod, a module that
// pins the real versions of the libraries authvet models (gRPC, Temporal,
// go-redis, NATS, kafka-go, squirrel, bun, ...): each model is proved on
// the library's own API, not on a stub. The module's authvet.yaml
// configures the Redis queues. The modules are downloaded once through the
// module proxy; the test is skipped, saying so, when it cannot be reached.
func TestRealLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads the pinned libraries: not in -short mode")
	}
	dir := libmod(t)
	if err := analyzer.Analyzer.Flags.Set("config", filepath.Join(dir, "authvet.yaml")); err != nil {
		t.Fatal(err)
	}
	defer analyzer.Analyzer.Flags.Set("config", "")
	// The fixture services: argsrc only brings libraries into the build
	// list for TestLibraryArgs.
	svcs, err := filepath.Glob(filepath.Join(dir, "*svc"))
	if err != nil || len(svcs) == 0 {
		t.Fatalf("no fixture services in %s: %v", dir, err)
	}
	var patterns []string
	for _, s := range svcs {
		patterns = append(patterns, "./"+filepath.Base(s)+"/...")
	}
	analysistest.Run(factsAsWanted{t}, dir, analyzer.Analyzer, patterns...)
}

// TestLibraryArgs checks the rows of authvet's argument table that name
// a library pinned in testdata/libmod against the library's real
// signatures: each row's parameter sits at its index (the standard
// library's rows are checked in package effects).
func TestLibraryArgs(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads the pinned libraries: not in -short mode")
	}
	dir := libmod(t)
	// The packages of the module's build graph, the standard library's
	// left to package effects.
	list := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...")
	list.Dir = dir
	list.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	table := effects.NamedArgs()
	patterns := argcheck.Packages(table, strings.Fields(string(out)))
	// Every library with rows is pinned here but for Stripe's majors
	// other than v82: a row whose library is not in the graph is named.
	for name := range table {
		first, _, slash := strings.Cut(name, "/")
		if !slash || !strings.Contains(first, ".") || strings.HasPrefix(name, "github.com/stripe/stripe-go/") && !strings.HasPrefix(name, "github.com/stripe/stripe-go/v82.") {
			continue
		}
		found := false
		for _, p := range patterns {
			if strings.HasPrefix(name, p+".") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: its library is not in testdata/libmod's build graph", name)
		}
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes, Dir: dir, Env: append(os.Environ(), "GOFLAGS=-mod=mod")}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*types.Package{}
	for _, p := range pkgs {
		if len(p.Errors) == 0 && p.Types != nil {
			byPath[p.PkgPath] = p.Types
		}
	}
	for _, p := range patterns {
		if byPath[p] == nil {
			t.Errorf("%s: does not load in testdata/libmod", p)
		}
	}
	checked, problems := argcheck.Check(table, byPath)
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("checked %d rows against %d libraries", checked, len(byPath))
}

// factsAsWanted: every function's summary is a fact, and spelling each
// one out would drown the diagnostics the fixtures are about; every
// diagnostic is still checked.
type factsAsWanted struct{ *testing.T }

func (f factsAsWanted) Errorf(format string, args ...any) {
	if strings.Contains(format, "unexpected %s") && len(args) >= 2 && args[1] == "fact" {
		return
	}
	f.T.Errorf(format, args...)
}

// libmod returns testdata/libmod with its pinned libraries downloaded,
// or skips the test, saying why, when the module proxy cannot be reached.
func libmod(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../testdata/libmod")
	if err != nil {
		t.Fatal(err)
	}
	dl := exec.Command("go", "mod", "download")
	dl.Dir = dir
	dl.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := dl.CombinedOutput(); err != nil {
		t.Skipf("the module proxy cannot be reached, so the pinned libraries cannot be downloaded: %v\n%s", err, out)
	}
	return dir
}

// TestEntUnderVet runs go vet -vettool on entsvc/api, which uses the ent
// client without importing its entity packages. Under go vet the client
// package's types come from export data, where that import may be
// missing: the tables (and the edges' join tables) come from the client
// package's fact. analysistest loads every package from source, so it
// cannot see this.
func TestEntUnderVet(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads the pinned libraries: not in -short mode")
	}
	dir := libmod(t)
	bin := filepath.Join(t.TempDir(), "authvet")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/authvet").CombinedOutput(); err != nil {
		t.Fatalf("build authvet: %v\n%s", err, out)
	}
	vet := exec.Command("go", "vet", "-vettool="+bin, "-authvet.config="+filepath.Join(dir, "authvet.yaml"), "./entsvc/api")
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, _ := vet.CombinedOutput()
	var got []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "agent authority: ") {
			got = append(got, l[strings.Index(l, "agent authority: ")+len("agent authority: "):])
		}
	}
	for _, want := range []string{`(*Server).Pay writes "orders"`, `(*Server).Join writes "user_groups"`} {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, want)
		}
		if !found {
			t.Errorf("go vet did not report %q; it printed:\n%s", want, out)
		}
	}
	if len(got) != 2 {
		t.Errorf("go vet reported %d findings, want 2 (Create is within its grant):\n%s", len(got), out)
	}
}
