package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/authvet/authvet/manifest"
)

// manifestCmd is `authvet manifest`: write the module's authority
// manifest, or check a committed one (SPEC §9).
func manifestCmd(args []string, stdout, stderr io.Writer) int {
	lf := newLinkFlags("authvet manifest", stderr)
	out := lf.fs.String("o", "", "write the manifest to `FILE` (default: stdout)")
	check := lf.fs.String("check", "", "compare with the committed manifest `FILE`: exit 1 on drift, a mutating ungoverned tool or an annotation conflict")
	allow := lf.fs.Bool("allow-ungoverned", false, "with --check: do not fail on mutating MCP tools without a grant")
	root, code := lf.parse(args, stderr)
	if root == "" {
		return code
	}
	fs, tags := lf.fs, lf.tags
	// Read the committed manifest first: a malformed one is an error
	// before any analysis.
	var committed *manifest.Manifest
	if *check != "" {
		path := *check
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "authvet: %v\n", err)
			return 2
		}
		if committed, err = manifest.Parse(*check, data); err != nil {
			fmt.Fprintf(stderr, "authvet: %v\n", err)
			return 2
		}
	}
	m, code := build(root, fs.Args(), *tags, stderr)
	if m == nil {
		return code
	}
	if committed != nil {
		o := manifest.Check(committed, m, *allow)
		fmt.Fprint(stdout, o.Report)
		if o.Failed {
			return 1
		}
		return 0
	}
	data := manifest.Marshal(m)
	if *out != "" {
		path := *out
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			fmt.Fprintf(stderr, "authvet: %v\n", err)
			return 2
		}
		return 0
	}
	stdout.Write(data)
	return 0
}

// suggestCmd is `authvet suggest`: the narrowest grant each handler and
// each ungoverned MCP tool needs, as Go source.
func suggestCmd(args []string, stdout, stderr io.Writer) int {
	lf := newLinkFlags("authvet suggest", stderr)
	root, code := lf.parse(args, stderr)
	if root == "" {
		return code
	}
	m, code := build(root, lf.fs.Args(), *lf.tags, stderr)
	if m == nil {
		return code
	}
	manifest.Suggest(stdout, m)
	return 0
}

// linkFlags are the flags of the commands that link the module.
type linkFlags struct {
	fs                *flag.FlagSet
	dir, tags, config *string
}

func newLinkFlags(name string, stderr io.Writer) *linkFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	return &linkFlags{fs: fs,
		dir:    fs.String("C", "", "run as if in `dir`"),
		tags:   fs.String("tags", "", "comma-separated build `tags`"),
		config: fs.String("config", "", "authvet.yaml to use (default: the one at the module root)"),
	}
}

// parse parses args and sets up -C and the config: the directory to run
// in, or "" and the exit status.
func (lf *linkFlags) parse(args []string, stderr io.Writer) (string, int) {
	if err := lf.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return "", 0
		}
		return "", 2
	}
	root, ok := setup(*lf.dir, *lf.config, stderr)
	if !ok {
		return "", 2
	}
	return root, 0
}

// build builds the manifest, printing load errors one per line.
func build(root string, patterns []string, tags string, stderr io.Writer) (*manifest.Manifest, int) {
	opts := manifest.Options{Dir: root, Patterns: patterns}
	if tags != "" {
		opts.Tags = strings.Split(tags, ",")
	}
	m, err := manifest.Build(opts)
	if err != nil {
		var le *manifest.LoadError
		if errors.As(err, &le) {
			for _, msg := range le.Msgs {
				fmt.Fprintf(stderr, "authvet: %s\n", msg)
			}
			return nil, 2
		}
		fmt.Fprintf(stderr, "authvet: %v\n", err)
		return nil, 2
	}
	return m, 0
}
