package f

import (
	htmltemplate "html/template"
	"net/http"
	"strings"
	"text/template"

	"classes/f/pages"
	"classes/f/views"
)

// --- F41: a template's FuncMap functions run at Execute. The template
// is built in the handler, in a package variable's declaration, or in
// init; its FuncMap is a literal or a package variable only its
// declaration fills. A FuncMap the package changes elsewhere cannot be
// read: the Execute is unprovable. Twins: the same shapes with functions
// that only format.

func rate(cur string) string {
	resp, err := http.Get("https://fx.example.com/rate?c=" + cur)
	if err == nil {
		resp.Body.Close()
	}
	return "1.0"
}

//agent:operable grant=Refunds
func TemplateFuncLocal(w http.ResponseWriter, r *http.Request) {
	t := template.Must(template.New("r").Funcs(template.FuncMap{"fx": rate}).Parse(`{{fx "EUR"}}`)) // want `TemplateFuncLocal calls out to "https://fx.example.com/rate"`
	t.Execute(w, nil)                                                                               // want `TemplateFuncLocal calls out to "https://fx.example.com/rate"`
}

//agent:operable grant=Refunds
func TemplateFuncLocalTwin(w http.ResponseWriter, r *http.Request) {
	t := template.Must(template.New("r").Funcs(template.FuncMap{"up": strings.ToUpper}).Parse(`{{up "eur"}}`))
	t.Execute(w, nil)
}

var rateFuncs = template.FuncMap{"fx": rate}

var rateTpl = template.Must(template.New("r").Funcs(rateFuncs).Parse(`{{fx "EUR"}}`))

//agent:operable grant=Refunds
func TemplateFuncGlobal(w http.ResponseWriter, r *http.Request) {
	rateTpl.Execute(w, nil) // want `TemplateFuncGlobal calls out to "https://fx.example.com/rate"`
}

var fmtFuncs = template.FuncMap{"up": strings.ToUpper, "join": strings.Join}

var fmtTpl = template.Must(template.New("r").Funcs(fmtFuncs).Parse(`{{up "eur"}}`))

//agent:operable grant=Refunds
func TemplateFuncGlobalTwin(w http.ResponseWriter, r *http.Request) {
	fmtTpl.Execute(w, nil)
}

var pageTpl *htmltemplate.Template

func init() {
	pageTpl = htmltemplate.Must(htmltemplate.New("p").Funcs(htmltemplate.FuncMap{"fx": rate}).Parse(`{{fx "EUR"}}`))
}

//agent:operable grant=Refunds
func TemplateFuncInit(w http.ResponseWriter, r *http.Request) {
	pageTpl.ExecuteTemplate(w, "p", nil) // want `TemplateFuncInit calls out to "https://fx.example.com/rate"`
}

var pluggable = template.FuncMap{"up": strings.ToUpper}

// Plug lets another package add a function: pluggable is not what its
// declaration says.
func Plug(name string, f any) { pluggable[name] = f }

var plugTpl = template.Must(template.New("r").Funcs(pluggable).Parse(`{{up "eur"}}`))

//agent:operable grant=Refunds
func TemplateFuncPlugged(w http.ResponseWriter, r *http.Request) {
	plugTpl.Execute(w, nil) // want `TemplateFuncPlugged executes a template whose FuncMap the analysis cannot read`
}

// Another package's template: its functions are that package's, and a
// package that may reach a sink may have given it one that does. Twins:
// a package that reaches none.

//agent:operable grant=Refunds
func TemplateForeignVar(w http.ResponseWriter, r *http.Request) {
	views.Page.Execute(w, nil) // want `TemplateForeignVar executes a template whose FuncMap the analysis cannot read`
}

//agent:operable grant=Refunds
func TemplateForeignBuilt(w http.ResponseWriter, r *http.Request) {
	views.Build().Execute(w, nil) // want `TemplateForeignBuilt writes "page_views"` `TemplateForeignBuilt executes a template whose FuncMap the analysis cannot read`
}

//agent:operable grant=Refunds
func TemplateForeignTwin(w http.ResponseWriter, r *http.Request) {
	pages.Page.Execute(w, nil)
	pages.Build().Execute(w, nil)
}

// A helper of this package that builds the template.

func buildRate() *template.Template {
	return template.Must(template.New("r").Funcs(rateFuncs).Parse(`{{fx "EUR"}}`))
}

//agent:operable grant=Refunds
func TemplateHelperBuilt(w http.ResponseWriter, r *http.Request) {
	buildRate().Execute(w, nil) // want `TemplateHelperBuilt calls out to "https://fx.example.com/rate"`
}

func buildFmt() *template.Template {
	return template.Must(template.New("r").Funcs(fmtFuncs).Parse(`{{up "eur"}}`))
}

//agent:operable grant=Refunds
func TemplateHelperBuiltTwin(w http.ResponseWriter, r *http.Request) {
	buildFmt().Execute(w, nil)
}
