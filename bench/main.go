// Command bench compares `go vet -vettool=authvet ./...` with stock
// `go vet ./...` on pinned real modules, side by side in one run, and
// prints the wall-time ratio, the peak-RSS ratio and the facts files.
//
//	go run ./bench                      # cfssl v1.6.5, 3 rounds
//	go run ./bench -module github.com/usememos/memos@v0.25.0 -rounds 1
//	go run ./bench -sweep               # every module of sweepModules, 1 round each
//
// The compile cache is warmed first and stays warm; the analysis is cold
// for both tools in every round: stock vet gets a fresh -printf.funcs
// value (vet caches results by flag strings), and authvet is rebuilt with
// -ldflags=-X=main.benchNonce=<nonce>, which changes the tool's ID.
//
// Both tools run under the same thin wrapper (this program, re-executed),
// which records the size of the facts file each package writes; the
// wrapper costs both sides the same.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
)

// sweepModules are the pinned modules of -sweep: real services and
// libraries of 10 to 200 packages, none annotated.
var sweepModules = []string{
	"github.com/cloudflare/cfssl@v1.6.5",
	"github.com/centrifugal/centrifugo/v6@v6.9.1",
	"github.com/k3s-io/kine@v0.17.5",
	"github.com/caddyserver/caddy/v2@v2.11.9",
	"miniflux.app/v2@v2.3.5",
	"github.com/usememos/memos@v0.25.0",
	"github.com/jackc/pgx/v5@v5.12.0",
	"github.com/minio/minio-go/v7@v7.4.1",
	"github.com/hashicorp/vault/api@v1.23.0",
}

// The wrapper's environment: the real tool to run, and the file to which
// it appends "size factssection importpath" for each facts file written.
const (
	envTool  = "AUTHVET_BENCH_TOOL"
	envFacts = "AUTHVET_BENCH_FACTS"
)

func main() {
	if tool := os.Getenv(envTool); tool != "" {
		os.Exit(wrap(tool, os.Getenv(envFacts), os.Args[1:]))
	}
	module := flag.String("module", "github.com/cloudflare/cfssl@v1.6.5", "pinned module@version to analyse")
	rounds := flag.Int("rounds", 3, "measured rounds (each runs both tools once)")
	sweep := flag.Bool("sweep", false, "run every module of the pinned sweep list (1 round each unless -rounds is set) and print a table")
	manifestMode := flag.Bool("manifest", false, "run authvet manifest ./... and the floor (load, whole-program SSA, VTA) on -module (default "+manifestModule+") and print both times and peak RSS")
	flag.Parse()
	if *manifestMode {
		m := manifestModule
		r := 1
		flag.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "module":
				m = *module
			case "rounds":
				r = *rounds
			}
		})
		if err := runManifest(m, r); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		return
	}
	if *sweep {
		r := 1
		flag.Visit(func(f *flag.Flag) {
			if f.Name == "rounds" {
				r = *rounds
			}
		})
		if err := runSweep(sweepModules, r); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		return
	}
	if _, err := run(*module, *rounds, true); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
}

// wrap runs the vet tool with args and, for a package's run (a *.cfg
// argument), records the size of the facts file it wrote.
func wrap(tool, facts string, args []string) int {
	cmd := exec.Command(tool, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		code = 1
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
	}
	if n := len(args); facts != "" && n > 0 && strings.HasSuffix(args[n-1], ".cfg") {
		var cfg struct{ ImportPath, VetxOutput string }
		if data, err := os.ReadFile(args[n-1]); err == nil && json.Unmarshal(data, &cfg) == nil && cfg.VetxOutput != "" {
			if fi, err := os.Stat(cfg.VetxOutput); err == nil {
				if f, err := os.OpenFile(facts, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
					fmt.Fprintf(f, "%d %d %s\n", fi.Size(), factsSection(cfg.VetxOutput, fi.Size()), cfg.ImportPath)
					f.Close()
				}
			}
		}
	}
	return code
}

// factsSection is the size of the facts in a vetx file. The unitchecker
// of recent x/tools writes a "vetx" header, the package's type export
// data, then the facts; go vet's own and authvet's driver
// (internal/vetdriver) write the facts alone, so for them it is the
// whole file.
func factsSection(path string, size int64) int64 {
	f, err := os.Open(path)
	if err != nil {
		return size
	}
	defer f.Close()
	var h [12]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:4]) != "vetx" {
		return size
	}
	return int64(binary.LittleEndian.Uint32(h[8:12]))
}

type result struct {
	wall   time.Duration
	maxRSS int64 // KiB
	code   int
	facts  facts
}

// facts sums up the facts files of one run: the whole files, and their
// facts sections (factsSection).
type facts struct {
	largest    int64
	largestPkg string
	sum        int64
	packages   int
	// largestFacts is the largest facts section, in largestFactsPkg.
	largestFacts    int64
	largestFactsPkg string
}

