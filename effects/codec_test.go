package effects

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/gob"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// codecSample is a summary with every field of every type the codec
// writes set to a value other than zero somewhere, with values that
// differ from field to field (TestCodecSampleCoversEveryField checks the
// first).
func codecSample() *Summary {
	pos := func(f string, l, c int) Position { return Position{File: f, Line: l, Col: c} }
	sql := Str{Alts: [][]Part{
		{{Lit: "SELECT * FROM "}, {Param: 2, Handle: 3, Lit: "TableName"}, {Unknown: true}},
		{{Lit: "UPDATE payouts SET x = 1"}},
		{{Param: 1, Handle: 200}, {Lit: " WHERE id = $1"}},
	}}
	method := Str{Alts: [][]Part{{{Lit: "POST"}}, {{Unknown: true}}}}
	closer := &Summary{
		Effects: []Effect{{Kind: Write, Subject: "locks", Provenance: TypeResolved, Pos: pos("/src/locks/lock.go", 77, 2), Module: "example.com/locks"}},
		Pending: []Pending{{Op: OpSQL, Text: paramStr(0), Dialect: 1, Pos: pos("/src/locks/lock.go", 80, 9)}},
	}
	inner := &Summary{
		Effects: []Effect{{
			Kind: Outbound, Subject: "https://api.example/v1/", Method: "POST", Provenance: Syntactic,
			Pos: pos("/src/client/c.go", 5, 6), Module: "example.com/client", Safe: true,
		}},
		Pending: []Pending{{
			Op: OpURL, Text: paramStr(3), Method: method, Pos: pos("/src/client/c.go", 7, 8),
			Pkg: "example.com/client/http", Safe: true, Module: "example.com/client",
		}},
		Returned:      &Summary{EndsTx: true, ReqWrites: []int{5}},
		ReturnedIndex: 2,
		ResultMethods: []MethodSummary{
			{Name: "Close", Sum: closer},
			{Name: "Unlock", Sum: &Summary{}}, // non-nil and empty
			{Name: "Nothing"},                 // nil
		},
		ResultMethodsAt: 1,
	}
	return &Summary{
		Effects: []Effect{
			{
				Kind: Write, Subject: "payouts", Provenance: TypeResolved,
				Pos:    pos("/src/store/payouts.go", 31, 4),
				Via:    []Position{pos("/src/api/handler.go", 10, 2), pos("/src/store/payouts.go", 1<<20, 1<<10)},
				Module: "example.com/app", Local: true,
			},
			{
				Kind: Unprovable, Reason: "sends a request whose URL is out of sight", Fix: "configure a client",
				Method: "DELETE", Provenance: Declared, Pos: pos("/src/api/handler.go", 12, 3),
				Module: "example.com/app", Egress: true, Pkg: "example.com/app/remote",
				Slot: "net/http.Client.CheckRedirect", More: true,
			},
		},
		Pending: []Pending{
			{
				Op: OpCallMethod, Invoked: true, Kind: Job, Text: sql, Method: method, Param: 2, Name: "ExecContext",
				Reason: "calls ExecContext through an interface", Fix: "declare it with //agent:effect",
				Args: []Arg{
					{Handle: 1, Str: litStr("jobs"), Method: unknownStr(), Param: 3},
					{Handle: 7, Str: sql, Method: method},
					{},
				},
				ShapeArg: 2, Result: 1, Detach: true, DetachIf: 3, InTx: true, Elem: true,
				Fields: []int{0, 4, 1}, Prov: Declared, Dialect: 2,
				Pos: pos("/src/store/q.go", 40, 12), Via: []Position{pos("/src/api/handler.go", 14, 5)},
				Module: "example.com/app", Pkg: "example.com/app/store", Safe: true,
				Discharged: true, Scoped: true, Slot: "example.com/app/store.DBTX.ExecContext()",
			},
			{Op: OpTxEnqueue, Param: -7, DetachIf: -1, Scoped: true, Pos: pos("/src/store/q.go", 41, 1)},
		},
		Returned:        inner,
		ReturnedIndex:   1,
		ReqWrites:       []int{0, 2},
		BeginsTx:        true,
		ResultFields:    []FieldSource{{Field: 1, Param: 0}, {Field: 4, Param: 2}, {Field: 5, Param: FieldFunc, Func: "example.com/sdk.DefaultRetryPolicy"}, {Field: 6, Param: FieldNil}},
		ReturnsShared:   true,
		EndsTx:          true,
		StdClient:       true,
		ReturnsReq:      true,
		ReqURL:          Str{Alts: [][]Part{{{Lit: "https://api.x.com/"}, {Param: 3, Handle: handleString}}}},
		ReqMethod:       Str{Alts: [][]Part{{{Param: 2, Handle: handleString}}}},
		ResultMethods:   []MethodSummary{{Name: "Close", Sum: closer}, {Name: "Release"}},
		ResultMethodsAt: 2,
		Made:            &Summary{Effects: []Effect{{Kind: Write, Subject: "payouts", Pos: pos("/src/store/q.go", 50, 3)}}},
	}
}

