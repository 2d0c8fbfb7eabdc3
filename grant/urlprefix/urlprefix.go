// Package urlprefix reads the constant text of outbound URLs and compares
// URL prefixes on boundaries.
//
// It is the URL logic shared by the authvet analyzer (which proves the URL,
// or URL prefix, an HTTP request is sent to) and by package grant (which
// decides whether a grant's Outbound entry covers that proved subject).
//
// A URL is accepted only when it is an absolute http or https URL that
// names its host, and only when it cannot defeat its own prefix: text with
// userinfo ("user:pass@host"), a percent-encoded dot ("%2e"), a ".." path
// segment, a backslash or an encoded slash or backslash ("%2f", "%5c") in
// its path, or a control character is refused.
//
// Comparison is by component, never by string prefix: the scheme and host
// (and port) must be equal, and the entry's path must be a whole-segment
// prefix of the subject's path, so "https://api.stripe.com" does not cover
// "https://api.stripe.com.evil.example/" and "/v1/refunds" does not cover
// "/v1/refundsX".
//
// The package imports only the standard library: it is compiled into the
// binaries of programs that import package grant.
package urlprefix

import (
	"fmt"
	"strconv"
	"strings"
)

// AliasPrefix starts an Outbound entry or subject that names an alias
// rather than a URL, as in "alias:stripe".
const AliasPrefix = "alias:"

// GRPCPrefix starts an Outbound entry or subject that names a gRPC method
// ("grpc:/billing.Billing/Refund") or a whole service
// ("grpc:/billing.Billing/"), compared on the same segment boundaries as
// a URL path.
const GRPCPrefix = "grpc:"

// CheckGRPC validates a "grpc:" entry or subject: "grpc:/" followed by a
// service name (dotted identifiers) and "/", then optionally a method name.
func CheckGRPC(entry string) error {
	rest, ok := strings.CutPrefix(entry, GRPCPrefix)
	if !ok {
		return fmt.Errorf("%q does not start with %q", entry, GRPCPrefix)
	}
	bad := fmt.Errorf("gRPC entry %q is not grpc:/package.Service/Method or grpc:/package.Service/", entry)
	svc, method, ok := strings.Cut(strings.TrimPrefix(rest, "/"), "/")
	if !strings.HasPrefix(rest, "/") || !ok || svc == "" || strings.Contains(method, "/") {
		return bad
	}
	for _, part := range strings.Split(svc, ".") {
		if !isIdent(part) {
			return bad
		}
	}
	if method != "" && !isIdent(method) {
		return bad
	}
	return nil
}

// coversGRPC reports whether a gRPC entry covers a gRPC subject: equal,
// or the entry names the subject's whole service.
func coversGRPC(entry, subject string) bool {
	if CheckGRPC(entry) != nil || CheckGRPC(subject) != nil {
		return false
	}
	return entry == subject || strings.HasSuffix(entry, "/") && strings.HasPrefix(subject, entry)
}

func isIdent(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '_' {
			return false
		}
	}
	return true
}

// parts is a URL split into the components that Read and Covers use.
type parts struct {
	scheme string // lower case: "http" or "https"
	host   string // lower case host name, with brackets for IPv6
	port   string // digits as written, or "" when absent
	path   string // as written; "" or begins with "/"
	rest   string // query and fragment as written, beginning with '?' or '#'; "" when absent
	// pathDone reports whether the path is known to end where it does
	// (always true for complete text).
	pathDone bool
}

// authority returns host[:port] as normalised.
func (p parts) authority() string {
	if p.port != "" {
		return p.host + ":" + p.port
	}
	return p.host
}

// Read reads the constant text of a URL as proved by the analyzer and
// returns the proved subject: the URL itself, or the URL prefix it fixes.
//
// When complete is true, text is the whole URL and the subject is the URL as
// written, with scheme and host lower-cased. When complete is false, text is
// only a known prefix followed by unknown runtime text; the prefix must fix
// the scheme, the whole host (and port) and a path boundary. The subject is
// then cut back to what the unknown text cannot change: the path up to its
// last "/" ("https://api.x.com/v1/refunds" + unknown proves
// "https://api.x.com/v1/"), or the whole path when a "?" or "#" has ended it
// ("https://api.x.com/v1/refunds?id=" + unknown proves
// "https://api.x.com/v1/refunds").
//
// The error, when there is one, is a short lower-case reason suitable for
// embedding in a diagnostic.
func Read(text string, complete bool) (string, error) {
	p, err := parse(text, complete)
	if err != nil {
		return "", err
	}
	base := p.scheme + "://" + p.authority()
	if complete {
		return base + p.path + p.rest, nil
	}
	if p.pathDone {
		return base + p.path, nil
	}
	// The unknown text may continue the last path segment: keep the path
	// only up to and including its last slash.
	i := strings.LastIndexByte(p.path, '/')
	return base + p.path[:i+1], nil
}

