package effects

import (
	"go/types"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/authvet/authvet/internal/argcheck"
)

// TestStdArgs checks the argument table's standard-library rows against
// the real signatures (the pinned libraries' rows are checked by
// internal/realtest).
func TestStdArgs(t *testing.T) {
	table := NamedArgs()
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		t.Fatalf("go list std: %v", err)
	}
	patterns := argcheck.Packages(table, strings.Fields(string(out)))
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]*types.Package{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		byPath[p.PkgPath] = p.Types
	}
	checked, problems := argcheck.Check(table, byPath)
	for _, p := range problems {
		t.Error(p)
	}
	if checked < 40 {
		t.Errorf("checked %d standard-library rows, want the table's (at least 40)", checked)
	}
}
