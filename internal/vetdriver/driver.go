package vetdriver

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Config is the JSON file the go command writes for each package it
// asks a vet tool to analyse (cmd/go's vetConfig).
type Config struct {
	ID                        string // e.g. "fmt [fmt.test]"
	Compiler                  string
	Dir                       string
	ImportPath                string
	GoVersion                 string
	GoFiles                   []string
	NonGoFiles                []string
	IgnoredFiles              []string
	ModulePath                string
	ModuleVersion             string
	Module                    *analysis.Module
	ImportMap                 map[string]string // import path to package path
	PackageFile               map[string]string // package path to compiler export data
	Standard                  map[string]bool
	PackageVetx               map[string]string // package path to vetx file (direct imports)
	VetxOnly                  bool              // facts only, no diagnostics
	VetxOutput                string            // where to write this package's facts
	Stdout                    string            // where to write stdout
	SucceedOnTypecheckFailure bool
}

// Main runs a as a go vet tool and exits. It answers -V=full and -flags,
// and otherwise analyses the one package its *.cfg argument describes.
//
// skip, if not nil, names the packages a does nothing on, by their Go
// files: such a package is neither parsed nor type-checked, and its
// facts file is empty. Stock vet's analyzers have facts about the
// standard library; authvet models it instead, so this is where it
// spends less than stock vet.
func Main(a *analysis.Analyzer, skip func(goFiles []string) bool) {
	os.Exit(run(a, skip, os.Args[1:], os.Stdout, os.Stderr))
}

type versionFlag struct{ set bool }

func (*versionFlag) IsBoolFlag() bool { return true }
func (*versionFlag) String() string   { return "" }
func (v *versionFlag) Set(s string) error {
	if s != "full" {
		return fmt.Errorf("unsupported flag value: -V=%s (use -V=full)", s)
	}
	v.set = true
	return nil
}

type flagDesc struct {
	Name  string
	Bool  bool
	Usage string
}

func run(a *analysis.Analyzer, skip func([]string) bool, args []string, stdout, stderr io.Writer) int {
	progname := filepath.Base(os.Args[0])
	fs := flag.NewFlagSet(progname, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var version versionFlag
	fs.Var(&version, "V", "print version and exit")
	printFlags := fs.Bool("flags", false, "print analyzer flags in JSON")
	jsonOut := fs.Bool("json", false, "emit JSON output")
	context := fs.Int("c", -1, "display offending line with this many lines of context")
	enabled := fs.Bool(a.Name, true, fmt.Sprintf("enable %q analysis", a.Name))
	fs.Bool("all", false, "no effect (deprecated)")
	fs.Bool("source", false, "no effect (deprecated)")
	fs.String("tags", "", "no effect (deprecated)")
	fs.Bool("v", false, "no effect (deprecated)")
	a.Flags.VisitAll(func(f *flag.Flag) {
		fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if version.set {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", progname, err)
			return 1
		}
		data, err := os.ReadFile(exe)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", progname, err)
			return 1
		}
		// The go command keys its cache of vet results by this line.
		fmt.Fprintf(stdout, "%s version devel comments-go-here buildID=%02x\n", progname, sha256.Sum256(data))
		return 0
	}
	if *printFlags {
		var flags []flagDesc
		fs.VisitAll(func(f *flag.Flag) {
			b, ok := f.Value.(interface{ IsBoolFlag() bool })
			flags = append(flags, flagDesc{f.Name, ok && b.IsBoolFlag(), f.Usage})
		})
		sort.Slice(flags, func(i, j int) bool { return flags[i].Name < flags[j].Name })
		data, _ := json.MarshalIndent(flags, "", "\t")
		stdout.Write(data)
		return 0
	}
	rest := fs.Args()
	if len(rest) != 1 || !strings.HasSuffix(rest[0], ".cfg") {
		fmt.Fprintf(stderr, "%s: run it as go vet -vettool=$(which %s); this mode takes one *.cfg file\n", progname, progname)
		return 2
	}
	cfg, err := readConfig(rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", progname, err)
		return 1
	}
	if cfg.Stdout != "" {
		f, err := os.Create(cfg.Stdout)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", progname, err)
			return 1
		}
		defer f.Close()
		stdout = f
	}
	name := a.Name
	if !*enabled || (skip != nil && skip(cfg.GoFiles)) {
		a = nil
	}
	fset := token.NewFileSet()
	diags, err := analyse(fset, cfg, a)
	if err != nil {
		if cfg.VetxOnly {
			return 1
		}
		switch err.(type) {
		case types.Error, scanner.ErrorList:
			fmt.Fprintln(stderr, err) // as the compiler would print it
			return 1
		}
		if *jsonOut {
			printJSON(stdout, fset, cfg.ID, name, nil, err)
			return 0
		}
		fmt.Fprintf(stderr, "%s: %v\n", progname, err)
		return 1
	}
	if cfg.VetxOnly || a == nil {
		return 0
	}
	if *jsonOut {
		printJSON(stdout, fset, cfg.ID, name, diags, nil)
		return 0
	}
	for _, d := range diags {
		printPlain(stderr, fset, *context, d.Pos, d.End, d.Message)
		for _, r := range d.Related {
			printPlain(stderr, fset, *context, r.Pos, r.End, "\t"+r.Message)
		}
	}
	if len(diags) > 0 {
		return 1
	}
	return 0
}

