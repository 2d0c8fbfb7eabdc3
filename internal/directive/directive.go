package directive

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/authvet/authvet/grant"
)

// The two directive prefixes, as they appear at the start of a comment.
const (
	OperablePrefix = "//agent:operable"
	EffectPrefix   = "//agent:effect"
)

// familyPrefix marks every comment authvet owns, so that a misspelt
// directive is reported instead of silently ignored.
const familyPrefix = "//agent:"

// Operable is a parsed //agent:operable directive.
type Operable struct {
	Grant string // as written: "Name" or "pkg.Name"
}

// Hatch is a parsed //agent:effect directive. Lists hold subjects in the
// order written, decoded (a string literal's value, an identifier's text);
// an absent key leaves its list nil.
type Hatch struct {
	None, Scoped bool

	Writes, UnboundedWrites, Outbound, Jobs, Webhooks []string

	Reason string
}

// Split reports whether the raw comment text (as in ast.Comment.Text,
// starting with "//") is an authvet directive. For //agent:operable and
// //agent:effect it returns that prefix as kind and the text after it as
// rest (untrimmed). Any other "//agent:" comment returns ok=true with kind ""
// and rest the text after "//agent:", so the caller can report an unknown
// directive by name. Following the Go directive convention, "// agent:..."
// (with a space) is not a directive.
func Split(comment string) (kind, rest string, ok bool) {
	if !strings.HasPrefix(comment, familyPrefix) {
		return "", "", false
	}
	for _, p := range [...]string{OperablePrefix, EffectPrefix} {
		if r, found := strings.CutPrefix(comment, p); found && (r == "" || isSpace(r[0])) {
			return p, r, true
		}
	}
	return "", comment[len(familyPrefix):], true
}

// operableKeys is the list of keys //agent:operable accepts, for messages.
const operableKeys = "grant"

// ParseOperable parses the text after the "//agent:operable" prefix.
func ParseOperable(text string) (Operable, error) {
	var op Operable
	seen := false
	i := 0
	for {
		i = skipSpace(text, i)
		if i == len(text) || strings.HasPrefix(text[i:], "//") {
			break // end of text, or a trailing "// comment" (as //nolint allows)
		}
		key, j := scanIdent(text, i)
		if key == "" {
			return Operable{}, fmt.Errorf("unexpected %q in //agent:operable; expected grant=NAME", snippet(text[i:]))
		}
		if j == len(text) || text[j] != '=' {
			if key == "grant" {
				return Operable{}, errors.New("//agent:operable needs grant=NAME")
			}
			return Operable{}, fmt.Errorf("unexpected %q in //agent:operable; expected grant=NAME", snippet(text[i:]))
		}
		if key != "grant" {
			return Operable{}, fmt.Errorf("unknown key %q in //agent:operable; valid keys: %s", truncate(key), operableKeys)
		}
		if seen {
			return Operable{}, errors.New("key grant repeated in //agent:operable; a handler names exactly one grant")
		}
		seen = true
		j++ // '='
		k := j
		for k < len(text) && !isSpace(text[k]) {
			k++
		}
		val := text[j:k]
		if val == "" {
			return Operable{}, errors.New("empty value for grant in //agent:operable; expected grant=NAME")
		}
		if !isQualifiedIdent(val, 2) {
			return Operable{}, fmt.Errorf("malformed grant %q in //agent:operable; expected an identifier or package.Identifier", snippet(val))
		}
		op.Grant = val
		i = k
	}
	if !seen {
		return Operable{}, errors.New("//agent:operable needs grant=NAME")
	}
	return op, nil
}

// hatchKeys lists the keys //agent:effect accepts, for messages: none,
// scoped, the key of every kind grant.Kinds gives one, and reason.
var hatchKeys = func() string {
	keys := []string{"none", "scoped"}
	for _, k := range grant.Kinds {
		switch {
		case k.Hatch == "":
		case k.Name == grant.KindOutbound:
			keys = append(keys, k.Hatch+`("...")`)
		default:
			keys = append(keys, k.Hatch+"(...)")
		}
	}
	return strings.Join(append(keys, `reason="..."`), ", ")
}()

// hatchList is the list of h that the key declares, by the kind whose
// key it is in grant.Kinds; nil for any other key.
func hatchList(h *Hatch, key string) *[]string {
	for _, k := range grant.Kinds {
		if k.Hatch != key || key == "" {
			continue
		}
		switch k.Name {
		case grant.KindWrite:
			return &h.Writes
		case grant.KindUnboundedWrite:
			return &h.UnboundedWrites
		case grant.KindOutbound:
			return &h.Outbound
		case grant.KindJob:
			return &h.Jobs
		case grant.KindWebhook:
			return &h.Webhooks
		}
	}
	return nil
}

