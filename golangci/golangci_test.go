package golangci_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The golangci-lint version the plugin is tested against.
const golangciVersion = "v2.15.0"

var (
	buildOnce sync.Once
	buildDir  string // removed after the run
	builtBin  string
	buildSkip string
	buildErr  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// golangciLint builds, once per test run, a golangci-lint with the
// plugin compiled in: a tiny main that calls the real
// commands.Execute with this package blank-imported (what `golangci-lint
// custom` generates, without cloning anything). It skips only when the
// module proxy cannot be reached.
func golangciLint(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds golangci-lint")
	}
	buildOnce.Do(func() {
		root, err := filepath.Abs("..")
		if err != nil {
			buildErr = err.Error()
			return
		}
		dir, err := os.MkdirTemp("", "authvet-golangci-")
		if err != nil {
			buildErr = err.Error()
			return
		}
		buildDir = dir
		files := map[string]string{
			"go.mod": "module authvet.test/golangci\n\ngo 1.26.0\n\nrequire (\n\tgithub.com/golangci/golangci-lint/v2 " + golangciVersion +
				"\n\tgithub.com/authvet/authvet v0.0.0\n)\n\nreplace github.com/authvet/authvet => " + root + "\n",
			"main.go": `package main

import (
	"fmt"
	"os"

	"github.com/golangci/golangci-lint/v2/pkg/commands"

	_ "github.com/authvet/authvet/golangci"
)

func main() {
	if err := commands.Execute(commands.BuildInfo{Version: "` + strings.TrimPrefix(golangciVersion, "v") + `-authvet", GoVersion: "go", Date: "(test)", Commit: "(test)"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
}
`,
		}
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				buildErr = err.Error()
				return
			}
		}
		tidy := exec.Command("go", "mod", "tidy")
		tidy.Dir = dir
		tidy.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := tidy.CombinedOutput(); err != nil {
			buildSkip = "the module proxy cannot be reached to fetch golangci-lint " + golangciVersion + ": " + lastLine(out)
			return
		}
		bin := filepath.Join(dir, "golangci-lint")
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Dir = dir
		build.Env = append(os.Environ(), "GOWORK=off")
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = "go build golangci-lint with the plugin: " + string(out)
			return
		}
		builtBin = bin
	})
	switch {
	case buildSkip != "":
		t.Skip(buildSkip)
	case buildErr != "":
		t.Fatal(buildErr)
	}
	return builtBin
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// findings keeps the diagnostic lines ("file:line:col: message"),
// without golangci-lint's "(authvet)" suffix, sorted.
func findings(out string) []string {
	re := regexp.MustCompile(`^([^\s:]+\.go:\d+:\d+): (agent authority: .*?)( \(authvet\))?$`)
	var fs []string
	for _, l := range strings.Split(out, "\n") {
		if m := re.FindStringSubmatch(strings.TrimRight(l, "\r")); m != nil {
			fs = append(fs, m[1]+": "+m[2])
		}
	}
	slices.Sort(fs)
	return fs
}

// TestSameFindingsAsVet runs golangci-lint with the plugin and go vet
// -vettool on the example module: the findings are equal, line for line.
func TestSameFindingsAsVet(t *testing.T) {
	gcl := golangciLint(t)
	root, _ := filepath.Abs("..")
	example := filepath.Join(root, "example")

	tool := filepath.Join(t.TempDir(), "authvet")
	if out, err := exec.Command("go", "build", "-o", tool, filepath.Join(root, "cmd", "authvet")).CombinedOutput(); err != nil {
		t.Fatalf("build authvet: %v\n%s", err, out)
	}
	vet := exec.Command("go", "vet", "-vettool="+tool, "./...")
	vet.Dir = example
	var vetOut bytes.Buffer
	vet.Stdout, vet.Stderr = &vetOut, &vetOut
	vet.Run()
	want := findings(vetOut.String())
	if len(want) == 0 {
		t.Fatalf("go vet -vettool found nothing on the example:\n%s", vetOut.String())
	}

	run := exec.Command(gcl, "run", "--output.text.print-issued-lines=false", "--output.text.colors=false", "./...")
	run.Dir = example
	// golangci-lint keys its cache by package and settings, not by the
	// plugin's build: facts an older authvet wrote would be read back.
	run.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir())
	var gclOut bytes.Buffer
	run.Stdout, run.Stderr = &gclOut, &gclOut
	run.Run()
	got := findings(gclOut.String())
	if !slices.Equal(got, want) {
		t.Errorf("golangci-lint with the plugin:\n%s\n\ngo vet -vettool:\n%s\n\n(golangci-lint output:\n%s)", strings.Join(got, "\n"), strings.Join(want, "\n"), gclOut.String())
	}
}

// TestSettings refuses unknown keys and a broken inline config.
func TestSettings(t *testing.T) {
	gcl := golangciLint(t)
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("m.go", "package m\n")
	for name, tc := range map[string]struct{ settings, want string }{
		"unknown key": {"          cofnig: authvet.yaml\n", `unknown field "cofnig"`},
		"inline":      {"          config_inline: |\n            sink: []\n", `unknown key "sink"`},
	} {
		t.Run(name, func(t *testing.T) {
			write(".golangci.yml", "version: \"2\"\nlinters:\n  default: none\n  enable: [authvet]\n  settings:\n    custom:\n      authvet:\n        type: module\n        settings:\n"+tc.settings)
			cmd := exec.Command(gcl, "run", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir())
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.want) || strings.Contains(string(out), "panic") {
				t.Errorf("want a failure naming %q, got (err %v):\n%s", tc.want, err, out)
			}
		})
	}
}
