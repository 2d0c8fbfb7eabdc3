package effects

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// squirrel (github.com/Masterminds/squirrel): a statement is built by a
// chain of immutable builders and run by its Exec/Query/QueryRow/Scan, or
// turned into text by ToSql and run on a handle. Both are read the same
// way: the chain is walked back from the value run (through phis, and
// helpers of the package that return a builder) to the Insert, Update,
// Delete or Select that began it, and rewritten as the SQL text it
// stands for, which the SQL reader then reads like any other:
//
//	sq.Delete("orders").Where(sq.Eq{"tenant_id": t, "id": id})
//	    → DELETE FROM orders WHERE tenant_id = ? AND id = ?
//
// A WHERE whose predicate is not a constant string, an Eq literal or an
// Expr ends the constant text (so the statement stays bounded, and its
// tenant predicate unproved); a Prefix or Suffix is part of the text (a
// data-changing CTE in a Prefix counts); a builder the walk cannot follow
// (a parameter, a field) is SQL that is not constant.
const squirrelPath = "github.com/Masterminds/squirrel"

func squirrelLibrary() *Library {
	const p = squirrelPath
	l := &Library{
		Name:     "squirrel",
		Paths:    []string{p},
		Modelled: true,
		Models:   map[string]model{},
		Extracts: map[string]strModel{},
		Safe:     []string{p + ".*"},
		// A row a QueryRow returns is read through it.
		BenignIfaces: []string{p + ".RowScanner"},
	}
	for _, b := range []string{"InsertBuilder", "UpdateBuilder", "DeleteBuilder", "SelectBuilder"} {
		for _, run := range []string{"Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext", "Scan", "ScanContext"} {
			l.Models[p+"."+b+"."+run] = squirrelRun(0)
		}
		l.Extracts[p+"."+b+".ToSql"] = squirrelToSQL
		l.Extracts[p+"."+b+".MustSql"] = squirrelToSQL
	}
	// The runner a builder keeps is used by its Exec or Query, modelled
	// above: handing it over runs nothing.
	for _, b := range []string{"InsertBuilder", "UpdateBuilder", "DeleteBuilder", "SelectBuilder", "StatementBuilderType"} {
		l.Models[p+"."+b+".RunWith"] = keepRunner
	}
	l.Models[p+".WrapStdSql"] = keepRunner
	l.Models[p+".WrapStdSqlCtx"] = keepRunner
	l.Models[p+".NewStmtCache"] = keepRunner
	l.Models[p+".NewStmtCacher"] = keepRunner
	// A statement cache runs the SQL text it is handed, and prepares it.
	for _, name := range []string{"Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext"} {
		key := p + ".StmtCache." + name
		l.Models[key] = sqlText(arg(key + ".query"))
	}
	l.Prepares = map[string]int{p + ".StmtCache.Prepare": arg(p + ".StmtCache.Prepare.query"), p + ".StmtCache.PrepareContext": arg(p + ".StmtCache.PrepareContext.query")}
	for _, f := range []string{"ExecWith", "ExecContextWith", "QueryWith", "QueryContextWith", "QueryRowWith", "QueryRowContextWith"} {
		i := 1 // (db, s)
		if strings.Contains(f, "Context") {
			i = 2 // (ctx, db, s)
		}
		l.Models[p+"."+f] = squirrelRun(i)
	}
	return l
}

// keepRunner keeps a database handle for the builder's modelled calls.
func keepRunner(c *callSite) {}

// squirrelRun runs the builder at argument i (receiver counted).
func squirrelRun(i int) model {
	return func(c *callSite) {
		text := unknownStr()
		if v, fr, ok := c.value(i); ok {
			text = c.e.squirrelText(v, fr)
		}
		c.emit(Pending{Op: OpSQL, Text: text})
		c.handOffArgs(i + 1)
	}
}

func squirrelToSQL(e *Engine, args []ssa.Value, fr *frame) Str {
	if len(args) == 0 {
		return unknownStr()
	}
	return e.squirrelText(args[0], fr)
}

// sqStmt is one reading of a builder chain.
type sqStmt struct {
	kind    string // INSERT, REPLACE, UPDATE, DELETE, SELECT; "" for the StatementBuilder
	table   Str
	where   []Str // constant predicates
	openEnd bool  // a predicate that is not constant
	prefix  []Str
	suffix  []Str
	unknown bool
	// source: the SELECT an INSERT takes its rows from
	// (Insert(...).Select(sq.Select(...).From(...))).
	source *sqStmt
	// loop: the statement is the value of this phi again, around a loop
	// (ins = ins.Values(...)), with only calls applied that change
	// neither its kind, table, WHERE, prefix nor suffix.
	loop *ssa.Phi
}