// ParseHatch parses the text after "//agent:effect": whitespace-separated
// items, each none, scoped, KEY(subject, ...) or reason="...".
func ParseHatch(text string) (Hatch, error) {
	var h Hatch
	seen := make(map[string]bool, 8)
	var order []string // keys in the order written, for the none conflict message
	hasReason := false
	i := 0
	for {
		i = skipSpace(text, i)
		if i == len(text) || strings.HasPrefix(text[i:], "//") {
			break // end of text, or a trailing "// comment" (as //nolint allows)
		}
		key, j := scanIdent(text, i)
		if key == "" {
			return Hatch{}, fmt.Errorf("unexpected %q in //agent:effect; valid keys: %s", snippet(text[i:]), hatchKeys)
		}
		var list *[]string
		switch key {
		case "none", "scoped":
			if j < len(text) && !isSpace(text[j]) {
				if text[j] == '(' || text[j] == '=' {
					return Hatch{}, fmt.Errorf("%s takes no arguments in //agent:effect; write it alone", key)
				}
				return Hatch{}, fmt.Errorf("unexpected %q in //agent:effect; valid keys: %s", snippet(text[i:]), hatchKeys)
			}
			if seen[key] {
				return Hatch{}, fmt.Errorf("key %s repeated in //agent:effect", key)
			}
			seen[key] = true
			order = append(order, key)
			if key == "none" {
				h.None = true
			} else {
				h.Scoped = true
			}
			i = j
			continue
		case "reason":
			if j == len(text) || text[j] != '=' {
				return Hatch{}, errors.New(`//agent:effect needs a non-empty reason="..."`)
			}
			if seen[key] {
				return Hatch{}, errors.New("key reason repeated in //agent:effect; give one reason")
			}
			seen[key] = true
			j++
			if j == len(text) || (text[j] != '"' && text[j] != '`') {
				return Hatch{}, errors.New(`//agent:effect needs a non-empty reason="..." (a quoted Go string)`)
			}
			s, k, err := scanString(text, j)
			if err != nil {
				return Hatch{}, fmt.Errorf("reason in //agent:effect: %v", err)
			}
			if k < len(text) && !isSpace(text[k]) {
				return Hatch{}, fmt.Errorf("unexpected %q after reason in //agent:effect; separate items with spaces", snippet(text[k:]))
			}
			h.Reason = s
			hasReason = true
			i = k
			continue
		default:
			if list = hatchList(&h, key); list == nil {
				return Hatch{}, fmt.Errorf("unknown key %q in //agent:effect; valid keys: %s", truncate(key), hatchKeys)
			}
		}
		if j == len(text) || text[j] != '(' {
			return Hatch{}, fmt.Errorf("%s needs a parenthesised list of subjects in //agent:effect: %s(...)", key, key)
		}
		if seen[key] {
			return Hatch{}, fmt.Errorf("key %s repeated in //agent:effect; list all subjects in one %s(...)", key, key)
		}
		seen[key] = true
		order = append(order, key)
		subjects, k, err := scanArgs(text, j, key)
		if err != nil {
			return Hatch{}, err
		}
		if k < len(text) && !isSpace(text[k]) {
			return Hatch{}, fmt.Errorf("unexpected %q after %s(...) in //agent:effect; separate items with spaces", snippet(text[k:]), key)
		}
		*list = subjects
		i = k
	}
	if h.None {
		for _, k := range order {
			if k != "none" {
				return Hatch{}, fmt.Errorf("none replaces the statement's analysis; it cannot be combined with %s", display(k))
			}
		}
	}
	if !h.None && !h.Scoped && len(order) == 0 {
		return Hatch{}, fmt.Errorf("//agent:effect declares nothing; give none, scoped, or at least one effect; valid keys: %s", hatchKeys)
	}
	if !hasReason || strings.TrimSpace(h.Reason) == "" {
		return Hatch{}, errors.New(`//agent:effect needs a non-empty reason="..."`)
	}
	return h, nil
}

// display renders a key as users write it, for messages.
func display(key string) string {
	switch key {
	case "none", "scoped":
		return key
	case "outbound":
		return `outbound("...")`
	}
	return key + "(...)"
}

