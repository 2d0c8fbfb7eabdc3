package effects

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// TestSpentRecursion: a recursive function whose walk runs out of budget
// keeps an unprovable site, and so does every function of its cycle,
// though recursion does not walk it again (Engine.spent).
func TestSpentRecursion(t *testing.T) {
	// Rec's body calls a tower of closures, each calling the next
	// twice: 2^18 closure walks, past any budget.
	var b strings.Builder
	b.WriteString("package p\n\nfunc Rec(n int) {\n")
	const levels = 18
	fmt.Fprintf(&b, "\tc%d := func() { println(n) }\n", levels)
	for i := levels - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "\tc%d := func() { c%d(); c%d() }\n", i, i+1, i+1)
	}
	b.WriteString("\tc0()\n\tif n > 0 {\n\t\tOther(n - 1)\n\t}\n}\n\n")
	b.WriteString("func Other(n int) { Rec(n) }\n")

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", b.String(), 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	rec, other := pkg.Func("Rec"), pkg.Func("Other")
	// A walk that runs out at an instruction with no position of its
	// own (a block's synthetic first instruction) places the site at the
	// nearest function that has one, never at no position ("-:0").
	probe := &Engine{Fset: fset, Pkg: pkg.Pkg, Prog: pkg.Prog, Module: "p", budget: -1}
	inner := &frame{fn: rec.AnonFuncs[0], parent: &frame{fn: rec}}
	if hit := probe.boundHit(token.NoPos, inner); hit.Pos.Line == 0 || hit.Kind != Unprovable {
		t.Errorf("a bound hit with no position of its own: %+v", hit)
	}
	e := &Engine{Fset: fset, Pkg: pkg.Pkg, Prog: pkg.Prog, Module: "p"}
	sums := e.Summaries([]*ssa.Function{other, rec})
	if !e.spent[rec] {
		t.Fatal("Rec's walk did not run out of budget; the test no longer tests anything")
	}
	for _, fn := range []*ssa.Function{rec, other} {
		found := false
		for _, eff := range sums[fn].Effects {
			if eff.Kind == Unprovable && strings.Contains(eff.Reason, "past the analysis budget") {
				found = true
				if eff.Pos.Line == 0 {
					t.Errorf("%s: the budget's unprovable site has no position", fn.Name())
				}
			}
		}
		if !found {
			t.Errorf("%s: summary %+v has no unprovable site for the spent budget", fn.Name(), sums[fn].Effects)
		}
	}
}
