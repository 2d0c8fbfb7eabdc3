package vetdriver

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func testAnalyzer() *analysis.Analyzer {
	a := &analysis.Analyzer{Name: "authvet", Doc: "test", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	a.Flags.String("config", "", "path to the config")
	return a
}

// TestProtocol checks the answers go vet asks for before it runs the
// tool on a package: its version line (the key of vet's result cache)
// and its flags.
func TestProtocol(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(testAnalyzer(), nil, []string{"-V=full"}, &out, &errb); code != 0 {
		t.Fatalf("-V=full: exit %d, stderr %q", code, errb.String())
	}
	if !regexp.MustCompile(`^\S+ version devel comments-go-here buildID=[0-9a-f]{64}\n$`).MatchString(out.String()) {
		t.Errorf("-V=full printed %q", out.String())
	}

	out.Reset()
	if code := run(testAnalyzer(), nil, []string{"-flags"}, &out, &errb); code != 0 {
		t.Fatalf("-flags: exit %d", code)
	}
	var flags []flagDesc
	if err := json.Unmarshal(out.Bytes(), &flags); err != nil {
		t.Fatalf("-flags printed %q: %v", out.String(), err)
	}
	got := map[string]bool{}
	for _, f := range flags {
		got[f.Name] = f.Bool
	}
	for name, isBool := range map[string]bool{"V": true, "json": true, "c": false, "authvet": true, "authvet.config": false, "flags": true} {
		if b, ok := got[name]; !ok || b != isBool {
			t.Errorf("-flags: %s listed %v, bool %v; want listed, bool %v", name, ok, b, isBool)
		}
	}

	errb.Reset()
	if code := run(testAnalyzer(), nil, []string{"-V=short"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "use -V=full") {
		t.Errorf("-V=short: exit %d, stderr %q", code, errb.String())
	}
}

// TestBadConfig checks that a config file that cannot be used is one
// line naming the file, never a panic.
func TestBadConfig(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.cfg")
	os.WriteFile(bad, []byte("{not json"), 0o666)
	empty := filepath.Join(dir, "empty.cfg")
	os.WriteFile(empty, []byte(`{"ImportPath": "p"}`), 0o666)
	missing := filepath.Join(dir, "missing.cfg")
	for _, cfg := range []string{bad, empty, missing} {
		var out, errb bytes.Buffer
		code := run(testAnalyzer(), nil, []string{cfg}, &out, &errb)
		msg := errb.String()
		if code == 0 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, filepath.Base(cfg)) {
			t.Errorf("%s: exit %d, stderr %q; want one line naming the file", filepath.Base(cfg), code, msg)
		}
	}
	var out, errb bytes.Buffer
	if code := run(testAnalyzer(), nil, []string{"pkg"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "go vet -vettool") {
		t.Errorf("no cfg: exit %d, stderr %q", code, errb.String())
	}
}

// TestSkip checks that a package the analyzer does nothing on is not
// read at all (its Go file does not exist here), and leaves an empty
// facts file its importers can read.
func TestSkip(t *testing.T) {
	dir := t.TempDir()
	vetx := filepath.Join(dir, "vet.out")
	cfg := filepath.Join(dir, "p.cfg")
	data, _ := json.Marshal(Config{ID: "p", ImportPath: "p", GoFiles: []string{filepath.Join(dir, "gone.go")}, VetxOnly: true, VetxOutput: vetx})
	os.WriteFile(cfg, data, 0o666)
	var out, errb bytes.Buffer
	skip := func(files []string) bool { return strings.HasSuffix(files[0], "gone.go") }
	if code := run(testAnalyzer(), skip, []string{cfg}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	facts, err := os.ReadFile(vetx)
	if err != nil {
		t.Fatal(err)
	}
	q := check(t, token.NewFileSet(), "q", "package q\n", nil)
	if err := newFactSet(q, factTypes).read(vetx, facts); err != nil || !bytes.HasPrefix(facts, []byte(magic)) {
		t.Errorf("facts file %q: %v", facts, err)
	}
	// Without skip, the missing file is an error.
	errb.Reset()
	if code := run(testAnalyzer(), nil, []string{cfg}, &out, &errb); code == 0 {
		t.Errorf("unskipped missing file: exit 0")
	}
}

// TestAnalyse runs the driver on a package with no imports (so it needs
// no compiler export data): its diagnostics in unitchecker's JSON tree,
// its facts file, and the facts a failing pass exported before failing.
func TestAnalyse(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.go")
	os.WriteFile(src, []byte("package p\n\nfunc F() {}\n"), 0o666)
	vetx := filepath.Join(dir, "vet.out")
	cfgFile := filepath.Join(dir, "p.cfg")
	data, _ := json.Marshal(Config{ID: "example.com/p", ImportPath: "example.com/p", GoFiles: []string{src}, VetxOutput: vetx})
	os.WriteFile(cfgFile, data, 0o666)

	fail := false
	a := testAnalyzer()
	a.FactTypes = []analysis.Fact{new(gobFact)}
	a.Run = func(pass *analysis.Pass) (any, error) {
		F := pass.Pkg.Scope().Lookup("F")
		pass.ExportObjectFact(F, &gobFact{"F"})
		if fail {
			return nil, errors.New("internal error analysing p")
		}
		pass.Reportf(F.Pos(), "F is reported")
		return nil, nil
	}
	readBack := func() bool {
		t.Helper()
		b, err := os.ReadFile(vetx)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		p := check(t, fset, "example.com/p", "package p\nfunc F() {}\n", nil)
		q := check(t, fset, "q", "package q\nimport \"example.com/p\"\nvar _ = p.F\n", mapImporter{"example.com/p": p})
		s := newFactSet(q, a.FactTypes)
		if err := s.read(vetx, b); err != nil {
			t.Fatal(err)
		}
		var g gobFact
		return s.ImportObjectFact(p.Scope().Lookup("F"), &g) && g.S == "F"
	}

	var out, errb bytes.Buffer
	if code := run(a, nil, []string{"-json", cfgFile}, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	var tree map[string]map[string][]struct{ Posn, Message string }
	if err := json.Unmarshal(out.Bytes(), &tree); err != nil {
		t.Fatalf("JSON %q: %v", out.String(), err)
	}
	diags := tree["example.com/p"]["authvet"]
	if len(diags) != 1 || diags[0].Message != "F is reported" || !strings.HasSuffix(diags[0].Posn, "p.go:3:6") {
		t.Errorf("JSON diagnostics %+v", diags)
	}
	if !readBack() {
		t.Errorf("facts file lacks the fact on F")
	}

	out.Reset()
	if code := run(a, nil, []string{cfgFile}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "p.go:3:6: F is reported") {
		t.Errorf("plain: exit %d, stderr %q", code, errb.String())
	}

	fail = true
	os.Remove(vetx)
	errb.Reset()
	if code := run(a, nil, []string{cfgFile}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "internal error analysing p") {
		t.Errorf("failing pass: exit %d, stderr %q", code, errb.String())
	}
	if !readBack() {
		t.Errorf("a failing pass's facts file lacks the fact it exported")
	}
}
