package effects

import "fmt"

// stripe-go: every API call goes through the Backend interface's
// Call(method, path, key, params, v), with a constant method and path
// (`c.B.Call(http.MethodPost, "/v1/refunds", c.Key, params, refund)`).
// The backend, and so the base URL, is runtime configuration: the call is
// an egress whose method and path are proved, and a `clients` entry for
// the SDK's packages declares the base URL it goes under (SPEC §7),
// giving "https://api.stripe.com/v1/refunds" (POST).
const stripeModule = "github.com/stripe/stripe-go"

// stripeMajors are the major versions whose Backend is modelled.
var stripeMajors = []int{76, 77, 78, 79, 80, 81, 82, 83, 84}

func stripeLibrary() *Library {
	l := &Library{Name: "stripe-go", IfaceModels: map[string]model{}, Models: map[string]model{}}
	for _, v := range stripeMajors {
		p := fmt.Sprintf("%s/v%d", stripeModule, v)
		l.Paths = append(l.Paths, p)
		for _, key := range []string{p + ".Backend.Call", p + ".Backend.CallStreaming", p + ".Backend.CallRaw", p + ".Backend.CallMultipart", p + ".RawRequestBackend.RawRequest"} {
			l.IfaceModels[key] = sdkCall(arg(key+".method"), arg(key+".path"), "Stripe")
		}
		// The form package encodes parameters into url.Values; it
		// caches its encoders in a package variable and does no I/O.
		l.Safe = append(l.Safe, p+"/form.*")
		// Making a backend or a client sends nothing.
		for _, f := range []string{"GetBackend", "GetBackendWithConfig", "NewBackends", "NewBackendsWithConfig", "NewClient", "SetBackend"} {
			l.Models[p+"."+f] = readModel
		}
	}
	return l
}

// sdkCall is an SDK's request through a backend whose base URL is
// configuration: the method at argument m and the path at argument p
// (receiver counted) are proved; where it goes is declared by `clients`.
func sdkCall(m, p int, sdk string) model {
	return func(c *callSite) {
		c.emit(Pending{Op: OpEgress, Method: c.str(m, handleString), Text: c.str(p, handleString),
			Reason: "calls the " + sdk + " API through its backend, whose base URL is runtime configuration",
			Fix:    "declare the SDK's base URL for its packages under clients in authvet.yaml, or declare the call with //agent:effect outbound(\"...\")"})
		c.handOffArgs(p + 1)
	}
}