// sqValueOnly are the builder methods that change none of what the SQL
// reader judges: a loop that applies only these adds nothing.
var sqValueOnly = map[string]bool{
	"Values": true, "Set": true, "SetMap": true, "Columns": true, "Column": true, "Options": true,
	"OrderBy": true, "GroupBy": true, "Limit": true, "Offset": true, "PlaceholderFormat": true, "RunWith": true,
}

// maxChain bounds the builder calls walked back from one value.
const maxChain = 64

func (e *Engine) squirrelText(v ssa.Value, fr *frame) Str {
	var out Str
	for _, st := range e.sqChain(v, fr, 0) {
		out = unionStr(out, st.render())
	}
	if out.isZero() {
		return unknownStr()
	}
	return out
}

// sqChain reads the builder v stands for: one statement per path.
func (e *Engine) sqChain(v ssa.Value, fr *frame, depth int) []sqStmt {
	unknown := []sqStmt{{unknown: true}}
	if depth > maxChain {
		return unknown
	}
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X // a builder handed over as a Sqlizer
	}
	switch v := v.(type) {
	case *ssa.Phi:
		if e.sqPhis[v] {
			return []sqStmt{{loop: v}} // around a loop: resolved where it began
		}
		if e.sqPhis == nil {
			e.sqPhis = map[*ssa.Phi]bool{}
		}
		e.sqPhis[v] = true
		defer delete(e.sqPhis, v)
		var out []sqStmt
		for _, ed := range v.Edges {
			for _, st := range e.sqChain(ed, fr, depth+1) {
				if st.loop != v {
					out = append(out, st) // what the loop adds only values to is already here
				}
			}
			if len(out) > maxAlts {
				return unknown
			}
		}
		return out
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			// s.psql: a builder kept in an unexported field only this
			// package sets (a constructor's
			// sq.StatementBuilder.PlaceholderFormat(sq.Dollar)): every
			// builder stored to it.
			return e.sqField(fa, fr, depth)
		}
		g, ok := v.X.(*ssa.Global)
		if !ok || v.Op != token.MUL || g.Pkg == nil {
			return unknown
		}
		if g.Pkg.Pkg.Path() == squirrelPath && g.Name() == "StatementBuilder" {
			return []sqStmt{{}}
		}
		// var psql = sq.StatementBuilder.PlaceholderFormat(sq.Dollar),
		// set by its declaration only.
		if val, ok := e.InitGlobals[g]; ok {
			if init := g.Pkg.Func("init"); init != nil {
				return e.sqChain(val, &frame{fn: init, parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, depth+1)
			}
		}
		return unknown
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		if callee == nil {
			return unknown
		}
		if callee.Pkg == nil || callee.Pkg.Pkg.Path() != squirrelPath {
			// A helper of this package that returns a builder.
			cf, rets := e.localReturns(v, fr)
			if cf == nil || e.returns >= maxReturns {
				return unknown
			}
			e.returns++
			var out []sqStmt
			for _, r := range rets {
				if len(r.Results) == 0 {
					return unknown
				}
				out = append(out, e.sqChain(r.Results[0], cf, depth+1)...)
			}
			return out
		}
		return e.sqCall(callee, v.Call.Args, fr, depth)
	}
	return unknown
}

// sqField reads a builder kept in an unexported field: what each store
// to it builds, when this package alone writes it.
func (e *Engine) sqField(fa *ssa.FieldAddr, fr *frame, depth int) []sqStmt {
	unknown := []sqStmt{{unknown: true}}
	stores, ok := e.fieldStores(fa)
	if !ok || len(stores) == 0 {
		return unknown
	}
	key, _ := e.fieldOf(fa)
	if e.fieldBusy[key] {
		return unknown // a field stored from itself
	}
	if e.fieldBusy == nil {
		e.fieldBusy = map[fieldKey]bool{}
	}
	e.fieldBusy[key] = true
	defer delete(e.fieldBusy, key)
	var out []sqStmt
	for _, st := range stores {
		out = append(out, e.sqChain(st.Val, &frame{fn: st.Parent(), parent: fr, depth: fr.depth + 1, visiting: map[ssa.Value]bool{}}, depth+1)...)
		if len(out) > maxAlts {
			return unknown
		}
	}
	return out
}

