package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/authvet/authvet/grant"
	"github.com/authvet/authvet/grant/urlprefix"
	"github.com/authvet/authvet/policy"
)

// FileName is the name of the configuration file looked up by Find.
const FileName = "authvet.yaml"

// Effect kinds a configured sink may have.
const (
	EffectJob      = "job"
	EffectWebhook  = "webhook"
	EffectWrite    = "write"
	EffectOutbound = "outbound"
	// EffectNone declares that a function has no effect in authvet's
	// vocabulary: a model like any other sink, so its body is not
	// analysed.
	EffectNone = "none"
)

// sinkEffects are the effects a sink may have: the kinds grant.Kinds
// marks configurable, and none.
func sinkEffects() []string {
	var out []string
	for _, k := range grant.Kinds {
		if k.Sink {
			out = append(out, k.Name)
		}
	}
	return append(out, EffectNone)
}

// Config is a parsed authvet.yaml.
type Config struct {
	TenantColumns    []string // default []string{"tenant_id"} when the key is absent; lower-cased
	Sinks            []Sink
	Clients          []Client
	BenignInterfaces []string       // fully qualified: "example.com/shop/obs.Logger"
	Policy           *policy.Policy // the organisation policy, nil when absent
	Hash             string         // hex sha256 of the file's bytes ("" for the default config)
	Path             string         // file it came from ("" for default)
}

// Sink is an in-house effect API.
type Sink struct {
	Func       string // "example.com/shop/queue.Enqueue" or "example.com/shop/hooks.(*Bus).Dispatch" or "example.com/shop/hooks.Bus.Dispatch"
	Effect     string // job | webhook | write | outbound | none
	SubjectArg int    // 0-based, receiver not counted; -1 when Subject is set (or the effect is none)
	Subject    string // a constant subject instead of SubjectArg
	Method     string // outbound only: the HTTP method it sends ("" when not declared)
	Safe       bool   // outbound only: it reads, whatever its method
	Line       int    // line in the file, for error messages
	// parsed parts of Func:
	PkgPath, Recv, Name string // Recv is "" for functions, "Bus" for methods (pointer or not)
	PtrRecv             bool
}

// Client is an SDK whose base URL is runtime configuration: every
// outbound call made inside the packages its patterns match, whose URL
// the analysis cannot read, goes under Outbound (provenance declared).
type Client struct {
	Packages []string // "example.com/sdk" or "example.com/sdk/..."
	Outbound string   // a URL prefix, "https://api.stripe.com/"
	Line     int
}

// Matches reports whether the package path is one of c's packages.
func (c *Client) Matches(pkgPath string) bool { return policy.MatchPackage(c.Packages, pkgPath) }

// ClientFor returns the client whose packages include pkgPath, or nil.
func (c *Config) ClientFor(pkgPath string) *Client {
	if c == nil {
		return nil
	}
	for i := range c.Clients {
		if c.Clients[i].Matches(pkgPath) {
			return &c.Clients[i]
		}
	}
	return nil
}

// Error is a configuration error at a line of a file.
type Error struct {
	Path string
	Line int
	Msg  string
	err  error // underlying error, if any (for errors.Is)
}

// Error formats e as "path:line: msg", omitting the line when it is 0.
func (e *Error) Error() string {
	p := e.Path
	if p == "" {
		p = FileName
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p, e.Line, e.Msg)
	}
	return p + ": " + e.Msg
}

// Unwrap returns the underlying error (for example from reading the file).
func (e *Error) Unwrap() error { return e.err }

var (
	validTopKeys    = []string{"tenant_columns", "sinks", "clients", "benign_interfaces", "policy"}
	validSinkKeys   = []string{"func", "effect", "subject_arg", "subject", "method", "safe"}
	validClientKeys = []string{"packages", "outbound"}
	validEffects    = sinkEffects()
	methodRE        = regexp.MustCompile(`^[A-Z]+$`)
	columnRE        = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	versionRE       = regexp.MustCompile(`^v[0-9]+$`)
	yamlLineRE      = regexp.MustCompile(`^yaml: line ([0-9]+): (.*)$`)
)

// Default returns the configuration used when there is no authvet.yaml.
func Default() *Config {
	return &Config{TenantColumns: []string{"tenant_id"}}
}

