// Package h is class H of the fail-closed corpus: contracts and hatches
// must not be bypassed. Each shape has a clean twin that must produce no
// diagnostic.
package h

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"reflect"

	"classes/h/api"
	"classes/h/impl"
	"classes/h/reg"

	"github.com/authvet/authvet/grant"
)

var NoteTaker = grant.Grant{
	Writes:        []string{"notes"},
	TenantScope:   grant.Scoped,
	Outbound:      []string{"https://api.stripe.com/v1/refunds"},
	Reversibility: grant.Irreversible,
}

type Server struct{ db *sql.DB }

// ---------------------------------------------------------------------
// Contracts.
// ---------------------------------------------------------------------

// StructuralPlugin: impl converts *impl.Bad to any in a package that
// never imports api (Go's interfaces are structural), so no conversion
// is checked against the contract; the handler asserts it back. The
// assertion is checked against every implementation the package sees.
//
//agent:operable grant=NoteTaker
func (s *Server) StructuralPlugin(ctx context.Context) error {
	return reg.Get("bad").(api.Notes).Save(ctx, "x") // want `\(\*(impl\.)?Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow`
}

// StructuralPluginGood: twin of StructuralPlugin, a registry typed by
// the contracted interface: every value was converted to api.Notes where
// the contract is visible, and checked there.
//
//agent:operable grant=NoteTaker
func (s *Server) StructuralPluginGood(ctx context.Context) error {
	var local = map[string]api.Notes{"good": &impl.Good{}}
	return local["good"].Save(ctx, "x")
}

// ReflectNew: reflect.TypeOf converts the value type impl.Bad, whose
// method set lacks Save; reflect.New then makes the *impl.Bad that has it,
// with no conversion of *impl.Bad anywhere.
//
//agent:operable grant=NoteTaker
func (s *Server) ReflectNew(ctx context.Context) error {
	t := reflect.TypeOf(impl.Bad{})
	return reflect.New(t).Interface().(api.Notes).Save(ctx, "x") // want `\(\*(impl\.)?Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow`
}

// ReflectNewGood: twin of ReflectNew, the value converted to api.Notes
// where the contract is visible (and so checked), not made by reflection.
//
//agent:operable grant=NoteTaker
func (s *Server) ReflectNewGood(ctx context.Context) error {
	var n api.Notes = &impl.Good{}
	return n.Save(ctx, "x")
}

var registry = map[string]any{}

// box converts inside a generic body: its operand's type is a type
// parameter, not the concrete type it is instantiated with.
func box[T any](v T) any { return v }

// GenericBox registers *impl.Bad through a generic helper. The
// conversion is in box's generic body; the instantiation, where the
// type goes in, is checked against every contract the type implements
// (a handler asserting it back elsewhere may not see the type at all).
func GenericBox() {
	registry["bad"] = box(&impl.Bad{}) // want `\(\*(impl\.)?Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow`
}

// GenericBoxGood: twin of GenericBox.
func GenericBoxGood() {
	registry["good"] = box(&impl.Good{})
}

// NotesFunc adapts a function to api.Notes, as http.HandlerFunc does.
type NotesFunc func(ctx context.Context, body string) error

func (f NotesFunc) Save(ctx context.Context, body string) error { return f(ctx, body) }

// FuncAdapter converts an adapter around a literal that writes secrets.
func FuncAdapter(db *sql.DB) api.Notes {
	return NotesFunc(func(ctx context.Context, body string) error { // want `\(NotesFunc\).Save (has effect write "secrets"|calls a function-valued parameter)`
		_, err := db.ExecContext(ctx, "INSERT INTO secrets (tenant_id, body) VALUES ($1, $2)", 1, body)
		return err
	})
}

// FuncAdapterGood: twin of FuncAdapter.
func FuncAdapterGood(db *sql.DB) api.Notes {
	return NotesFunc(func(ctx context.Context, body string) error {
		_, err := db.ExecContext(ctx, "INSERT INTO notes (tenant_id, body) VALUES ($1, $2)", 1, body)
		return err
	})
}

// wrapped gets Save by promotion from the embedded implementation.
type wrapped struct{ *impl.Bad }

type wrappedGood struct{ *impl.Good }

// EmbeddedPromotion converts a struct whose Save is promoted.
func EmbeddedPromotion() api.Notes {
	return wrapped{&impl.Bad{}} // want `\(wrapped\).Save has effect write "secrets"`
}

// EmbeddedPromotionGood: twin of EmbeddedPromotion.
func EmbeddedPromotionGood() api.Notes {
	return wrappedGood{&impl.Good{}}
}