// Covers reports whether the grant entry entry, an absolute http or https
// URL prefix, covers the proved subject subject, as returned by Read.
//
// The schemes must be equal, the hosts equal ignoring case, and the ports
// equal (an explicit default port, 443 for https or 80 for http, equals no
// port). The entry's path must be a whole-segment prefix of the subject's:
// "/v1/refunds" covers "/v1/refunds", "/v1/refunds/", "/v1/refunds/re_1" and
// "/v1/refunds?x=1", but not "/v1/refundsX" or "/v1". An entry path that
// ends in "/" covers exactly the paths it prefixes ("/v1/" does not cover
// "/v1"); an empty or "/" entry path covers every path on the host. An entry
// that carries a query or fragment covers only subjects with the same path,
// query and fragment.
//
// Entries or subjects that Read refuses never cover or are never covered,
// and "alias:" values are never compared here (they match only the same
// alias, by exact string).
func Covers(entry, subject string) bool {
	if strings.HasPrefix(entry, AliasPrefix) || strings.HasPrefix(subject, AliasPrefix) {
		return false
	}
	if strings.HasPrefix(entry, GRPCPrefix) || strings.HasPrefix(subject, GRPCPrefix) {
		return coversGRPC(entry, subject)
	}
	e, err := parse(entry, true)
	if err != nil {
		return false
	}
	s, err := parse(subject, true)
	if err != nil {
		return false
	}
	if e.scheme != s.scheme || e.host != s.host {
		return false
	}
	if effectivePort(e) != effectivePort(s) {
		return false
	}
	if e.rest != "" {
		return e.path == s.path && e.rest == s.rest
	}
	switch {
	case e.path == "" || e.path == "/":
		return true
	case strings.HasSuffix(e.path, "/"):
		return strings.HasPrefix(s.path, e.path)
	default:
		return s.path == e.path || strings.HasPrefix(s.path, e.path+"/")
	}
}

// CheckEntry validates one Outbound entry of a grant: either "alias:NAME",
// where NAME is non-empty and made of ASCII letters, digits, '_', '-' and
// '.', "grpc:/package.Service/Method" or "grpc:/package.Service/", or an
// absolute http or https URL that Read accepts as complete text
// (so with no userinfo, no "%2e" and no ".." segment). The error, when
// there is one, is a short lower-case reason.
func CheckEntry(entry string) error {
	if name, ok := strings.CutPrefix(entry, AliasPrefix); ok {
		if name == "" {
			return fmt.Errorf("alias %q has an empty name", entry)
		}
		for i := 0; i < len(name); i++ {
			c := name[i]
			if !isAlnum(c) && c != '_' && c != '-' && c != '.' {
				return fmt.Errorf("alias %q: name may hold only letters, digits, '_', '-' and '.'", entry)
			}
		}
		return nil
	}
	if strings.HasPrefix(entry, GRPCPrefix) {
		return CheckGRPC(entry)
	}
	_, err := parse(entry, true)
	return err
}

// effectivePort returns the port p names, with the scheme's default
// filled in, as a number; -1 if it cannot be read.
func effectivePort(p parts) int {
	if p.port == "" {
		if p.scheme == "https" {
			return 443
		}
		return 80
	}
	n, err := strconv.Atoi(p.port)
	if err != nil {
		return -1
	}
	return n
}

