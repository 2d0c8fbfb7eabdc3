package effects

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// ent (entgo.io/ent): the client is generated into the module, and its
// builders are recognised by shape: a type <Entity><Op> of a package that
// imports entgo.io/ent/dialect/sql/sqlgraph. Running one is modelled
// rather than walked, so the generated plumbing (hooks, interceptors,
// the sqlgraph and dialect layers) is not:
//
//   - Create, CreateBulk, an upsert, UpdateOne and DeleteOne write the
//     entity's table: the generated <entity>.Table constant;
//   - Update and Delete write it too, and every row of it on a path where
//     no Where was called on the builder before the run;
//   - ent's SQL driver (dialect/sql.Driver, Tx, Conn, and the dialect's
//     ExecQuerier) runs the SQL text it is handed, read like any other;
//   - <Entity>Client makes builders, and queries, selects and group-bys
//     read; the generated Client.Tx and Tx.Commit/Rollback begin and end
//     a transaction.
//
// Hooks and interceptors registered on the client (schema Hooks, Use,
// Intercept) run on every mutation of every handler, like a database
// trigger: they are not attributed to the handler (README).
const (
	entPath      = "entgo.io/ent"
	entGraphPath = "entgo.io/ent/dialect/sql/sqlgraph"
)

func entLibrary() *Library {
	// ent's own SQL driver runs raw SQL text: Conn (embedded in Driver
	// and Tx) and the dialect's ExecQuerier, (recv, ctx, query, args, v).
	sqlAt := map[string]model{}
	ifaceAt := map[string]model{}
	for _, m := range []string{"Exec", "Query"} {
		key := entPath + "/dialect/sql.Conn." + m
		sqlAt[key] = sqlText(arg(key + ".query"))
		for _, iface := range []string{"ExecQuerier", "Driver", "Tx"} {
			key := entPath + "/dialect." + iface + "." + m
			ifaceAt[key] = sqlText(arg(key + ".query"))
		}
	}
	return &Library{
		Name:        "ent",
		Models:      sqlAt,
		IfaceModels: ifaceAt,
		Paths:       []string{entPath},
		Modelled:    true,
		Safe:        []string{entPath + ".*", entPath + "/schema.*", entPath + "/schema/field.*", entPath + "/schema/edge.*", entPath + "/schema/index.*", entPath + "/schema/mixin.*", entPath + "/dialect.*", entPath + "/dialect/sql.*", entPath + "/dialect/sql/sqljson.*", entGraphPath + ".*"},
		// A mutation hook or interceptor is the client's middleware.
		BenignIfaces: []string{entPath + ".Mutator", entPath + ".Querier", entPath + ".Interceptor", entPath + ".Traverser", entPath + ".Hook", entPath + ".Value", entPath + ".Mutation"},
		CallShapes:   []func(*types.Func) model{entShape},
	}
}

// entOps maps a generated builder's type suffix to what running it does.
var entOps = []struct {
	suffix, op string
}{
	{"CreateBulk", "create"}, {"UpsertBulk", "create"}, {"UpsertOne", "create"}, {"Create", "create"},
	{"UpdateOne", "one"}, {"DeleteOne", "one"}, {"Update", "many"}, {"Delete", "many"},
}

// entRuns are the methods that run a builder.
var entRuns = map[string]bool{"Save": true, "SaveX": true, "Exec": true, "ExecX": true, "ID": true, "IDX": true}