// Load reads and parses the file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		return nil, &Error{Path: path, Msg: msg, err: err}
	}
	return Parse(path, data)
}

// Find looks for authvet.yaml in dir and its parents up to and including the
// directory containing go.mod (it stops there, and at the filesystem root).
// It returns the file's path, or "" if there is none.
func Find(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	dir = filepath.Clean(dir)
	for {
		p := filepath.Join(dir, FileName)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
		if fi, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !fi.IsDir() {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// parser carries the file name for errors.
type parser struct {
	path string
}

func (p *parser) errorf(line int, format string, args ...any) *Error {
	return &Error{Path: p.path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Parse parses data read from path. Errors are *Error.
func Parse(path string, data []byte) (cfg *Config, err error) {
	p := &parser{path: path}
	defer func() {
		if r := recover(); r != nil {
			cfg, err = nil, p.errorf(0, "cannot parse: %v", r)
		}
	}()

	sum := sha256.Sum256(data)
	cfg = Default()
	cfg.Hash = hex.EncodeToString(sum[:])
	cfg.Path = path

	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return cfg, nil // empty file (or only comments)
		}
		return nil, p.yamlError(err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == io.EOF:
	case err != nil:
		return nil, p.yamlError(err)
	default:
		return nil, p.errorf(extra.Line, "only one YAML document is allowed")
	}

	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return cfg, nil
		}
		root = root.Content[0]
	}
	root = deref(root)
	if isNull(root) {
		return cfg, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, p.errorf(root.Line, "expected a mapping with keys %s", strings.Join(validTopKeys, ", "))
	}
	if err := p.top(cfg, root); err != nil {
		return nil, err
	}
	return cfg, nil
}

// yamlError converts a yaml.v3 error into an *Error, moving the line number
// out of the message.
func (p *parser) yamlError(err error) *Error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{Path: p.path, Line: line, Msg: m[2], err: err}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return &Error{Path: p.path, Msg: msg, err: err}
}

// deref follows aliases.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func isString(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str"
}

// entries walks a mapping node, checking that keys are known scalars that
// occur once, and calls f for each key/value pair.
func (p *parser) entries(m *yaml.Node, where string, valid []string, f func(key string, k, v *yaml.Node) error) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), deref(m.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return p.errorf(k.Line, "%sexpected a key, one of %s", where, strings.Join(valid, ", "))
		}
		name := k.Value
		known := false
		for _, s := range valid {
			if s == name {
				known = true
			}
		}
		if !known {
			return p.errorf(k.Line, "unknown key %q%s (valid keys: %s)", name, whereSuffix(where), strings.Join(valid, ", "))
		}
		if first, ok := seen[name]; ok {
			return p.errorf(k.Line, "duplicate key %q%s (first at line %d)", name, whereSuffix(where), first)
		}
		seen[name] = k.Line
		if err := f(name, k, v); err != nil {
			return err
		}
	}
	return nil
}

// whereSuffix turns a "sinks: " prefix into an " in sinks" suffix.
func whereSuffix(where string) string {
	where = strings.TrimSuffix(where, ": ")
	if where == "" {
		return ""
	}
	return " in " + where
}

func (p *parser) top(cfg *Config, root *yaml.Node) error {
	return p.entries(root, "", validTopKeys, func(key string, k, v *yaml.Node) error {
		switch key {
		case "tenant_columns":
			cols, err := p.tenantColumns(v)
			if err != nil {
				return err
			}
			cfg.TenantColumns = cols
		case "sinks":
			sinks, err := p.sinks(v)
			if err != nil {
				return err
			}
			cfg.Sinks = sinks
		case "clients":
			clients, err := p.clients(v)
			if err != nil {
				return err
			}
			cfg.Clients = clients
		case "benign_interfaces":
			b, err := p.benign(v)
			if err != nil {
				return err
			}
			cfg.BenignInterfaces = b
		case "policy":
			pol, err := p.policy(k.Line, v)
			if err != nil {
				return err
			}
			cfg.Policy = pol
		}
		return nil
	})
}

