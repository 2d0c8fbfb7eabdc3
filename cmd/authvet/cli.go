package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/authvet/authvet/analyzer"
	"github.com/authvet/authvet/internal/config"
	"github.com/authvet/authvet/manifest"
)

const usage = `usage:
  authvet [-C dir] [-json] [-format text|json|sarif] [-config file] [packages]
  authvet manifest [-C dir] [-o FILE] [--check FILE] [--allow-ungoverned] [-tags list] [-config file] [packages]
  authvet suggest [-C dir] [-tags list] [-config file] [packages]
  authvet version
  go vet -vettool=$(which authvet) [packages]

exit status: 0 clean, 1 findings, 2 error
`

func cli(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "version":
			return version(stdout)
		case "manifest":
			return manifestCmd(args[1:], stdout, stderr)
		case "suggest":
			return suggestCmd(args[1:], stdout, stderr)
		case "help", "-h", "-help", "--help":
			fmt.Fprint(stdout, usage)
			return 0
		}
	}
	fs := flag.NewFlagSet("authvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	dir := fs.String("C", "", "run as if in `dir`")
	jsonOut := fs.Bool("json", false, "print diagnostics as JSON (same as -format json)")
	format := fs.String("format", "text", "output `format`: text, json or sarif")
	configFile := fs.String("config", "", "authvet.yaml to use (default: the one at the module root)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *jsonOut {
		*format = "json"
	}
	if *format != "text" && *format != "json" && *format != "sarif" {
		fmt.Fprintf(stderr, "authvet: unknown -format %q (want text, json or sarif)\n", *format)
		return 2
	}
	root, ok := setup(*dir, *configFile, stderr)
	if !ok {
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: root}, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "authvet: %v\n", err)
		return 2
	}
	if len(pkgs) == 0 {
		fmt.Fprintf(stderr, "authvet: no packages match %s\n", strings.Join(patterns, " "))
		return 2
	}
	if r := moduleRoot(pkgs); r != "" {
		root = r
	}
	status := 0
	if printLoadErrors(pkgs, root, stderr) {
		status = 2
	}
	prevRewired, prevTransport := analyzer.DefaultClientRewired, analyzer.DefaultTransportRewired
	analyzer.DefaultClientRewired, analyzer.DefaultTransportRewired = analyzer.ProgramRewiresDefaultClient(pkgs)
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, pkgs, nil)
	analyzer.DefaultClientRewired, analyzer.DefaultTransportRewired = prevRewired, prevTransport
	if err != nil {
		fmt.Fprintf(stderr, "authvet: %v\n", err)
		return 2
	}
	var findings []finding
	causes := map[string]bool{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			if len(act.Package.Errors) == 0 { // those were printed already
				if strings.Contains(act.Err.Error(), "failed prerequisites") {
					// A dependency's pass failed (a configured sink that
					// package does not have): say what failed, once.
					for dep := range graph.All() {
						if dep.Err != nil && !strings.Contains(dep.Err.Error(), "failed prerequisites") {
							causes[dep.Err.Error()] = true
						}
					}
				} else {
					fmt.Fprintf(stderr, "authvet: %s: %v\n", act.Package.PkgPath, act.Err)
				}
				status = 2
			}
			continue
		}
		for _, d := range act.Diagnostics {
			findings = append(findings, newFinding(act.Package, d, root))
		}
	}
	for _, c := range slices.Sorted(maps.Keys(causes)) {
		fmt.Fprintf(stderr, "authvet: %s\n", c)
	}
	findings = sortFindings(findings)
	switch *format {
	case "json":
		writeJSON(stdout, findings)
	case "sarif":
		writeSARIF(stdout, findings)
	default:
		// As go vet prints them: the diagnostic, then its related
		// information indented under it.
		for _, f := range findings {
			fmt.Fprintf(stdout, "%s: %s\n", f.Posn, f.Message)
			for _, r := range f.Related {
				fmt.Fprintf(stdout, "%s: \t%s\n", r.Posn, r.Message)
			}
		}
	}
	if status == 0 && len(findings) > 0 {
		status = 1
	}
	return status
}

// finding is one diagnostic, with paths relative to the module root.
type finding struct {
	Pkg      string    `json:"-"`
	Posn     string    `json:"posn"`
	Message  string    `json:"message"`
	Category string    `json:"category,omitempty"`
	Related  []related `json:"related,omitempty"`

	file      string
	line, col int
}

