package effects

import (
	"go/constant"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"
)

// gorm (gorm.io/gorm). *gorm.DB is a chainable builder: Model, Table and
// Where calls return new builders, and a terminal Create, Save, Update,
// Updates or Delete writes. The table and whether a Where bounds the
// write are tracked back along the builder's binding, through lets and
// branches: a write is bounded only if every path that reaches it is.
const gormPath = "gorm.io/gorm"

var (
	// gormChain methods return a builder derived from the receiver.
	gormChain = map[string]bool{
		"Model": true, "Table": true, "Where": true, "Or": true, "Not": true, "Scopes": true,
		"WithContext": true, "Session": true, "Debug": true, "Select": true, "Omit": true,
		"Clauses": true, "Joins": true, "InnerJoins": true, "Preload": true, "Order": true,
		"Limit": true, "Offset": true, "Unscoped": true, "Distinct": true, "Group": true,
		"Having": true, "Set": true, "InstanceSet": true, "Attrs": true, "Assign": true,
	}
	// gormWrites maps terminal methods to whether they are row writes that
	// need a Where (update, delete) or always bounded (create, save).
	gormWrites = map[string]bool{
		"Create": false, "CreateInBatches": false, "Save": false, "FirstOrCreate": false,
		"Update": true, "Updates": true, "UpdateColumn": true, "UpdateColumns": true, "Delete": true,
	}
)

// gormLibrary: gorm.io/gorm and its subpackages.
func gormLibrary() *Library {
	const p = gormPath
	l := &Library{
		Name:        "gorm",
		Paths:       []string{p},
		Modelled:    true,
		Models:      map[string]model{},
		IfaceModels: map[string]model{},
		Handles:     []string{p + ".DB", p + ".Association", p + ".Statement", p + "/migrator.Migrator", p + ".PreparedStmtDB", p + ".PreparedStmtTX"},
		SinkIfaces:  []string{p + ".Migrator", p + ".ConnPool", p + ".TxBeginner", p + ".ConnPoolBeginner", p + ".Interface", p + ".ChainInterface", p + ".CreateInterface", p + ".ExecInterface", p + ".SetCreateOrUpdateInterface", p + ".SetUpdateOnlyInterface"},
		TxBegins:    []string{p + ".DB.Begin"},
		TxCommits:   []string{p + ".DB.Commit", p + ".DB.Rollback"},
		Safe: []string{
			p + ".Open", p + ".Expr", p + ".Scan", p + ".G", p + ".NewPreparedStmtDB", p + ".DeletedAt.*", p + ".Config.*",
			p + "/clause.*", p + "/schema.*", p + "/logger.*", p + "/utils.*",
			p + ".Association.Find", p + ".Association.Count", p + ".Association.Unscoped",
		},
	}
	for name := range gormChain {
		l.Safe = append(l.Safe, p+".DB."+name)
	}
	l.Safe = append(l.Safe, keys(p+".DB.", "Find", "First", "Last", "Take", "Count", "Pluck", "Scan", "Row", "Rows", "ScanRows", "FindInBatches",
		"FirstOrInit", "ToSQL", "DB", "Begin", "Commit", "Rollback", "SavePoint", "RollbackTo", "AddError", "Connection", "Get", "InstanceGet",
		"Association", "Name", "Explain", "QuoteTo", "BindVarTo", "DataTypeOf", "DefaultValueOf", "Initialize", "Apply", "AfterInitialize", "Callback", "Use", "SetupJoinTable", "Migrator")...)
	for name := range gormWrites {
		l.Models[p+".DB."+name] = gormWrite(p+".DB."+name, name)
	}
	for _, name := range []string{"Find", "First", "Last", "Take", "FirstOrInit", "Scan"} {
		l.Models[p+".DB."+name] = gormRead(arg(p + ".DB." + name + ".dest"))
	}
	l.Models[p+".DB.Exec"] = sqlText(arg(p + ".DB.Exec.sql"))
	l.Models[p+".DB.Raw"] = sqlText(arg(p + ".DB.Raw.sql"))
	l.Models[p+".DB.Transaction"] = txCallback(arg(p + ".DB.Transaction.fc"))
	for _, recv := range []string{"PreparedStmtDB", "PreparedStmtTX", "Tx", "ConnPool"} {
		m := l.Models
		if recv == "ConnPool" {
			m = l.IfaceModels
		}
		for _, name := range []string{"ExecContext", "QueryContext", "QueryRowContext"} {
			key := p + "." + recv + "." + name
			m[key] = sqlText(arg(key + ".query"))
		}
	}
	// The migrator reads the schema; anything else it does (create, alter,
	// drop tables) stays unprovable through the sink interface.
	for _, name := range []string{"HasTable", "HasColumn", "HasIndex", "HasConstraint", "HasView", "CurrentDatabase", "GetTables", "ColumnTypes", "GetIndexes", "GetTypeAliases", "FullDataTypeOf", "GetDBVersion"} {
		l.IfaceModels[p+".Migrator."+name] = func(*callSite) {}
	}
	// The generic API (gorm.G[T](db)...): reads and builders are safe,
	// writes are not modelled yet.
	reads := map[string]bool{"Find": true, "First": true, "Last": true, "Take": true, "Count": true, "Row": true, "Rows": true, "Scan": true, "FindInBatches": true, "Build": true}
	for _, iface := range []string{"Interface", "ChainInterface", "CreateInterface", "ExecInterface", "SetCreateOrUpdateInterface", "SetUpdateOnlyInterface"} {
		for name := range gormChain {
			l.IfaceModels[p+"."+iface+"."+name] = func(*callSite) {}
		}
		for name := range reads {
			l.IfaceModels[p+"."+iface+"."+name] = func(c *callSite) { c.handOff() }
		}
		for _, name := range []string{"Create", "CreateInBatches", "Update", "Updates", "Delete", "Exec", "Raw", "MapColumns"} {
			l.IfaceModels[p+"."+iface+"."+name] = func(c *callSite) {
				c.unprovable("writes through gorm's generic API ("+c.fn.Name()+"), which authvet does not model yet",
					"declare what the call does with //agent:effect writes(...)")
			}
		}
	}
	return l
}

