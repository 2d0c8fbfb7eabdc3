package effects

import (
	"slices"
	"testing"
)

func TestStrConcatAndSubst(t *testing.T) {
	// "INSERT INTO " + $param0 + " VALUES (1)"
	s := concatStr(concatStr(litStr("INSERT INTO "), paramStr(0)), litStr(" VALUES (1)"))
	if !s.hasParam() {
		t.Fatalf("%s: want a parameter part", s)
	}
	got := s.subst(func(p Part) Str {
		if p.Param != 1 || p.Handle != handleString {
			t.Fatalf("subst asked for param %d handle %d", p.Param-1, p.Handle)
		}
		return unionStr(litStr("notes"), litStr("secrets"))
	})
	ts := got.texts()
	if len(ts) != 2 || ts[0].Text != "INSERT INTO notes VALUES (1)" || ts[1].Text != "INSERT INTO secrets VALUES (1)" || !ts[0].Complete {
		t.Errorf("subst = %+v", ts)
	}
}

func TestStrUnknownCutsTail(t *testing.T) {
	s := concatStr(concatStr(litStr("https://api.x.com/v1/"), unknownStr()), litStr("/tail"))
	ts := s.texts()
	if len(ts) != 1 || ts[0].Text != "https://api.x.com/v1/" || ts[0].Complete {
		t.Errorf("texts = %+v; want the prefix only, incomplete", ts)
	}
	if (Str{}).texts()[0].Complete {
		t.Error("the zero Str must be unknown")
	}
}

func TestStrBounded(t *testing.T) {
	s := litStr("a")
	for i := 0; i < 10; i++ {
		s = unionStr(s, concatStr(s, litStr("b")))
	}
	if n := len(s.Alts); n > maxAlts {
		t.Errorf("%d alternatives, want at most %d", n, maxAlts)
	}
}

func TestGormTableName(t *testing.T) {
	for name, want := range map[string]string{
		"User":        "users",
		"OrderItem":   "order_items",
		"Category":    "categories",
		"Address":     "addresses",
		"HTTPRequest": "http_requests",
		"Box":         "boxes",
		"Day":         "days",
	} {
		if got := gormTableName(name); got != want {
			t.Errorf("gormTableName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestCollectorBoundsSummary(t *testing.T) {
	c := newCollector()
	for i := 0; i < maxSites+10; i++ {
		c.add(Effect{Kind: Write, Subject: "t", Pos: Position{File: "f.go", Line: i + 1}})
	}
	s := c.summary(Position{File: "f.go", Line: 1}, "m")
	if len(s.Effects) != 1 || s.Effects[0].Kind != Unprovable {
		t.Errorf("summary past the bound = %v; want one unprovable site", s)
	}
}

func TestCollectorKeepsShortestVia(t *testing.T) {
	c := newCollector()
	long := Effect{Kind: Write, Subject: "t", Pos: Position{File: "f.go", Line: 9}, Via: []Position{{File: "h.go", Line: 1}, {File: "g.go", Line: 2}}}
	short := long
	short.Via = long.Via[:1]
	c.add(long)
	c.add(short)
	s := c.summary(Position{}, "")
	if len(s.Effects) != 1 || len(s.Effects[0].Via) != 1 {
		t.Errorf("effects = %+v; want one, with the shorter chain", s.Effects)
	}
}

func TestPrependVia(t *testing.T) {
	for n := 0; n <= 2*maxVia; n++ {
		var via []Position
		for i := range n {
			via = append(via, Position{File: "f.go", Line: i + 2})
		}
		at := Position{File: "f.go", Line: 1}
		want := clipVia(append([]Position{at}, via...))
		if got := prependVia(at, via); !slices.Equal(got, want) {
			t.Errorf("%d: got %v, want %v", n, got, want)
		}
	}
}

// TestCollectorOrder: of two chains to one site, a collector keeps the
// same one whichever reaches it first (the shorter, then the first in
// position order), so output does not depend on map or walk order.
func TestCollectorOrder(t *testing.T) {
	site := Position{File: "a.go", Line: 9}
	at := Position{File: "h.go", Line: 1}
	short := Effect{Kind: Write, Subject: "t", Pos: site, Via: []Position{{File: "b.go", Line: 5}}}
	long := Effect{Kind: Write, Subject: "t", Pos: site, Via: []Position{{File: "b.go", Line: 2}, {File: "c.go", Line: 1}}}
	tie := Effect{Kind: Write, Subject: "t", Pos: site, Via: []Position{{File: "b.go", Line: 3}}}
	for _, order := range [][]Effect{{short, long, tie}, {tie, long, short}, {long, tie, short}} {
		c := newCollector()
		for _, e := range order {
			c.addLifted(e, at)
		}
		s := c.sorted()
		if len(s.Effects) != 1 || !slices.Equal(s.Effects[0].Via, []Position{at, {File: "b.go", Line: 3}}) {
			t.Errorf("order %v: kept %+v", order, s.Effects)
		}
	}
}
