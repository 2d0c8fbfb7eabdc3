package effects

// The binary form of a Summary, which wire.go compresses with flate.
//
// A summary fact used to be gob, and every fact carried gob's type
// descriptors, several hundred bytes before the summary itself. This
// codec writes only the values:
//
//	payload  = version strings summary
//	version  = byte codecVersion (any other value is a fact from another
//	           authvet version, and reads as an error)
//	strings  = uvarint n, then n times (uvarint len, bytes): the string
//	           table of the whole payload, nested summaries included
//	summary  = flags(BeginsTx, ReturnsShared, EndsTx, Returned != nil,
//	           Made != nil, StdClient, ReturnsReq)
//	           list(Effect) list(Pending) [summary: Returned, if flagged]
//	           int(ReturnedIndex) list(int: ReqWrites)
//	           list(FieldSource) list(MethodSummary) int(ResultMethodsAt)
//	           [Str(ReqURL) Str(ReqMethod), if ReturnsReq]
//	           [summary: Made, if flagged]
//
// where a flags is a uvarint with bit i set when the i-th bool is (unknown
// bits are an error), a list is a uvarint count followed by the elements,
// an int is a varint, a uint8 (Op, Handle, Dialect) a uvarint at most 255,
// and a str is a uvarint index into the string table, 0 being "" and i the
// i-th string of the table. The other types are their fields in the order
// the functions below write them:
//
//	Effect        = flags(Local, Egress, Safe) str(Kind) str(Subject)
//	                str(Method) str(Provenance) str(Reason) str(Fix)
//	                Position list(Position: Via) str(Module) str(Pkg)
//	Pending       = uint8(Op) flags(Detach, InTx, Elem, Safe, Discharged,
//	                Scoped, Invoked) str(Kind) Str(Text) Str(Method) int(Param)
//	                str(Name) str(Reason) str(Fix) list(Arg) int(ShapeArg)
//	                int(DetachIf) list(int: Fields) str(Prov) uint8(Dialect)
//	                Position list(Position: Via) str(Module) str(Pkg)
//	Arg           = uint8(Handle) Str(Str) Str(Method) int(Param)
//	Str           = list(list(Part))
//	Part          = flags(Unknown) str(Lit) int(Param) uint8(Handle)
//	Position      = str(File) int(Line) int(Col)
//	FieldSource   = int(Field) int(Param) str(Func)
//	MethodSummary = str(Name) flags(Sum != nil) [summary: Sum, if flagged]
//
// The payload must end where the summary does. Decoding is exact except
// for slices: an empty slice, at any level, decodes as nil (as gob had
// it). Pointers (Returned, Made, MethodSummary.Sum) keep nil apart from
// non-nil, empty or not. The unexported wire field is not encoded.
//
// Corrupt input is an error, never a panic, and never a large
// allocation: every count is checked against what is left of the
// payload, at the least number of bytes an element takes (the min*
// constants, which codec_test.go checks against zero values), and
// nested summaries go at most maxNesting deep.

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// codecVersion is the first byte of a payload. Change it whenever the
// format changes.
const codecVersion = 8

// maxNesting bounds the nesting of summaries (Returned, Made, ResultMethods).
const maxNesting = 16

// The least number of bytes an encoded element of each kind takes.
const (
	minSummary       = 8
	minEffect        = 14
	minPending       = 23
	minArg           = 4
	minPart          = 4
	minPosition      = 3
	minFieldSource   = 3
	minMethodSummary = 2
)

var errTooDeep = errors.New("summaries nested too deep")

// encodeSummary returns the payload of s.
func encodeSummary(s *Summary) ([]byte, error) {
	e := &encoder{strs: map[string]uint64{}}
	if err := e.summary(s, 0); err != nil {
		return nil, err
	}
	n := 1 + binary.MaxVarintLen64 + len(e.buf)
	for _, s := range e.table {
		n += binary.MaxVarintLen64 + len(s)
	}
	out := make([]byte, 0, n)
	out = append(out, codecVersion)
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return append(out, e.buf...), nil
}