// gormHooks are the model methods gorm calls around a write or a read.
var gormHooks = map[string][]string{
	"create": {"BeforeSave", "BeforeCreate", "AfterCreate", "AfterSave"},
	"update": {"BeforeSave", "BeforeUpdate", "AfterUpdate", "AfterSave"},
	"delete": {"BeforeDelete", "AfterDelete"},
	"find":   {"AfterFind"},
}

// gormRead runs the AfterFind hook of the value read into, argument i.
func gormRead(i int) model {
	return func(c *callSite) {
		if v, fr, ok := c.value(i); ok {
			c.e.gormHook(c, v, fr, "find")
		}
		c.handOff()
	}
}

// gormHook walks the hook methods the model type of value v has: gorm
// calls them with the transaction, inside it.
func (e *Engine) gormHook(c *callSite, v ssa.Value, fr *frame, op string) {
	e.modelHooks(c, v, fr, gormHooks[op])
}

// modelHooks calls the hook methods names an ORM runs on the model value
// v (gorm's AfterCreate, bun's AfterInsert), on each element of a slice.
func (e *Engine) modelHooks(c *callSite, v ssa.Value, fr *frame, names []string) {
	t := pointee(v)
	if t == nil || e.Prog == nil {
		return
	}
	recvV := v
	if mi, ok := v.(*ssa.MakeInterface); ok {
		recvV = mi.X
	}
	for {
		if s, ok := t.Underlying().(*types.Slice); ok {
			t = s.Elem()
			recvV = nil
			continue
		}
		break
	}
	if _, isPtr := t.(*types.Pointer); !isPtr {
		t = types.NewPointer(t)
	}
	for _, name := range names {
		obj, fn := e.methodOf(t, name)
		if obj == nil {
			continue
		}
		args := []binding{{}}
		if recvV != nil {
			args[0] = binding{v: recvV, fr: fr}
		}
		e.callObjOrWrapper(obj, fn, args, c.pos, c.fr, c.out)
	}
}

