// Package grant declares the authority of agent-callable handlers.
//
// A Grant says what a handler marked //agent:operable may do: which tables
// it may write (bounded, or unbounded), whether its queries may span
// tenants, which hosts it may call, which webhooks it may dispatch, which
// jobs it may enqueue, and how hard its effects are to undo. authvet derives
// every effect the handler can have, on any path, and reports each one the
// grant does not allow at the call site that causes it.
//
//	import "github.com/authvet/authvet/grant"
//
//	// RefundDrafter is draft-only refund authority for the support agent.
//	var RefundDrafter = grant.Grant{
//		Writes:          []string{"refunds", "refund_notes"},
//		UnboundedWrites: []string{},
//		TenantScope:     grant.Scoped,
//		Outbound:        []string{"https://api.stripe.com/v1/refunds", "alias:stripe"},
//		Webhooks:        []string{"refund.drafted"},
//		Jobs:            []string{"notify_finance"},
//		Rate:            "10/min",
//		Spend:           "500.00 USD",
//		Reversibility:   grant.Compensable,
//	}
//
// # Declaring a grant
//
// Go has no constant structs, so authvet enforces the constness of a grant
// itself: a grant must be a package-level variable initialised with a keyed
// composite literal of Grant whose fields are all constant expressions
// (string literals and constants, slice literals of them). authvet refuses a
// field that is a variable, a call or an append, an unkeyed literal, and any
// assignment to, or address taken of, a grant variable anywhere in analysed
// code.
//
// Subjects: Writes and UnboundedWrites name tables as SQL names them
// (lower-cased unless quoted, schema kept: "billing.refunds"). Outbound
// entries are absolute http or https URL prefixes, compared on URL
// boundaries (see package urlprefix), or "alias:NAME". Jobs are job kinds (a
// River Kind(), an asynq task type, a configured queue's name). Webhooks are
// topics.
//
// Reversibility is required. The effects a handler has set a floor on it
// (see Floor): any unbounded write, outbound request, job, webhook or
// //agent:effect none assertion requires at least Compensable.
//
// # Checking a grant in your own tests
//
// Validate reports every problem authvet would refuse at the declaration,
// and Allows and Floor are the checks authvet applies to proved effects, so
// a test can assert, say, that a grant allows a given URL:
//
//	if err := RefundDrafter.Validate(); err != nil {
//		t.Fatal(err)
//	}
//	if !RefundDrafter.Allows(grant.KindOutbound, "https://api.stripe.com/v1/refunds/re_1") {
//		t.Error("RefundDrafter cannot reach refunds")
//	}
//
// This package imports only the standard library: it is compiled into the
// binaries of programs that declare grants.
package grant
