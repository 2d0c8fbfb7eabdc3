package effects

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Temporal (go.temporal.io/sdk): starting a workflow is a job whose kind
// is the workflow's type name, the constant string handed over or the
// name of the workflow function (Temporal's default registration name).
// The run a start returns is read through benign getters. The client's
// other methods act on workflows that already run (signal, cancel,
// terminate, update): they stay unprovable through the interface.
const temporalPath = "go.temporal.io/sdk"

func temporalLibrary() *Library {
	const p = temporalPath
	l := &Library{
		Name:        "temporal",
		Paths:       []string{p},
		IfaceModels: map[string]model{},
		// A started run and its result are read through these.
		BenignIfaces: []string{p + "/internal.WorkflowRun", p + "/client.WorkflowRun", p + "/internal.EncodedValue", p + "/converter.EncodedValue"},
	}
	for _, iface := range []string{p + "/client.Client", p + "/internal.Client"} {
		l.IfaceModels[iface+".ExecuteWorkflow"] = temporalStart(arg(iface + ".ExecuteWorkflow.workflow"))
		l.IfaceModels[iface+".SignalWithStartWorkflow"] = temporalStart(arg(iface + ".SignalWithStartWorkflow.workflow"))
		// Reads: a workflow's state, history and lists.
		for _, name := range []string{"GetWorkflow", "DescribeWorkflowExecution", "DescribeWorkflow", "DescribeTaskQueue", "DescribeTaskQueueEnhanced",
			"GetWorkflowHistory", "ListWorkflow", "ListOpenWorkflow", "ListClosedWorkflow", "ListArchivedWorkflow", "ScanWorkflow",
			"CountWorkflow", "GetSearchAttributes", "QueryWorkflow", "QueryWorkflowWithOptions", "CheckHealth", "Close",
			"WorkflowService", "OperatorService"} {
			l.IfaceModels[iface+"."+name] = readModel
		}
	}
	return l
}

// readModel is a call that reads: only what it is handed counts.
func readModel(c *callSite) { c.handOff() }

// temporalStart starts the workflow at argument i (receiver counted): a
// job whose kind is its type name.
func temporalStart(i int) model {
	return func(c *callSite) {
		c.emit(Pending{Op: OpSubject, Kind: Job, Text: c.workflowName(i), Prov: TypeResolved})
		c.handOffArgs(i + 1)
	}
}

// workflowName is the type name of the workflow at argument i: a constant
// string, or the name of the function value handed over.
func (c *callSite) workflowName(i int) Str {
	v, fr, ok := c.value(i)
	if !ok {
		return c.str(i, handleString)
	}
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	switch v := v.(type) {
	case *ssa.Function:
		return litStr(funcName(v))
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok && strings.HasSuffix(fn.Name(), "$bound") {
			return litStr(funcName(fn)) // a method value: Temporal registers the method's name
		}
		return unknownStr() // a closure has no name Temporal could register
	}
	return c.e.trace(v, fr, handleString)
}

// funcName is the name Temporal registers a workflow function under: the
// function's (or method's) own name.
func funcName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if obj, ok := fn.Object().(interface{ Name() string }); ok && obj != nil {
		return obj.Name()
	}
	return strings.TrimSuffix(fn.Name(), "$bound")
}
