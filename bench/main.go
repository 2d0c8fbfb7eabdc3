// Command bench compares `go vet -vettool=authvet ./...` with stock
// `go vet ./...` on a pinned real module, side by side in one run, and
// prints the wall-time ratio and each run's peak RSS.
//
//	go run ./bench                      # cfssl v1.6.5, 3 rounds
//	go run ./bench -module github.com/usememos/memos@v0.25.0 -rounds 1
//
// The compile cache is warmed first and stays warm; the analysis is cold
// for both tools in every round: stock vet gets a fresh -printf.funcs
// value (vet caches results by flag strings), and authvet is rebuilt with
// -ldflags=-X=main.benchNonce=<nonce>, which changes the tool's ID.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	module := flag.String("module", "github.com/cloudflare/cfssl@v1.6.5", "pinned module@version to analyse")
	rounds := flag.Int("rounds", 3, "measured rounds (each runs both tools once)")
	flag.Parse()
	if err := run(*module, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
}

type result struct {
	wall   time.Duration
	maxRSS int64 // KiB
	code   int
}

func run(module string, rounds int) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "authvet")); err != nil {
		return fmt.Errorf("run from the authvet repository root")
	}
	work, err := os.MkdirTemp("", "authvet-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GONOSUMDB=github.com/usememos", "GOWORK=off")

	fmt.Printf("module   %s\n", module)
	var dl struct{ Dir string }
	out, err := command(work, env, "go", "mod", "download", "-json", module).Output()
	if err != nil {
		return fmt.Errorf("go mod download %s: %v", module, err)
	}
	if err := json.Unmarshal(out, &dl); err != nil || dl.Dir == "" {
		return fmt.Errorf("go mod download %s: no Dir in %s", module, out)
	}
	src := filepath.Join(work, "src")
	if err := exec.Command("cp", "-r", dl.Dir, src).Run(); err != nil {
		return fmt.Errorf("copy module: %v", err)
	}
	exec.Command("chmod", "-R", "u+w", src).Run()
	pkgs, _ := command(src, env, "go", "list", "./...").Output()
	fmt.Printf("packages %d\n", strings.Count(string(pkgs), "\n"))
	fmt.Printf("machine  %s/%s, %d CPUs, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), goVersion())

	// Warm the compile cache (and vet's export data) once.
	fmt.Println("warming the compile cache ...")
	command(src, env, "go", "build", "./...").Run()
	command(src, env, "go", "vet", "-printf.funcs=authvetbenchwarm", "./...").Run()
	warm, err := buildTool(root, work, "warm")
	if err != nil {
		return err
	}
	command(src, env, "go", "vet", "-vettool="+warm, "./...").Run()

	var stock, av []result
	for i := 0; i < rounds; i++ {
		nonce := fmt.Sprintf("%d", time.Now().UnixNano())
		s := measure(src, env, "go", "vet", "-printf.funcs=authvetbench"+nonce, "./...")
		tool, err := buildTool(root, work, nonce)
		if err != nil {
			return err
		}
		a := measure(src, env, "go", "vet", "-vettool="+tool, "./...")
		fmt.Printf("round %d  stock vet %6.2fs %5d MiB (exit %d)   authvet %6.2fs %5d MiB (exit %d)   ratio %.2f\n",
			i+1, s.wall.Seconds(), s.maxRSS/1024, s.code, a.wall.Seconds(), a.maxRSS/1024, a.code, a.wall.Seconds()/s.wall.Seconds())
		stock, av = append(stock, s), append(av, a)
	}
	ms, ma := median(stock), median(av)
	fmt.Printf("median   stock vet %.2fs, authvet %.2fs: time ratio %.2f (goal <= 1.5)\n", ms.wall.Seconds(), ma.wall.Seconds(), ma.wall.Seconds()/ms.wall.Seconds())
	fmt.Printf("peak RSS stock vet %d MiB, authvet %d MiB\n", maxRSS(stock)/1024, maxRSS(av)/1024)
	return nil
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
