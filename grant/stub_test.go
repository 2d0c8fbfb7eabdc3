package grant_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"testing"

	"github.com/authvet/authvet/grant"
)

// TestStubMatches checks that the stub of this package the analysistest
// fixtures import (testdata/src/github.com/authvet/authvet/grant) declares
// the same Grant fields, with the same types, and the same TenantScope
// and Reversibility constants: a fixture must not pass on a grant the
// real package does not have.
func TestStubMatches(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../testdata/src/github.com/authvet/authvet/grant/grant.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.Default()}
	stub, err := conf.Check("github.com/authvet/authvet/grant", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := stub.Scope().Lookup("Grant").Type().Underlying().(*types.Struct)
	real := reflect.TypeFor[grant.Grant]()
	if st.NumFields() != real.NumField() {
		t.Errorf("stub Grant has %d fields, the real one %d", st.NumFields(), real.NumField())
	}
	for i := 0; i < real.NumField() && i < st.NumFields(); i++ {
		rf, sf := real.Field(i), st.Field(i)
		if rf.Name != sf.Name() {
			t.Errorf("field %d: stub %s, real %s", i, sf.Name(), rf.Name)
		}
		want := rf.Type.String() // "[]string", "grant.TenantScope"
		got := types.TypeString(sf.Type(), func(p *types.Package) string { return p.Name() })
		if got != want {
			t.Errorf("field %s: stub type %s, real %s", rf.Name, got, want)
		}
	}
	consts := map[string]string{
		"Scoped": string(grant.Scoped), "CrossTenant": string(grant.CrossTenant), "SingleTenant": string(grant.SingleTenant),
		"Reversible": string(grant.Reversible), "Compensable": string(grant.Compensable), "Irreversible": string(grant.Irreversible),
	}
	for name, want := range consts {
		c, ok := stub.Scope().Lookup(name).(*types.Const)
		if !ok {
			t.Errorf("stub has no constant %s", name)
			continue
		}
		if got := c.Val().ExactString(); got != `"`+want+`"` {
			t.Errorf("stub %s = %s, real %q", name, got, want)
		}
	}
}

// TestKinds checks the kinds table: every kind constant is in it once,
// and the fields it names are the Grant's.
func TestKinds(t *testing.T) {
	seen := map[string]bool{}
	real := reflect.TypeFor[grant.Grant]()
	for _, k := range grant.Kinds {
		if seen[k.Name] {
			t.Errorf("kind %s listed twice", k.Name)
		}
		seen[k.Name] = true
		if k.Field != "" {
			if _, ok := real.FieldByName(k.Field); !ok {
				t.Errorf("kind %s names field %s, which Grant does not have", k.Name, k.Field)
			}
		}
		if !k.Floor.Valid() {
			t.Errorf("kind %s has floor %q", k.Name, k.Floor)
		}
	}
	for _, name := range []string{grant.KindWrite, grant.KindUnboundedWrite, grant.KindCrossTenant, grant.KindOutbound, grant.KindJob,
		grant.KindWebhook, grant.KindDetached, grant.KindUnprovable, grant.KindAssertedEffectFree} {
		if !seen[name] {
			t.Errorf("kind %s is not in grant.Kinds", name)
		}
	}
}
