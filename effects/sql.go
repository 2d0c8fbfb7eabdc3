package effects

import "golang.org/x/tools/go/ssa"

// database/sql. Keys are FuncKey names; the value is the argument index
// (receiver counted) that holds the SQL text.
var sqlTextArgs = map[string]int{}

// prepareArgs: calls that make a *sql.Stmt, and where their SQL text is.
var prepareArgs = map[string]int{}

func init() {
	for _, recv := range []string{"DB", "Tx", "Conn"} {
		p := "database/sql." + recv + "."
		for name, i := range map[string]int{
			"Exec": 1, "ExecContext": 2,
			"Query": 1, "QueryContext": 2,
			"QueryRow": 1, "QueryRowContext": 2,
		} {
			sqlTextArgs[p+name] = i
		}
		prepareArgs[p+"Prepare"] = 1
		prepareArgs[p+"PrepareContext"] = 2
	}
	for key, i := range sqlTextArgs {
		models[key] = sqlTextModel(i)
	}
	for _, name := range []string{"Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext"} {
		models["database/sql.Stmt."+name] = stmtModel
	}
}

// sqlTextModel reports the SQL text at argument i.
func sqlTextModel(i int) model {
	return func(e *Engine, c *callSite) {
		text := unknownStr()
		if i < len(c.args) {
			text = e.trace(c.args[i], c.fr, handleString)
		}
		e.emit(Pending{Op: OpSQL, Text: text, Pos: e.pos(c.pos), Module: e.Module}, c.out)
	}
}

// stmtSQL traces a *sql.Stmt back to the Prepare call that made it.
func (e *Engine) stmtSQL(v ssa.Value, fr *frame) Str {
	switch v := v.(type) {
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if key := staticKey(call.Call); key != "" {
				if i, ok := prepareArgs[key]; ok && i < len(call.Call.Args) {
					return e.trace(call.Call.Args[i], fr, handleString)
				}
			}
		}
	case *ssa.Call:
		switch staticKey(v.Call) {
		case "database/sql.Tx.Stmt":
			return e.trace(v.Call.Args[1], fr, handleStmt)
		case "database/sql.Tx.StmtContext":
			return e.trace(v.Call.Args[2], fr, handleStmt)
		}
	}
	return unknownStr()
}

// staticKey returns the FuncKey of a static call's callee, or "".
func staticKey(c ssa.CallCommon) string {
	if c.IsInvoke() {
		return ""
	}
	fn := c.StaticCallee()
	if fn == nil {
		return ""
	}
	obj := funcObject(fn)
	if obj == nil {
		return ""
	}
	return FuncKey(obj)
}
