package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// manifestModule is the real module of about 90 packages the manifest
// is measured on.
const manifestModule = "miniflux.app/v2@v2.3.5"

// runManifest runs `authvet manifest ./...` and the floor (the
// unavoidable work: load, whole-program SSA, VTA call graph) on the same
// module, rounds times each, and prints both times, both peak RSS
// figures and the ratios.
func runManifest(module string, rounds int) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "authvet")); err != nil {
		return fmt.Errorf("run from the authvet repository root")
	}
	work, err := os.MkdirTemp("", "authvet-bench-manifest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GONOSUMDB=github.com/usememos", "GOWORK=off")
	var dl struct{ Dir string }
	data, err := command(work, env, "go", "mod", "download", "-json", module).Output()
	if err != nil {
		return fmt.Errorf("go mod download %s: %v", module, err)
	}
	if err := json.Unmarshal(data, &dl); err != nil || dl.Dir == "" {
		return fmt.Errorf("go mod download %s: no Dir in %s", module, data)
	}
	src := filepath.Join(work, "src")
	if err := exec.Command("cp", "-r", dl.Dir, src).Run(); err != nil {
		return fmt.Errorf("copy module: %v", err)
	}
	exec.Command("chmod", "-R", "u+w", src).Run()
	if b, err := command(src, env, "go", "build", "./...").CombinedOutput(); err != nil {
		return fmt.Errorf("the module does not build: %s", lastLines(string(b), 3))
	}
	tool, err := buildTool(root, work, "manifest")
	if err != nil {
		return err
	}
	floor := filepath.Join(work, "floor")
	cmd := exec.Command("go", "build", "-o", floor, "./bench/floor")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build floor: %v\n%s", err, out)
	}
	pkgs, _ := command(src, env, "go", "list", "./...").Output()
	fmt.Printf("module   %s (%d packages)\n", module, countLines(pkgs))
	var fs, ms []result
	for i := 0; i < rounds; i++ {
		f := measure(src, env, floor, "./...")
		m := measure(src, env, tool, "manifest", "-o", filepath.Join(work, "manifest.json"), "./...")
		fmt.Printf("round %d  floor %6.2fs %5d MiB   authvet manifest %6.2fs %5d MiB (exit %d)\n",
			i+1, f.wall.Seconds(), f.maxRSS/1024, m.wall.Seconds(), m.maxRSS/1024, m.code)
		fs, ms = append(fs, f), append(ms, m)
	}
	f, m := median(fs), median(ms)
	fmt.Printf("median   floor %.2fs, authvet manifest %.2fs: time ratio %.2f\n", f.wall.Seconds(), m.wall.Seconds(), m.wall.Seconds()/f.wall.Seconds())
	fmt.Printf("peak RSS floor %d MiB, authvet manifest %d MiB: ratio %.2f\n", maxRSS(fs)/1024, maxRSS(ms)/1024, float64(maxRSS(ms))/float64(max(maxRSS(fs), 1)))
	_ = time.Second
	return nil
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
