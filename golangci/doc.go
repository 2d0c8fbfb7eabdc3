// Package golangci is authvet as a golangci-lint v2 module plugin,
// registered as "authvet" (load mode typesinfo).
//
// Build a golangci-lint with it from a .custom-gcl.yml:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/authvet/authvet
//	    import: github.com/authvet/authvet/golangci
//	    version: v0.x.y
//
// and enable it in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable: [authvet]
//	  settings:
//	    custom:
//	      authvet:
//	        type: module
//	        settings:
//	          config: authvet.yaml   # or config_inline: |  (the file's YAML)
//
// Settings are decoded with unknown keys refused.
package golangci