// roundTrip encodes s as a fact is encoded and decodes it as one is read.
func roundTrip(t *testing.T, s *Summary) *Summary {
	t.Helper()
	data, err := s.GobEncode()
	if err != nil {
		t.Fatal(err)
	}
	var got Summary
	if err := got.GobDecode(data); err != nil {
		t.Fatal(err)
	}
	if err := got.Load(); err != nil {
		t.Fatal(err)
	}
	return &got
}

// nilEmpty sets every empty slice reachable from v to nil: what the
// codec decodes an empty slice as.
func nilEmpty(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			nilEmpty(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				nilEmpty(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.SetZero()
			return
		}
		for i := 0; i < v.Len(); i++ {
			nilEmpty(v.Index(i))
		}
	}
}

func TestCodecRoundTrip(t *testing.T) {
	cases := map[string]func() *Summary{
		"sample":          codecSample,
		"zero":            func() *Summary { return &Summary{} },
		"empty returned":  func() *Summary { return &Summary{Returned: &Summary{}} },
		"nil method sum":  func() *Summary { return &Summary{ResultMethods: []MethodSummary{{Name: "M"}}, ResultMethodsAt: 1} },
		"empty method":    func() *Summary { return &Summary{ResultMethods: []MethodSummary{{Sum: &Summary{}}}} },
		"unreadable":      func() *Summary { return Unreadable("p.F", bytes.ErrTooLarge) },
		"exported sample": func() *Summary { return codecSample().Exported() },
		"empty slices": func() *Summary {
			return &Summary{
				Effects:   []Effect{{Via: []Position{}}},
				Pending:   []Pending{{Args: []Arg{{Str: Str{Alts: [][]Part{{}, nil}}}}, Fields: []int{}, Text: Str{Alts: [][]Part{}}}},
				ReqWrites: []int{}, ResultFields: []FieldSource{}, ResultMethods: []MethodSummary{},
				Returned: &Summary{Effects: []Effect{}},
			}
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			got := roundTrip(t, mk())
			want := mk()
			nilEmpty(reflect.ValueOf(want))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
			}
			// Nil and non-nil pointers are kept apart exactly.
			if (got.Returned == nil) != (want.Returned == nil) {
				t.Errorf("Returned nil = %v, want %v", got.Returned == nil, want.Returned == nil)
			}
			for i, m := range want.ResultMethods {
				if (got.ResultMethods[i].Sum == nil) != (m.Sum == nil) {
					t.Errorf("ResultMethods[%d].Sum nil = %v, want %v", i, got.ResultMethods[i].Sum == nil, m.Sum == nil)
				}
			}
		})
	}
}

// TestCodecBoolFields round-trips each bool field set on its own, so two
// flags written in the wrong bits cannot pass.
func TestCodecBoolFields(t *testing.T) {
	wrap := map[reflect.Type]func(v reflect.Value) *Summary{
		reflect.TypeFor[Summary](): func(v reflect.Value) *Summary { s := v.Interface().(Summary); return &s },
		reflect.TypeFor[Effect]():  func(v reflect.Value) *Summary { return &Summary{Effects: []Effect{v.Interface().(Effect)}} },
		reflect.TypeFor[Pending](): func(v reflect.Value) *Summary { return &Summary{Pending: []Pending{v.Interface().(Pending)}} },
		reflect.TypeFor[Part](): func(v reflect.Value) *Summary {
			p := v.Interface().(Part)
			return &Summary{Pending: []Pending{{Text: Str{Alts: [][]Part{{p}}}}}}
		},
	}
	for typ, mk := range wrap {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if f.Type.Kind() != reflect.Bool {
				continue
			}
			v := reflect.New(typ).Elem()
			v.Field(i).SetBool(true)
			in := mk(v)
			if got := roundTrip(t, in); !reflect.DeepEqual(got, in) {
				t.Errorf("%s.%s alone:\n got %+v\nwant %+v", typ.Name(), f.Name, got, in)
			}
		}
	}
}