func readConfig(file string) (*Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	cfg := new(Config)
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("cannot decode JSON config file %s: %v", file, err)
	}
	if len(cfg.GoFiles) == 0 {
		return nil, fmt.Errorf("%s: package has no files: %s", file, cfg.ImportPath)
	}
	return cfg, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// analyse parses and type-checks the package, runs a (unless it is nil)
// with the facts of the package's imports, and writes the package's
// facts file.
func analyse(fset *token.FileSet, cfg *Config, a *analysis.Analyzer) ([]analysis.Diagnostic, error) {
	writeEmpty := func() error {
		if cfg.VetxOutput == "" {
			return nil
		}
		return os.WriteFile(cfg.VetxOutput, []byte(magic+"\x00\x00"), 0o666)
	}
	if a == nil {
		return nil, writeEmpty()
	}
	var files []*ast.File
	for _, name := range cfg.GoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			if cfg.SucceedOnTypecheckFailure {
				return nil, writeEmpty() // the compiler reports it
			}
			return nil, err
		}
		files = append(files, f)
	}
	compiler := cfg.Compiler
	if compiler == "" {
		compiler = "gc"
	}
	// Types come from the compiler's export data, as for stock go vet.
	imp := importer.ForCompiler(fset, compiler, func(path string) (io.ReadCloser, error) {
		file, ok := cfg.PackageFile[path]
		if !ok {
			return nil, fmt.Errorf("no package file for %q", path)
		}
		return os.Open(file)
	})
	tc := &types.Config{
		Importer: importerFunc(func(importPath string) (*types.Package, error) {
			path, ok := cfg.ImportMap[importPath]
			if !ok {
				return nil, fmt.Errorf("can't resolve import %q", importPath)
			}
			return imp.Import(path)
		}),
		Sizes:     types.SizesFor("gc", build.Default.GOARCH),
		GoVersion: cfg.GoVersion,
	}
	info := &types.Info{
		Types:        make(map[ast.Expr]types.TypeAndValue),
		Defs:         make(map[*ast.Ident]types.Object),
		Uses:         make(map[*ast.Ident]types.Object),
		Implicits:    make(map[ast.Node]types.Object),
		Instances:    make(map[*ast.Ident]types.Instance),
		Scopes:       make(map[ast.Node]*types.Scope),
		Selections:   make(map[*ast.SelectorExpr]*types.Selection),
		FileVersions: make(map[*ast.File]string),
	}
	pkg, err := tc.Check(cfg.ImportPath, fset, files, info)
	if err != nil {
		if cfg.SucceedOnTypecheckFailure {
			return nil, writeEmpty()
		}
		return nil, err
	}

	facts := newFactSet(pkg, a.FactTypes)
	imports := make([]string, 0, len(cfg.PackageVetx))
	for path := range cfg.PackageVetx {
		imports = append(imports, path)
	}
	sort.Strings(imports)
	for _, path := range imports {
		file := cfg.PackageVetx[path]
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading facts of %s: %v", path, err)
		}
		if err := facts.read(file, data); err != nil {
			return nil, err
		}
	}

	module := cfg.Module
	if module == nil && cfg.ModulePath != "" {
		module = &analysis.Module{Path: cfg.ModulePath, Version: cfg.ModuleVersion, GoVersion: cfg.GoVersion}
	}
	var diags []analysis.Diagnostic
	pass := &analysis.Pass{
		Analyzer:          a,
		Fset:              fset,
		Files:             files,
		OtherFiles:        cfg.NonGoFiles,
		IgnoredFiles:      cfg.IgnoredFiles,
		Pkg:               pkg,
		TypesInfo:         info,
		TypesSizes:        tc.Sizes,
		ResultOf:          map[*analysis.Analyzer]any{},
		Report:            func(d analysis.Diagnostic) { diags = append(diags, d) },
		ImportObjectFact:  facts.ImportObjectFact,
		ExportObjectFact:  facts.ExportObjectFact,
		AllObjectFacts:    facts.AllObjectFacts,
		ImportPackageFact: facts.ImportPackageFact,
		ExportPackageFact: facts.ExportPackageFact,
		AllPackageFacts:   facts.AllPackageFacts,
		Module:            module,
		ReadFile:          os.ReadFile,
	}
	if len(a.Requires) > 0 {
		return nil, fmt.Errorf("vetdriver: analyzer %s has prerequisites, which this driver does not run", a.Name)
	}
	// The facts are written even when the analysis fails, as
	// unitchecker does: what the pass exported before failing stands.
	_, runErr := a.Run(pass)
	if cfg.VetxOutput != "" {
		data, err := facts.encode()
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(cfg.VetxOutput, data, 0o666); err != nil {
			return nil, err
		}
	}
	if runErr != nil {
		return nil, runErr
	}
	if facts.bad != nil {
		return nil, facts.bad
	}
	return diags, nil
}