func (p *parser) tenantColumns(v *yaml.Node) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.errorf(v.Line, "tenant_columns: expected a list of column names")
	}
	if len(v.Content) == 0 {
		return nil, p.errorf(v.Line, "tenant_columns: the list is empty; remove the key to use the default [tenant_id]")
	}
	var cols []string
	seen := map[string]bool{}
	for _, e := range v.Content {
		e = deref(e)
		if !isString(e) || !columnRE.MatchString(e.Value) {
			return nil, p.errorf(e.Line, "tenant_columns: %s is not a column name (want an identifier such as tenant_id)", describe(e))
		}
		c := strings.ToLower(e.Value)
		if !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
	}
	return cols, nil
}

func (p *parser) sinks(v *yaml.Node) ([]Sink, error) {
	if isNull(v) {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, p.errorf(v.Line, "sinks: expected a list of sinks (each with func, effect, and subject_arg or subject)")
	}
	var sinks []Sink
	firstLine := map[string]int{}
	for _, e := range v.Content {
		e = deref(e)
		if e.Kind != yaml.MappingNode {
			return nil, p.errorf(e.Line, "sinks: expected a mapping with keys %s", strings.Join(validSinkKeys, ", "))
		}
		s := Sink{Line: e.Line, SubjectArg: -1}
		hasSubject, hasMethod, hasSafe := false, false, false
		err := p.entries(e, "sinks: ", validSinkKeys, func(key string, k, val *yaml.Node) error {
			switch key {
			case "func":
				if !isString(val) || val.Value == "" {
					return p.errorf(val.Line, "sinks: func: expected a qualified function name such as example.com/shop/queue.Enqueue, got %s", describe(val))
				}
				pkg, recv, name, ptr, err := parseFunc(val.Value)
				if err != nil {
					return p.errorf(val.Line, "sinks: func %q: %v", val.Value, err)
				}
				s.Func, s.PkgPath, s.Recv, s.Name, s.PtrRecv = val.Value, pkg, recv, name, ptr
			case "effect":
				if !isString(val) || !contains(validEffects, val.Value) {
					return p.errorf(val.Line, "sinks: effect %s is not one of %s", describe(val), strings.Join(validEffects, ", "))
				}
				s.Effect = val.Value
			case "subject_arg":
				var n int
				if val.Kind != yaml.ScalarNode || val.ShortTag() != "!!int" || val.Decode(&n) != nil || n < 0 {
					return p.errorf(val.Line, "sinks: subject_arg: expected an argument index (an integer >= 0, receiver not counted), got %s", describe(val))
				}
				s.SubjectArg = n
			case "subject":
				if !isString(val) || strings.TrimSpace(val.Value) == "" {
					return p.errorf(val.Line, "sinks: subject: expected a constant subject (a table, URL, job kind or topic), got %s", describe(val))
				}
				s.Subject, hasSubject = val.Value, true
			case "method":
				if !isString(val) || !methodRE.MatchString(val.Value) {
					return p.errorf(val.Line, "sinks: method: expected an HTTP method in capitals such as POST, got %s", describe(val))
				}
				s.Method, hasMethod = val.Value, true
			case "safe":
				if val.Kind != yaml.ScalarNode || val.ShortTag() != "!!bool" || val.Decode(&s.Safe) != nil {
					return p.errorf(val.Line, "sinks: safe: expected true or false, got %s", describe(val))
				}
				hasSafe = true
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if s.Func == "" {
			return nil, p.errorf(e.Line, "sinks: missing required key %q", "func")
		}
		if s.Effect == "" {
			return nil, p.errorf(e.Line, "sinks: missing required key %q", "effect")
		}
		switch {
		case s.Effect == EffectNone && (s.SubjectArg >= 0 || hasSubject):
			return nil, p.errorf(e.Line, "sinks: %s: effect none takes no subject_arg or subject", s.Func)
		case s.Effect != EffectNone && s.SubjectArg >= 0 && hasSubject:
			return nil, p.errorf(e.Line, "sinks: %s: give subject_arg or subject, not both", s.Func)
		case s.Effect != EffectNone && s.SubjectArg < 0 && !hasSubject:
			return nil, p.errorf(e.Line, "sinks: missing required key %q (or a constant %q)", "subject_arg", "subject")
		case (hasMethod || hasSafe) && s.Effect != EffectOutbound:
			return nil, p.errorf(e.Line, "sinks: %s: method and safe apply to outbound sinks only", s.Func)
		}
		if hasSubject && s.Effect == EffectOutbound {
			if err := urlprefix.CheckEntry(s.Subject); err != nil { // a URL, "alias:NAME" or "grpc:/pkg.Service/Method"
				return nil, p.errorf(e.Line, "sinks: %s: subject %q: %v", s.Func, s.Subject, err)
			}
		}
		key := s.key()
		if first, ok := firstLine[key]; ok {
			return nil, p.errorf(e.Line, "sinks: duplicate sink for %s (first at line %d)", s.Func, first)
		}
		firstLine[key] = e.Line
		sinks = append(sinks, s)
	}
	return sinks, nil
}

func (p *parser) clients(v *yaml.Node) ([]Client, error) {
	if isNull(v) {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, p.errorf(v.Line, "clients: expected a list of clients (each with packages and outbound)")
	}
	var out []Client
	for _, e := range v.Content {
		e = deref(e)
		if e.Kind != yaml.MappingNode {
			return nil, p.errorf(e.Line, "clients: expected a mapping with keys packages, outbound")
		}
		c := Client{Line: e.Line}
		err := p.entries(e, "clients: ", validClientKeys, func(key string, k, val *yaml.Node) error {
			switch key {
			case "packages":
				pkgs, err := p.packagePatterns(val, "clients: packages")
				if err != nil {
					return err
				}
				c.Packages = pkgs
			case "outbound":
				if !isString(val) {
					return p.errorf(val.Line, "clients: outbound: expected a URL prefix such as https://api.stripe.com/, got %s", describe(val))
				}
				prefix, err := urlprefix.Read(val.Value, true)
				if err != nil {
					return p.errorf(val.Line, "clients: outbound %q: %v", val.Value, err)
				}
				c.Outbound = prefix
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(c.Packages) == 0 {
			return nil, p.errorf(e.Line, "clients: missing required key %q", "packages")
		}
		if c.Outbound == "" {
			return nil, p.errorf(e.Line, "clients: missing required key %q", "outbound")
		}
		out = append(out, c)
	}
	return out, nil
}

// packagePatterns reads a non-empty list of package paths or patterns
// ending in "/...".
func (p *parser) packagePatterns(val *yaml.Node, where string) ([]string, error) {
	if val.Kind != yaml.SequenceNode || len(val.Content) == 0 {
		return nil, p.errorf(val.Line, "%s: expected a list of package paths or patterns ending in /...", where)
	}
	var out []string
	for _, pe := range val.Content {
		pe = deref(pe)
		if !isString(pe) {
			return nil, p.errorf(pe.Line, "%s: %s is not a package path", where, describe(pe))
		}
		base := strings.TrimSuffix(pe.Value, "/...")
		if err := checkPkgPath(base); err != nil || strings.Contains(base, "...") {
			if err == nil {
				err = errors.New(`"..." is allowed only as a final "/..."`)
			}
			return nil, p.errorf(pe.Line, "%s: %q: %v", where, pe.Value, err)
		}
		out = append(out, pe.Value)
	}
	return out, nil
}

func (p *parser) benign(v *yaml.Node) ([]string, error) {
	if isNull(v) {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, p.errorf(v.Line, "benign_interfaces: expected a list of qualified interface names such as example.com/shop/obs.Logger")
	}
	var out []string
	seen := map[string]bool{}
	for _, e := range v.Content {
		e = deref(e)
		if !isString(e) {
			return nil, p.errorf(e.Line, "benign_interfaces: %s is not a qualified interface name (want pkgpath.Name)", describe(e))
		}
		if err := checkQualifiedType(e.Value); err != nil {
			return nil, p.errorf(e.Line, "benign_interfaces: %q: %v", e.Value, err)
		}
		if !seen[e.Value] {
			seen[e.Value] = true
			out = append(out, e.Value)
		}
	}
	return out, nil
}

// describe renders a node for an error message.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if isNull(n) {
			return "an empty value"
		}
		return strconv.Quote(n.Value)
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	return "a value"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func checkPkgPath(pkg string) error {
	switch {
	case pkg == "":
		return errors.New("missing package path")
	case strings.ContainsFunc(pkg, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }):
		return errors.New("package path contains a space")
	case strings.HasPrefix(pkg, "/") || strings.HasSuffix(pkg, "/") || strings.Contains(pkg, "//"):
		return errors.New("malformed package path")
	}
	return nil
}

// parseFunc splits a qualified function or method name.
func parseFunc(s string) (pkg, recv, name string, ptr bool, err error) {
	const want = "want pkgpath.Name, pkgpath.(*Recv).Name or pkgpath.Recv.Name"
	dir, last := "", s
	if i := strings.LastIndex(s, "/"); i >= 0 {
		dir, last = s[:i+1], s[i+1:]
	}
	if i := strings.Index(last, ".(*"); i >= 0 {
		rest := last[i+3:]
		j := strings.Index(rest, ").")
		if j < 0 {
			return "", "", "", false, errors.New(want)
		}
		pkg, recv, name, ptr = dir+last[:i], rest[:j], rest[j+2:], true
	} else {
		parts := strings.Split(last, ".")
		n := len(parts)
		switch {
		case n < 2:
			return "", "", "", false, errors.New(want)
		case n == 2 || versionRE.MatchString(parts[n-2]):
			pkg, name = dir+strings.Join(parts[:n-1], "."), parts[n-1]
		default:
			pkg, recv, name = dir+strings.Join(parts[:n-2], "."), parts[n-2], parts[n-1]
		}
	}
	if err := checkPkgPath(pkg); err != nil {
		return "", "", "", false, fmt.Errorf("%v; %s", err, want)
	}
	if (ptr || recv != "") && !token.IsIdentifier(recv) {
		return "", "", "", false, fmt.Errorf("receiver %q is not a Go identifier; %s", recv, want)
	}
	if !token.IsIdentifier(name) {
		return "", "", "", false, fmt.Errorf("name %q is not a Go identifier; %s", name, want)
	}
	return pkg, recv, name, ptr, nil
}

// checkQualifiedType validates "pkgpath.Name".
func checkQualifiedType(s string) error {
	const want = "want pkgpath.Name, e.g. example.com/shop/obs.Logger"
	i := strings.LastIndex(s, ".")
	if i < 0 || i < strings.LastIndex(s, "/") {
		return errors.New(want)
	}
	if err := checkPkgPath(s[:i]); err != nil {
		return fmt.Errorf("%v; %s", err, want)
	}
	if !token.IsIdentifier(s[i+1:]) {
		return fmt.Errorf("name %q is not a Go identifier; %s", s[i+1:], want)
	}
	return nil
}

// qualify joins a function or method name into the form compared by
// SinkFor: "pkg.Name" or "pkg.Recv.Name".
func qualify(pkgPath, recv, name string) string {
	if recv == "" {
		return pkgPath + "." + name
	}
	return pkgPath + "." + recv + "." + name
}

func (s *Sink) key() string { return qualify(s.PkgPath, s.Recv, s.Name) }

// Matches reports whether s names the function pkgPath.name (recv == "") or
// the method recv.name of package pkgPath. Receiver pointer-ness is ignored.
func (s *Sink) Matches(pkgPath, recv, name string) bool {
	return s.Name == name && s.key() == qualify(pkgPath, strings.TrimPrefix(recv, "*"), name)
}

// SinkFor returns the configured sink for the function pkgPath.name
// (recv == "") or the method recv.name, or nil. Receiver pointer-ness is
// ignored.
func (c *Config) SinkFor(pkgPath, recv, name string) *Sink {
	if c == nil {
		return nil
	}
	for i := range c.Sinks {
		if c.Sinks[i].Matches(pkgPath, recv, name) {
			return &c.Sinks[i]
		}
	}
	return nil
}

// IsBenign reports whether the interface with the given qualified name
// ("example.com/shop/obs.Logger") is on the configured benign list. The
// built-in stdlib list is the analyzer's business, not this package's.
func (c *Config) IsBenign(qualifiedName string) bool {
	if c == nil {
		return false
	}
	return contains(c.BenignInterfaces, qualifiedName)
}

// IsTenantColumn reports, case-insensitively, whether col is a tenant
// column. A nil Config behaves as Default().
func (c *Config) IsTenantColumn(col string) bool {
	cols := Default().TenantColumns
	if c != nil {
		cols = c.TenantColumns
	}
	for _, t := range cols {
		if strings.EqualFold(t, col) {
			return true
		}
	}
	return false
}