// scanArgs parses the parenthesised subject list of key starting at the '('
// at text[i], returning the decoded subjects and the index after ')'.
func scanArgs(text string, i int, key string) ([]string, int, error) {
	unterminated := fmt.Errorf("unterminated %s( in //agent:effect; close it with )", key)
	var subjects []string
	dup := make(map[string]bool)
	i++ // '('
	for {
		i = skipSpace(text, i)
		if i == len(text) {
			return nil, 0, unterminated
		}
		if text[i] == ')' || text[i] == ',' {
			if len(subjects) == 0 && text[i] == ')' {
				return nil, 0, fmt.Errorf("empty %s() in //agent:effect; name at least one subject or drop the key", key)
			}
			return nil, 0, fmt.Errorf("empty subject in %s(...) in //agent:effect", key)
		}
		var subj string
		if c := text[i]; c == '"' || c == '`' {
			s, k, err := scanString(text, i)
			if err != nil {
				return nil, 0, fmt.Errorf("%s subject in //agent:effect: %v", key, err)
			}
			if s == "" {
				return nil, 0, fmt.Errorf(`empty subject "" in %s(...) in //agent:effect`, key)
			}
			subj, i = s, k
		} else {
			k := i
			for k < len(text) && !isSpace(text[k]) && text[k] != ',' && text[k] != ')' {
				k++
			}
			tok := text[i:k]
			if !isQualifiedIdent(tok, -1) {
				return nil, 0, fmt.Errorf("%s subject %q in //agent:effect is neither an identifier nor a string literal", key, snippet(tok))
			}
			if key == "outbound" {
				return nil, 0, fmt.Errorf(`outbound subjects must be string literals: outbound(%q)`, snippet(tok))
			}
			subj, i = tok, k
		}
		if dup[subj] {
			return nil, 0, fmt.Errorf("duplicate subject %q in %s(...) in //agent:effect", truncate(subj), key)
		}
		dup[subj] = true
		subjects = append(subjects, subj)
		i = skipSpace(text, i)
		if i == len(text) {
			return nil, 0, unterminated
		}
		switch text[i] {
		case ')':
			return subjects, i + 1, nil
		case ',':
			i++
		default:
			return nil, 0, fmt.Errorf("unexpected %q in %s(...) in //agent:effect; separate subjects with commas", snippet(text[i:]), key)
		}
	}
}

// scanString reads the Go string literal (interpreted or raw) starting at
// text[i] and returns its value and the index after its closing quote.
func scanString(text string, i int) (string, int, error) {
	q := text[i]
	k := i + 1
	for ; k < len(text); k++ {
		c := text[k]
		if c == q {
			break
		}
		if q == '"' {
			if c == '\n' {
				return "", 0, errors.New("unterminated string literal")
			}
			if c == '\\' {
				k++ // skip the escaped byte; Unquote validates the escape
			}
		}
	}
	if k >= len(text) {
		return "", 0, errors.New("unterminated string literal")
	}
	s, err := strconv.Unquote(text[i : k+1])
	if err != nil {
		return "", 0, fmt.Errorf("invalid string literal %q", truncate(text[i:k+1]))
	}
	return s, k + 1, nil
}

// scanIdent returns the run of identifier characters starting at text[i]
// (letters, digits, '_'; digits included so "1x" is reported whole) and the
// index after it.
func scanIdent(text string, i int) (string, int) {
	k := i
	for k < len(text) {
		r, n := utf8.DecodeRuneInString(text[k:])
		if !isIdentRune(r) {
			break
		}
		k += n
	}
	return text[i:k], k
}

// isQualifiedIdent reports whether s is ident(.ident)* with at most
// maxParts parts (negative: unlimited). The blank identifier is not a name.
func isQualifiedIdent(s string, maxParts int) bool {
	parts := 0
	for part := range strings.SplitSeq(s, ".") {
		parts++
		if maxParts >= 0 && parts > maxParts {
			return false
		}
		if part == "" || part == "_" {
			return false
		}
		for k, r := range part {
			if r == utf8.RuneError || !isIdentRune(r) || (k == 0 && unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}

func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

func skipSpace(text string, i int) int {
	for i < len(text) && isSpace(text[i]) {
		i++
	}
	return i
}

// snippet cuts s at its first whitespace and at a readable length, so a
// message quotes the offending token rather than the rest of the line.
func snippet(s string) string {
	end := 0
	for end < len(s) && !isSpace(s[end]) {
		end++
	}
	if end == 0 {
		end = min(len(s), 1)
	}
	return truncate(s[:end])
}

// truncate shortens s to a readable length on a rune boundary.
func truncate(s string) string {
	const limit = 40
	if len(s) <= limit {
		return s
	}
	end := limit
	for end > limit-utf8.UTFMax && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "..."
}
