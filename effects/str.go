package effects

import (
	"strconv"
	"strings"
)

// Part is one piece of a symbolic string: literal text, the value of a
// parameter of the function being summarised, or unknown runtime text.
type Part struct {
	Lit    string
	Param  int   // 1-based parameter index; 0 when not a parameter
	Handle uint8 // what the parameter part stands for (handleString, handleStmt, ...)
	// Lit is literal text; for a handleMethod parameter part, the name of
	// the method whose constant result the part stands for.
	Unknown bool
}

// Str is a symbolic string value: a set of alternatives (one per path a
// phi merges), each a concatenation of parts. Everything after the first
// unknown part is dropped: only a constant prefix can be proved.
type Str struct {
	Alts [][]Part
}

// maxAlts bounds the number of alternatives a Str carries.
const maxAlts = 32

func litStr(s string) Str  { return Str{Alts: [][]Part{{{Lit: s}}}} }
func unknownStr() Str      { return Str{Alts: [][]Part{{{Unknown: true}}}} }
func paramStr(i int) Str   { return Str{Alts: [][]Part{{{Param: i + 1}}}} }
func (s Str) isZero() bool { return len(s.Alts) == 0 }

func (s Str) String() string {
	var b strings.Builder
	for i, alt := range s.Alts {
		if i > 0 {
			b.WriteString(" | ")
		}
		for _, p := range alt {
			switch {
			case p.Unknown:
				b.WriteString("…")
			case p.Param > 0:
				b.WriteString("$param" + strconv.Itoa(p.Param-1) + "/" + strconv.Itoa(int(p.Handle)))
				if p.Lit != "" {
					b.WriteString("." + p.Lit + "()")
				}
			default:
				b.WriteString(strconv.Quote(p.Lit))
			}
		}
	}
	return b.String()
}

// normalize merges adjacent literals and cuts each alternative after its
// first unknown part.
func normalize(alt []Part) []Part {
	var out []Part
	for _, p := range alt {
		if p.Param == 0 && !p.Unknown && p.Lit == "" {
			continue
		}
		if n := len(out); n > 0 && p.Param == 0 && !p.Unknown && out[n-1].Param == 0 && !out[n-1].Unknown {
			out[n-1].Lit += p.Lit
			continue
		}
		out = append(out, p)
		if p.Unknown {
			break
		}
	}
	if out == nil {
		out = []Part{{Lit: ""}}
	}
	return out
}

func concatStr(a, b Str) Str {
	if a.isZero() || b.isZero() {
		return unknownStr()
	}
	if len(a.Alts)*len(b.Alts) > maxAlts {
		return unknownStr()
	}
	var out Str
	for _, x := range a.Alts {
		for _, y := range b.Alts {
			alt := append(append([]Part(nil), x...), y...)
			out.Alts = append(out.Alts, normalize(alt))
		}
	}
	return out.dedup()
}

func unionStr(a, b Str) Str {
	if a.isZero() {
		return b
	}
	if b.isZero() {
		return a
	}
	if len(a.Alts)+len(b.Alts) > maxAlts {
		return unknownStr()
	}
	out := Str{Alts: append(append([][]Part(nil), a.Alts...), b.Alts...)}
	return out.dedup()
}

func (s Str) dedup() Str {
	seen := map[string]bool{}
	var out Str
	for _, alt := range s.Alts {
		k := Str{Alts: [][]Part{alt}}.String()
		if seen[k] {
			continue
		}
		seen[k] = true
		out.Alts = append(out.Alts, alt)
	}
	return out
}

// informative reports whether some alternative starts with anything but
// unknown text: a literal prefix or a parameter.
func (s Str) informative() bool {
	for _, alt := range s.Alts {
		if len(alt) > 0 && !alt[0].Unknown {
			return true
		}
	}
	return false
}

// hasParam reports whether any alternative depends on a parameter.
func (s Str) hasParam() bool {
	for _, alt := range s.Alts {
		for _, p := range alt {
			if p.Param > 0 {
				return true
			}
		}
	}
	return false
}

// subst replaces each parameter part by the value f gives it.
func (s Str) subst(f func(p Part) Str) Str {
	if !s.hasParam() {
		return s
	}
	var out Str
	for _, alt := range s.Alts {
		acc := litStr("")
		for _, p := range alt {
			var v Str
			if p.Param > 0 {
				v = f(p)
			} else {
				v = Str{Alts: [][]Part{{p}}}
			}
			acc = concatStr(acc, v)
		}
		out = unionStr(out, acc)
	}
	return out
}

// Text is one alternative of a parameter-free Str: its constant text and
// whether that text is the whole value or only a prefix of it.
type Text struct {
	Text     string
	Complete bool
}

// texts returns the alternatives of a parameter-free Str. A parameter
// still present (the caller is the root of the analysis) counts as unknown.
func (s Str) texts() []Text {
	if s.isZero() {
		return []Text{{}}
	}
	var out []Text
	for _, alt := range s.Alts {
		t := Text{Complete: true}
		for _, p := range alt {
			if p.Param > 0 || p.Unknown {
				t.Complete = false
				break
			}
			t.Text += p.Lit
		}
		out = append(out, t)
	}
	return out
}
