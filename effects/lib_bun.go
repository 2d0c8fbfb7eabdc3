package effects

import (
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// bun (github.com/uptrace/bun): a query is a *XxxQuery made by NewInsert,
// NewUpdate, NewDelete, NewSelect, NewTruncateTable or NewRaw, mutated in
// place by its builder methods (whose results are the same query), and
// run by Exec or Scan. The run is read as the SQL text it stands for:
//
//   - the table is the Model's (its bun.BaseModel field's `bun:"table:..."`
//     tag, or bun's default: the type name in snake case, plural), or the
//     constant Table / ModelTableExpr / TableExpr;
//   - a Select, Update or Delete is read as the SQL text it stands for,
//     so its bounds and tenant predicate are judged as any other SQL's:
//     the Where, WherePK and WhereDeleted that run before the run on every
//     path are its conjuncts (bun parenthesises each); a Where whose
//     text is not constant (runtime text can close the parentheses), a
//     WhereOr or a WhereGroup leaves the rest of the WHERE unknown; with no Where an Update or Delete writes every row (bun
//     refuses that at run time unless told otherwise, but the statement
//     is what counts);
//   - NewRaw and the handles' own Exec/Query run their constant SQL.
//
// A query the walk cannot follow back to its New call (a parameter, a
// field) is SQL that is not constant.
const bunPath = "github.com/uptrace/bun"

func bunLibrary() *Library {
	const p = bunPath
	l := &Library{
		Name:        "bun",
		Paths:       []string{p},
		Modelled:    true,
		Models:      map[string]model{},
		IfaceModels: map[string]model{},
		Safe: []string{p + ".*", p + "/schema.*", p + "/dialect.*", p + "/dialect/pgdialect.*", p + "/dialect/mysqldialect.*",
			p + "/dialect/sqlitedialect.*", p + "/dialect/mssqldialect.*", p + "/driver/pgdriver.*", p + "/driver/sqliteshim.*", p + "/extra/bundebug.*"},
		Handles:   []string{p + ".DB", p + ".Tx", p + ".Conn"},
		TxBegins:  []string{p + ".DB.Begin", p + ".DB.BeginTx", p + ".Conn.BeginTx"},
		TxCommits: []string{p + ".Tx.Commit", p + ".Tx.Rollback"},
		TxHandles: []string{p + ".Tx"},
	}
	for _, h := range []string{"DB", "Tx", "Conn", "IDB"} {
		m := l.Models
		if h == "IDB" {
			m = l.IfaceModels
		}
		names := []string{"ExecContext", "QueryContext", "QueryRowContext"}
		if h == "DB" || h == "Tx" { // a Conn and an IDB have only the context-taking calls
			names = append(names, "Exec", "Query", "QueryRow")
		}
		for _, name := range names {
			key := p + "." + h + "." + name
			m[key] = sqlText(arg(key + ".query"))
		}
		fn := "fn"
		if h == "IDB" {
			fn = "f" // bun.IDB names it so
		}
		m[p+"."+h+".RunInTx"] = txCallback(arg(p + "." + h + ".RunInTx." + fn))
	}
	for _, name := range []string{"NewInsert", "NewUpdate", "NewDelete", "NewSelect", "NewTruncateTable", "NewRaw", "NewMerge", "NewValues",
		"NewCreateTable", "NewDropTable", "NewCreateIndex", "NewDropIndex", "NewAddColumn", "NewDropColumn", "Dialect", "BeginTx", "NewCreateView", "NewDropView"} {
		// Builders: the run counts. The handle is what the model stands
		// for, so it is not handed off (an IDB parameter would be asked
		// for every method by the caller, as SQL out of sight).
		l.IfaceModels[p+".IDB."+name] = func(c *callSite) { c.handOffArgs(1) }
	}
	for _, q := range []string{"InsertQuery", "UpdateQuery", "DeleteQuery", "SelectQuery", "TruncateTableQuery", "RawQuery", "MergeQuery",
		"DropTableQuery", "CreateTableQuery", "AddColumnQuery", "DropColumnQuery", "CreateIndexQuery", "DropIndexQuery"} {
		for _, run := range []string{"Exec", "Scan", "Count", "ScanAndCount", "Exists", "Rows"} {
			l.Models[p+"."+q+"."+run] = bunRun
		}
	}
	return l
}

// bunQuery is what a run's query was built with.
type bunQuery struct {
	kind     string // NewInsert, NewUpdate, ...
	tables   []Str
	hasWhere bool
	raw      Str
	unknown  bool
	// wheres are the conditions every path to the run ANDs in, as SQL
	// text ("(tenant_id = ?)"); openWhere: a WhereOr or WhereGroup may
	// add an OR at the top level.
	wheres    []Str
	openWhere bool
	model     *types.Named // the Model's type, when known
	// modelV is the value handed to Model (read in modelFr): bun runs
	// its query hooks (AfterInsert, ...) around the query.
	modelV  ssa.Value
	modelFr *frame
}

// bunHooks are the model hooks bun runs around each kind of query.
var bunHooks = map[string][]string{
	"NewInsert": {"BeforeAppendModel", "BeforeInsert", "AfterInsert"},
	"NewUpdate": {"BeforeAppendModel", "BeforeUpdate", "AfterUpdate"},
	"NewDelete": {"BeforeDelete", "AfterDelete"},
	"NewSelect": {"BeforeSelect", "AfterSelect", "BeforeScanRow", "AfterScanRow"},
}

func bunRun(c *callSite) {
	v, fr, ok := c.value(0)
	if !ok {
		c.emit(Pending{Op: OpSQL, Text: unknownStr()})
		return
	}
	for _, q := range c.e.bunQueries(v, fr, callInstrAt(v, c.pos)) {
		q.effects(c)
	}
	c.handOffArgs(2)
}

// bunQueries follows the query v back to the New call that made it: one
// reading per path (a phi of two queries).
func (e *Engine) bunQueries(v ssa.Value, fr *frame, run ssa.Instruction) []bunQuery {
	var chain []ssa.Value // the query's values, newest first
	root := v
	for n := 0; n < maxChain; n++ {
		if phi, ok := root.(*ssa.Phi); ok {
			var out []bunQuery
			for _, ed := range phi.Edges {
				for _, q := range e.bunQueries(ed, fr, run) {
					out = append(out, e.bunScan(q, chain, fr, run))
				}
				if len(out) > maxAlts {
					return []bunQuery{{unknown: true}}
				}
			}
			return out
		}
		chain = append(chain, root)
		call, ok := root.(*ssa.Call)
		if !ok {
			return []bunQuery{{unknown: true}}
		}
		name, recv := bunCallee(call)
		if name == "" {
			return []bunQuery{{unknown: true}}
		}
		if strings.HasPrefix(name, "New") {
			q := bunQuery{kind: name}
			if name == "NewRaw" {
				args := call.Call.Args
				if !call.Call.IsInvoke() {
					args = args[1:]
				}
				if len(args) > 0 {
					q.raw = e.trace(args[0], fr, handleString)
				} else {
					q.raw = unknownStr()
				}
			}
			return []bunQuery{e.bunScan(q, chain, fr, run)}
		}
		if recv == nil {
			return []bunQuery{{unknown: true}}
		}
		root = recv
	}
	return []bunQuery{{unknown: true}}
}

// bunCallee names a bun call (a method of a query, a handle's New*), with
// its receiver, or "".
func bunCallee(call *ssa.Call) (string, ssa.Value) {
	if call.Call.IsInvoke() {
		m := call.Call.Method
		if m.Pkg() != nil && m.Pkg().Path() == bunPath && strings.HasPrefix(m.Name(), "New") {
			return m.Name(), nil // bun.IDB.NewInsert()
		}
		return "", nil
	}
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != bunPath || fn.Signature.Recv() == nil || len(call.Call.Args) == 0 {
		return "", nil
	}
	return fn.Name(), call.Call.Args[0]
}

// bunScan reads the builder calls on the query's values: those of the
// chain, and those made on them as statements of their own (q.Where(...)
// on a line by itself).
func (e *Engine) bunScan(q bunQuery, chain []ssa.Value, fr *frame, run ssa.Instruction) bunQuery {
	q.tables = append([]Str(nil), q.tables...)
	seen := map[*ssa.Call]bool{}
	for _, v := range chain {
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			call, ok := r.(*ssa.Call)
			if !ok || seen[call] {
				continue
			}
			seen[call] = true
			name, recv := bunCallee(call)
			if name == "" || recv != v {
				continue
			}
			args := call.Call.Args[1:]
			switch name {
			case "Model":
				if len(args) > 0 {
					if t, ok := bunModelTable(args[0]); ok {
						q.tables = append(q.tables, litStr(t))
						q.model = bunModelType(args[0])
						q.modelV, q.modelFr = args[0], fr
					} else {
						q.tables = append(q.tables, unknownStr())
					}
				}
			case "Table":
				// Table(tables ...string): each table of the list.
				if len(args) > 0 {
					elems := sliceElems(args[0])
					if len(elems) == 0 {
						q.tables = append(q.tables, unknownStr())
					}
					for _, el := range elems {
						q.tables = append(q.tables, tableWord(e.trace(el, fr, handleString)))
					}
				}
			case "ModelTableExpr", "TableExpr":
				if len(args) > 0 {
					q.tables = append(q.tables, tableWord(e.trace(args[0], fr, handleString)))
				}
			case "Where", "WherePK", "WhereOr", "WhereGroup", "WhereDeleted", "Bulk":
				// bounded only where the Where runs before the run on
				// every path to it
				dom := run != nil && dominates(call, run)
				if dom {
					q.hasWhere = true
				}
				switch name {
				case "WhereOr", "WhereGroup":
					q.openWhere = true // an OR at the top level
				case "Where":
					if dom && len(args) > 0 {
						if w, ok := e.bunCondition(args[0], fr); ok {
							q.wheres = append(q.wheres, w)
						} else {
							// bun wraps it in parentheses, but runtime
							// text can close them and add an OR.
							q.openWhere = true
						}
					}
				case "WherePK", "Bulk":
					// Bulk: UPDATE ... FROM (VALUES ...) _data WHERE the
					// row's primary key is a key in the values.
					if dom {
						q.wheres = append(q.wheres, litStr(bunPKCondition(q.model)))
					}
				case "WhereDeleted":
					if dom {
						q.wheres = append(q.wheres, litStr("(deleted_at IS NOT NULL)"))
					}
				}
			}
		}
	}
	return q
}