// TestCodecSampleCoversEveryField fails when a type the codec writes
// gains a field that codecSample leaves zero: a new field has to be
// added to the codec, and to the sample, which checks it round-trips.
func TestCodecSampleCoversEveryField(t *testing.T) {
	type field struct {
		typ  reflect.Type
		name string
	}
	fields := map[field]bool{} // exported fields of every struct reachable, and whether the sample sets them
	structs := map[reflect.Type]bool{}
	var walkType func(reflect.Type)
	walkType = func(typ reflect.Type) {
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walkType(typ.Elem())
		case reflect.Struct:
			if structs[typ] {
				return
			}
			structs[typ] = true
			for i := 0; i < typ.NumField(); i++ {
				f := typ.Field(i)
				if !f.IsExported() {
					if typ != reflect.TypeFor[Summary]() || f.Name != "wire" {
						t.Errorf("unexported field %s.%s: the codec writes no unexported field", typ.Name(), f.Name)
					}
					continue
				}
				fields[field{typ, f.Name}] = false
				walkType(f.Type)
			}
		case reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
			t.Errorf("the codec writes no %s (%s)", typ.Kind(), typ)
		}
	}
	walkType(reflect.TypeFor[Summary]())
	for _, typ := range []reflect.Type{
		reflect.TypeFor[Summary](), reflect.TypeFor[Effect](), reflect.TypeFor[Pending](),
		reflect.TypeFor[Arg](), reflect.TypeFor[Part](), reflect.TypeFor[Str](),
		reflect.TypeFor[Position](), reflect.TypeFor[FieldSource](), reflect.TypeFor[MethodSummary](),
	} {
		if !structs[typ] {
			t.Errorf("%s is not reachable from Summary", typ.Name())
		}
	}

	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Type().Field(i)
				if !f.IsExported() {
					continue
				}
				if !v.Field(i).IsZero() {
					fields[field{v.Type(), f.Name}] = true
				}
				walk(v.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(codecSample()))
	for f, set := range fields {
		if !set {
			t.Errorf("codecSample leaves %s.%s zero everywhere: encode the field in codec.go and set it in the sample", f.typ.Name(), f.name)
		}
	}
}

// TestCodecMinSizes checks the least sizes decoding bounds counts by:
// a zero value is the shortest encoding of each type.
func TestCodecMinSizes(t *testing.T) {
	size := func(f func(e *encoder)) int {
		e := &encoder{strs: map[string]uint64{}}
		f(e)
		return len(e.buf)
	}
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"Summary", size(func(e *encoder) { _ = e.summary(&Summary{}, 0) }), minSummary},
		{"Effect", size(func(e *encoder) { e.effect(&Effect{}) }), minEffect},
		{"Pending", size(func(e *encoder) { e.pending(&Pending{}) }), minPending},
		{"Arg", size(func(e *encoder) { e.pending(&Pending{Args: []Arg{{}}}) }) - minPending, minArg},
		{"Part", size(func(e *encoder) { e.symbolic(Str{Alts: [][]Part{{{}}}}) }) - 2, minPart},
		{"Position", size(func(e *encoder) { e.pos(Position{}) }), minPosition},
		{"FieldSource", size(func(e *encoder) { _ = e.summary(&Summary{ResultFields: []FieldSource{{}}}, 0) }) - minSummary, minFieldSource},
		{"MethodSummary", size(func(e *encoder) { _ = e.summary(&Summary{ResultMethods: []MethodSummary{{}}}, 0) }) - minSummary, minMethodSummary},
	} {
		if c.got != c.want {
			t.Errorf("a zero %s encodes in %d bytes; its min constant says %d", c.name, c.got, c.want)
		}
	}
}

