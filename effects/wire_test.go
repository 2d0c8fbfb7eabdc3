package effects

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// factBox stands in for unitchecker's fact list: a summary behind an
// interface, as gob sees it there.
type factBox struct{ Fact any }

func init() { gob.Register(new(Summary)) }

func encodeFact(t *testing.T, s *Summary) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(factBox{s}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decodeFact(t *testing.T, data []byte) *Summary {
	t.Helper()
	var box factBox
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&box); err != nil {
		t.Fatal(err)
	}
	return box.Fact.(*Summary)
}

func TestSummaryWire(t *testing.T) {
	in := &Summary{
		Effects: []Effect{{Kind: Write, Subject: "payouts", Pos: Position{"a.go", 3, 4}, Via: []Position{{"b.go", 1, 2}}}},
		Pending: []Pending{{Op: OpSQL, Text: paramStr(0), Args: []Arg{{Handle: 1, Str: litStr("x")}}}},
		Returned: &Summary{
			Effects: []Effect{{Kind: Outbound, Subject: "https://api.example/", Pos: Position{"c.go", 5, 6}}},
		},
		ReturnedIndex: 1,
		ReqWrites:     []int{2},
		BeginsTx:      true,
	}
	data := encodeFact(t, in)
	got := decodeFact(t, data)
	if got.wire == nil || len(got.Effects) != 0 {
		t.Fatalf("decoding should keep the bytes and decode nothing yet: %+v", got)
	}
	// Re-exported without being read, the fact is the same bytes.
	if again := encodeFact(t, got); !bytes.Equal(again, data) {
		t.Errorf("re-encoding an undecoded summary changed it (%d bytes, want %d)", len(again), len(data))
	}
	if err := got.Load(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, in)
	}
}

func TestSummaryWireCorrupt(t *testing.T) {
	s := &Summary{wire: []byte("not a summary")}
	err := s.Load()
	if err == nil || !strings.Contains(err.Error(), "corrupt effect summary fact") {
		t.Fatalf("Load of garbage: err = %v", err)
	}
	u := Unreadable("p.F", err)
	if len(u.Effects) != 1 || u.Effects[0].Kind != Unprovable {
		t.Errorf("an unreadable summary must be one unprovable site: %+v", u)
	}
}

func TestExportedCapsUnprovable(t *testing.T) {
	var s Summary
	var via []Position
	for i := 1; i <= 10; i++ {
		via = append(via, Position{"v.go", i, 1})
	}
	for i := 1; i <= 10; i++ {
		s.Effects = append(s.Effects, Effect{Kind: Unprovable, Reason: "r", Pos: Position{"a.go", i, 1}, Module: "m", Via: via})
	}
	s.Effects = append(s.Effects,
		Effect{Kind: Unprovable, Reason: "local", Pos: Position{"a.go", 20, 1}, Module: "m", Local: true},
		Effect{Kind: Write, Subject: "t", Pos: Position{"a.go", 30, 1}})
	out := s.Exported()
	var unprov, local, writes int
	for _, e := range out.Effects {
		switch {
		case e.Kind == Write:
			writes++
		case e.Local:
			local++
		default:
			unprov++
			// The one kept stands for the others (More), with the first
			// calls of its chain and its last.
			if !e.More {
				t.Errorf("the unprovable site kept is not marked More: %+v", e)
			}
			if len(e.Via) != maxExportedVia || e.Via[0] != via[0] || e.Via[len(e.Via)-1] != via[len(via)-1] {
				t.Errorf("Exported via = %v; want the first %d calls of %v and its last", e.Via, maxExportedVia-1, via)
			}
		}
	}
	if unprov != maxExportedUnprovable || local != 1 || writes != 1 {
		t.Errorf("Exported kept %d unprovable, %d local, %d writes; want %d, 1, 1", unprov, local, writes, maxExportedUnprovable)
	}
	if len(s.Effects[0].Via) != len(via) {
		t.Errorf("Exported changed the chains of the summary it was called on")
	}
	if len(s.Effects) != 12 {
		t.Errorf("Exported changed the summary it was called on")
	}
}

// A small summary travels as is and a large one compressed; both read
// back to what was written.
func TestSummaryWireTags(t *testing.T) {
	small := &Summary{Effects: []Effect{{Kind: Write, Subject: "payouts", Pos: Position{"a.go", 3, 4}}}}
	var large Summary
	for i := 1; i <= 200; i++ {
		large.Effects = append(large.Effects, Effect{Kind: Write, Subject: fmt.Sprintf("t%d", i%7), Pos: Position{"a.go", i, 4}})
	}
	for _, c := range []struct {
		name string
		s    *Summary
		tag  byte
	}{{"small", small, wireRaw}, {"large", &large, wireFlate}} {
		data, err := c.s.GobEncode()
		if err != nil {
			t.Fatal(err)
		}
		if data[0] != c.tag {
			t.Errorf("%s summary: tag %q, want %q", c.name, data[0], c.tag)
		}
		got := &Summary{wire: data}
		if err := got.Load(); err != nil {
			t.Fatalf("%s summary: %v", c.name, err)
		}
		if !reflect.DeepEqual(got.Effects, c.s.Effects) {
			t.Errorf("%s summary read back as %+v", c.name, got.Effects)
		}
	}
	if payload, _ := encodeSummary(&large); len(payload) < compressAt {
		t.Fatalf("the large sample is %d bytes, under compressAt", len(payload))
	}
}

// Detached sites are capped per call and reason, like unprovable ones:
// ten goroutines and two timers behind one call keep three and two, and
// every write stays.
func TestCapDetached(t *testing.T) {
	c := newCollector()
	call := Position{"h.go", 5, 1}
	for i := 1; i <= 10; i++ {
		c.add(Effect{Kind: Detached, Reason: "starts a detached goroutine", Pos: Position{"a.go", i, 1}, Via: []Position{call}, Module: "m"})
		c.add(Effect{Kind: Write, Subject: fmt.Sprintf("t%d", i), Pos: Position{"a.go", i, 2}, Via: []Position{call}})
	}
	for i := 1; i <= 2; i++ {
		c.add(Effect{Kind: Detached, Reason: "starts a detached goroutine (time.AfterFunc)", Pos: Position{"b.go", i, 1}, Via: []Position{call}, Module: "m"})
	}
	// Another call is another group.
	c.add(Effect{Kind: Detached, Reason: "starts a detached goroutine", Pos: Position{"a.go", 1, 1}, Via: []Position{{"h.go", 9, 1}}, Module: "m"})
	n := map[string]int{}
	for _, e := range c.summary(Position{"h.go", 1, 1}, "m").Effects {
		n[e.Kind+" "+e.Reason+" "+e.Report().String()]++
	}
	want := map[string]int{
		"detached starts a detached goroutine h.go:5:1":                  maxUnprovable,
		"detached starts a detached goroutine (time.AfterFunc) h.go:5:1": 2,
		"detached starts a detached goroutine h.go:9:1":                  1,
		"write  h.go:5:1": 10,
	}
	if !reflect.DeepEqual(n, want) {
		t.Errorf("kept %v, want %v", n, want)
	}
}