func readFacts(path string) facts {
	var f facts
	data, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(data), "\n") {
		var size, section int64
		var pkg string
		if n, _ := fmt.Sscanf(line, "%d %d %s", &size, &section, &pkg); n != 3 {
			continue
		}
		f.sum += size
		f.packages++
		if size > f.largest {
			f.largest, f.largestPkg = size, pkg
		}
		if section > f.largestFacts {
			f.largestFacts, f.largestFactsPkg = section, pkg
		}
	}
	return f
}

// outcome is one module's medians.
type outcome struct {
	module    string
	packages  int
	stock, av result
	timeRatio float64
	rssRatio  float64
}

func run(module string, rounds int, verbose bool) (outcome, error) {
	out := outcome{module: module}
	root, err := os.Getwd()
	if err != nil {
		return out, err
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "authvet")); err != nil {
		return out, fmt.Errorf("run from the authvet repository root")
	}
	self, err := os.Executable()
	if err != nil {
		return out, err
	}
	work, err := os.MkdirTemp("", "authvet-bench-")
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(work)
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GONOSUMDB=github.com/usememos", "GOWORK=off")

	fmt.Printf("module   %s\n", module)
	var dl struct{ Dir string }
	data, err := command(work, env, "go", "mod", "download", "-json", module).Output()
	if err != nil {
		return out, fmt.Errorf("go mod download %s: %v", module, err)
	}
	if err := json.Unmarshal(data, &dl); err != nil || dl.Dir == "" {
		return out, fmt.Errorf("go mod download %s: no Dir in %s", module, data)
	}
	src := filepath.Join(work, "src")
	if err := exec.Command("cp", "-r", dl.Dir, src).Run(); err != nil {
		return out, fmt.Errorf("copy module: %v", err)
	}
	exec.Command("chmod", "-R", "u+w", src).Run()
	pkgs, _ := command(src, env, "go", "list", "./...").Output()
	out.packages = strings.Count(string(pkgs), "\n")
	if verbose {
		fmt.Printf("packages %d\n", out.packages)
		fmt.Printf("machine  %s/%s, %d CPUs, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), goVersion())
	}

	// Warm the compile cache (and vet's export data) once.
	fmt.Println("warming the compile cache ...")
	if b, err := command(src, env, "go", "build", "./...").CombinedOutput(); err != nil {
		return out, fmt.Errorf("the module does not build: %s", lastLines(string(b), 3))
	}
	command(src, env, "go", "vet", "-printf.funcs=authvetbenchwarm", "./...").Run()
	warm, err := buildTool(root, work, "warm")
	if err != nil {
		return out, err
	}
	command(src, env, "go", "vet", "-vettool="+warm, "./...").Run()
	stockTool := filepath.Join(goEnv("GOTOOLDIR"), "vet")

	var stock, av []result
	for i := 0; i < rounds; i++ {
		nonce := fmt.Sprintf("%d", time.Now().UnixNano())
		sf := filepath.Join(work, "facts-stock-"+nonce)
		s := measure(src, append(env, envTool+"="+stockTool, envFacts+"="+sf), "go", "vet", "-vettool="+self, "-printf.funcs=authvetbench"+nonce, "./...")
		s.facts = readFacts(sf)
		tool, err := buildTool(root, work, nonce)
		if err != nil {
			return out, err
		}
		af := filepath.Join(work, "facts-authvet-"+nonce)
		a := measure(src, append(env, envTool+"="+tool, envFacts+"="+af), "go", "vet", "-vettool="+self, "./...")
		a.facts = readFacts(af)
		fmt.Printf("round %d  stock vet %6.2fs %5d MiB (exit %d)   authvet %6.2fs %5d MiB (exit %d)   ratio %.2f   largest facts %s (%s)\n",
			i+1, s.wall.Seconds(), s.maxRSS/1024, s.code, a.wall.Seconds(), a.maxRSS/1024, a.code, a.wall.Seconds()/s.wall.Seconds(),
			size(a.facts.largest), a.facts.largestPkg)
		stock, av = append(stock, s), append(av, a)
	}
	ms, ma := median(stock), median(av)
	out.stock, out.av = ms, ma
	out.av.maxRSS, out.stock.maxRSS = maxRSS(av), maxRSS(stock)
	out.timeRatio = ma.wall.Seconds() / ms.wall.Seconds()
	out.rssRatio = float64(out.av.maxRSS) / float64(max(out.stock.maxRSS, 1))
	if verbose {
		fmt.Printf("median   stock vet %.2fs, authvet %.2fs: time ratio %.2f\n", ms.wall.Seconds(), ma.wall.Seconds(), out.timeRatio)
		fmt.Printf("peak RSS stock vet %d MiB, authvet %d MiB: ratio %.2f\n", out.stock.maxRSS/1024, out.av.maxRSS/1024, out.rssRatio)
		fmt.Printf("facts    authvet: largest file %s (%s), largest facts section %s (%s), sum %s over %d packages; stock vet: largest %s, sum %s\n",
			size(ma.facts.largest), ma.facts.largestPkg, size(ma.facts.largestFacts), ma.facts.largestFactsPkg, size(ma.facts.sum), ma.facts.packages, size(ms.facts.largest), size(ms.facts.sum))
	}
	return out, nil
}