func compress(t *testing.T, payload []byte) []byte {
	t.Helper()
	buf := bytes.NewBuffer([]byte{wireFlate})
	zw, err := flate.NewWriter(buf, flate.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(payload)
	zw.Close()
	return buf.Bytes()
}

// load decodes wire as a fact read from a file.
func load(wire []byte) (*Summary, error) {
	s := &Summary{wire: wire}
	err := s.Load()
	return s, err
}

func TestCodecCorrupt(t *testing.T) {
	in := codecSample()
	payload, err := encodeSummary(in)
	if err != nil {
		t.Fatal(err)
	}
	wire, err := in.GobEncode()
	if err != nil {
		t.Fatal(err)
	}
	want := codecSample()
	nilEmpty(reflect.ValueOf(want))

	// Every truncation of the payload is an error: the summary ends
	// where the payload does.
	for i := 0; i < len(payload); i++ {
		if _, err := decodeSummary(payload[:i]); err == nil {
			t.Errorf("payload cut to %d of %d bytes decoded", i, len(payload))
		}
	}
	// Trailing bytes are too.
	if _, err := decodeSummary(append(bytes.Clone(payload), 0)); err == nil {
		t.Errorf("payload with a byte past its end decoded")
	}
	// A truncated fact is an error, or (flate permitting) the summary.
	for i := 0; i < len(wire); i++ {
		s, err := load(bytes.Clone(wire[:i]))
		if err == nil && !reflect.DeepEqual(s, want) {
			t.Errorf("fact cut to %d of %d bytes decoded to another summary", i, len(wire))
		}
		if err != nil && !strings.Contains(err.Error(), "corrupt effect summary fact") {
			t.Errorf("fact cut to %d bytes: error %q", i, err)
		}
	}
	// Flipped bits: an error or some summary, never a panic, and what
	// decodes encodes again.
	for i := 0; i < len(payload)*8; i++ {
		p := bytes.Clone(payload)
		p[i/8] ^= 1 << (i % 8)
		s, err := decodeSummary(p)
		if err != nil {
			continue
		}
		if _, err := encodeSummary(s); err != nil {
			t.Errorf("payload with bit %d flipped decoded to a summary that does not encode: %v", i, err)
		}
	}
	for i := 0; i < len(wire)*8; i += 7 {
		w := bytes.Clone(wire)
		w[i/8] ^= 1 << (i % 8)
		load(w)
	}
}

func TestCodecHugeCounts(t *testing.T) {
	uv := func(b []byte, vs ...uint64) []byte {
		for _, v := range vs {
			b = binary.AppendUvarint(b, v)
		}
		return b
	}
	const huge = 1 << 40
	cases := map[string][]byte{
		"strings":        uv([]byte{codecVersion}, huge),
		"string length":  uv([]byte{codecVersion}, 1, huge),
		"effects":        uv([]byte{codecVersion}, 0, 0, huge),
		"pending":        uv([]byte{codecVersion}, 0, 0, 0, huge),
		"max count":      uv([]byte{codecVersion}, 0, 0, 1<<64-1),
		"via":            uv([]byte{codecVersion}, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, huge, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
		"alts":           uv([]byte{codecVersion}, 0, 0, 0, 1, 0, 0, 0, huge),
		"parts":          uv([]byte{codecVersion}, 0, 0, 0, 1, 0, 0, 0, 1, huge),
		"result methods": uv([]byte{codecVersion}, 0, 0, 0, 0, 0, 0, 0, huge),
	}
	for name, p := range cases {
		// Padded, so a count past a short input is not all that is checked.
		p = append(p, make([]byte, 64)...)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := decodeSummary(p)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: a count of %d decoded", name, uint64(huge))
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
			t.Errorf("%s: decoding allocated %d bytes", name, n)
		}
		// The same through Load.
		if _, err := load(compress(t, p)); err == nil {
			t.Errorf("%s: Load of a count of %d succeeded", name, uint64(huge))
		}
	}
}

// nested returns a payload of n summaries, each the Returned of the one
// before.
func nested(n int) []byte {
	p := []byte{codecVersion, 0}
	for i := 0; i < n; i++ {
		p = append(p, 8, 0, 0) // Returned set, no effects or pending
	}
	p = append(p, make([]byte, minSummary)...)
	for i := 0; i < n; i++ {
		p = append(p, 0, 0, 0, 0, 0) // ReturnedIndex ... ResultMethodsAt
	}
	return p
}

func TestCodecDepth(t *testing.T) {
	s, err := decodeSummary(nested(maxNesting))
	if err != nil {
		t.Fatalf("%d nested summaries: %v", maxNesting, err)
	}
	if _, err := roundTrip(t, s).GobEncode(); err != nil {
		t.Errorf("%d nested summaries do not encode again: %v", maxNesting, err)
	}
	for _, n := range []int{maxNesting + 1, 1 << 20} {
		if _, err := decodeSummary(nested(n)); err == nil {
			t.Errorf("%d nested summaries decoded", n)
		}
	}
	deep := &Summary{Returned: s}
	if _, err := deep.GobEncode(); err == nil {
		t.Errorf("%d nested summaries encoded", maxNesting+1)
	}
	cyclic := &Summary{ResultMethods: []MethodSummary{{Name: "M"}}}
	cyclic.ResultMethods[0].Sum = cyclic
	if _, err := cyclic.GobEncode(); err == nil {
		t.Errorf("a cyclic summary encoded")
	}
}

// gobSummary is Summary as facts were encoded before codec.go: gob.
type gobSummary Summary

func gobFact(t *testing.T, s *Summary) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	if err := gob.NewEncoder(zw).Encode((*gobSummary)(s)); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

func TestCodecStaleFact(t *testing.T) {
	one := &Summary{Effects: []Effect{{Kind: Write, Subject: "payouts", Pos: Position{"a.go", 3, 4}}}}
	if _, err := load(gobFact(t, one)); err == nil || !strings.Contains(err.Error(), "corrupt effect summary fact") {
		t.Errorf("a gob fact: err = %v", err)
	}
	payload, err := encodeSummary(one)
	if err != nil {
		t.Fatal(err)
	}
	payload[0]++
	if _, err := load(compress(t, payload)); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("a fact of another format version: err = %v", err)
	}
}

