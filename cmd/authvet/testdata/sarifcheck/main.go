// Command sarifcheck validates SARIF files against the SARIF 2.1.0 JSON
// schema (OASIS, errata 01). It is a module of its own so that the
// validator is a test-only dependency of authvet.
package main

import (
	"fmt"
	"os"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: sarifcheck SCHEMA FILE...")
		os.Exit(2)
	}
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "sarifcheck:", err)
		os.Exit(2)
	}
	bad := false
	for _, file := range os.Args[2:] {
		f, err := os.Open(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sarifcheck:", err)
			os.Exit(2)
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "sarifcheck: %s: %v\n", file, err)
			os.Exit(2)
		}
		if err := sch.Validate(doc); err != nil {
			fmt.Printf("%s: %v\n", file, err)
			bad = true
		}
	}
	if bad {
		os.Exit(1)
	}
}