// runSweep benchmarks every module and prints one table: per module and
// in total, the time ratio, the RSS ratio and the largest facts file. A
// module that does not build (or download) is reported and skipped.
func runSweep(modules []string, rounds int) error {
	fmt.Printf("machine  %s/%s, %d CPUs, %s\n\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), goVersion())
	var done []outcome
	var skipped []string
	for _, m := range modules {
		o, err := run(m, rounds, false)
		if err != nil {
			fmt.Printf("skipped  %s: %v\n", m, err)
			skipped = append(skipped, m)
			continue
		}
		done = append(done, o)
	}
	if len(done) == 0 {
		return fmt.Errorf("no module could be measured")
	}
	fmt.Println()
	fmt.Println("| module | pkgs | stock vet | authvet | time ratio | stock RSS | authvet RSS | RSS ratio | largest facts file | its facts section | facts sum |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
	var st, at float64
	var tr, rr []float64
	var largest, largestFacts int64
	largestAt := ""
	for _, o := range done {
		fmt.Printf("| %s | %d | %.1fs | %.1fs | %.2f× | %d MiB | %d MiB | %.2f× | %s (%s) | %s | %s |\n",
			o.module, o.packages, o.stock.wall.Seconds(), o.av.wall.Seconds(), o.timeRatio,
			o.stock.maxRSS/1024, o.av.maxRSS/1024, o.rssRatio, size(o.av.facts.largest), o.av.facts.largestPkg, size(o.av.facts.largestFacts), size(o.av.facts.sum))
		st += o.stock.wall.Seconds()
		at += o.av.wall.Seconds()
		tr, rr = append(tr, o.timeRatio), append(rr, o.rssRatio)
		if o.av.facts.largest > largest {
			largest, largestAt = o.av.facts.largest, o.module
		}
		largestFacts = max(largestFacts, o.av.facts.largestFacts)
	}
	fmt.Printf("| **total** (%d modules) | | %.1fs | %.1fs | %.2f× | | | | %s (%s) | %s | |\n", len(done), st, at, at/st, size(largest), largestAt, size(largestFacts))
	fmt.Printf("\ntime ratio: median %.2f×, worst %.2f×; RSS ratio: median %.2f×, worst %.2f×; largest facts file %s, largest facts section %s\n",
		medianOf(tr), maxOf(tr), medianOf(rr), maxOf(rr), size(largest), size(largestFacts))
	for _, m := range skipped {
		fmt.Printf("skipped: %s\n", m)
	}
	return nil
}

func medianOf(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func goEnv(name string) string {
	out, _ := exec.Command("go", "env", name).Output()
	return strings.TrimSpace(string(out))
}

func command(dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	return cmd
}

func goVersion() string {
	out, _ := exec.Command("go", "env", "GOVERSION").Output()
	return strings.TrimSpace(string(out))
}

// buildTool builds authvet with a nonce, so go vet sees a new tool.
func buildTool(root, work, nonce string) (string, error) {
	bin := filepath.Join(work, "authvet-"+nonce)
	cmd := exec.Command("go", "build", "-ldflags=-X=main.benchNonce="+nonce, "-o", bin, "./cmd/authvet")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build authvet: %v\n%s", err, out)
	}
	return bin, nil
}

// measure runs a command and returns its wall time and the peak RSS of
// its process tree (the largest of the go command and the vet tools it
// waited for).
func measure(dir string, env []string, name string, args ...string) result {
	cmd := command(dir, env, name, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{wall: time.Since(start)}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = ru.Maxrss
		}
		r.code = cmd.ProcessState.ExitCode()
	}
	if err != nil && r.code == 0 {
		r.code = -1
	}
	if r.code != 0 && r.code != 1 {
		fmt.Fprintf(os.Stderr, "%s %s: exit %d\n%s\n", name, strings.Join(args, " "), r.code, lastLines(stderr.String(), 10))
	}
	return r
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func median(rs []result) result {
	s := append([]result(nil), rs...)
	sort.Slice(s, func(i, j int) bool { return s[i].wall < s[j].wall })
	return s[len(s)/2]
}

func maxRSS(rs []result) int64 {
	var m int64
	for _, r := range rs {
		m = max(m, r.maxRSS)
	}
	return m
}
