// Package pages builds templates that only format: it reaches no sink.
package pages

import (
	"html/template"
	"strings"
)

// Page formats a title.
var Page = template.Must(template.New("p").Funcs(template.FuncMap{"up": strings.ToUpper}).Parse(`{{up "home"}}`))

// Build returns a template like Page.
func Build() *template.Template {
	return template.Must(template.New("p").Funcs(template.FuncMap{"up": strings.ToUpper}).Parse(`{{up "home"}}`))
}