// entShape recognises a method of a generated ent client: a builder's
// run, or the generated Tx's Commit and Rollback.
func entShape(fn *types.Func) model {
	recv := fn.Signature().Recv()
	if recv == nil || fn.Pkg() == nil || !importsPath(fn.Pkg(), entGraphPath) {
		return nil
	}
	name := typeName(recv.Type())
	if name == "Tx" && (fn.Name() == "Commit" || fn.Name() == "Rollback") {
		return readModel // ends the transaction (the hooks run by it are the client's)
	}
	if name == "Tx" && (fn.Name() == "OnCommit" || fn.Name() == "OnRollback") {
		// The hook wraps the commit: what it does runs in the Committer
		// it returns, when the transaction ends.
		return func(c *callSite) {
			c.unprovable("registers an ent "+fn.Name()+" hook, which runs what the Committer it returns does when the transaction ends",
				"do the work after Commit returns, or declare the call with //agent:effect")
		}
	}
	switch {
	case name == "Client" && (fn.Name() == "Tx" || fn.Name() == "BeginTx"):
		return readModel // begins a transaction
	case strings.HasSuffix(name, "Client") && name != "Client" && fn.Exported(),
		strings.HasSuffix(name, "Query"), strings.HasSuffix(name, "Select"), strings.HasSuffix(name, "GroupBy"):
		// <Entity>Client makes builders and reads; a query, select or
		// group-by only reads.
		return entRead
	}
	if !entRuns[fn.Name()] {
		return nil
	}
	for _, o := range entOps {
		entity, ok := strings.CutSuffix(name, o.suffix)
		if !ok || entity == "" {
			continue
		}
		table, consts, ok := entTable(fn.Pkg(), entity)
		op := o.op
		client := fn.Pkg()
		return func(c *callSite) {
			if !ok && c.e.EntConsts != nil {
				// Under go vet the client package's import of its entity
				// package may be missing from export data: its fact.
				if m := c.e.EntConsts(client)[strings.ToLower(entity)]; m["Table"] != "" {
					table, consts, ok = m["Table"], m, true
				}
			}
			if !ok {
				c.unprovable("runs the ent builder "+name+", whose entity package has no constant Table",
					"regenerate the ent client, or declare the call with //agent:effect writes(...)")
				return
			}
			kind := Write
			if op == "many" && !c.e.entWhereOnEveryPath(c) {
				kind = UnboundedWrite
			}
			c.add(kind, table, TypeResolved)
			// Edges set on the builder write their own tables (a
			// many-to-many join table, the other side's foreign key).
			for _, t := range c.e.entEdgeTables(c, consts) {
				if t != table {
					c.add(Write, t, TypeResolved)
				}
			}
		}
	}
	return nil
}

// entRead reads: what it is handed counts at the call, except the
// generated predicates (order.TenantID(1)), which only add to the
// query's WHERE in ent's own dialect layer.
func entRead(c *callSite) {
	args := make([]binding, len(c.args))
	for i, a := range c.args {
		if t := bindingType(a); t != nil && !isEntPredicate(t) {
			args[i] = a
		}
	}
	c.e.handOff(c.fn, args, c.pos, c.fr, c.out)
}

// isEntPredicate reports whether t is a generated predicate type (or a
// slice of them): a named func type of a package named predicate.
func isEntPredicate(t types.Type) bool {
	if s, ok := t.(*types.Slice); ok {
		t = s.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Name() == "predicate"
}

// importsPath reports whether pkg imports path directly.
func importsPath(pkg *types.Package, path string) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == path {
			return true
		}
	}
	return false
}

// entTable is the Table constant of the entity's generated package (the
// client package's import named after the entity, in lower case).
func entTable(pkg *types.Package, entity string) (string, map[string]string, bool) {
	consts := EntEntities(pkg)[strings.ToLower(entity)]
	if t := consts["Table"]; t != "" {
		return t, consts, true
	}
	return "", nil, false
}

// EntEntities reads, from the packages an ent client package imports
// below its own path, each entity package's string constants (Table,
// <Edge>Table, ...), by the entity package's name.
func EntEntities(pkg *types.Package) map[string]map[string]string {
	var out map[string]map[string]string
	for _, imp := range pkg.Imports() {
		if !strings.HasPrefix(imp.Path(), pkg.Path()+"/") {
			continue
		}
		if c, ok := imp.Scope().Lookup("Table").(*types.Const); !ok || c.Val().Kind() != constant.String {
			continue
		}
		consts := map[string]string{}
		for _, n := range imp.Scope().Names() {
			if c, ok := imp.Scope().Lookup(n).(*types.Const); ok && c.Val().Kind() == constant.String && strings.HasSuffix(n, "Table") {
				consts[n] = constant.StringVal(c.Val())
			}
		}
		if out == nil {
			out = map[string]map[string]string{}
		}
		out[imp.Name()] = consts
	}
	return out
}

