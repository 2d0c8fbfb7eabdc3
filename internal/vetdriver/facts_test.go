package vetdriver

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// gobFact travels as a gob stream.
type gobFact struct{ S string }

func (*gobFact) AFact() {}

// selfFact encodes itself, as effects.Summary does.
type selfFact struct{ S string }

func (*selfFact) AFact()                       {}
func (f *selfFact) GobEncode() ([]byte, error) { return []byte(f.S), nil }
func (f *selfFact) GobDecode(b []byte) error   { f.S = string(b); return nil }

var factTypes = []analysis.Fact{new(gobFact), new(selfFact)}

func check(t *testing.T, fset *token.FileSet, path, src string, imp types.Importer) *types.Package {
	t.Helper()
	f, err := parser.ParseFile(fset, path+".go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: imp}).Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

type mapImporter map[string]*types.Package

func (m mapImporter) Import(path string) (*types.Package, error) {
	if p, ok := m[path]; ok {
		return p, nil
	}
	return importer.Default().Import(path)
}

// TestFactsTravel checks which facts reach an importer, and which the
// importer passes on: a package's own facts reach its direct importers;
// facts about methods and types travel on, those about package-level
// functions and packages do not (their own package's file has them).
func TestFactsTravel(t *testing.T) {
	fset := token.NewFileSet()
	c := check(t, fset, "c", `package c
type T struct{ X int }
func (T) M() {}
func F() {}
`, nil)
	b := check(t, fset, "b", `package b
import "c"
func G() c.T { return c.T{} }
`, mapImporter{"c": c})
	a := check(t, fset, "a", `package a
import "b"
var _ = b.G
`, mapImporter{"b": b, "c": c})

	// Pass over c: facts on F, on T, on T.M, on T.X and on the package.
	cs := newFactSet(c, factTypes)
	T := c.Scope().Lookup("T")
	M, _, _ := types.LookupFieldOrMethod(T.Type(), false, c, "M")
	X, _, _ := types.LookupFieldOrMethod(T.Type(), false, c, "X")
	F := c.Scope().Lookup("F")
	cs.ExportObjectFact(F, &gobFact{"F"})
	cs.ExportObjectFact(T, &selfFact{"T"})
	cs.ExportObjectFact(M, &selfFact{"M"})
	cs.ExportObjectFact(X, &gobFact{"X"})
	cs.ExportPackageFact(&gobFact{"c"})
	cdata, err := cs.encode()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := cs.encode()
	if !bytes.Equal(cdata, again) {
		t.Fatal("encoding the same facts twice gave different bytes")
	}

	// Pass over b, a direct importer of c: it sees every fact of c.
	bs := newFactSet(b, factTypes)
	if err := bs.read("c.vetx", cdata); err != nil {
		t.Fatal(err)
	}
	var g gobFact
	var s selfFact
	if !bs.ImportObjectFact(F, &g) || g.S != "F" {
		t.Errorf("b: fact on c.F = %v, want F", g)
	}
	if !bs.ImportObjectFact(M, &s) || s.S != "M" {
		t.Errorf("b: fact on c.T.M = %v, want M", s)
	}
	if !bs.ImportPackageFact(c, &g) || g.S != "c" {
		t.Errorf("b: package fact of c = %v, want c", g)
	}
	if bs.ImportObjectFact(F, &s) {
		t.Errorf("b: a selfFact on c.F, which has only a gobFact")
	}
	if n := len(bs.AllObjectFacts()); n != 4 {
		t.Errorf("b: AllObjectFacts has %d facts, want 4", n)
	}
	bs.ExportObjectFact(b.Scope().Lookup("G"), &gobFact{"G"})
	bdata, err := bs.encode()
	if err != nil {
		t.Fatal(err)
	}

	// Pass over a, which imports only b: it sees b's facts and the facts
	// about c's type, method and field, not those about c.F or package c.
	as := newFactSet(a, factTypes)
	if err := as.read("b.vetx", bdata); err != nil {
		t.Fatal(err)
	}
	if !as.ImportObjectFact(b.Scope().Lookup("G"), &g) || g.S != "G" {
		t.Errorf("a: fact on b.G = %v, want G", g)
	}
	for _, tt := range []struct {
		obj  types.Object
		fact analysis.Fact
		want bool
	}{
		{F, new(gobFact), false},
		{T, new(selfFact), true},
		{M, new(selfFact), true},
		{X, new(gobFact), true},
	} {
		if got := as.ImportObjectFact(tt.obj, tt.fact); got != tt.want {
			t.Errorf("a: fact on %s: %v, want %v", tt.obj, got, tt.want)
		}
	}
	if as.ImportPackageFact(c, &g) {
		t.Errorf("a: package fact of c, which a does not import")
	}

	// A facts file passed on without being asked about is unchanged:
	// the importer's file still holds c's method facts.
	ps := newFactSet(a, factTypes)
	if err := ps.read("b.vetx", bdata); err != nil {
		t.Fatal(err)
	}
	pdata, err := ps.encode()
	if err != nil {
		t.Fatal(err)
	}
	qs := newFactSet(a, factTypes)
	if err := qs.read("a.vetx", pdata); err != nil {
		t.Fatal(err)
	}
	if !qs.ImportObjectFact(M, &s) || s.S != "M" {
		t.Errorf("re-exported unread: fact on c.T.M = %v, want M", s)
	}
}

// TestFactsFileCorrupt checks that a bad facts file is one error naming
// the file, whatever was cut or changed.
func TestFactsFileCorrupt(t *testing.T) {
	fset := token.NewFileSet()
	c := check(t, fset, "c", "package c\nfunc F() {}\n", nil)
	cs := newFactSet(c, factTypes)
	cs.ExportObjectFact(c.Scope().Lookup("F"), &gobFact{"F"})
	cs.ExportPackageFact(&selfFact{"p"})
	data, err := cs.encode()
	if err != nil {
		t.Fatal(err)
	}
	b := check(t, fset, "b", "package b\nimport \"c\"\nvar _ = c.F\n", mapImporter{"c": c})
	if err := newFactSet(b, factTypes).read("c.vetx", data); err != nil {
		t.Fatalf("intact file: %v", err)
	}
	for n := len(magic); n < len(data); n++ {
		err := newFactSet(b, factTypes).read("c.vetx", data[:n])
		if err == nil || !strings.Contains(err.Error(), "c.vetx") {
			t.Errorf("cut at %d of %d: err = %v, want one naming c.vetx", n, len(data), err)
		}
	}
	if err := newFactSet(b, factTypes).read("c.vetx", []byte("vetx\x00\x00\x00\x00")); err == nil || !strings.Contains(err.Error(), "c.vetx: not an authvet facts file") {
		t.Errorf("foreign file: err = %v", err)
	}
	other := []analysis.Fact{new(gobFact)} // a reader without selfFact
	if err := newFactSet(b, other).read("c.vetx", data); err == nil || !strings.Contains(err.Error(), "unknown fact type") {
		t.Errorf("unknown fact type: err = %v", err)
	}
}

// TestCorruptFact checks that a fact whose bytes cannot be decoded is
// not taken for an absent fact in silence: the set records it, naming
// the file, and the driver fails the package.
func TestCorruptFact(t *testing.T) {
	fset := token.NewFileSet()
	c := check(t, fset, "c", "package c\nfunc F() {}\n", nil)
	cs := newFactSet(c, factTypes)
	F := c.Scope().Lookup("F")
	cs.ExportObjectFact(F, &gobFact{"F"})
	data, err := cs.encode()
	if err != nil {
		t.Fatal(err)
	}
	// The gob fact is the file's last bytes: cut its value short,
	// keeping the entry's length, so the file still reads.
	i := bytes.LastIndexByte(data, encGob)
	bad := bytes.Clone(data)
	for j := i + 1; j < len(bad); j++ {
		bad[j] = 0xff
	}
	b := check(t, fset, "b", "package b\nimport \"c\"\nvar _ = c.F\n", mapImporter{"c": c})
	bs := newFactSet(b, factTypes)
	if err := bs.read("c.vetx", bad); err != nil {
		t.Fatalf("read: %v", err)
	}
	var g gobFact
	if bs.ImportObjectFact(F, &g) {
		t.Errorf("a corrupt fact was read as %v", g)
	}
	if bs.bad == nil || !strings.Contains(bs.bad.Error(), "c.vetx: corrupt") {
		t.Errorf("bad = %v, want an error naming c.vetx", bs.bad)
	}
}
