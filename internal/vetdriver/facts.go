package vetdriver

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// magic opens every vetx file this driver writes. A file from another
// tool or version is refused rather than misread: go vet keys its cache
// by the tool's build ID, so a mismatch means a corrupt or foreign file.
const magic = "authvet-facts-1\n"

// Fact data is one of two encodings, told apart by its first byte.
const (
	encGobEncoder = 'e' // the fact's own GobEncode bytes
	encGob        = 'g' // a gob stream holding the fact value
)

// gobEncoder is a fact that encodes itself (effects.Summary does).
type gobEncoder interface {
	GobEncode() ([]byte, error)
	GobDecode([]byte) error
}

// rawFact is one fact read from an import's vetx file: the bytes it was
// written as, decoded on first use.
type rawFact struct {
	file    string // the vetx file it was read from
	pkgPath string
	objPath objectpath.Path // "" for a package fact
	typ     reflect.Type    // the fact's pointer type
	data    []byte
	obj     types.Object // once resolved; nil for a package fact

	decoded analysis.Fact
	err     error
}

func (r *rawFact) fact() (analysis.Fact, error) {
	if r.decoded != nil || r.err != nil {
		return r.decoded, r.err
	}
	r.decoded, r.err = decodeFact(r.typ, r.data)
	return r.decoded, r.err
}

type key struct {
	pkg *types.Package
	obj types.Object // nil for a package fact
	t   reflect.Type
}

// factSet holds the facts of one analysis pass: the package's own, and
// those read from its direct imports' vetx files.
type factSet struct {
	pkg   *types.Package
	types map[string]reflect.Type // registered fact types by name

	mu      sync.Mutex
	own     map[key]analysis.Fact // exported by this pass
	byPkg   map[string][]*rawFact // imported, not yet resolved to objects
	pkgs    map[string]*types.Package
	seen    map[string]bool  // byPkg keys already resolved
	resolve map[key]*rawFact // imported, resolved
	order   []*rawFact       // imported, in file order, for re-export
	bad     error            // the first imported fact that could not be decoded
}

func typeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() + "." + t.Name()
}

func newFactSet(pkg *types.Package, factTypes []analysis.Fact) *factSet {
	s := &factSet{
		pkg:     pkg,
		types:   map[string]reflect.Type{},
		own:     map[key]analysis.Fact{},
		byPkg:   map[string][]*rawFact{},
		pkgs:    map[string]*types.Package{},
		seen:    map[string]bool{},
		resolve: map[key]*rawFact{},
	}
	for _, f := range factTypes {
		t := reflect.TypeOf(f)
		s.types[typeName(t)] = t
	}
	// Every package the analysed one can see, directly or not: the
	// packages facts may be about.
	stack := []*types.Package{pkg}
	for len(stack) > 0 { // iterative: import graphs can be deep
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, q := range p.Imports() {
			if _, ok := s.pkgs[q.Path()]; !ok {
				s.pkgs[q.Path()] = q
				stack = append(stack, q)
			}
		}
	}
	return s
}

// read adds the facts of one vetx file. A file may repeat a fact another
// import's file holds (both re-export it); the first one read wins, and
// imports are read in a fixed order.
func (s *factSet) read(file string, data []byte) error {
	if len(data) == 0 {
		return nil // no facts (a package with no vetx output)
	}
	if !bytes.HasPrefix(data, []byte(magic)) {
		return fmt.Errorf("%s: not an authvet facts file", file)
	}
	r := &reader{data: data[len(magic):]}
	n := r.uvarint()
	strs := make([]string, 0, min(n, uint64(len(r.data))))
	for i := uint64(0); i < n && r.err == nil; i++ {
		strs = append(strs, string(r.bytes()))
	}
	str := func() string {
		i := r.uvarint()
		if i >= uint64(len(strs)) {
			r.fail()
			return ""
		}
		return strs[i]
	}
	n = r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		pkgPath, objPath, tname := str(), str(), str()
		data := r.bytes()
		if r.err != nil {
			break
		}
		t, ok := s.types[tname]
		if !ok {
			return fmt.Errorf("%s: unknown fact type %s", file, tname)
		}
		if _, ok := s.pkgs[pkgPath]; !ok {
			continue // about a package this one cannot see
		}
		rf := &rawFact{file: file, pkgPath: pkgPath, objPath: objectpath.Path(objPath), typ: t, data: data}
		s.byPkg[pkgPath] = append(s.byPkg[pkgPath], rf)
	}
	if r.err != nil {
		return fmt.Errorf("%s: truncated or corrupt facts file", file)
	}
	return nil
}