// gormState is what a builder carries on one path.
type gormState struct {
	table string     // from Table("x")
	model types.Type // from Model(x)
	where bool       // a Where, Not, Or or Scopes was applied
	// textWhere: a Where, Not or Or condition is SQL text that is not
	// constant (or a value the analysis cannot see), which may add OR ...
	textWhere bool
	bad       bool // Table's argument is not constant
	// modelV is the value handed to Model, whose hooks gorm runs.
	modelV ssa.Value
	// selects are the fields Select named (gormEveryAssoc for
	// clause.Associations or a name the analysis cannot read): a Delete
	// also deletes those associations.
	selects []string
}

// gormEveryAssoc stands for every association of the model in
// gormState.selects (gorm's clause.Associations).
const gormEveryAssoc = "~~~as~~~"

// gormWrite models the builder's write call key (gorm's name for it):
// the model value is its first argument (the values for Update and
// UpdateColumn), the conditions Delete's variadic rest.
func gormWrite(key, name string) model {
	needsWhere := gormWrites[name]
	valueAt, condsAt := -1, -1
	switch name {
	case "Update", "UpdateColumn":
	case "Updates", "UpdateColumns":
		valueAt = arg(key + ".values")
	case "FirstOrCreate":
		valueAt = arg(key + ".dest")
	default:
		valueAt = arg(key + ".value")
	}
	if name == "Delete" {
		condsAt = arg(key + ".conds")
	}
	return func(c *callSite) {
		e := c.e
		recv, rfr, ok := c.value(0)
		if !ok {
			c.unprovable("writes through a gorm builder the analysis cannot see",
				"declare what the call does with //agent:effect writes(...)")
			return
		}
		states := e.gormStates(recv, rfr, 0)
		var value ssa.Value
		var vfr *frame
		if valueAt >= 0 {
			value, vfr, _ = c.value(valueAt)
		}
		conds := false
		if condsAt >= 0 {
			if cv, _, ok := c.value(condsAt); ok {
				conds = nonEmptyVariadic(cv)
			}
		}
		for _, st := range states {
			table, ok := e.gormTable(st, value)
			if !ok {
				c.unprovable("writes through gorm to a table the analysis cannot name",
					`use Model(&T{}) or a constant Table("..."), or declare it with //agent:effect writes(...)`)
				continue
			}
			if needsWhere && st.textWhere {
				c.unprovable("writes "+strconv.Quote(table)+" through gorm with a condition that is SQL text the analysis cannot read, which may add OR ... and match every row",
					`pass a constant condition with ? placeholders (or a struct or map), or declare the statement with //agent:effect`)
				continue
			}
			kind := Write
			if needsWhere && !st.where && !conds && !(name == "Delete" && loadedRow(value)) {
				kind = UnboundedWrite
			}
			c.add(kind, table, TypeResolved)
		}
		hookValue, hookFr := value, vfr
		if hookValue != nil && !structValue(hookValue) {
			hookValue = nil // Updates(map[string]any{...}): the Model's hooks run
		}
		if value != nil && name != "Delete" {
			e.gormAssociations(c, value, vfr)
		}
		if name == "Delete" {
			for _, st := range states {
				e.gormDeleteAssociations(c, st, value)
			}
		}
		if hookValue == nil {
			for _, st := range states {
				if st.modelV != nil {
					hookValue, hookFr = st.modelV, rfr
				}
			}
		}
		if hookValue != nil {
			op := map[string]string{"Create": "create", "CreateInBatches": "create", "Save": "update", "FirstOrCreate": "create", "Delete": "delete"}[name]
			if op == "" {
				op = "update"
			}
			e.gormHook(c, hookValue, hookFr, op)
		}
		c.handOff()
	}
}

// gormStatementWritten reports whether the builder v's Statement is
// written through (a field stored to, or the statement handed on).
func gormStatementWritten(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fieldName(fa.X.Type(), fa.Field) != "Statement" {
			continue
		}
		for _, r2 := range *fa.Referrers() {
			load, ok := r2.(*ssa.UnOp)
			if !ok {
				return true // the field itself stored to, or its address handed on
			}
			for _, r3 := range *load.Referrers() {
				switch r3 := r3.(type) {
				case *ssa.FieldAddr:
					for _, r4 := range *r3.Referrers() {
						if _, isLoad := r4.(*ssa.UnOp); !isLoad {
							return true
						}
					}
				case *ssa.DebugRef:
				default:
					return true
				}
			}
		}
	}
	return false
}

