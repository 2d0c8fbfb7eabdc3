// Package manifest links a whole module and writes its authority
// manifest (SPEC §9): every //agent:operable action with the effects the
// analyzer proved for it, how it is exposed (an MCP tool, an HTTP route),
// the grants, the MCP tools no grant governs, and the MCP hints the code
// contradicts. [Check] compares a committed manifest with the module as
// it is, for CI.
//
// The analyzer runs through golang.org/x/tools/go/analysis/checker with
// facts, so every proof of vet mode carries over unchanged; exposure is
// read from the module's SSA (registrations of tools and routes), and
// nothing of the user's code is run.
package manifest
