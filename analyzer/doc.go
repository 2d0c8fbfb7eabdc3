// Package analyzer defines authvet's Analyzer, which proves that every
// handler marked //agent:operable can do nothing its grant does not allow.
//
// # Analyzer authvet
//
// authvet: check agent-operable handlers against their grants
//
// A grant is a package-level variable initialised with a keyed literal of
// grant.Grant whose fields are constants. A function whose doc comment
// carries
//
//	//agent:operable grant=RefundDrafter
//
// is a handler an autonomous agent may call. authvet derives, from the
// code, every effect the handler can have on any path (SQL writes,
// unbounded writes, raw queries that leave the tenant, outbound HTTP
// calls, jobs, webhooks, detached goroutines) through the functions it
// calls, in this package and others, and reports each effect the grant
// does not allow at the call in the handler that causes it. A site it
// cannot read is reported as unprovable, with the annotation that
// resolves it; //agent:effect on a statement declares what it does.
//
// Diagnostic categories are the effect kinds (write, unbounded_write,
// cross_tenant, outbound, job, webhook, detached, unprovable) and
// reversibility, grant and directive.
package analyzer
