package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// SARIF 2.1.0, the subset code-scanning services read: one run, a rule
// per category, a result per finding with its related locations.
type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string         `json:"id"`
	Name             string         `json:"name"`
	ShortDescription sarifMessage   `json:"shortDescription"`
	Help             sarifHelp      `json:"help"`
	Properties       ruleProperties `json:"properties"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type ruleProperties struct {
	Tags []string `json:"tags"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               int           `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifMessage `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	} `json:"artifactLocation"`
	Region struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	} `json:"region"`
}

// sarifPos turns a module-relative "file:line:col" into a location.
func sarifPos(posn string) sarifPhysical {
	var p sarifPhysical
	parts := strings.Split(posn, ":")
	nums := []int{}
	for len(parts) > 1 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil || len(nums) == 2 {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	p.ArtifactLocation.URI = strings.Join(parts, ":")
	if !strings.Contains(p.ArtifactLocation.URI, "@") {
		// Module-relative (a dependency's file is named by its module
		// cache path, module@version/file, and has no base).
		p.ArtifactLocation.URIBaseID = "%SRCROOT%"
	}
	if len(nums) > 0 {
		p.Region.StartLine = nums[0]
	}
	if len(nums) > 1 {
		p.Region.StartColumn = nums[1]
	}
	return p
}

func writeSARIF(w io.Writer, fs []finding) {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "authvet", InformationURI: "https://pkg.go.dev/github.com/authvet/authvet"}}, Results: []sarifResult{}}
	var ids []string
	for _, f := range fs {
		if id := ruleID(f); !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule(id))
	}
	seen := map[string]int{}
	for _, f := range fs {
		id := ruleID(f)
		r := sarifResult{RuleID: id, RuleIndex: slices.Index(ids, id), Level: "error", Message: sarifMessage{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPos(f.Posn)}}}
		for i, rel := range f.Related {
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{ID: i + 1, PhysicalLocation: sarifPos(rel.Posn), Message: &sarifMessage{Text: rel.Message}})
		}
		// Stable across runs and across edits elsewhere: the rule, the
		// file and the message with every position taken out (the
		// handler's name stays), and which occurrence of that it is.
		key := id + "\x00" + f.file + "\x00" + positionRE.ReplaceAllString(f.Message, "")
		seen[key]++
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, seen[key])))
		r.PartialFingerprints = map[string]string{"authvetFingerprint/v1": hex.EncodeToString(sum[:16])}
		run.Results = append(run.Results, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(sarifLog{Version: "2.1.0", Schema: "https://json.schemastore.org/sarif-2.1.0.json", Runs: []sarifRun{run}})
}

// positionRE matches the positions a message may name ("(at
// store/store.go:68)", "file.go:12:3").
var positionRE = regexp.MustCompile(`\s*\(at [^)]*\)|[\w./@-]+\.go:\d+(:\d+)?`)

func ruleID(f finding) string {
	if f.Category == "" {
		return "authvet"
	}
	return f.Category
}

// rules describes each diagnostic category: what it means and its fix.
var rules = map[string]struct{ short, help string }{
	"write":           {"A handler writes a table its grant does not allow", "Add the table to the grant's `Writes`, or move the write out of the agent-operable handler."},
	"unbounded_write": {"A handler writes every row of a table (no WHERE, TRUNCATE)", "Bound the statement with a WHERE, or add the table to the grant's `UnboundedWrites`."},
	"cross_tenant":    {"A query has no tenant predicate", "Filter on the tenant column, declare the statement `//agent:effect scoped`, or set `TenantScope: grant.CrossTenant`."},
	"outbound":        {"A handler calls a host its grant does not allow", "Add the URL (or a prefix of it) to the grant's `Outbound`, or move the call out of the handler."},
	"job":             {"A handler starts a job its grant does not allow, or enqueues inside a transaction", "Add the job kind to the grant's `Jobs`; enqueue with the transaction (InsertTx) inside one."},
	"webhook":         {"A handler dispatches a webhook its grant does not allow", "Add the topic to the grant's `Webhooks`."},
	"detached":        {"Work outlives the request it is audited under", "Use a job the grant names, or `sync.WaitGroup.Go` / errgroup so the work ends with the request."},
	"unprovable":      {"The analysis cannot prove what a call does", "Make the call visible to the analysis as the message says, declare it with `//agent:effect`, or add an effect contract to the interface."},
	"reversibility":   {"A grant declares its handler easier to undo than its effects allow", "Declare the grant's `Reversibility` at the floor its effects set, or remove the effect."},
	"directive":       {"An //agent: directive is malformed or misplaced", "Fix the directive as the message says (SPEC §3 and §6)."},
	"grant":           {"A grant declaration is invalid", "Write the grant as a keyed `grant.Grant{...}` literal of constants, with valid entries."},
	"policy":          {"A grant exceeds the organisation policy", "Narrow the grant to what the named policy or rule allows, or change the policy (a reviewed change)."},
	"authvet":         {"agent authority", "See the message."},
}

func rule(id string) sarifRule {
	d, ok := rules[id]
	if !ok {
		d = rules["authvet"]
	}
	tags := []string{"security", "agent-authority"}
	if id != "authvet" {
		tags = append(tags, id)
	}
	return sarifRule{ID: id, Name: strings.ReplaceAll(id, "_", "-"), ShortDescription: sarifMessage{Text: d.short},
		Help:       sarifHelp{Text: d.help, Markdown: "**Fix.** " + d.help},
		Properties: ruleProperties{Tags: tags}}
}
