package analyzer_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/authvet/authvet/analyzer"
)

// testdata is the module's top-level testdata directory (SPEC §1).
func testdata(t *testing.T) string {
	dir, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// factsAsWanted wraps a test so that facts nobody wrote a `want` for are
// not errors: every function's summary is a fact, and spelling each one
// out would drown the diagnostics the fixtures are about. Facts that are
// wanted are still checked, and so is every diagnostic.
type factsAsWanted struct{ *testing.T }

func (f factsAsWanted) Errorf(format string, args ...any) {
	if strings.Contains(format, "unexpected %s") && len(args) >= 2 && args[1] == "fact" {
		return
	}
	f.T.Errorf(format, args...)
}

func run(t *testing.T, pkgs ...string) {
	t.Helper()
	analysistest.Run(factsAsWanted{t}, testdata(t), analyzer.Analyzer, pkgs...)
}

func TestSQL(t *testing.T) { run(t, "sqlfix") }

func TestHTTP(t *testing.T)         { run(t, "httpfix", "httpfix/protocol", "httpfix/proxyenv") }
func TestConcurrency(t *testing.T)  { run(t, "concurrency") }
func TestDynamic(t *testing.T)      { run(t, "dynamic") }
func TestHatch(t *testing.T)        { run(t, "hatch") }
func TestFloor(t *testing.T)        { run(t, "floor") }
func TestGrants(t *testing.T)       { run(t, "grants") }
func TestDirectives(t *testing.T)   { run(t, "directives") }
func TestCrossPackage(t *testing.T) { run(t, "crosspkg/handlers", "crosspkg/blank") }

// TestConfiguredSinks runs with testdata/authvet-sinks.yaml: in-house
// sinks, extra tenant columns and a benign interface.
func TestConfiguredSinks(t *testing.T) {
	cfg := filepath.Join(testdata(t), "authvet-sinks.yaml")
	if err := analyzer.Analyzer.Flags.Set("config", cfg); err != nil {
		t.Fatal(err)
	}
	defer analyzer.Analyzer.Flags.Set("config", "")
	run(t, "sinks")
}

// TestPolicy judges grants against testdata/authvet-policy.yaml: every
// order case, at the grant's offending element; conforming grants stay
// silent.
func TestPolicy(t *testing.T) {
	cfg := filepath.Join(testdata(t), "authvet-policy.yaml")
	if err := analyzer.Analyzer.Flags.Set("config", cfg); err != nil {
		t.Fatal(err)
	}
	defer analyzer.Analyzer.Flags.Set("config", "")
	run(t, "policy/pay", "policy/payments", "policy/batch", "policy/other")
}

func TestLibraries(t *testing.T)    { run(t, "libs") }
func TestContracts(t *testing.T)    { run(t, "contracts/impl", "contracts/handlers") }
func TestRecursion(t *testing.T)    { run(t, "recursion") }
func TestBodiless(t *testing.T)     { run(t, "bodiless") }
func TestTransactions(t *testing.T) { run(t, "txspan") }

// TestClasses runs the fail-closed corpus: one package per class of
// evasion (testdata/src/classes/<class>), each shape with a clean twin.
func TestClasses(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(testdata(t), "src", "classes", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		class := filepath.Base(d)
		t.Run(class, func(t *testing.T) { run(t, "classes/"+class) })
	}
}