// parse splits text into parts, applying every refusal. When complete is
// false, text is a known prefix of unknown runtime text.
func parse(text string, complete bool) (parts, error) {
	var p parts
	what := "URL"
	if !complete {
		what = "URL prefix"
	}
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 || c == 0x7f {
			return p, fmt.Errorf("control character in %s %q", what, text)
		}
	}
	if strings.Contains(strings.ToLower(text), "%2e") {
		return p, fmt.Errorf("encoded dot (%%2e) in %s %q", what, text)
	}

	// Scheme.
	colon := strings.IndexByte(text, ':')
	if colon < 0 || strings.ContainsAny(text[:colon], "/?#") || !validScheme(text[:colon]) {
		if !complete && !strings.HasPrefix(text, "/") && !strings.ContainsAny(text, ":/?#") {
			return p, fmt.Errorf("constant prefix %q does not fix the scheme and host", text)
		}
		return p, fmt.Errorf("relative %s %q names no host", what, text)
	}
	p.scheme = asciiLower(text[:colon])
	if p.scheme != "http" && p.scheme != "https" {
		return p, fmt.Errorf("scheme %q in %s %q is not http or https", p.scheme, what, text)
	}
	after := text[colon+1:]
	if !strings.HasPrefix(after, "//") {
		if !complete && (after == "" || after == "/") {
			return p, fmt.Errorf("constant prefix %q does not fix the host", text)
		}
		return p, fmt.Errorf("no host in %s %q", what, text)
	}
	after = after[2:]

	// Authority.
	end := strings.IndexAny(after, "/?#")
	authEnded := end >= 0
	if !authEnded {
		end = len(after)
	}
	auth := after[:end]
	after = after[end:]
	if strings.IndexByte(auth, '@') >= 0 {
		return p, fmt.Errorf("userinfo in %s %q", what, text)
	}
	if !complete && !authEnded {
		return p, fmt.Errorf("constant prefix %q does not fix the whole host; end it with \"/\"", text)
	}
	if err := p.readAuthority(auth); err != nil {
		return p, fmt.Errorf("%v in %s %q", err, what, text)
	}

	// Path, then query and fragment.
	end = strings.IndexAny(after, "?#")
	p.pathDone = complete || end >= 0
	if end < 0 {
		end = len(after)
	}
	p.path, p.rest = after[:end], after[end:]
	if strings.IndexByte(p.path, '\\') >= 0 {
		return p, fmt.Errorf("backslash in path of %s %q", what, text)
	}
	// An encoded slash or backslash ("..%2fadmin") is one segment here,
	// but a server or proxy that decodes it before routing sees a ".."
	// segment, or another path, beyond the prefix.
	if lp := strings.ToLower(p.path); strings.Contains(lp, "%2f") || strings.Contains(lp, "%5c") {
		return p, fmt.Errorf("encoded slash (%%2f or %%5c) in path of %s %q", what, text)
	}
	for seg := range strings.SplitSeq(p.path, "/") {
		if seg == ".." {
			return p, fmt.Errorf("\"..\" path segment in %s %q", what, text)
		}
	}
	return p, nil
}

// readAuthority sets p.host and p.port from auth (host[:port], no
// userinfo), refusing anything that is not a plain host name, IPv4 or
// bracketed IPv6 address, and decimal port.
func (p *parts) readAuthority(auth string) error {
	host, port := auth, ""
	hasPort := false
	if strings.HasPrefix(auth, "[") {
		rb := strings.IndexByte(auth, ']')
		if rb < 0 {
			return fmt.Errorf("unclosed IPv6 host")
		}
		host = auth[:rb+1]
		rest := auth[rb+1:]
		if rest != "" {
			if rest[0] != ':' {
				return fmt.Errorf("unexpected text after IPv6 host")
			}
			port, hasPort = rest[1:], true
		}
		inner := host[1 : len(host)-1]
		if inner == "" {
			return fmt.Errorf("empty host")
		}
		for i := 0; i < len(inner); i++ {
			if c := inner[i]; !isHex(c) && c != ':' && c != '.' {
				return fmt.Errorf("invalid host character %q", c)
			}
		}
	} else {
		if i := strings.IndexByte(auth, ':'); i >= 0 {
			host, port, hasPort = auth[:i], auth[i+1:], true
		}
		if host == "" {
			return fmt.Errorf("empty host")
		}
		for i := 0; i < len(host); i++ {
			if c := host[i]; !isAlnum(c) && c != '-' && c != '.' && c != '_' {
				return fmt.Errorf("invalid host character %q", c)
			}
		}
	}
	if hasPort {
		if port == "" {
			return fmt.Errorf("empty port")
		}
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return fmt.Errorf("invalid port %q", port)
			}
		}
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return fmt.Errorf("invalid port %q", port)
		}
	}
	p.host, p.port = asciiLower(host), port
	return nil
}

// validScheme reports whether s is an RFC 3986 scheme.
func validScheme(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// asciiLower lower-cases ASCII letters only (Unicode case folding would map
// characters such as U+017F or U+212A onto ASCII letters).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool  { return isLetter(c) || isDigit(c) }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