// gormTextCond reports whether q, a condition handed to Where, Not or
// Or (an interface{}), is SQL text that is not constant, or a value the
// analysis cannot see. A struct, a map or a clause expression is
// columns gorm quotes itself.
func (e *Engine) gormTextCond(q ssa.Value, fr *frame) bool {
	mi, ok := q.(*ssa.MakeInterface)
	if !ok {
		return true // an interface value handed in: may be any text
	}
	if b, ok := mi.X.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		return false
	}
	ts := e.trace(mi.X, fr, handleString).texts()
	return len(ts) == 0 || slices.ContainsFunc(ts, func(t Text) bool { return !t.Complete })
}

// gormStates walks a builder value back to where it was made.
func (e *Engine) gormStates(v ssa.Value, fr *frame, depth int) []gormState {
	if depth > 64 || !e.enter(v, fr) {
		return []gormState{{}}
	}
	defer e.leave(v, fr)
	switch v := v.(type) {
	case *ssa.Call:
		key := staticKey(v.Call)
		name := strings.TrimPrefix(key, gormPath+".DB.")
		if name == key || !gormChain[name] || len(v.Call.Args) == 0 {
			break
		}
		prev := e.gormStates(v.Call.Args[0], fr, depth+1)
		written := gormStatementWritten(v)
		for i := range prev {
			st := &prev[i]
			// tx.Statement.Table = "payouts": the builder's statement
			// changed by hand; its table is not what the chain says.
			st.bad = st.bad || written
			switch name {
			case "Table":
				ts := e.trace(v.Call.Args[1], fr, handleString).texts()
				if len(ts) == 1 && ts[0].Complete {
					st.table = strings.ToLower(ts[0].Text)
				} else {
					st.bad = true
				}
			case "Model":
				st.model = pointee(v.Call.Args[1])
				st.modelV = v.Call.Args[1]
			case "Select":
				st.selects = append(slices.Clone(st.selects), gormSelected(v.Call.Args[1:])...)
			case "Where", "Not", "Or":
				st.where = true
				if i := arg(gormPath + ".DB." + name + ".query"); i < len(v.Call.Args) && e.gormTextCond(v.Call.Args[i], fr) {
					st.textWhere = true
				}
			case "Scopes":
				// A scope bounds the statement only if it adds a
				// condition; one that switches the table is not read.
				w, table := e.scopesDo(v.Call.Args[1:], fr)
				st.where = st.where || w
				st.bad = st.bad || table
			}
		}
		return prev
	case *ssa.Phi:
		var out []gormState
		for _, ed := range v.Edges {
			out = append(out, e.gormStates(ed, fr, depth+1)...)
		}
		return out
	case *ssa.Parameter:
		if b, ok := fr.param(paramIndex(fr.fn, v)); ok {
			if b = follow(b); b.live() {
				return e.gormStates(b.v, b.fr, depth+1)
			}
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) && fr.free[i].live() {
				return e.gormStates(fr.free[i].v, fr.free[i].fr, depth+1)
			}
		}
	case *ssa.UnOp:
		if stores := storedValues(v.X, fr); v.Op.String() == "*" && len(stores) > 0 {
			var out []gormState
			for _, b := range stores {
				out = append(out, e.gormStates(b.v, b.fr, depth+1)...)
			}
			return out
		}
	}
	return []gormState{{}}
}

// gormTable names the table of a write: Table, else Model's type, else
// the written value's type; a type's constant TableName() wins over
// gorm's default naming.
func (e *Engine) gormTable(st gormState, value ssa.Value) (string, bool) {
	if st.bad {
		return "", false
	}
	if st.table != "" {
		return st.table, true
	}
	t := st.model
	if t == nil && value != nil {
		t = pointee(value)
	}
	if t == nil {
		return "", false
	}
	for {
		if s, ok := t.Underlying().(*types.Slice); ok {
			t = s.Elem()
			continue
		}
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
			continue
		}
		break
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return "", false
	}
	if _, isStruct := named.Underlying().(*types.Struct); !isStruct {
		return "", false
	}
	if name, ok := e.methodConst(named, "TableName"); ok {
		return name, true
	}
	return gormTableName(named.Obj().Name()), true
}