// resolvePkg maps the imported facts about package path to objects, once.
func (s *factSet) resolvePkg(path string) {
	if s.seen[path] {
		return
	}
	s.seen[path] = true
	pkg := s.pkgs[path]
	for _, rf := range s.byPkg[path] {
		k := key{pkg: pkg, t: rf.typ}
		if rf.objPath != "" {
			obj, err := objectpath.Object(pkg, rf.objPath)
			if err != nil {
				continue // not in this view of the package (unexported)
			}
			k.obj = obj
			rf.obj = obj
		}
		if _, dup := s.resolve[k]; dup {
			continue
		}
		s.resolve[k] = rf
		s.order = append(s.order, rf)
	}
	delete(s.byPkg, path)
}

// noteBad records the first fact that could not be decoded. The pass
// cannot be told (ImportObjectFact has no error), so the driver fails
// the package once the pass is done: a fact that cannot be read must
// not pass as a function with no effects.
func (s *factSet) noteBad(rf *rawFact, err error) {
	if s.bad == nil {
		s.bad = fmt.Errorf("%s: corrupt %s fact about %s: %v", rf.file, typeName(rf.typ), rf.pkgPath, err)
	}
}

func (s *factSet) resolveAll() {
	paths := make([]string, 0, len(s.byPkg))
	for p := range s.byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		s.resolvePkg(p)
	}
}

func (s *factSet) lookup(k key, ptr analysis.Fact) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.own[k]
	if !ok && k.pkg != s.pkg {
		s.resolvePkg(k.pkg.Path())
		rf, found := s.resolve[k]
		if !found {
			return false
		}
		f, err := rf.fact()
		if err != nil {
			s.noteBad(rf, err)
			return false
		}
		v, ok = f, true
	}
	if !ok {
		return false
	}
	reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(v).Elem())
	return true
}

func (s *factSet) ImportObjectFact(obj types.Object, ptr analysis.Fact) bool {
	if obj == nil {
		panic("nil object")
	}
	if obj.Pkg() == nil {
		return false // universe objects have no facts
	}
	return s.lookup(key{pkg: obj.Pkg(), obj: obj, t: reflect.TypeOf(ptr)}, ptr)
}

func (s *factSet) ImportPackageFact(pkg *types.Package, ptr analysis.Fact) bool {
	if pkg == nil {
		panic("nil package")
	}
	return s.lookup(key{pkg: pkg, t: reflect.TypeOf(ptr)}, ptr)
}

func (s *factSet) ExportObjectFact(obj types.Object, fact analysis.Fact) {
	if obj.Pkg() != s.pkg {
		panic(fmt.Sprintf("in package %s: ExportObjectFact(%s, %T): can't set a fact on an object of another package", s.pkg.Path(), obj, fact))
	}
	s.mu.Lock()
	s.own[key{pkg: s.pkg, obj: obj, t: reflect.TypeOf(fact)}] = fact
	s.mu.Unlock()
}

func (s *factSet) ExportPackageFact(fact analysis.Fact) {
	s.mu.Lock()
	s.own[key{pkg: s.pkg, t: reflect.TypeOf(fact)}] = fact
	s.mu.Unlock()
}

// all lists every fact, own and imported, resolving and decoding them
// all, in a fixed order (imported first, in the order their packages'
// paths sort, then own ones).
func (s *factSet) all(objects bool) (out []struct {
	k key
	f analysis.Fact
}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resolveAll()
	for _, rf := range s.order {
		if (rf.objPath != "") != objects {
			continue
		}
		f, err := rf.fact()
		if err != nil {
			s.noteBad(rf, err)
			continue
		}
		k := key{pkg: s.pkgs[rf.pkgPath], obj: rf.obj, t: rf.typ}
		out = append(out, struct {
			k key
			f analysis.Fact
		}{k, f})
	}
	var own []key
	for k := range s.own {
		if (k.obj != nil) == objects {
			own = append(own, k)
		}
	}
	sortKeys(own)
	for _, k := range own {
		out = append(out, struct {
			k key
			f analysis.Fact
		}{k, s.own[k]})
	}
	return out
}

func sortKeys(ks []key) {
	sort.Slice(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.obj != b.obj && a.obj != nil && b.obj != nil {
			if a.obj.Pos() != b.obj.Pos() {
				return a.obj.Pos() < b.obj.Pos()
			}
			if a.obj.Name() != b.obj.Name() {
				return a.obj.Name() < b.obj.Name()
			}
		}
		return typeName(a.t) < typeName(b.t)
	})
}

func (s *factSet) AllObjectFacts() []analysis.ObjectFact {
	var out []analysis.ObjectFact
	for _, e := range s.all(true) {
		if e.k.obj != nil {
			out = append(out, analysis.ObjectFact{Object: e.k.obj, Fact: e.f})
		}
	}
	return out
}

func (s *factSet) AllPackageFacts() []analysis.PackageFact {
	var out []analysis.PackageFact
	for _, e := range s.all(false) {
		out = append(out, analysis.PackageFact{Package: e.k.pkg, Fact: e.f})
	}
	return out
}

// entry is one fact as written.
type entry struct {
	pkgPath, objPath, typ string
	data                  []byte
}

