package directive

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var splitTests = []struct {
	comment, kind, rest string
	ok                  bool
}{
	{"//agent:operable grant=X", OperablePrefix, " grant=X", true},
	{"//agent:operable", OperablePrefix, "", true},
	{"//agent:operable\tgrant=X", OperablePrefix, "\tgrant=X", true},
	{"//agent:effect none reason=\"x\"", EffectPrefix, " none reason=\"x\"", true},
	{"//agent:effect", EffectPrefix, "", true},
	{"//agent:effect  ", EffectPrefix, "  ", true},
	// Not directives.
	{"// agent:operable grant=X", "", "", false},
	{"//  agent:effect none", "", "", false},
	{"/*agent:operable grant=X*/", "", "", false},
	{"//go:noinline", "", "", false},
	{"//agent", "", "", false},
	{"", "", "", false},
	{"/", "", "", false},
	// Unknown directives of the family: the caller reports them.
	{"//agent:operablex", "", "operablex", true},
	{"//agent:operate grant=X", "", "operate grant=X", true},
	{"//agent:effects none", "", "effects none", true},
	{"//agent:effect(none)", "", "effect(none)", true},
	{"//agent:", "", "", true},
	{"//agent: operable", "", " operable", true},
	{"//agent:Operable grant=X", "", "Operable grant=X", true},
}

func TestSplit(t *testing.T) {
	for _, tt := range splitTests {
		kind, rest, ok := Split(tt.comment)
		if kind != tt.kind || rest != tt.rest || ok != tt.ok {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q, %v", tt.comment, kind, rest, ok, tt.kind, tt.rest, tt.ok)
		}
	}
}

var operableTests = []struct {
	text  string
	grant string
	err   string // exact message, or "" for success
}{
	{" grant=RefundDrafter", "RefundDrafter", ""},
	{" grant=RefundDrafter // the support agent's tool", "RefundDrafter", ""},
	{" // grant=RefundDrafter", "", "//agent:operable needs grant=NAME"},
	{"grant=RefundDrafter", "RefundDrafter", ""},
	{" grant=billing.RefundDrafter  ", "billing.RefundDrafter", ""},
	{"\tgrant=_private", "_private", ""},
	{" grant=Grant2", "Grant2", ""},
	{" grant=Ärger", "Ärger", ""},

	{"", "", "//agent:operable needs grant=NAME"},
	{"   ", "", "//agent:operable needs grant=NAME"},
	{" grant", "", "//agent:operable needs grant=NAME"},
	{" grant:X", "", "//agent:operable needs grant=NAME"},
	{" foo=bar", "", `unknown key "foo" in //agent:operable; valid keys: grant`},
	{" grant=X foo=bar", "", `unknown key "foo" in //agent:operable; valid keys: grant`},
	{" Grant=X", "", `unknown key "Grant" in //agent:operable; valid keys: grant`},
	{" grant=", "", "empty value for grant in //agent:operable; expected grant=NAME"},
	{" grant= X", "", "empty value for grant in //agent:operable; expected grant=NAME"},
	{" grant=a.b.c", "", `malformed grant "a.b.c" in //agent:operable; expected an identifier or package.Identifier`},
	{" grant=1X", "", `malformed grant "1X" in //agent:operable; expected an identifier or package.Identifier`},
	{" grant=a-b", "", `malformed grant "a-b" in //agent:operable; expected an identifier or package.Identifier`},
	{" grant=.X", "", `malformed grant ".X" in //agent:operable; expected an identifier or package.Identifier`},
	{" grant=X.", "", `malformed grant "X." in //agent:operable; expected an identifier or package.Identifier`},
	{" grant=_", "", `malformed grant "_" in //agent:operable; expected an identifier or package.Identifier`},
	{` grant="X"`, "", `malformed grant "\"X\"" in //agent:operable; expected an identifier or package.Identifier`},
	{" grant=X,Y", "", `malformed grant "X,Y" in //agent:operable; expected an identifier or package.Identifier`},
	{" grant=X grant=Y", "", "key grant repeated in //agent:operable; a handler names exactly one grant"},
	{" grant=X // drafts refunds", "X", ""},
	{" grant=X ,", "", `unexpected "," in //agent:operable; expected grant=NAME`},
	{" RefundDrafter", "", `unexpected "RefundDrafter" in //agent:operable; expected grant=NAME`},
	{" grant=X\xff", "", `malformed grant "X\xff" in //agent:operable; expected an identifier or package.Identifier`},
}