// ---------------------------------------------------------------------
// Hatches.
// ---------------------------------------------------------------------

// HatchOnIIFE: a hatch on a function literal called in place would
// cover every statement of its body, like a hatch on a block.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchOnIIFE(ctx context.Context) {
	func() { //agent:effect none reason="setup" // want `(//agent:effect on .* would take every effect inside it out of the ledger|HatchOnIIFE writes "secrets")`
		s.db.Exec("INSERT INTO secrets (tenant_id) VALUES ($1)", 1) // want `HatchOnIIFE writes "secrets"`
	}()
}

// HatchOnIIFECall: twin of HatchOnIIFE, the hatch on the statement in
// the literal.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchOnIIFECall(ctx context.Context) {
	func() {
		//agent:effect none reason="a no-op in this fixture"
		s.db.Exec("INSERT INTO secrets (tenant_id) VALUES ($1)", 1)
	}()
}

func each(ids []int, f func(int)) {
	for _, id := range ids {
		f(id)
	}
}

// HatchOnLiteralArgument: a hatch on a call whose argument is a
// multi-line literal; the callee runs the literal, elsewhere.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchOnLiteralArgument(ctx context.Context, ids []int) {
	each(ids, func(id int) { //agent:effect none reason="each only iterates"
		s.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, id) // want `HatchOnLiteralArgument writes "secrets"`
	})
}

// HatchInsideLiteralArgument: twin of HatchOnLiteralArgument, the hatch
// on the statement in the literal.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchInsideLiteralArgument(ctx context.Context, ids []int) {
	each(ids, func(id int) {
		//agent:effect none reason="a no-op in this fixture"
		s.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, id)
	})
}

// HatchScopedOnDefinition: a scoped hatch on the line that defines a
// closure does not scope the closure's query where it runs.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchScopedOnDefinition(ctx context.Context) {
	//agent:effect scoped reason="defining the closure reads nothing"
	list := func() { s.db.QueryContext(ctx, "SELECT body FROM notes") } // want `HatchScopedOnDefinition runs a raw query on "notes" with no tenant predicate`
	list()
}

// HatchScopedOnCall: twin of HatchScopedOnDefinition.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchScopedOnCall(ctx context.Context) {
	list := func() { s.db.QueryContext(ctx, "SELECT body FROM notes") }
	//agent:effect scoped reason="notes is a tenant-partitioned view here"
	list()
}

func (s *Server) makePurge() func() {
	return func() { s.db.Exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, 2) }
}

// HatchOnFactoryCall: the hatch sits on the call that makes the
// closure, not on the call that runs it.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchOnFactoryCall(ctx context.Context) {
	purge := s.makePurge() //agent:effect none reason="making the closure does nothing"
	purge()                // want `HatchOnFactoryCall writes "secrets"`
}

// HatchOnFactoryRun: twin of HatchOnFactoryCall.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchOnFactoryRun(ctx context.Context) {
	purge := s.makePurge()
	purge() //agent:effect none reason="purge is a no-op in this deployment"
}

// HatchOnMethodValue: the hatch is on the statement that takes a method
// value; the call through it is elsewhere.
//
//agent:operable grant=NoteTaker
func (s *Server) HatchOnMethodValue(ctx context.Context) {
	exec := s.db.Exec                                                  //agent:effect none reason="taking a method value does nothing"
	exec("DELETE FROM secrets WHERE tenant_id = $1 AND id = $2", 1, 2) // want `HatchOnMethodValue writes "secrets"`
}

// ---------------------------------------------------------------------
// url.JoinPath and friends.
// ---------------------------------------------------------------------

// JoinPathClimbs: the shape.
//
//agent:operable grant=NoteTaker
func (s *Server) JoinPathClimbs(ctx context.Context) {
	u, _ := url.JoinPath("https://api.stripe.com/v1/refunds", "..", "payouts")
	http.Get(u) // want `JoinPathClimbs calls out to "https://api.stripe.com/v1/payouts" \(GET\)`
}

// URLMethodJoinPath: the method form, (*url.URL).JoinPath.
//
//agent:operable grant=NoteTaker
func (s *Server) URLMethodJoinPath(ctx context.Context) {
	base, _ := url.Parse("https://api.stripe.com/v1/refunds")
	http.Get(base.JoinPath("..", "payouts").String()) // want `URLMethodJoinPath calls out to (a URL that is not constant|"https://api.stripe.com/v1/payouts")`
}