func printPlain(w io.Writer, fset *token.FileSet, context int, pos, end token.Pos, msg string) {
	posn := fset.Position(pos)
	fmt.Fprintf(w, "%s: %s\n", posn, msg)
	if context < 0 {
		return
	}
	last := fset.Position(end)
	if !last.IsValid() {
		last = posn
	}
	data, _ := os.ReadFile(posn.Filename)
	lines := strings.Split(string(data), "\n")
	for i := posn.Line - context; i <= last.Line+context; i++ {
		if 1 <= i && i <= len(lines) {
			fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
		}
	}
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonDiagnostic struct {
	Category string        `json:"category,omitempty"`
	Posn     string        `json:"posn"`
	End      string        `json:"end"`
	Message  string        `json:"message"`
	Related  []jsonRelated `json:"related,omitempty"`
}

// printJSON prints unitchecker's JSON tree: {ID: {analyzer: diagnostics
// or {"error": ...}}}, nothing for a package with neither.
func printJSON(w io.Writer, fset *token.FileSet, id, name string, diags []analysis.Diagnostic, err error) {
	endOf := func(pos, end token.Pos) string {
		if end.IsValid() {
			return fset.Position(end).String()
		}
		return fset.Position(pos).String()
	}
	tree := map[string]map[string]any{}
	switch {
	case err != nil:
		tree[id] = map[string]any{name: struct {
			Err string `json:"error"`
		}{err.Error()}}
	case len(diags) > 0:
		out := make([]jsonDiagnostic, 0, len(diags))
		for _, d := range diags {
			jd := jsonDiagnostic{Category: d.Category, Posn: fset.Position(d.Pos).String(), End: endOf(d.Pos, d.End), Message: d.Message}
			for _, r := range d.Related {
				jd.Related = append(jd.Related, jsonRelated{fset.Position(r.Pos).String(), endOf(r.Pos, r.End), r.Message})
			}
			out = append(out, jd)
		}
		tree[id] = map[string]any{name: out}
	}
	data, _ := json.MarshalIndent(tree, "", "\t")
	fmt.Fprintf(w, "%s\n", data)
}
