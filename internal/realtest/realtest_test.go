//go:build !race

// The race run repeats the same analysis over the same libraries: this
// test runs in the plain run only.

package realtest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"strings"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/authvet/authvet/analyzer"
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
	if err := analyzer.Analyzer.Flags.Set("config", filepath.Join(dir, "authvet.yaml")); err != nil {
		t.Fatal(err)
	}
	defer analyzer.Analyzer.Flags.Set("config", "")
	analysistest.Run(factsAsWanted{t}, dir, analyzer.Analyzer, "./...")
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