// URLMethodJoinPathBelow: twin of URLMethodJoinPath, staying below the base.
//
//agent:operable grant=NoteTaker
func (s *Server) URLMethodJoinPathBelow(ctx context.Context) {
	base, _ := url.Parse("https://api.stripe.com/v1/refunds")
	// (*url.URL).JoinPath is not computed (url.JoinPath is): unprovable
	// unless declared.
	http.Get(base.JoinPath("re_1").String()) //agent:effect outbound("https://api.stripe.com/v1/refunds/re_1") reason="below the refunds base"
}

// ResolveReferenceClimbs: a relative reference climbs above the base.
//
//agent:operable grant=NoteTaker
func (s *Server) ResolveReferenceClimbs(ctx context.Context) {
	base, _ := url.Parse("https://api.stripe.com/v1/refunds/")
	ref, _ := url.Parse("../payouts")
	http.Get(base.ResolveReference(ref).String()) // want `ResolveReferenceClimbs calls out to (a URL that is not constant|"https://api.stripe.com/v1/payouts")`
}

// ResolveReferenceBelow: twin of ResolveReferenceClimbs.
//
//agent:operable grant=NoteTaker
func (s *Server) ResolveReferenceBelow(ctx context.Context) {
	base, _ := url.Parse("https://api.stripe.com/v1/refunds/")
	ref, _ := url.Parse("re_1")
	// ResolveReference is not computed: unprovable unless declared.
	http.Get(base.ResolveReference(ref).String()) //agent:effect outbound("https://api.stripe.com/v1/refunds/re_1") reason="below the refunds base"
}

// ResolveReferenceRuntime: a runtime reference may name another host
// ("//evil.example/x").
//
//agent:operable grant=NoteTaker
func (s *Server) ResolveReferenceRuntime(ctx context.Context, p string) {
	base, _ := url.Parse("https://api.stripe.com/v1/refunds/")
	ref, _ := url.Parse(p)
	http.Get(base.ResolveReference(ref).String()) // want `ResolveReferenceRuntime calls out to a URL that is not constant`
}

// Fanout calls Save on each of its stores through the constraint: an
// instantiation with a concrete type is a way in to the contract with no
// conversion anywhere.
type Fanout[T api.Notes] struct{ Items []T }

func (f *Fanout[T]) SaveAll(ctx context.Context, body string) error {
	for _, n := range f.Items {
		if err := n.Save(ctx, body); err != nil {
			return err
		}
	}
	return nil
}

func saveEach[T api.Notes](ctx context.Context, items []T, body string) {
	for _, n := range items {
		n.Save(ctx, body)
	}
}

// GenericInstance instantiates Fanout and saveEach with *impl.Bad.
//
//agent:operable grant=NoteTaker
func GenericInstance(ctx context.Context) error {
	f := &Fanout[*impl.Bad]{Items: []*impl.Bad{{}}} // want `\(\*(impl\.)?Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow`
	saveEach(ctx, f.Items, "x")                     // want `\(\*(impl\.)?Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow` `GenericInstance writes "secrets"`
	return f.SaveAll(ctx, "x")                      // want `GenericInstance writes "secrets"`
}

// GenericInstanceGood: twin of GenericInstance.
//
//agent:operable grant=NoteTaker
func GenericInstanceGood(ctx context.Context) error {
	f := &Fanout[*impl.Good]{Items: []*impl.Good{{}}}
	saveEach(ctx, f.Items, "x")
	return f.SaveAll(ctx, "x")
}

// GenericInstanceOther instantiates another package's generic: its
// summary calls Save through the contract, so the instantiation is
// where *impl.Bad is checked.
//
//agent:operable grant=NoteTaker
func GenericInstanceOther(ctx context.Context) error {
	p := &api.Pool[*impl.Bad]{Items: []*impl.Bad{{}}} // want `\(\*(impl\.)?Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow`
	return p.SaveAll(ctx, "x")
}

// GenericInstanceOtherGood: twin of GenericInstanceOther.
//
//agent:operable grant=NoteTaker
func GenericInstanceOtherGood(ctx context.Context) error {
	p := &api.Pool[*impl.Good]{Items: []*impl.Good{{}}}
	return p.SaveAll(ctx, "x")
}

// GenericRegister: a generic helper with an any constraint converts its
// argument to any inside its body; the instantiation is where the type
// goes in, and is checked against every contract it implements.
func GenericRegister() {
	reg.Add("bad", &impl.Bad{}) // want `\(\*(impl\.)?Bad\).Save has effect write "secrets" at \S*impl.go:\d+, which the effect contract on api.Notes.Save does not allow`
}

// GenericRegisterGood: twin of GenericRegister, with an implementation
// that keeps to the contract.
func GenericRegisterGood() {
	reg.Add("good", &impl.Good{})
}