type related struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

func newFinding(pkg *packages.Package, d analysis.Diagnostic, root string) finding {
	p := pkg.Fset.Position(d.Pos)
	f := finding{Pkg: pkg.PkgPath, Message: d.Message, Category: d.Category, file: relTo(root, p.Filename), line: p.Line, col: p.Column}
	f.Posn = posn(root, p)
	for _, r := range d.Related {
		f.Related = append(f.Related, related{Posn: posn(root, pkg.Fset.Position(r.Pos)), Message: r.Message})
	}
	return f
}

func posn(root string, p token.Position) string {
	if p.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", relTo(root, p.Filename), p.Line, p.Column)
	}
	return fmt.Sprintf("%s:%d", relTo(root, p.Filename), p.Line)
}

func relTo(root, file string) string { return manifest.RelTo(root, file) }

// setup resolves -C to the directory to run in and reads the
// configuration; on a problem it prints one line and reports false.
func setup(dir, configFile string, stderr io.Writer) (string, bool) {
	root, err := filepath.Abs(dir)
	if err != nil {
		fmt.Fprintf(stderr, "authvet: %v\n", err)
		return "", false
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "authvet: -C %s: not a directory\n", dir)
		return "", false
	}
	return root, useConfig(root, configFile, stderr)
}

// useConfig reads the configuration before any analysis (the -config
// file, or the one at the module root) and hands it to the analyzer: a
// broken file is an error naming the file and line (reported false), not
// a failure buried in the analysis.
func useConfig(root, file string, stderr io.Writer) bool {
	if file != "" && !filepath.IsAbs(file) {
		file = filepath.Join(root, file)
	}
	if file == "" {
		file = config.Find(root)
	}
	if file == "" {
		return true
	}
	if _, err := config.Load(file); err != nil {
		fmt.Fprintf(stderr, "authvet: %v\n", err)
		return false
	}
	if err := analyzer.Analyzer.Flags.Set("config", file); err != nil {
		fmt.Fprintf(stderr, "authvet: %v\n", err)
		return false
	}
	return true
}

func sortFindings(fs []finding) []finding {
	slices.SortFunc(fs, func(a, b finding) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		if a.line != b.line {
			return a.line - b.line
		}
		if a.col != b.col {
			return a.col - b.col
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.CompactFunc(fs, func(a, b finding) bool { return a.Posn == b.Posn && a.Message == b.Message })
}

// writeJSON prints findings in go vet's -json shape:
// {"pkgpath": {"authvet": [diagnostic, ...]}}.
func writeJSON(w io.Writer, fs []finding) {
	tree := map[string]map[string][]finding{}
	for _, f := range fs {
		if tree[f.Pkg] == nil {
			tree[f.Pkg] = map[string][]finding{}
		}
		tree[f.Pkg]["authvet"] = append(tree[f.Pkg]["authvet"], f)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "\t")
	enc.Encode(tree)
}

// printLoadErrors prints each package's load and type errors, one line
// each, and reports whether there were any.
func printLoadErrors(pkgs []*packages.Package, root string, w io.Writer) bool {
	var lines []string
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			line := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				pos := e.Pos
				if abs, rest, ok := strings.Cut(pos, ":"); ok {
					pos = relTo(root, abs) + ":" + rest
				}
				line = pos + ": " + e.Msg
			}
			if !seen[line] {
				seen[line] = true
				lines = append(lines, line)
			}
		}
	})
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Fprintf(w, "authvet: %s\n", l)
	}
	return len(lines) > 0
}

func moduleRoot(pkgs []*packages.Package) string {
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Dir != "" {
			return p.Module.Dir
		}
	}
	return ""
}

func version(w io.Writer) int {
	v := "(devel)"
	info, ok := debug.ReadBuildInfo()
	if ok && info.Main.Version != "" {
		v = info.Main.Version
	}
	fmt.Fprintf(w, "authvet %s\n", v)
	if ok {
		fmt.Fprintf(w, "go %s\n", info.GoVersion)
		for _, d := range info.Deps {
			if d.Path == "golang.org/x/tools" {
				fmt.Fprintf(w, "golang.org/x/tools %s\n", d.Version)
			}
		}
	}
	if benchNonce != "" {
		fmt.Fprintf(w, "bench nonce %s\n", benchNonce)
	}
	return 0
}
