package effects

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// aws-sdk-go-v2: an operation of a service client, (*s3.Client).PutObject
// (ctx, *PutObjectInput, ...func(*Options)), sends one request to the
// service's endpoint, which is runtime configuration (region, endpoint
// resolver). The call is an egress from the service's package, so a
// `clients` entry for that package declares where it goes; the operation
// is not walked (its middleware stack is the SDK's own). By the AWS API's
// naming, an operation named Get*, List*, Head* or Describe* reads, and
// keeps the safe method GET (HEAD for Head*); any other operation's
// method is unknown, so it is not read-only.
const awsPath = "github.com/aws/aws-sdk-go-v2"

func awsLibrary() *Library {
	return &Library{
		Name:       "aws-sdk-go-v2",
		Paths:      []string{awsPath},
		CallShapes: []func(*types.Func) model{awsOperation},
	}
}

// awsOperation recognises an operation of a generated service client.
func awsOperation(fn *types.Func) model {
	sig := fn.Signature()
	if sig.Recv() == nil || fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), awsPath+"/service/") ||
		typeName(sig.Recv().Type()) != "Client" || !fn.Exported() || !sig.Variadic() || sig.Params().Len() != 3 ||
		!strings.HasSuffix(typeName(sig.Params().At(1).Type()), "Input") {
		return nil
	}
	method := ""
	switch name := fn.Name(); {
	case strings.HasPrefix(name, "Head"):
		method = "HEAD"
	case strings.HasPrefix(name, "Get"), strings.HasPrefix(name, "List"), strings.HasPrefix(name, "Describe"):
		method = "GET"
	}
	pkg := fn.Pkg().Path()
	return func(c *callSite) {
		if len(c.args) > 3 && !nilArg(c.args[3]) { // (recv, ctx, params, optFns)
			// Per-call options may set BaseEndpoint, Region or the
			// endpoint resolver: the declared endpoint does not hold.
			c.egress("calls the AWS operation "+shortFunc(fn)+" with per-call options, which may change its endpoint",
				"set the endpoint where the client is made, and declare it under clients in authvet.yaml, or declare the call with //agent:effect outbound(\"...\")")
			c.handOffArgs(2)
			return
		}
		p := Pending{Op: OpEgress, Pkg: pkg,
			Reason: "calls the AWS operation " + shortFunc(fn) + ", whose endpoint is runtime configuration",
			Fix:    "declare the service's endpoint for " + pkg + " under clients in authvet.yaml, or declare the call with //agent:effect outbound(\"...\")"}
		if method != "" {
			p.Method = litStr(method)
		}
		c.emit(p)
		c.handOffArgs(2)
	}
}

// nilArg reports whether b is the nil slice of a variadic call with no
// arguments.
func nilArg(b binding) bool {
	c, ok := b.v.(*ssa.Const)
	return ok && c.IsNil()
}