type encoder struct {
	buf   []byte
	strs  map[string]uint64 // index in table, from 1
	table []string
}

func (e *encoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) varint(v int)     { e.buf = binary.AppendVarint(e.buf, int64(v)) }

func (e *encoder) flags(bs ...bool) {
	var f uint64
	for i, b := range bs {
		if b {
			f |= 1 << i
		}
	}
	e.uvarint(f)
}

func (e *encoder) str(s string) {
	if s == "" {
		e.uvarint(0)
		return
	}
	i, ok := e.strs[s]
	if !ok {
		e.table = append(e.table, s)
		i = uint64(len(e.table))
		e.strs[s] = i
	}
	e.uvarint(i)
}

func (e *encoder) summary(s *Summary, depth int) error {
	if depth > maxNesting {
		return errTooDeep
	}
	if s.wire != nil {
		// A nested summary read from a fact and not decoded yet: it is
		// written out in full with the rest.
		c := *s
		if err := c.Load(); err != nil {
			return err
		}
		s = &c
	}
	e.flags(s.BeginsTx, s.ReturnsShared, s.EndsTx, s.Returned != nil, s.Made != nil, s.StdClient, s.ReturnsReq)
	e.uvarint(uint64(len(s.Effects)))
	for i := range s.Effects {
		e.effect(&s.Effects[i])
	}
	e.uvarint(uint64(len(s.Pending)))
	for i := range s.Pending {
		e.pending(&s.Pending[i])
	}
	if s.Returned != nil {
		if err := e.summary(s.Returned, depth+1); err != nil {
			return err
		}
	}
	e.varint(s.ReturnedIndex)
	e.ints(s.ReqWrites)
	e.uvarint(uint64(len(s.ResultFields)))
	for _, f := range s.ResultFields {
		e.varint(f.Field)
		e.varint(f.Param)
		e.str(f.Func)
	}
	e.uvarint(uint64(len(s.ResultMethods)))
	for _, m := range s.ResultMethods {
		e.str(m.Name)
		e.flags(m.Sum != nil)
		if m.Sum != nil {
			if err := e.summary(m.Sum, depth+1); err != nil {
				return err
			}
		}
	}
	e.varint(s.ResultMethodsAt)
	if s.ReturnsReq {
		e.symbolic(s.ReqURL)
		e.symbolic(s.ReqMethod)
	}
	if s.Made != nil {
		return e.summary(s.Made, depth+1)
	}
	return nil
}

func (e *encoder) effect(x *Effect) {
	e.flags(x.Local, x.Egress, x.Safe, x.More)
	e.str(x.Kind)
	e.str(x.Subject)
	e.str(x.Method)
	e.str(string(x.Provenance))
	e.str(x.Reason)
	e.str(x.Fix)
	e.pos(x.Pos)
	e.positions(x.Via)
	e.str(x.Module)
	e.str(x.Pkg)
	e.str(x.Slot)
}

func (e *encoder) pending(p *Pending) {
	e.uvarint(uint64(p.Op))
	e.flags(p.Detach, p.InTx, p.Elem, p.Safe, p.Discharged, p.Scoped, p.Invoked)
	e.str(p.Kind)
	e.symbolic(p.Text)
	e.symbolic(p.Method)
	e.varint(p.Param)
	e.str(p.Name)
	e.str(p.Reason)
	e.str(p.Fix)
	e.uvarint(uint64(len(p.Args)))
	for _, a := range p.Args {
		e.uvarint(uint64(a.Handle))
		e.symbolic(a.Str)
		e.symbolic(a.Method)
		e.varint(a.Param)
	}
	e.varint(p.ShapeArg)
	e.varint(p.Result)
	e.varint(p.DetachIf)
	e.ints(p.Fields)
	e.str(string(p.Prov))
	e.uvarint(uint64(p.Dialect))
	e.pos(p.Pos)
	e.positions(p.Via)
	e.str(p.Module)
	e.str(p.Pkg)
	e.str(p.Slot)
}

