package effects

import (
	"go/types"
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

func init() {
	for name := range gormWrites {
		models[gormPath+".DB."+name] = gormWrite(name)
	}
	models[gormPath+".DB.Exec"] = sqlTextModel(1)
	models[gormPath+".DB.Raw"] = sqlTextModel(1)
	models[gormPath+".DB.Transaction"] = txCallback(1)
}

// gormState is what a builder carries on one path.
type gormState struct {
	table string     // from Table("x")
	model types.Type // from Model(x)
	where bool       // a Where, Not, Or or Scopes was applied
	bad   bool       // Table's argument is not constant
}

func gormWrite(name string) model {
	needsWhere := gormWrites[name]
	return func(e *Engine, c *callSite) {
		states := e.gormStates(c.args[0], c.fr, 0)
		var value ssa.Value
		if len(c.args) > 1 && name != "Update" && name != "UpdateColumn" {
			value = c.args[1]
		}
		conds := name == "Delete" && len(c.args) > 2 && nonEmptyVariadic(c.args[2])
		for _, st := range states {
			table, ok := e.gormTable(st, value)
			if !ok {
				c.out.add(e.unprovable(c.pos, "writes through gorm to a table the analysis cannot name",
					`use Model(&T{}) or a constant Table("..."), or declare it with //agent:effect writes(...)`))
				continue
			}
			kind := Write
			if needsWhere && !st.where && !conds && !(name == "Delete" && loadedRow(value)) {
				kind = UnboundedWrite
			}
			c.out.add(Effect{Kind: kind, Subject: table, Provenance: TypeResolved, Pos: e.pos(c.pos), Module: e.Module})
		}
	}
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
		for i := range prev {
			st := &prev[i]
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
			case "Where", "Not", "Or", "Scopes":
				st.where = true
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
		if idx := paramIndex(fr.fn, v); idx >= 0 && fr.args != nil && idx < len(fr.args) {
			return e.gormStates(fr.args[idx].v, fr.args[idx].fr, depth+1)
		}
	case *ssa.FreeVar:
		for i, x := range fr.fn.FreeVars {
			if x == v && i < len(fr.free) {
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

// nonEmptyVariadic reports whether a variadic argument slice has elements.
func nonEmptyVariadic(v ssa.Value) bool {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return false
	}
	return true
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
