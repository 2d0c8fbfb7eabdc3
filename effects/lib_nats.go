package effects

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// NATS (github.com/nats-io/nats.go, and its jetstream package): a publish
// or request is a webhook whose topic is the subject, read from the
// constant argument or from the message's Subject field. The rest of the
// library is analysed from its source; its flusher goroutine writes what
// a publish buffered, so every publishing call is modelled here.
const natsPath = "github.com/nats-io/nats.go"

func natsLibrary() *Library {
	const p = natsPath
	l := &Library{Name: "nats", Paths: []string{p}, Models: map[string]model{}, IfaceModels: map[string]model{}}
	// The topic is a subject argument, or the Subject of a message
	// argument (PublishMsg): the argument's name says which.
	topic := func(key string) model {
		for _, param := range []string{"subj", "subject"} {
			if i, ok := theArgTable()[key+"."+param]; ok {
				return webhookAt(i)
			}
		}
		if i, ok := theArgTable()[key+".m"]; ok {
			return webhookField(i)
		}
		return webhookField(arg(key + ".msg"))
	}
	for _, name := range []string{"Conn.Publish", "Conn.PublishRequest", "Conn.Request", "Conn.RequestWithContext",
		"Conn.PublishMsg", "Conn.RequestMsg", "Conn.RequestMsgWithContext",
		"EncodedConn.Publish", "EncodedConn.PublishRequest", "EncodedConn.Request", "EncodedConn.RequestWithContext"} {
		l.Models[p+"."+name] = topic(p + "." + name)
	}
	// The legacy JetStreamContext and the jetstream package.
	for _, name := range []string{"JetStream.Publish", "JetStream.PublishAsync", "JetStream.PublishMsg", "JetStream.PublishMsgAsync",
		"/jetstream.Publisher.Publish", "/jetstream.Publisher.PublishMsg", "/jetstream.Publisher.PublishAsync", "/jetstream.Publisher.PublishMsgAsync"} {
		key := p + "." + name
		if name[0] == '/' {
			key = p + name
		}
		l.IfaceModels[key] = topic(key)
	}
	return l
}

// webhookAt dispatches the topic at argument i (receiver counted).
func webhookAt(i int) model {
	return func(c *callSite) {
		c.emit(Pending{Op: OpSubject, Kind: Webhook, Text: c.str(i, handleString)})
		c.handOffArgs(i + 1)
	}
}

// webhookField dispatches the topic in the Subject field of the message
// at argument i (receiver counted).
func webhookField(i int) model {
	return func(c *callSite) {
		c.emit(Pending{Op: OpSubject, Kind: Webhook, Text: c.fieldStr(i, "Subject")})
		c.handOffArgs(i + 1)
	}
}

// fieldStr traces the named string field of the struct (or pointer to
// one) at argument i, wherever the analysis sees it stored: a composite
// literal or assignments in the functions that built it. Anything else
// (a field set by a caller, a struct read from elsewhere) is unknown.
func (c *callSite) fieldStr(i int, name string) Str {
	b, ok := c.arg(i)
	if !ok || !b.live() {
		return unknownStr()
	}
	idx := structFieldIndex(b.v.Type(), name)
	if idx < 0 {
		return unknownStr()
	}
	if alloc, ok := b.v.(*ssa.Alloc); ok {
		if s, ok := c.allocField(alloc, idx, b.fr); ok {
			return s
		}
	}
	// The call itself reads the struct it is handed.
	done, up, ok := c.e.fieldsOf(b, []int{idx}, callInstrAt(b.v, c.pos))
	if !ok || len(up) > 0 || len(done) == 0 {
		return unknownStr()
	}
	var out Str
	for _, d := range done {
		out.Alts = append(out.Alts, c.e.traceB(d, handleString).Alts...)
	}
	// A value another call made (nats.NewMsg(subject)) whose field is
	// set after: m.Subject = "payments.refund" may be what is sent.
	if refs := b.v.Referrers(); refs != nil {
		for _, r := range *refs {
			fa, ok := r.(*ssa.FieldAddr)
			if !ok || fa.Field != idx || fa.X != b.v {
				continue
			}
			for _, r2 := range *fa.Referrers() {
				if st, ok := r2.(*ssa.Store); ok && st.Addr == fa {
					out.Alts = append(out.Alts, c.e.trace(st.Val, b.fr, handleString).Alts...)
				}
			}
		}
	}
	return out
}

// structFieldIndex is the index of the named field of the struct t (or
// *t), or -1.
func structFieldIndex(t types.Type, name string) int {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return -1
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return i
		}
	}
	return -1
}

// allocField reads field idx of a struct allocated here and used only by
// field stores, loads, and calls into the called function's own package
// (its Close, its Stats): the library does not rewrite what the program
// set. It reports false for any other use.
func (c *callSite) allocField(alloc *ssa.Alloc, idx int, fr *frame) (Str, bool) {
	own := ""
	if c.fn.Pkg() != nil {
		own = c.fn.Pkg().Path()
	}
	var vals []ssa.Value
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			stored, ok := fieldStores(r)
			if !ok {
				return Str{}, false
			}
			if r.Field == idx {
				vals = append(vals, stored...)
			}
		case ssa.CallInstruction:
			callee := r.Common().StaticCallee()
			if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != own {
				return Str{}, false
			}
		case *ssa.DebugRef:
		default:
			return Str{}, false
		}
	}
	if len(vals) == 0 {
		return Str{}, false
	}
	var out Str
	for _, v := range vals {
		out.Alts = append(out.Alts, c.e.trace(v, fr, handleString).Alts...)
	}
	return out, true
}
