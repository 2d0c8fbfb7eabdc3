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
//
// A presign call, (*s3.PresignClient).PresignPutObject, sends nothing: it
// signs a request and returns its URL. Whoever holds that URL can perform
// the operation, so presigning an operation that is not a read delegates
// it and counts as the operation itself (an egress to the same endpoint,
// method unknown); presigning a read (Get*, Head*, List*, Describe*)
// hands out only a read, and has no effect.
const awsPath = "github.com/aws/aws-sdk-go-v2"

func awsLibrary() *Library {
	return &Library{
		Name:       "aws-sdk-go-v2",
		Paths:      []string{awsPath},
		CallShapes: []func(*types.Func) model{awsOperation, awsPresignClient},
	}
}

// awsOperation recognises an operation of a generated service client.
func awsOperation(fn *types.Func) model {
	sig := fn.Signature()
	if sig.Recv() == nil || fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), awsPath+"/service/") ||
		!fn.Exported() || !sig.Variadic() || sig.Params().Len() != 3 ||
		!strings.HasSuffix(typeName(sig.Params().At(1).Type()), "Input") {
		return nil
	}
	name := fn.Name()
	presign := false
	switch typeName(sig.Recv().Type()) {
	case "Client":
	case "PresignClient":
		if !strings.HasPrefix(name, "Presign") {
			return nil
		}
		presign, name = true, strings.TrimPrefix(name, "Presign")
	default:
		return nil
	}
	method := ""
	switch {
	case strings.HasPrefix(name, "Head"):
		method = "HEAD"
	case strings.HasPrefix(name, "Get"), strings.HasPrefix(name, "List"), strings.HasPrefix(name, "Describe"):
		method = "GET"
	}
	pkg := fn.Pkg().Path()
	if presign && method != "" {
		// A presigned read: the URL lets its holder read, nothing more.
		return func(c *callSite) { c.handOffArgs(2) }
	}
	return func(c *callSite) {
		if len(c.args) > 3 && !nilArg(c.args[3]) { // (recv, ctx, params, optFns)
			// Per-call options may set BaseEndpoint, Region or the
			// endpoint resolver: the declared endpoint does not hold.
			verb := "calls"
			if presign {
				verb = "presigns"
			}
			c.egress(verb+" the AWS operation "+shortFunc(fn)+" with per-call options, which may change its endpoint",
				"set the endpoint where the client is made, and declare it under clients in authvet.yaml, or declare the call with //agent:effect outbound(\"...\")")
			c.handOffArgs(2)
			return
		}
		reason := "calls the AWS operation " + shortFunc(fn) + ", whose endpoint is runtime configuration"
		if presign {
			reason = "presigns the AWS operation " + shortFunc(fn) + " (whoever holds the URL can perform it), whose endpoint is runtime configuration"
		}
		p := Pending{Op: OpEgress, Pkg: pkg,
			Reason: reason,
			Fix:    "declare the service's endpoint for " + pkg + " under clients in authvet.yaml, or declare the call with //agent:effect outbound(\"...\")"}
		if method != "" {
			p.Method = litStr(method)
		}
		c.emit(p)
		c.handOffArgs(2)
	}
}

// awsPresignClient recognises a service's NewPresignClient(client,
// ...func(*PresignOptions)): it copies the client's options and sends
// nothing. Its options run at once; they are handed off as any callback.
func awsPresignClient(fn *types.Func) model {
	sig := fn.Signature()
	if sig.Recv() != nil || fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), awsPath+"/service/") ||
		fn.Name() != "NewPresignClient" || sig.Params().Len() != 2 || sig.Results().Len() != 1 ||
		typeName(sig.Results().At(0).Type()) != "PresignClient" {
		return nil
	}
	return func(c *callSite) { c.handOffArgs(1) }
}

// nilArg reports whether b is the nil slice of a variadic call with no
// arguments.
func nilArg(b binding) bool {
	c, ok := b.v.(*ssa.Const)
	return ok && c.IsNil()
}
