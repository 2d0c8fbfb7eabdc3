// Package views builds templates whose functions count page views in
// a table.
package views

import (
	"database/sql"
	"html/template"
)

var DB *sql.DB

func count(page string) string {
	DB.Exec("INSERT INTO page_views (page) VALUES ($1)", page)
	return ""
}

// Page counts a view each time it renders.
var Page = template.Must(template.New("p").Funcs(template.FuncMap{"count": count}).Parse(`{{count "home"}}`))

// Build returns a template like Page.
func Build() *template.Template {
	return template.Must(template.New("p").Funcs(template.FuncMap{"count": count}).Parse(`{{count "home"}}`))
}
