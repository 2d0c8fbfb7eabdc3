package main

import (
	"encoding/json"
	"io"
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
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	ID               int           `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifMessage `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation struct {
		URI string `json:"uri"`
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
	var rules []string
	for _, f := range fs {
		cat := f.Category
		if cat == "" {
			cat = "authvet"
		}
		if !slices.Contains(rules, cat) {
			rules = append(rules, cat)
		}
		r := sarifResult{RuleID: cat, Level: "error", Message: sarifMessage{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPos(f.Posn)}}}
		for i, rel := range f.Related {
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{ID: i + 1, PhysicalLocation: sarifPos(rel.Posn), Message: &sarifMessage{Text: rel.Message}})
		}
		run.Results = append(run.Results, r)
	}
	slices.Sort(rules)
	for _, id := range rules {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{Text: "agent authority: " + strings.ReplaceAll(id, "_", " ")}})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(sarifLog{Version: "2.1.0", Schema: "https://json.schemastore.org/sarif-2.1.0.json", Runs: []sarifRun{run}})
}
