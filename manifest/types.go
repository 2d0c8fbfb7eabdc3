package manifest

// SchemaVersion is the manifest's format version.
const SchemaVersion = 1

// Manifest is the JSON document of SPEC §9. Field order is key order.
type Manifest struct {
	SchemaVersion       int          `json:"schema_version"`
	Module              string       `json:"module"`
	Provenance          string       `json:"provenance"`
	Actions             []Action     `json:"actions"`
	Grants              []GrantEntry `json:"grants"`
	UngovernedTools     []Ungoverned `json:"ungoverned_tools"`
	AnnotationConflicts []Conflict   `json:"annotation_conflicts"`
	Excluded            []Excluded   `json:"excluded"`
}

// Action is one //agent:operable handler.
type Action struct {
	Action             string         `json:"action"`
	Function           string         `json:"function"`
	Location           string         `json:"location"`
	Exposure           string         `json:"exposure"`
	Provenance         string         `json:"provenance"`
	Routes             []Route        `json:"routes,omitempty"`
	Tool               *Tool          `json:"tool,omitempty"`
	Grant              *ActionGrant   `json:"grant"`
	Effects            []EffectEntry  `json:"effects"`
	UnusedGrantEntries []string       `json:"unused_grant_entries"`
	AssertedEffectFree []AssertedFree `json:"asserted_effect_free"`
}

// Route is one HTTP registration of a handler.
type Route struct {
	Method string `json:"method"` // "*": any method
	Path   string `json:"path"`
}

// Tool is one MCP tool registration.
type Tool struct {
	Name                string       `json:"name"`
	DeclaredAnnotations *Annotations `json:"declared_annotations,omitempty"`
	DerivedAnnotations  *Derived     `json:"derived_annotations,omitempty"`
	Caveat              string       `json:"caveat,omitempty"`
}

// Annotations are the MCP hints as the code declares them; absent keys
// were not written (go-sdk) or are the library's explicit defaults
// (mcp-go).
type Annotations struct {
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	Title           string `json:"title,omitempty"`
}

// Derived are the hints the proof supports.
type Derived struct {
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	ReversibleHint  *bool  `json:"x-authvet/reversibleHint,omitempty"`
	SensitiveHint   string `json:"x-authvet/sensitiveHint,omitempty"`
}

// ActionGrant is the grant an action names.
type ActionGrant struct {
	Name          string `json:"name"`
	Reversibility string `json:"reversibility"`
	TenantScope   string `json:"tenant_scope"`
	Rate          string `json:"rate,omitempty"`
	Spend         string `json:"spend,omitempty"`
}

// EffectEntry is one proved effect or unprovable site.
type EffectEntry struct {
	Kind       string   `json:"kind"`
	Subject    string   `json:"subject,omitempty"`
	Method     string   `json:"method,omitempty"`
	Provenance string   `json:"provenance,omitempty"`
	Location   string   `json:"location"`
	Via        []string `json:"via,omitempty"`
	Reason     string   `json:"reason,omitempty"`
}

// AssertedFree is a site an //agent:effect none hatch takes out of the
// ledger.
type AssertedFree struct {
	Location string `json:"location"`
	Reason   string `json:"reason"`
}

// GrantEntry is one grant declaration.
type GrantEntry struct {
	Name            string   `json:"name"`
	Package         string   `json:"package"`
	Location        string   `json:"location"`
	Reversibility   string   `json:"reversibility"`
	TenantScope     string   `json:"tenant_scope"`
	Writes          []string `json:"writes"`
	UnboundedWrites []string `json:"unbounded_writes"`
	Outbound        []string `json:"outbound"`
	Webhooks        []string `json:"webhooks"`
	Jobs            []string `json:"jobs"`
	Rate            string   `json:"rate"`
	Spend           string   `json:"spend"`
	Used            bool     `json:"used"`
}

// Ungoverned is an MCP tool whose handler has no //agent:operable.
type Ungoverned struct {
	Tool                string        `json:"tool"`
	Handler             string        `json:"handler"`
	Location            string        `json:"location"`
	Mutating            bool          `json:"mutating"`
	Effects             []EffectEntry `json:"effects"`
	DeclaredAnnotations *Annotations  `json:"declared_annotations,omitempty"`
	Caveat              string        `json:"caveat,omitempty"`
}

// Conflict is a declared MCP hint the proof contradicts.
type Conflict struct {
	Tool           string      `json:"tool"`
	Claim          string      `json:"claim"`
	ContradictedBy EffectEntry `json:"contradicted_by"`
}

// Excluded is a dimension recorded but not fully enforced.
type Excluded struct {
	Dimension          string `json:"dimension"`
	EventualProvenance string `json:"eventual_provenance"`
	RuntimeCaveat      string `json:"runtime_caveat"`
}