// sqCall reads one squirrel call of a chain.
func (e *Engine) sqCall(callee *ssa.Function, args []ssa.Value, fr *frame, depth int) []sqStmt {
	name := callee.Name()
	str := func(i int) Str {
		if i < len(args) {
			return e.trace(args[i], fr, handleString)
		}
		return unknownStr()
	}
	kinds := map[string]string{"Insert": "INSERT", "Replace": "REPLACE", "Update": "UPDATE", "Delete": "DELETE", "Select": "SELECT"}
	if callee.Signature.Recv() == nil {
		if k, ok := kinds[name]; ok {
			st := sqStmt{kind: k, table: str(0)}
			if k == "SELECT" {
				st.table = Str{}
			}
			return []sqStmt{st}
		}
		return []sqStmt{{unknown: true}}
	}
	recvType := typeName(callee.Signature.Recv().Type())
	prev := e.sqChain(args[0], fr, depth+1)
	out := make([]sqStmt, 0, len(prev))
	for _, st := range prev {
		if st.unknown {
			out = append(out, st)
			continue
		}
		if st.loop != nil {
			if !sqValueOnly[name] {
				st = sqStmt{unknown: true} // a loop that changes the statement
			}
			out = append(out, st)
			continue
		}
		switch {
		case recvType == "StatementBuilderType" && kinds[name] != "":
			st.kind, st.table = kinds[name], str(1)
			if name == "Select" {
				st.table = Str{}
			}
		case name == "Into" && recvType == "InsertBuilder", name == "Table" && recvType == "UpdateBuilder",
			name == "From" && (recvType == "DeleteBuilder" || recvType == "SelectBuilder"):
			// the statement's table (UpdateBuilder.From is a FROM clause,
			// not the table it writes)
			st.table = str(1)
		case name == "FromSelect":
			st.unknown = true
		case name == "Select" && recvType == "InsertBuilder":
			// INSERT ... SELECT: the rows come from the select, whose
			// table and WHERE are read like any other statement's.
			if src := e.sqChain(args[1], fr, depth+1); len(src) == 1 && !src[0].unknown && src[0].loop == nil && src[0].kind == "SELECT" {
				st.source = &src[0]
			} else {
				st.unknown = true
			}
		case name == "Where":
			if w, ok := e.sqPredicate(args, fr); ok {
				st.where = append(st.where, w)
			} else {
				st.openEnd = true
			}
		case name == "Prefix":
			st.prefix = append(st.prefix, str(1))
		case name == "Suffix":
			st.suffix = append(st.suffix, str(1))
		case name == "PrefixExpr" || name == "SuffixExpr":
			st.unknown = true
		}
		st.where = append([]Str(nil), st.where...)
		out = append(out, st)
	}
	return out
}

// sqPredicate reads the predicate of Where(pred, args...): a constant
// string, an Eq{...} literal with constant keys, or Expr("...").
func (e *Engine) sqPredicate(args []ssa.Value, fr *frame) (Str, bool) {
	if len(args) < 2 {
		return Str{}, false
	}
	return e.sqPred(args[1], fr, 0)
}

// sqPred reads one predicate: constant text, an Expr of constant text, an
// Eq literal, or an And/Or literal of predicates it reads.
func (e *Engine) sqPred(v ssa.Value, fr *frame, depth int) (Str, bool) {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if depth < 4 {
		if sep := map[string]string{"And": " AND ", "Or": " OR "}[typeName(v.Type())]; sep != "" {
			elems, ok := sliceLiteral(v)
			if !ok || len(elems) == 0 {
				return Str{}, false
			}
			var parts []string
			for _, el := range elems {
				p, ok := e.sqPred(el, fr, depth+1)
				ts := p.texts()
				if !ok || len(ts) != 1 || !ts[0].Complete {
					return Str{}, false
				}
				parts = append(parts, "("+ts[0].Text+")")
			}
			return litStr("(" + strings.Join(parts, sep) + ")"), true
		}
	}
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
		return parenthesized(constant.StringVal(c.Value)), true
	}
	if call, ok := v.(*ssa.Call); ok {
		if callee := call.Call.StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg.Path() == squirrelPath && callee.Name() == "Expr" && len(call.Call.Args) > 0 {
			s := e.trace(call.Call.Args[0], fr, handleString)
			if ts := s.texts(); len(ts) == 1 && ts[0].Complete {
				return parenthesized(ts[0].Text), true
			}
		}
		return Str{}, false
	}
	mm, ok := v.(*ssa.MakeMap)
	if !ok {
		return Str{}, false
	}
	op, ok := sqMapOps[typeName(mm.Type())]
	if !ok {
		return Str{}, false
	}
	var conj []string
	for _, r := range *mm.Referrers() {
		switch r := r.(type) {
		case *ssa.MapUpdate:
			k, ok := r.Key.(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.String {
				return Str{}, false
			}
			conj = append(conj, constant.StringVal(k.Value)+" "+op+" ?")
		case *ssa.DebugRef, *ssa.MakeInterface:
		default:
			return Str{}, false // filled elsewhere
		}
	}
	if len(conj) == 0 {
		return Str{}, false // an empty Eq adds no predicate
	}
	return litStr(strings.Join(conj, " AND ")), true
}

