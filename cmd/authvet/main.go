// Command authvet checks agent-operable Go handlers against their grants.
//
// Run it under go vet:
//
//	go vet -vettool=$(which authvet) ./...
//
// or on its own:
//
//	authvet [-C dir] [-json] [-format text|json] [-config authvet.yaml] [packages]
//
// See the README for grants, directives and the design.
package main

import (
	"os"
	"strings"

	"github.com/authvet/authvet/analyzer"
	"github.com/authvet/authvet/internal/vetdriver"
)

// benchNonce is set with -ldflags=-X=main.benchNonce=... by bench/ so that
// each benchmark run is a distinct tool binary, which defeats go vet's
// result cache while the compile cache stays warm.
var benchNonce string

func main() {
	if isVetProtocol(os.Args[1:]) {
		analyzer.BoundMemory = true // one package per process
		vetdriver.Main(analyzer.Analyzer, func(goFiles []string) bool {
			return analyzer.StandardFile(goFiles[0])
		})
		return
	}
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// isVetProtocol reports whether go vet is running authvet as a vet tool:
// it asks -V=full or -flags, or passes flags followed by one *.cfg file.
// This is decided before any flag parsing.
func isVetProtocol(args []string) bool {
	for _, a := range args {
		if a == "-V=full" || a == "--V=full" || a == "-flags" || a == "--flags" {
			return true
		}
	}
	if n := len(args); n > 0 && strings.HasSuffix(args[n-1], ".cfg") {
		for _, a := range args[:n-1] {
			if !strings.HasPrefix(a, "-") {
				return false
			}
		}
		return true
	}
	return false
}