func (e *encoder) symbolic(s Str) {
	e.uvarint(uint64(len(s.Alts)))
	for _, alt := range s.Alts {
		e.uvarint(uint64(len(alt)))
		for _, p := range alt {
			e.flags(p.Unknown)
			e.str(p.Lit)
			e.varint(p.Param)
			e.uvarint(uint64(p.Handle))
		}
	}
}

func (e *encoder) pos(p Position) {
	e.str(p.File)
	e.varint(p.Line)
	e.varint(p.Col)
}

func (e *encoder) positions(ps []Position) {
	e.uvarint(uint64(len(ps)))
	for _, p := range ps {
		e.pos(p)
	}
}

func (e *encoder) ints(xs []int) {
	e.uvarint(uint64(len(xs)))
	for _, x := range xs {
		e.varint(x)
	}
}

// decodeSummary decodes a payload.
func decodeSummary(data []byte) (*Summary, error) {
	if len(data) == 0 {
		return nil, errors.New("empty")
	}
	if data[0] != codecVersion {
		return nil, fmt.Errorf("format version %d, want %d (written by another authvet version)", data[0], codecVersion)
	}
	d := &decoder{b: data[1:]}
	n := d.count(1)
	if n > 0 {
		d.strs = make([]string, n)
		for i := range d.strs {
			l := d.count(1)
			if d.err != nil {
				break
			}
			d.strs[i] = string(d.b[:l])
			d.b = d.b[l:]
		}
	}
	s := new(Summary)
	d.summary(s, 0)
	if d.err == nil && len(d.b) > 0 {
		d.fail("%d bytes past the end of the summary", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	return s, nil
}

// A decoder reads a payload. Its first error sticks: it empties the
// input, so every read after it returns zero and every count 0.
type decoder struct {
	b    []byte // what is left
	strs []string
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
	d.b = nil
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad or truncated uvarint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("bad or truncated varint")
		return 0
	}
	d.b = d.b[n:]
	if int64(int(v)) != v {
		d.fail("integer %d out of range", v)
		return 0
	}
	return int(v)
}

func (d *decoder) u8() uint8 {
	v := d.uvarint()
	if v > 255 {
		d.fail("byte value %d out of range", v)
		return 0
	}
	return uint8(v)
}

// flags reads a flags into bs, which are as many as the encoder wrote.
func (d *decoder) flags(bs ...*bool) {
	f := d.uvarint()
	if f>>len(bs) != 0 {
		d.fail("unknown flags %#x", f)
		return
	}
	for i, b := range bs {
		*b = f&(1<<i) != 0
	}
}

// count reads the length of a list whose elements take at least size
// bytes each: one the rest of the input cannot hold is an error.
func (d *decoder) count(size int) int {
	n := d.uvarint()
	if n > uint64(len(d.b)/size) {
		d.fail("count %d past the end of the input", n)
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	i := d.uvarint()
	if i == 0 {
		return ""
	}
	if i > uint64(len(d.strs)) {
		d.fail("string %d of %d", i, len(d.strs))
		return ""
	}
	return d.strs[i-1]
}

func (d *decoder) summary(s *Summary, depth int) {
	if depth > maxNesting {
		d.fail("%v", errTooDeep)
		return
	}
	var returned, made bool
	d.flags(&s.BeginsTx, &s.ReturnsShared, &s.EndsTx, &returned, &made, &s.StdClient, &s.ReturnsReq)
	if n := d.count(minEffect); n > 0 {
		s.Effects = make([]Effect, n)
		for i := range s.Effects {
			d.effect(&s.Effects[i])
		}
	}
	if n := d.count(minPending); n > 0 {
		s.Pending = make([]Pending, n)
		for i := range s.Pending {
			d.pending(&s.Pending[i])
		}
	}
	if returned && d.err == nil {
		s.Returned = new(Summary)
		d.summary(s.Returned, depth+1)
	}
	s.ReturnedIndex = d.varint()
	s.ReqWrites = d.ints()
	if n := d.count(minFieldSource); n > 0 {
		s.ResultFields = make([]FieldSource, n)
		for i := range s.ResultFields {
			s.ResultFields[i] = FieldSource{Field: d.varint(), Param: d.varint(), Func: d.str()}
		}
	}
	if n := d.count(minMethodSummary); n > 0 {
		s.ResultMethods = make([]MethodSummary, n)
		for i := range s.ResultMethods {
			m := &s.ResultMethods[i]
			m.Name = d.str()
			var sum bool
			d.flags(&sum)
			if sum && d.err == nil {
				m.Sum = new(Summary)
				d.summary(m.Sum, depth+1)
			}
		}
	}
	s.ResultMethodsAt = d.varint()
	if s.ReturnsReq {
		s.ReqURL = d.symbolic()
		s.ReqMethod = d.symbolic()
	}
	if made && d.err == nil {
		s.Made = new(Summary)
		d.summary(s.Made, depth+1)
	}
}

func (d *decoder) effect(x *Effect) {
	d.flags(&x.Local, &x.Egress, &x.Safe, &x.More)
	x.Kind = d.str()
	x.Subject = d.str()
	x.Method = d.str()
	x.Provenance = Provenance(d.str())
	x.Reason = d.str()
	x.Fix = d.str()
	x.Pos = d.pos()
	x.Via = d.positions()
	x.Module = d.str()
	x.Pkg = d.str()
	x.Slot = d.str()
}

func (d *decoder) pending(p *Pending) {
	p.Op = Op(d.u8())
	d.flags(&p.Detach, &p.InTx, &p.Elem, &p.Safe, &p.Discharged, &p.Scoped, &p.Invoked)
	p.Kind = d.str()
	p.Text = d.symbolic()
	p.Method = d.symbolic()
	p.Param = d.varint()
	p.Name = d.str()
	p.Reason = d.str()
	p.Fix = d.str()
	if n := d.count(minArg); n > 0 {
		p.Args = make([]Arg, n)
		for i := range p.Args {
			a := &p.Args[i]
			a.Handle = d.u8()
			a.Str = d.symbolic()
			a.Method = d.symbolic()
			a.Param = d.varint()
		}
	}
	p.ShapeArg = d.varint()
	p.Result = d.varint()
	p.DetachIf = d.varint()
	p.Fields = d.ints()
	p.Prov = Provenance(d.str())
	p.Dialect = d.u8()
	p.Pos = d.pos()
	p.Via = d.positions()
	p.Module = d.str()
	p.Pkg = d.str()
	p.Slot = d.str()
}

func (d *decoder) symbolic() Str {
	var s Str
	if n := d.count(1); n > 0 {
		s.Alts = make([][]Part, n)
		for i := range s.Alts {
			if m := d.count(minPart); m > 0 {
				alt := make([]Part, m)
				for j := range alt {
					p := &alt[j]
					d.flags(&p.Unknown)
					p.Lit = d.str()
					p.Param = d.varint()
					p.Handle = d.u8()
				}
				s.Alts[i] = alt
			}
		}
	}
	return s
}

func (d *decoder) pos() Position {
	return Position{File: d.str(), Line: d.varint(), Col: d.varint()}
}

func (d *decoder) positions() []Position {
	n := d.count(minPosition)
	if n == 0 {
		return nil
	}
	ps := make([]Position, n)
	for i := range ps {
		ps[i] = d.pos()
	}
	return ps
}

func (d *decoder) ints() []int {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	xs := make([]int, n)
	for i := range xs {
		xs[i] = d.varint()
	}
	return xs
}