// encode writes the facts importers of this package may need: its own
// facts, and the imported facts about fields, methods and types (as
// unitchecker does; see the package doc). Imported facts keep the bytes
// they were read as. The output is sorted, so it is the same on every
// run.
func (s *factSet) encode() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var entries []entry
	enc := new(objectpath.Encoder)
	for k, f := range s.own {
		var path objectpath.Path
		if k.obj != nil {
			p, err := enc.For(k.obj)
			if err != nil {
				continue // not reachable from the package's API
			}
			path = p
		}
		data, err := encodeFact(f)
		if err != nil {
			return nil, fmt.Errorf("encoding %T fact for %s: %v", f, k.pkg.Path(), err)
		}
		entries = append(entries, entry{k.pkg.Path(), string(path), typeName(k.t), data})
	}
	reexport := func(rf *rawFact) {
		if rf.objPath == "" {
			return // a package fact is read from that package's own file
		}
		if !strings.Contains(string(rf.objPath), ".") {
			// A package-level object: only a type's facts travel on.
			pkg := s.pkgs[rf.pkgPath]
			if _, isType := pkg.Scope().Lookup(string(rf.objPath)).(*types.TypeName); !isType {
				return
			}
		}
		entries = append(entries, entry{rf.pkgPath, string(rf.objPath), typeName(rf.typ), rf.data})
	}
	for _, rf := range s.order {
		reexport(rf)
	}
	// Imported facts the analysis never asked about travel unresolved;
	// they are still facts importers may ask about.
	for _, rfs := range s.byPkg {
		for _, rf := range rfs {
			reexport(rf)
		}
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.pkgPath != b.pkgPath {
			return a.pkgPath < b.pkgPath
		}
		if a.objPath != b.objPath {
			return a.objPath < b.objPath
		}
		if a.typ != b.typ {
			return a.typ < b.typ
		}
		return bytes.Compare(a.data, b.data) < 0
	})
	// Two imports may both re-export one fact; keep one.
	out := entries[:0]
	for i, e := range entries {
		if i > 0 {
			p := entries[i-1]
			if p.pkgPath == e.pkgPath && p.objPath == e.objPath && p.typ == e.typ {
				continue
			}
		}
		out = append(out, e)
	}
	entries = out

	strIdx := map[string]uint64{}
	var strs []string
	intern := func(s string) uint64 {
		if i, ok := strIdx[s]; ok {
			return i
		}
		strIdx[s] = uint64(len(strs))
		strs = append(strs, s)
		return strIdx[s]
	}
	type idx struct{ pkg, obj, typ uint64 }
	idxs := make([]idx, len(entries))
	for i, e := range entries {
		idxs[i] = idx{intern(e.pkgPath), intern(e.objPath), intern(e.typ)}
	}
	var buf bytes.Buffer
	buf.WriteString(magic)
	putUvarint(&buf, uint64(len(strs)))
	for _, s := range strs {
		putBytes(&buf, []byte(s))
	}
	putUvarint(&buf, uint64(len(entries)))
	for i, e := range entries {
		putUvarint(&buf, idxs[i].pkg)
		putUvarint(&buf, idxs[i].obj)
		putUvarint(&buf, idxs[i].typ)
		putBytes(&buf, e.data)
	}
	return buf.Bytes(), nil
}

func encodeFact(f analysis.Fact) ([]byte, error) {
	if g, ok := f.(gobEncoder); ok {
		b, err := g.GobEncode()
		if err != nil {
			return nil, err
		}
		return append([]byte{encGobEncoder}, b...), nil
	}
	var buf bytes.Buffer
	buf.WriteByte(encGob)
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeFact(t reflect.Type, data []byte) (analysis.Fact, error) {
	if len(data) == 0 {
		return nil, errors.New("empty fact")
	}
	v := reflect.New(t.Elem()).Interface().(analysis.Fact)
	switch data[0] {
	case encGobEncoder:
		g, ok := v.(gobEncoder)
		if !ok {
			return nil, fmt.Errorf("%s does not decode itself", t)
		}
		// The fact may keep the slice (a Summary decodes lazily); the
		// file's bytes are never written to.
		return v, g.GobDecode(data[1:])
	case encGob:
		return v, gob.NewDecoder(bytes.NewReader(data[1:])).Decode(v)
	}
	return nil, fmt.Errorf("unknown fact encoding %q", data[0])
}

func putUvarint(buf *bytes.Buffer, x uint64) {
	var b [binary.MaxVarintLen64]byte
	buf.Write(b[:binary.PutUvarint(b[:], x)])
}

func putBytes(buf *bytes.Buffer, b []byte) {
	putUvarint(buf, uint64(len(b)))
	buf.Write(b)
}

type reader struct {
	data []byte
	err  error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errors.New("corrupt")
	}
	r.data = nil
}

func (r *reader) uvarint() uint64 {
	x, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.data = r.data[n:]
	return x
}

func (r *reader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.data)) {
		r.fail()
		return nil
	}
	b := r.data[:n:n]
	r.data = r.data[n:]
	return b
}