// sqMapOps are squirrel's map predicates (column to value), with the
// operator each writes.
var sqMapOps = map[string]string{"Eq": "=", "NotEq": "<>", "Lt": "<", "LtOrEq": "<=", "Gt": ">", "GtOrEq": ">=",
	"Like": "LIKE", "NotLike": "NOT LIKE", "ILike": "ILIKE", "NotILike": "NOT ILIKE"}

// sliceLiteral returns the elements of a slice literal (a slice of a
// local array whose elements are each stored once, by constant index),
// in order.
func sliceLiteral(v ssa.Value) ([]ssa.Value, bool) {
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	sl, ok := v.(*ssa.Slice)
	if !ok || sl.Low != nil || sl.High != nil || sl.Max != nil {
		return nil, false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	arr, ok := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	elems := make([]ssa.Value, arr.Len())
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.Slice, *ssa.DebugRef:
			continue
		case *ssa.IndexAddr:
			idx, ok := r.Index.(*ssa.Const)
			if !ok || idx.Value == nil {
				return nil, false
			}
			i, ok := constant.Int64Val(idx.Value)
			if !ok || i < 0 || i >= int64(len(elems)) {
				return nil, false
			}
			for _, r2 := range *r.Referrers() {
				st, ok := r2.(*ssa.Store)
				if !ok || st.Addr != r || elems[i] != nil {
					return nil, false
				}
				elems[i] = st.Val
			}
		default:
			return nil, false
		}
	}
	for _, el := range elems {
		if el == nil {
			return nil, false
		}
	}
	return elems, true
}

// parenthesized keeps a predicate with OR from joining the AND-list.
func parenthesized(p string) Str {
	if strings.Contains(strings.ToUpper(p), " OR ") {
		return litStr("(" + p + ")")
	}
	return litStr(p)
}

// render writes the statement as the SQL text it stands for.
func (st sqStmt) render() Str {
	if st.unknown || st.kind == "" || st.table.isZero() {
		return unknownStr()
	}
	s := litStr("")
	for _, p := range st.prefix {
		s = concatStr(concatStr(s, p), litStr(" "))
	}
	switch st.kind {
	case "INSERT", "REPLACE":
		s = concatStr(concatStr(s, litStr(st.kind+" INTO ")), st.table)
		if st.source != nil {
			s = concatStr(concatStr(s, litStr(" ")), st.source.render())
		} else {
			s = concatStr(s, litStr(" VALUES (?)"))
		}
	case "UPDATE":
		s = concatStr(concatStr(concatStr(s, litStr("UPDATE ")), st.table), litStr(" SET x = ?"))
	case "DELETE":
		s = concatStr(concatStr(s, litStr("DELETE FROM ")), st.table)
	case "SELECT":
		s = concatStr(concatStr(s, litStr("SELECT * FROM ")), st.table)
	}
	if st.kind != "INSERT" && st.kind != "REPLACE" && (len(st.where) > 0 || st.openEnd) {
		s = concatStr(s, litStr(" WHERE "))
		for i, w := range st.where {
			if i > 0 {
				s = concatStr(s, litStr(" AND "))
			}
			s = concatStr(s, w)
		}
		if st.openEnd {
			if len(st.where) > 0 {
				s = concatStr(s, litStr(" AND "))
			}
			s = concatStr(s, unknownStr())
		}
	}
	for _, x := range st.suffix {
		s = concatStr(concatStr(s, litStr(" ")), x)
	}
	return s
}
