package analyzer

import (
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/internal/config"
)

// KeepResults makes the analyzer return, for each package, the Result a
// whole-module driver (authvet manifest) links: its handlers with their
// proved effects, its grants, and the effects of any of its functions.
// Off under go vet, where nothing reads results and the engine need not
// outlive the pass.
var KeepResults bool

// KeepModule, when set with KeepResults, limits EffectsOf and EffectsAt
// to the packages of that module: answering them keeps each package's
// engine and SSA alive, which for every dependency of a large module
// costs more memory than the rest of the run. A dependency's function
// asked about is then unanswered (the caller keeps its site unprovable).
var KeepModule string

// Result is what one package's pass proved, for the manifest.
type Result struct {
	// Handlers are the package's //agent:operable functions, in source
	// order.
	Handlers []Handler
	// Grants are the grant variables the package declares, in source
	// order.
	Grants []Grant
	// NoSinks: the package provably reaches no sink by itself (it uses
	// no sink, no analysed package, no configured sink and makes no
	// dynamic call), so none of its functions has an effect of its own.
	NoSinks bool

	effectsOf func(fn *types.Func, call bool) ([]effects.Effect, bool)
	effectsAt func(pos token.Pos, call bool) ([]effects.Effect, bool)
}

// Handler is one //agent:operable function and what it was proved to do.
type Handler struct {
	Func      *types.Func
	Name      string    // as diagnostics name it: "(*Server).DraftRefund"
	Pos       token.Pos // the function's name
	GrantName string    // as the directive wrote it
	Grant     *GrantFact
	Effects   []effects.Effect // finalized, sorted
}

// Grant is one grant declaration.
type Grant struct {
	Var  *types.Var
	Fact *GrantFact
}

// EffectsOf returns the finalized effects of fn, a function of this
// package that is not a handler (an MCP tool's handler with no
// directive), as if it were one. It reports false when the package was
// not analysed (it reaches no sink: no effects) or fn is not its own.
func (r *Result) EffectsOf(fn *types.Func) ([]effects.Effect, bool) {
	if r == nil || r.effectsOf == nil {
		return nil, false
	}
	return r.effectsOf(fn, false)
}

// CalleeEffectsOf is EffectsOf for fn called at a site: what one call
// does. A function value fn makes and returns uncalled does not run (a
// client holding its transport), where EffectsOf, taking fn as a
// handler constructor, counts it as called.
func (r *Result) CalleeEffectsOf(fn *types.Func) ([]effects.Effect, bool) {
	if r == nil || r.effectsOf == nil {
		return nil, false
	}
	return r.effectsOf(fn, true)
}

// EffectsAt returns the finalized effects of the function literal at
// pos, called once with unknown arguments (what it captures unknown too):
// a tool handler made by a helper that another function returns.
func (r *Result) EffectsAt(pos token.Pos) ([]effects.Effect, bool) {
	if r == nil || r.effectsAt == nil {
		return nil, false
	}
	return r.effectsAt(pos, false)
}

// CalleeEffectsAt is EffectsAt for the literal called at a site.
func (r *Result) CalleeEffectsAt(pos token.Pos) ([]effects.Effect, bool) {
	if r == nil || r.effectsAt == nil {
		return nil, false
	}
	return r.effectsAt(pos, true)
}

func init() {
	Analyzer.ResultType = reflect.TypeOf((*Result)(nil))
}

// FactEffects returns the effects of fn, a function of another module,
// from the summary fact its package exported (nil: it exported none, so
// it has no effect of its own), finalized as a handler's: its parameters
// unknown. cfg is the configuration the run used (nil: the default).
func FactEffects(cfg *config.Config, module string, fn *types.Func, s *effects.Summary) []effects.Effect {
	if s == nil {
		return nil
	}
	if cfg == nil {
		cfg = config.Default()
	}
	eng := &effects.Engine{Module: module, Opts: engineOptions(cfg)}
	return eng.Finalize(loaded(s, fn), module)
}

// WasAnalysed reports, through a package fact query (a checker action's
// PackageFact), whether pkg was analysed: a package that was not reaches
// no sink by itself (the standard library, or no sink use at all).
func WasAnalysed(packageFact func(*types.Package, analysis.Fact) bool, pkg *types.Package) bool {
	return packageFact(pkg, new(analysedFact))
}