// pointee is the static type of a value handed to gorm as interface{}.
func pointee(v ssa.Value) types.Type {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X.Type()
	}
	if types.IsInterface(v.Type()) {
		return nil
	}
	return v.Type()
}

// loadedRow reports whether value, handed to Delete, is a row the
// handler holds (its primary key bounds the delete) rather than a fresh
// zero value (&T{}), which deletes globally.
func loadedRow(value ssa.Value) bool {
	if value == nil {
		return false
	}
	if mi, ok := value.(*ssa.MakeInterface); ok {
		value = mi.X
	}
	alloc, ok := value.(*ssa.Alloc)
	if !ok {
		return value.Type() != nil && !types.IsInterface(value.Type())
	}
	for _, r := range *alloc.Referrers() {
		if fa, ok := r.(*ssa.FieldAddr); ok {
			for _, r2 := range *fa.Referrers() {
				if st, ok := r2.(*ssa.Store); ok && st.Addr == fa {
					return true // a field is set
				}
			}
		}
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
			return true // the whole value is set
		}
	}
	return false
}

// gormTableName is gorm's default naming: snake_case, last word plural.
func gormTableName(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return plural(b.String())
}

func plural(s string) string {
	switch {
	case strings.HasSuffix(s, "y") && len(s) > 1 && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "z"),
		strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	}
	return s + "s"
}

// scopesDo reads the scope functions handed to Scopes: whether one adds a
// condition (Where, Not, Or, or a scope of its own), and whether one may
// switch the table or model (Table, Model, or a scope it cannot read).
func (e *Engine) scopesDo(args []ssa.Value, fr *frame) (where, table bool) {
	var fs funcSet
	for _, a := range args {
		for _, el := range sliceElems(a) {
			e.collectFuncs(el, fr, &fs, 0)
		}
	}
	if fs.unresolved || len(fs.params)+len(fs.elemParams)+len(fs.fieldParams)+len(fs.returned)+len(fs.wrapped) > 0 || fs.fromStd || len(fs.callables) == 0 {
		return false, true
	}
	for _, cl := range fs.callables {
		eachInstr([]*ssa.Function{cl.fn}, func(_ *ssa.Function, in ssa.Instruction) {
			c, ok := in.(ssa.CallInstruction)
			if !ok {
				return
			}
			key := staticKey(*c.Common())
			switch {
			case strings.HasSuffix(key, "gorm.io/gorm.DB.Where"), strings.HasSuffix(key, "gorm.io/gorm.DB.Not"), strings.HasSuffix(key, "gorm.io/gorm.DB.Or"):
				where = true
			case strings.HasSuffix(key, "gorm.io/gorm.DB.Table"), strings.HasSuffix(key, "gorm.io/gorm.DB.Model"), strings.HasSuffix(key, "gorm.io/gorm.DB.Scopes"):
				table = true
			}
		})
	}
	return where, table
}

// structValue reports whether v is a struct, or a pointer to or slice of
// structs (a model value), not a map of columns.
func structValue(v ssa.Value) bool {
	t := pointee(v)
	for t != nil {
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.Slice:
			t = u.Elem()
		case *types.Struct:
			return true
		default:
			return false
		}
	}
	return false
}