// bunCondition is a Where's constant condition as SQL text in the
// parentheses bun writes around it.
func (e *Engine) bunCondition(v ssa.Value, fr *frame) (Str, bool) {
	ts := e.trace(v, fr, handleString).texts()
	if len(ts) != 1 || !ts[0].Complete {
		return Str{}, false
	}
	return litStr("(" + ts[0].Text + ")"), true
}

// bunPKCondition is WherePK's condition on the model's primary key
// columns (fields tagged pk), or on a key the analysis cannot name.
func bunPKCondition(model *types.Named) string {
	var cols []string
	if model != nil {
		if st, ok := model.Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				tag := reflect.StructTag(st.Tag(i)).Get("bun")
				parts := strings.Split(tag, ",")
				if !slices.Contains(parts[1:], "pk") {
					continue
				}
				col := parts[0]
				if col == "" {
					col = bunUnderscore(st.Field(i).Name()) // bun's default column name
				}
				cols = append(cols, "("+col+" = ?)")
			}
		}
	}
	if len(cols) == 0 {
		return "(primary_key = ?)"
	}
	return strings.Join(cols, " AND ")
}

// tableWord keeps the table name of "orders AS o".
func tableWord(s Str) Str {
	ts := s.texts()
	if len(ts) != 1 || !ts[0].Complete {
		return unknownStr()
	}
	f := strings.Fields(ts[0].Text)
	if len(f) == 0 {
		return unknownStr()
	}
	return litStr(strings.Trim(f[0], `"`))
}