// entEdgeTables are the tables of the edges the run's builder changes:
// Add<Edge>IDs, Add<Edges>, Remove..., Clear<Edges> on it, in its chain
// or as statements before the run, each named by the entity package's
// <Edges>Table constant.
func (e *Engine) entEdgeTables(c *callSite, consts map[string]string) []string {
	v, _, ok := c.value(0)
	if !ok || consts == nil {
		return nil
	}
	var tables []string
	seen := map[string]bool{}
	edge := func(method string) {
		var x string
		for _, p := range []string{"Add", "Remove", "Clear"} {
			if rest, ok := strings.CutPrefix(method, p); ok {
				x = rest
			}
		}
		if x == "" {
			return
		}
		cands := []string{x + "Table"}
		if base, ok := strings.CutSuffix(x, "IDs"); ok {
			cands = []string{base + "sTable", base + "esTable", base + "Table"}
		}
		for _, n := range cands {
			if k, ok := consts[n]; ok && !seen[n] {
				seen[n] = true
				tables = append(tables, k)
				return
			}
		}
	}
	run := callInstrAt(v, c.pos)
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if depth > maxChain {
			return
		}
		if phi, ok := v.(*ssa.Phi); ok {
			for _, ed := range phi.Edges {
				walk(ed, depth+1)
			}
			return
		}
		if refs := v.Referrers(); refs != nil && run != nil {
			for _, r := range *refs {
				if call, ok := r.(*ssa.Call); ok && call != run && len(call.Call.Args) > 0 && call.Call.Args[0] == v {
					if fn := call.Call.StaticCallee(); fn != nil {
						edge(fn.Name())
					}
				}
			}
		}
		call, ok := v.(*ssa.Call)
		if !ok || call.Call.IsInvoke() || len(call.Call.Args) == 0 {
			return
		}
		fn := call.Call.StaticCallee()
		if fn == nil || fn.Signature.Recv() == nil {
			return
		}
		edge(fn.Name())
		if types.Identical(fn.Signature.Recv().Type(), call.Type()) {
			walk(call.Call.Args[0], depth+1)
		}
	}
	walk(v, 0)
	return tables
}

// entWhereOnEveryPath reports whether, on every path to this run, Where
// was called on the builder it runs: in its chain, or as a statement of
// its own on one of the chain's values before the run.
func (e *Engine) entWhereOnEveryPath(c *callSite) bool {
	v, _, ok := c.value(0)
	if !ok {
		return false // built by a caller: its Where is out of sight
	}
	run := callInstrAt(v, c.pos)
	return entWhere(v, run, 0)
}

func entWhere(v ssa.Value, run ssa.Instruction, depth int) bool {
	if depth > maxChain {
		return false
	}
	if phi, ok := v.(*ssa.Phi); ok {
		for _, ed := range phi.Edges {
			if !entWhere(ed, run, depth+1) {
				return false
			}
		}
		return true
	}
	// A Where called on v before the run, on every path to it.
	if refs := v.Referrers(); refs != nil && run != nil {
		for _, r := range *refs {
			call, ok := r.(*ssa.Call)
			if !ok || call == run {
				continue
			}
			if fn := call.Call.StaticCallee(); fn != nil && fn.Name() == "Where" && len(call.Call.Args) > 1 && call.Call.Args[0] == v && dominates(call, run) {
				if nonEmptyVariadic(call.Call.Args[1]) {
					return true
				}
			}
		}
	}
	call, ok := v.(*ssa.Call)
	if !ok || call.Call.IsInvoke() {
		return false
	}
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || len(call.Call.Args) == 0 {
		return false
	}
	if fn.Name() == "Where" && len(call.Call.Args) > 1 && nonEmptyVariadic(call.Call.Args[1]) {
		return true
	}
	if types.Identical(fn.Signature.Recv().Type(), call.Type()) {
		return entWhere(call.Call.Args[0], run, depth+1) // a setter returning its builder
	}
	// The builder's origin: Update() or Delete() are unbounded; a
	// builder made for one row (DeleteOneID) is bounded by it.
	return strings.HasSuffix(fn.Name(), "OneID") || strings.HasSuffix(fn.Name(), "One")
}

// dominates reports whether instruction a runs before b on every path to b.
func dominates(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		for _, in := range a.Block().Instrs {
			if in == a {
				return true
			}
			if in == b {
				return false
			}
		}
		return false
	}
	return a.Block().Dominates(b.Block())
}

// callInstrAt is the call instruction at pos among v's referrers, or nil.
func callInstrAt(v ssa.Value, pos token.Pos) ssa.Instruction {
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		if ci, ok := r.(ssa.CallInstruction); ok && ci.Pos() == pos {
			return r
		}
	}
	return nil
}