// gormAssociations: gorm saves, into their own tables, the associated
// models a written value carries in its fields (Claim{Payouts: []Payout{...}}).
// Only fields the analysis sees set count; a value built elsewhere is
// read for its own table only.
func (e *Engine) gormAssociations(c *callSite, value ssa.Value, fr *frame) {
	v := value
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	alloc, afr, ok := allocOf(v, fr, 0)
	if !ok {
		return
	}
	st, ok := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		ft := st.Field(i).Type()
		if !e.modelType(ft) {
			continue
		}
		var bs []binding
		fieldOfAlloc(alloc, i, afr, 0, &bs)
		set := false
		for _, b := range bs {
			if k, ok := b.v.(*ssa.Const); !ok || !k.IsNil() {
				set = true
			}
		}
		if !set {
			continue
		}
		if table, ok := e.gormTable(gormState{model: ft}, nil); ok {
			c.add(Write, table, TypeResolved)
		}
		// gorm runs the associated model's own save hooks (its
		// AfterCreate writing an audit row) on the rows it upserts.
		if e.Prog != nil {
			rt := rowType(ft)
			if _, isPtr := rt.(*types.Pointer); !isPtr {
				rt = types.NewPointer(rt)
			}
			for _, name := range gormHooks["create"] {
				if obj, fn := e.methodOf(rt, name); obj != nil {
					e.callObjOrWrapper(obj, fn, []binding{{}}, c.pos, c.fr, c.out)
				}
			}
		}
		// A many-to-many association also writes its join table
		// (`gorm:"many2many:member_teams"`).
		if join := gormJoinTable(st.Tag(i)); join != "" {
			c.add(Write, join, TypeResolved)
		}
	}
}

// gormSelected reads the names a Select call's arguments (query, then
// args...) name: constants, gormEveryAssoc for anything else.
func gormSelected(args []ssa.Value) []string {
	var vals []ssa.Value
	if len(args) > 0 {
		vals = append(vals, args[0])
	}
	if len(args) > 1 {
		if c, ok := args[1].(*ssa.Const); !ok || !c.IsNil() {
			els, ok := orderedElems(args[1])
			if !ok {
				return []string{gormEveryAssoc}
			}
			vals = append(vals, els...)
		}
	}
	var out []string
	for _, v := range vals {
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
		}
		c, ok := v.(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.String {
			if _, isSlice := v.Type().Underlying().(*types.Slice); isSlice || !ok {
				return []string{gormEveryAssoc} // Select([]string{...}), a variable
			}
			continue
		}
		for _, f := range strings.Split(constant.StringVal(c.Value), ",") {
			out = append(out, strings.TrimSpace(f))
		}
	}
	return out
}

// gormDeleteAssociations: a Delete after Select(clause.Associations) or
// Select("Field") also deletes the selected associations' rows (has one,
// has many) or join rows (many to many), keyed by the deleted rows.
func (e *Engine) gormDeleteAssociations(c *callSite, st gormState, value ssa.Value) {
	if len(st.selects) == 0 {
		return
	}
	t := st.model
	if t == nil && value != nil {
		t = pointee(value)
	}
	if t == nil {
		return
	}
	strct, ok := rowType(t).Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < strct.NumFields(); i++ {
		f := strct.Field(i)
		if !e.modelType(f.Type()) {
			continue
		}
		if !slices.Contains(st.selects, gormEveryAssoc) && !slices.Contains(st.selects, f.Name()) {
			continue
		}
		if join := gormJoinTable(strct.Tag(i)); join != "" {
			c.add(Write, join, TypeResolved)
			continue
		}
		if table, ok := e.gormTable(gormState{model: f.Type()}, nil); ok {
			c.add(Write, table, TypeResolved)
		} else {
			c.unprovable("deletes a gorm association whose table the analysis cannot name",
				"declare what the call does with //agent:effect writes(...)")
		}
	}
}

// gormJoinTable is the join table a field's gorm tag names with
// many2many, or "".
func gormJoinTable(tag string) string {
	for _, part := range strings.Split(reflect.StructTag(tag).Get("gorm"), ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), "many2many") {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// modelType reports whether a field's type is an associated model: a
// struct of an analysed package (not time.Time, sql.Null*, gorm.Model),
// or a pointer to or slice of one.
func (e *Engine) modelType(t types.Type) bool {
	n, ok := types.Unalias(rowType(t)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return false
	}
	return !e.stdPkg(n.Obj().Pkg()) && !strings.HasPrefix(n.Obj().Pkg().Path(), "gorm.io/")
}

// rowType is the element type of a model value: t through its pointers
// and slices (*[]User, []*User: User).
func rowType(t types.Type) types.Type {
	for t != nil {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		}
		break
	}
	return t
}