// A nested summary still in its encoded form is written out in full.
func TestCodecNestedWire(t *testing.T) {
	inner := codecSample()
	data, err := inner.GobEncode()
	if err != nil {
		t.Fatal(err)
	}
	var undecoded Summary
	undecoded.GobDecode(data)
	got := roundTrip(t, &Summary{Returned: &undecoded, ResultMethods: []MethodSummary{{Name: "M", Sum: &undecoded}}})
	want := codecSample()
	nilEmpty(reflect.ValueOf(want))
	if !reflect.DeepEqual(got.Returned, want) || !reflect.DeepEqual(got.ResultMethods[0].Sum, want) {
		t.Errorf("nested undecoded summary:\n got %+v\nwant %+v", got.Returned, want)
	}
	bad := &Summary{Returned: &Summary{wire: []byte("junk")}}
	if _, err := bad.GobEncode(); err == nil {
		t.Errorf("a nested summary that does not decode encoded")
	}
}

// Strings are written once per fact, nested summaries included.
func TestCodecStringTable(t *testing.T) {
	s := codecSample()
	payload, err := encodeSummary(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, str := range []string{"/src/locks/lock.go", "example.com/locks", "TableName", "/src/client/c.go", "/src/api/handler.go"} {
		if n := bytes.Count(payload, []byte(str)); n != 1 {
			t.Errorf("%q is in the payload %d times", str, n)
		}
	}
}

func TestCodecSize(t *testing.T) {
	for _, c := range []struct {
		name string
		s    *Summary
	}{
		{"empty", &Summary{}},
		{"one effect", &Summary{Effects: []Effect{{
			Kind: Write, Subject: "payouts", Provenance: TypeResolved,
			Pos: Position{"/home/u/proj/internal/store/payouts.go", 31, 4}, Module: "example.com/proj",
		}}}},
		{"sample", codecSample()},
	} {
		data, err := c.s.GobEncode()
		if err != nil {
			t.Fatal(err)
		}
		payload, err := encodeSummary(c.s)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: gob %d bytes, codec %d bytes (%d uncompressed)", c.name, len(gobFact(t, c.s)), len(data), len(payload))
	}
}
