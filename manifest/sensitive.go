package manifest

import (
	"go/types"
	"reflect"
	"strings"
	"unicode"
)

// Sensitivity of a tool, from the last-noun rule over the names of its
// input and output fields: a name's last word is what it is
// ("accessToken" is a token; "TitleCaseWordsWithTokenResult" is a
// result). The classes, most sensitive first.
var sensitiveNouns = []struct {
	class string
	nouns map[string]bool
	// qualified nouns count only after one of these words ("apiKey",
	// not "idempotencyKey" or "sortKey").
	qualified map[string][]string
}{
	{"secret", map[string]bool{"token": true, "secret": true, "password": true, "passwd": true, "passphrase": true, "credential": true, "credentials": true, "cookie": true, "pat": true},
		map[string][]string{"key": {"api", "private", "secret", "signing", "access", "encryption", "ssh", "deploy", "client"}}},
	{"pii", map[string]bool{"email": true, "phone": true, "ssn": true, "birthdate": true, "dob": true, "iban": true, "cvv": true, "pan": true},
		map[string][]string{"number": {"card", "phone", "account", "passport", "license"}, "address": {"home", "street", "postal", "mailing", "billing", "shipping", "email"}}},
}

// sensitivity is the most sensitive class among the field names of the
// struct types in sig's parameters and results, or "".
func sensitivity(sig *types.Signature, inModule func(*types.Package) bool) string {
	best := len(sensitiveNouns)
	seen := map[types.Type]bool{}
	var visit func(t types.Type, depth int)
	visit = func(t types.Type, depth int) {
		if depth > 3 || seen[t] {
			return
		}
		seen[t] = true
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			visit(u.Elem(), depth)
		case *types.Slice:
			visit(u.Elem(), depth)
		case *types.Map:
			visit(u.Elem(), depth)
		case *types.Signature:
			// A constructor's handler result: what the handler takes and gives.
			for _, tup := range []*types.Tuple{u.Params(), u.Results()} {
				for i := 0; i < tup.Len(); i++ {
					visit(tup.At(i).Type(), depth+1)
				}
			}
		case *types.Struct:
			if n, ok := types.Unalias(t).(*types.Named); ok && (n.Obj().Pkg() == nil || !inModule(n.Obj().Pkg())) {
				return // a library's type (the SDK's request, an *http.Client): not the tool's own fields
			}
			for i := 0; i < u.NumFields(); i++ {
				f := u.Field(i)
				name := f.Name()
				if tag := reflect.StructTag(u.Tag(i)).Get("json"); tag != "" && tag != "-" {
					if n, _, _ := strings.Cut(tag, ","); n != "" {
						name = n
					}
				}
				if c := classOf(name); c < best {
					best = c
				}
				visit(f.Type(), depth+1)
			}
		}
	}
	for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := 0; i < tup.Len(); i++ {
			visit(tup.At(i).Type(), 0)
		}
	}
	if best == len(sensitiveNouns) {
		return ""
	}
	return sensitiveNouns[best].class
}

// classOf returns the index of the class a field name's last noun falls
// in, or len(sensitiveNouns).
func classOf(name string) int {
	words := splitWords(name)
	if len(words) == 0 {
		return len(sensitiveNouns)
	}
	last := words[len(words)-1]
	for i, c := range sensitiveNouns {
		if c.nouns[last] {
			return i
		}
		if quals, ok := c.qualified[last]; ok && len(words) > 1 {
			for _, q := range quals {
				if words[len(words)-2] == q {
					return i
				}
			}
		}
	}
	return len(sensitiveNouns)
}

// splitWords splits camelCase, PascalCase, snake_case and kebab-case
// into lower-case words ("accessToken" → access token, "APIKey" → api
// key).
func splitWords(s string) []string {
	var words []string
	var cur []rune
	rs := []rune(s)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = nil
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
			continue
		case unicode.IsUpper(r):
			// A new word at an upper case letter after a lower one, or
			// at the last capital of an acronym (APIKey: API, Key).
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
				(unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]))) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}