func TestParseOperable(t *testing.T) {
	for _, tt := range operableTests {
		op, err := ParseOperable(tt.text)
		if tt.err == "" {
			if err != nil {
				t.Errorf("ParseOperable(%q): unexpected error %v", tt.text, err)
			} else if op.Grant != tt.grant {
				t.Errorf("ParseOperable(%q).Grant = %q; want %q", tt.text, op.Grant, tt.grant)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseOperable(%q) = %+v; want error %q", tt.text, op, tt.err)
		} else if err.Error() != tt.err {
			t.Errorf("ParseOperable(%q) error:\n got %s\nwant %s", tt.text, err, tt.err)
		}
	}
}

const validKeys = `valid keys: none, scoped, writes(...), unbounded_writes(...), outbound("..."), jobs(...), webhooks(...), reason="..."`

var hatchTests = []struct {
	text string
	want Hatch
	err  string // exact message, or "" for success
}{
	{
		text: ` none reason="pure" // a trailing comment, as //nolint allows`,
		want: Hatch{None: true, Reason: "pure"},
	},
	{
		text: ` outbound("https://x.example/a//b") reason="a // inside quotes is not a comment"`,
		want: Hatch{Outbound: []string{"https://x.example/a//b"}, Reason: "a // inside quotes is not a comment"},
	},
	{
		text: ` none // reason="hidden in the comment"`,
		err:  `//agent:effect needs a non-empty reason="..."`,
	},
	{
		text: ` writes(refunds, "billing.notes") outbound("https://api.stripe.com/v1/refunds") jobs(notify_finance) webhooks("refund.drafted") unbounded_writes(x) reason="finalize() does the row write"`,
		want: Hatch{
			Writes:          []string{"refunds", "billing.notes"},
			Outbound:        []string{"https://api.stripe.com/v1/refunds"},
			Jobs:            []string{"notify_finance"},
			Webhooks:        []string{"refund.drafted"},
			UnboundedWrites: []string{"x"},
			Reason:          "finalize() does the row write",
		},
	},
	{text: ` none reason="pure formatting helper; verified effect-free"`, want: Hatch{None: true, Reason: "pure formatting helper; verified effect-free"}},
	{text: ` scoped reason="the view is already tenant-partitioned"`, want: Hatch{Scoped: true, Reason: "the view is already tenant-partitioned"}},
	{text: ` reason="first" none`, want: Hatch{None: true, Reason: "first"}},
	{text: ` scoped writes(a) reason="r"`, want: Hatch{Scoped: true, Writes: []string{"a"}, Reason: "r"}},
	{text: ` writes( a , b ,c ) reason="r"   `, want: Hatch{Writes: []string{"a", "b", "c"}, Reason: "r"}},
	{text: "\twrites(a)\treason=\"r\"\t", want: Hatch{Writes: []string{"a"}, Reason: "r"}},
	{text: " writes(billing.refunds) reason=`raw \"quoted\" reason`", want: Hatch{Writes: []string{"billing.refunds"}, Reason: `raw "quoted" reason`}},
	{text: ` jobs("notify") reason="say \"why\"\tplease"`, want: Hatch{Jobs: []string{"notify"}, Reason: "say \"why\"\tplease"}},
	{text: ` webhooks("a,b", "c)d") reason="r"`, want: Hatch{Webhooks: []string{"a,b", "c)d"}, Reason: "r"}},
	{text: " outbound(`https://x.com/`, \"alias:stripe\") reason=\"r\"", want: Hatch{Outbound: []string{"https://x.com/", "alias:stripe"}, Reason: "r"}},
	{text: ` writes(_t, t2, données) reason="r"`, want: Hatch{Writes: []string{"_t", "t2", "données"}, Reason: "r"}},
	{text: ` writes("\u00e9") reason="r"`, want: Hatch{Writes: []string{"é"}, Reason: "r"}},

	// Reason.
	{text: ` writes(a)`, err: `//agent:effect needs a non-empty reason="..."`},
	{text: ` writes(a) reason=""`, err: `//agent:effect needs a non-empty reason="..."`},
	{text: ` writes(a) reason="   "`, err: `//agent:effect needs a non-empty reason="..."`},
	{text: " writes(a) reason=``", err: `//agent:effect needs a non-empty reason="..."`},
	{text: ` writes(a) reason`, err: `//agent:effect needs a non-empty reason="..."`},
	{text: ` writes(a) reason=`, err: `//agent:effect needs a non-empty reason="..." (a quoted Go string)`},
	{text: ` writes(a) reason=why`, err: `//agent:effect needs a non-empty reason="..." (a quoted Go string)`},
	{text: ` writes(a) reason= "r"`, err: `//agent:effect needs a non-empty reason="..." (a quoted Go string)`},
	{text: ` writes(a) reason="r`, err: `reason in //agent:effect: unterminated string literal`},
	{text: ` writes(a) reason="r\"`, err: `reason in //agent:effect: unterminated string literal`},
	{text: " writes(a) reason=`r", err: `reason in //agent:effect: unterminated string literal`},
	{text: ` writes(a) reason="\q"`, err: `reason in //agent:effect: invalid string literal "\"\\q\""`},
	{text: ` writes(a) reason="r"x`, err: `unexpected "x" after reason in //agent:effect; separate items with spaces`},
	{text: ` writes(a) reason="r" reason="s"`, err: `key reason repeated in //agent:effect; give one reason`},

	// Nothing declared.
	{text: ``, err: `//agent:effect declares nothing; give none, scoped, or at least one effect; ` + validKeys},
	{text: ` reason="r"`, err: `//agent:effect declares nothing; give none, scoped, or at least one effect; ` + validKeys},

	// Unknown keys and junk.
	{text: ` write(a) reason="r"`, err: `unknown key "write" in //agent:effect; ` + validKeys},
	{text: ` Writes(a) reason="r"`, err: `unknown key "Writes" in //agent:effect; ` + validKeys},
	{text: ` writes(a) because="r"`, err: `unknown key "because" in //agent:effect; ` + validKeys},
	{text: ` writes(a) , reason="r"`, err: `unexpected "," in //agent:effect; ` + validKeys},
	{text: ` writes(a) reason="r" // trailing`, want: Hatch{Writes: []string{"a"}, Reason: "r"}},
	{text: ` writes(a) reason="r"// no space`, err: `unexpected "//" after reason in //agent:effect; separate items with spaces`},
	{text: ` "writes"(a) reason="r"`, err: `unexpected "\"writes\"(a)" in //agent:effect; ` + validKeys},
	{text: ` writes(a)jobs(b) reason="r"`, err: `unexpected "jobs(b)" after writes(...) in //agent:effect; separate items with spaces`},
	{text: ` none, reason="r"`, err: `unexpected "none," in //agent:effect; ` + validKeys},
	{text: ` none() reason="r"`, err: `none takes no arguments in //agent:effect; write it alone`},
	{text: ` scoped=true reason="r"`, err: `scoped takes no arguments in //agent:effect; write it alone`},
	{text: ` writes reason="r"`, err: `writes needs a parenthesised list of subjects in //agent:effect: writes(...)`},
	{text: ` writes (a) reason="r"`, err: `writes needs a parenthesised list of subjects in //agent:effect: writes(...)`},
	{text: ` writes=a reason="r"`, err: `writes needs a parenthesised list of subjects in //agent:effect: writes(...)`},

	// Repeats and combinations.
	{text: ` writes(a) writes(b) reason="r"`, err: `key writes repeated in //agent:effect; list all subjects in one writes(...)`},
	{text: ` none none reason="r"`, err: `key none repeated in //agent:effect`},
	{text: ` scoped scoped reason="r"`, err: `key scoped repeated in //agent:effect`},
	{text: ` none writes(a) reason="r"`, err: `none replaces the statement's analysis; it cannot be combined with writes(...)`},
	{text: ` outbound("https://x.com/") none reason="r"`, err: `none replaces the statement's analysis; it cannot be combined with outbound("...")`},
	{text: ` none jobs(j) reason="r"`, err: `none replaces the statement's analysis; it cannot be combined with jobs(...)`},
	{text: ` none scoped reason="r"`, err: `none replaces the statement's analysis; it cannot be combined with scoped`},
	{text: ` none unbounded_writes(t)`, err: `none replaces the statement's analysis; it cannot be combined with unbounded_writes(...)`},

	// Subjects.
	{text: ` writes() reason="r"`, err: `empty writes() in //agent:effect; name at least one subject or drop the key`},
	{text: ` writes(  ) reason="r"`, err: `empty writes() in //agent:effect; name at least one subject or drop the key`},
	{text: ` writes(a,) reason="r"`, err: `empty subject in writes(...) in //agent:effect`},
	{text: ` writes(,a) reason="r"`, err: `empty subject in writes(...) in //agent:effect`},
	{text: ` writes(a,,b) reason="r"`, err: `empty subject in writes(...) in //agent:effect`},
	{text: ` writes("") reason="r"`, err: `empty subject "" in writes(...) in //agent:effect`},
	{text: ` jobs(a b) reason="r"`, err: `unexpected "b)" in jobs(...) in //agent:effect; separate subjects with commas`},
	{text: ` writes($x) reason="r"`, err: `writes subject "$x" in //agent:effect is neither an identifier nor a string literal`},
	{text: ` writes(a-b) reason="r"`, err: `writes subject "a-b" in //agent:effect is neither an identifier nor a string literal`},
	{text: ` writes(1abc) reason="r"`, err: `writes subject "1abc" in //agent:effect is neither an identifier nor a string literal`},
	{text: ` writes(a..b) reason="r"`, err: `writes subject "a..b" in //agent:effect is neither an identifier nor a string literal`},
	{text: ` writes(a.) reason="r"`, err: `writes subject "a." in //agent:effect is neither an identifier nor a string literal`},
	{text: ` writes(f(x)) reason="r"`, err: `writes subject "f(x" in //agent:effect is neither an identifier nor a string literal`},
	{text: ` writes("a"b) reason="r"`, err: `unexpected "b)" in writes(...) in //agent:effect; separate subjects with commas`},
	{text: ` writes(a) reason="r" jobs(j`, err: `unterminated jobs( in //agent:effect; close it with )`},
	{text: ` writes(a, reason="r"`, err: `writes subject "reason=\"r\"" in //agent:effect is neither an identifier nor a string literal`},
	{text: ` writes(a`, err: `unterminated writes( in //agent:effect; close it with )`},
	{text: ` writes(a,`, err: `unterminated writes( in //agent:effect; close it with )`},
	{text: ` writes(`, err: `unterminated writes( in //agent:effect; close it with )`},
	{text: ` writes("a`, err: `writes subject in //agent:effect: unterminated string literal`},
	{text: ` writes("a\x") reason="r"`, err: `writes subject in //agent:effect: invalid string literal "\"a\\x\""`},
	{text: ` outbound(api) reason="r"`, err: `outbound subjects must be string literals: outbound("api")`},
	{text: ` writes(refunds, "refunds") reason="r"`, err: `duplicate subject "refunds" in writes(...) in //agent:effect`},
	{text: ` webhooks("t", "t") reason="r"`, err: `duplicate subject "t" in webhooks(...) in //agent:effect`},
}

func TestParseHatch(t *testing.T) {
	for _, tt := range hatchTests {
		h, err := ParseHatch(tt.text)
		if tt.err == "" {
			if err != nil {
				t.Errorf("ParseHatch(%q): unexpected error %v", tt.text, err)
			} else if !reflect.DeepEqual(h, tt.want) {
				t.Errorf("ParseHatch(%q) =\n %+v\nwant\n %+v", tt.text, h, tt.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("ParseHatch(%q) = %+v; want error %q", tt.text, h, tt.err)
		} else if err.Error() != tt.err {
			t.Errorf("ParseHatch(%q) error:\n got %s\nwant %s", tt.text, err, tt.err)
		}
	}
}

// TestLongInput guards the linear-time promise and the message length: a
// long comment parses quickly and an error quotes only a short snippet.
func TestLongInput(t *testing.T) {
	subjects := make([]string, 20000)
	for i := range subjects {
		subjects[i] = "t" + strings.Repeat("x", i%7) + "_" + strconv.Itoa(i)
	}
	text := " writes(" + strings.Join(subjects, ", ") + `) reason="r"`
	h, err := ParseHatch(text)
	if err != nil || len(h.Writes) != len(subjects) {
		t.Fatalf("ParseHatch(long): %d subjects, err %v", len(h.Writes), err)
	}
	for _, junk := range []string{
		" writes(a) " + strings.Repeat("é", 10000),
		" writes(" + strings.Repeat("a-", 10000) + ")",
		" writes(a) reason=\"" + strings.Repeat("\\q", 10000) + "\"",
		" " + strings.Repeat("(", 10000),
	} {
		_, err = ParseHatch(junk)
		if err == nil || len(err.Error()) > 250 {
			t.Errorf("ParseHatch(junk): error %v", err)
		}
	}
	_, err = ParseOperable(" " + strings.Repeat("k", 10000) + "=v")
	if err == nil || len(err.Error()) > 200 {
		t.Errorf("ParseOperable(junk): error %v", err)
	}
}

func checkError(t *testing.T, err error) {
	t.Helper()
	msg := err.Error()
	if msg == "" || strings.ContainsAny(msg, "\n\r") {
		t.Fatalf("error is empty or not one line: %q", msg)
	}
	if r, _ := utf8.DecodeRuneInString(msg); r >= 'A' && r <= 'Z' {
		t.Fatalf("error starts upper-case: %q", msg)
	}
}

func FuzzSplit(f *testing.F) {
	for _, tt := range splitTests {
		f.Add(tt.comment)
	}
	f.Fuzz(func(t *testing.T, comment string) {
		kind, rest, ok := Split(comment)
		if !ok {
			if kind != "" || rest != "" {
				t.Fatalf("Split(%q) = %q, %q, false", comment, kind, rest)
			}
			if strings.HasPrefix(comment, "//agent:") {
				t.Fatalf("Split(%q) missed a //agent: comment", comment)
			}
			return
		}
		switch kind {
		case OperablePrefix, EffectPrefix:
			if comment != kind+rest {
				t.Fatalf("Split(%q): kind %q + rest %q is not the comment", comment, kind, rest)
			}
			if rest != "" && !isSpace(rest[0]) {
				t.Fatalf("Split(%q): rest %q does not start with whitespace", comment, rest)
			}
		case "":
			if comment != "//agent:"+rest {
				t.Fatalf("Split(%q): unknown directive rest %q", comment, rest)
			}
			for _, p := range []string{OperablePrefix, EffectPrefix} {
				if comment == p || strings.HasPrefix(comment, p+" ") || strings.HasPrefix(comment, p+"\t") {
					t.Fatalf("Split(%q): known directive reported unknown", comment)
				}
			}
		default:
			t.Fatalf("Split(%q): kind %q", comment, kind)
		}
	})
}

func FuzzParseOperable(f *testing.F) {
	for _, tt := range operableTests {
		f.Add(tt.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		op, err := ParseOperable(text)
		if err != nil {
			checkError(t, err)
			if op != (Operable{}) {
				t.Fatalf("ParseOperable(%q) returned %+v with error", text, op)
			}
			return
		}
		if !isQualifiedIdent(op.Grant, 2) {
			t.Fatalf("ParseOperable(%q): grant %q is not Name or pkg.Name", text, op.Grant)
		}
		if !strings.Contains(text, "grant="+op.Grant) {
			t.Fatalf("ParseOperable(%q): grant %q not as written", text, op.Grant)
		}
	})
}

func FuzzParseHatch(f *testing.F) {
	for _, tt := range hatchTests {
		f.Add(tt.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		h, err := ParseHatch(text)
		if err != nil {
			checkError(t, err)
			if !reflect.DeepEqual(h, Hatch{}) {
				t.Fatalf("ParseHatch(%q) returned %+v with error", text, h)
			}
			return
		}
		lists := [][]string{h.Writes, h.UnboundedWrites, h.Outbound, h.Jobs, h.Webhooks}
		if strings.TrimSpace(h.Reason) == "" {
			t.Fatalf("ParseHatch(%q): empty reason", text)
		}
		anyList := false
		for _, l := range lists {
			if l != nil && len(l) == 0 {
				t.Fatalf("ParseHatch(%q): empty non-nil list", text)
			}
			seen := map[string]bool{}
			for _, s := range l {
				if s == "" || seen[s] {
					t.Fatalf("ParseHatch(%q): empty or duplicate subject %q", text, s)
				}
				seen[s] = true
			}
			anyList = anyList || len(l) > 0
		}
		if !h.None && !h.Scoped && !anyList {
			t.Fatalf("ParseHatch(%q) declares nothing: %+v", text, h)
		}
		if h.None && (h.Scoped || anyList) {
			t.Fatalf("ParseHatch(%q): none combined: %+v", text, h)
		}
	})
}