// bunModelType is the named struct type of the model handed to Model.
func bunModelType(v ssa.Value) *types.Named {
	n, _ := types.Unalias(rowType(pointee(v))).(*types.Named)
	return n
}

// bunModelTable is the table of the model handed to Model.
func bunModelTable(v ssa.Value) (string, bool) {
	t := rowType(pointee(v))
	if t == nil {
		return "", false
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return "", false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if q := qualifiedName(f.Type()); q != bunPath+".BaseModel" && q != bunPath+"/schema.BaseModel" {
			continue
		}
		tag := reflect.StructTag(st.Tag(i)).Get("bun")
		name := ""
		for j, part := range strings.Split(tag, ",") {
			k, val, isOpt := strings.Cut(part, ":")
			switch {
			case j == 0 && !isOpt && k != "":
				name = k
			case isOpt && k == "table":
				name = val
			}
		}
		if name != "" {
			return name, true
		}
	}
	return bunTableName(n.Obj().Name()), true
}

// bunTableName is bun's default: Underscore, then the plural.
func bunTableName(s string) string { return plural(bunUnderscore(s)) }

// bunUnderscore is bun's Underscore: snake case.
func bunUnderscore(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			if i > 0 && i+1 < len(s) && (isLowerASCII(s[i-1]) || isLowerASCII(s[i+1])) {
				b.WriteByte('_')
			}
			b.WriteByte(c + 'a' - 'A')
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }

// effects adds what running q does: a raw query's SQL, and the SQL text
// a Select, Update or Delete stands for, are read like any other; an
// Insert writes its table.
func (q bunQuery) effects(c *callSite) {
	if q.unknown {
		c.unprovable("runs a bun query the analysis cannot follow back to the New call that made it",
			"build and run the query in one function, or declare it with //agent:effect writes(...) or //agent:effect none")
		return
	}
	if q.kind == "NewRaw" {
		c.emit(Pending{Op: OpSQL, Text: q.raw})
		return
	}
	if q.modelV != nil {
		c.e.modelHooks(c, q.modelV, q.modelFr, bunHooks[q.kind])
	}
	kind := ""
	switch q.kind {
	case "NewSelect", "NewUpdate", "NewDelete":
		q.statements(c)
		return
	case "NewInsert", "NewMerge":
		kind = Write
	case "NewTruncateTable", "NewDropTable":
		kind = UnboundedWrite
	default:
		c.unprovable("runs a bun "+strings.TrimPrefix(q.kind, "New")+" query (a schema change), which the analysis does not model",
			"declare it with //agent:effect unbounded_writes(...), or run schema changes outside the agent-operable handler")
		return
	}
	q.eachTable(c, func(table string) { c.add(kind, table, TypeResolved) })
}

// eachTable calls f with each table the query names; a query with no
// table, or a table that is not constant, is unprovable.
func (q bunQuery) eachTable(c *callSite, f func(table string)) {
	if len(q.tables) == 0 {
		c.unprovable("runs a bun query with no Model or Table the analysis can read",
			"name the table with Model or a constant Table, or declare it with //agent:effect writes(...)")
		return
	}
	for _, t := range q.tables {
		ts := t.texts()
		if len(ts) != 1 || !ts[0].Complete || ts[0].Text == "" {
			c.unprovable("runs a bun query whose table is not constant",
				"name the table with Model or a constant Table, or declare it with //agent:effect writes(...)")
			continue
		}
		f(ts[0].Text)
	}
}

// statements runs a Select, Update or Delete as the SQL text it stands
// for, once per table, so the SQL reader judges its bounds and its tenant
// predicate as it does any other: "UPDATE users SET x = ? WHERE
// (tenant_id = ?) AND (id = ?)". A constant Where is one conjunct; a
// Where that is not constant, a WhereOr or a WhereGroup leaves the rest
// of the WHERE unknown. bun's ?TableAlias and ?TableName placeholders name the main
// table.
func (q bunQuery) statements(c *callSite) {
	if len(q.tables) == 0 && q.kind == "NewSelect" {
		return // a read of what the analysis cannot name: reads are not effects
	}
	q.eachTable(c, func(table string) {
		var text Str
		switch q.kind {
		case "NewSelect":
			text = litStr("SELECT * FROM " + table)
		case "NewUpdate":
			text = litStr("UPDATE " + table + " SET x = ?")
		case "NewDelete":
			text = litStr("DELETE FROM " + table)
		}
		if len(q.wheres) > 0 || q.openWhere {
			text = concatStr(text, litStr(" WHERE "))
			for i, w := range q.wheres {
				if i > 0 {
					text = concatStr(text, litStr(" AND "))
				}
				text = concatStr(text, bunPlaceholders(w, table))
			}
			if q.openWhere {
				if len(q.wheres) > 0 {
					text = concatStr(text, litStr(" AND "))
				}
				text = concatStr(text, unknownStr())
			}
		} else if q.hasWhere {
			// A Where ran on every path, but not one the analysis read
			// as a condition: bounded, tenant predicate unknown.
			text = concatStr(text, litStr(" WHERE (unknown_condition = ?)"))
		}
		c.emit(Pending{Op: OpSQL, Text: text, Prov: TypeResolved})
	})
}

// bunPlaceholders replaces bun's table placeholders in a condition with
// the table's name.
func bunPlaceholders(w Str, table string) Str {
	ts := w.texts()
	if len(ts) != 1 || !ts[0].Complete {
		return w
	}
	r := strings.NewReplacer("?TableAlias", table, "?TableName", table)
	return litStr(r.Replace(ts[0].Text))
}
