package effects

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// database/sql: DB, Tx and Conn run SQL text; a Stmt is traced back to
// the Prepare that made it. Argument indexes count the receiver.
func sqlLibrary() *Library {
	const p = "database/sql"
	l := &Library{
		Name:     "database/sql",
		Paths:    []string{p, p + "/driver"},
		Models:   map[string]model{},
		Prepares: map[string]int{},
		Handles:  []string{p + ".DB", p + ".Tx", p + ".Conn", p + ".Stmt"},
		// A driver is the sink itself; a Valuer only converts a value.
		SinkIfaces:   []string{p + "/driver."},
		BenignIfaces: []string{p + ".Result", p + "/driver.Valuer", p + ".Scanner"},
		TxBegins:     []string{p + ".DB.Begin", p + ".DB.BeginTx", p + ".Conn.BeginTx"},
		TxCommits:    []string{p + ".Tx.Commit", p + ".Tx.Rollback"},
		TxHandles:    []string{p + ".Tx"},
	}
	for _, recv := range []string{"DB", "Tx", "Conn"} {
		r := p + "." + recv + "."
		names := []string{"ExecContext", "QueryContext", "QueryRowContext", "PrepareContext"}
		if recv != "Conn" { // a Conn has only the context-taking calls
			names = append(names, "Exec", "Query", "QueryRow", "Prepare")
		}
		for _, name := range names {
			if strings.HasPrefix(name, "Prepare") {
				l.Prepares[r+name] = arg(r + name + ".query")
			} else {
				l.Models[r+name] = sqlText(arg(r + name + ".query"))
			}
		}
	}
	for _, name := range []string{"Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext"} {
		l.Models[p+".Stmt."+name] = stmtModel
	}
	return l
}

// sqlText reports the SQL text at argument i. The arguments are handed
// to the driver: a driver.Valuer's Value runs here.
func sqlText(i int) model {
	return func(c *callSite) {
		c.emit(Pending{Op: OpSQL, Text: c.str(i, handleString)})
		c.handOffArgs(i + 1)
	}
}

// stmtModel runs a prepared statement: its SQL is where it was prepared.
func stmtModel(c *callSite) {
	c.emit(Pending{Op: OpSQL, Text: c.str(0, handleStmt)})
	c.handOffArgs(1)
}

// sqlxEmbeddedStmt returns the *sqlx.Stmt whose embedded *sql.Stmt v
// reads (stmt.ExecContext on an *sqlx.Stmt calls the embedded one's), or
// nil.
func sqlxEmbeddedStmt(v *ssa.UnOp) ssa.Value {
	if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL && qualifiedName(fa.X.Type()) == sqlxPath+".Stmt" && fieldName(fa.X.Type(), fa.Field) == "Stmt" {
		return fa.X
	}
	return nil
}

// stmtSQL traces a prepared statement back to the Prepare call that made it.
func (e *Engine) stmtSQL(v ssa.Value, fr *frame) Str {
	switch v := v.(type) {
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if key := staticKey(call.Call); key != "" {
				if i, ok := lib().prepares[key]; ok && i < len(call.Call.Args) {
					return e.trace(call.Call.Args[i], fr, handleString)
				}
			}
		}
	case *ssa.Call:
		switch staticKey(v.Call) {
		case "database/sql.Tx.Stmt", "database/sql.Tx.StmtContext":
			return e.trace(v.Call.Args[arg(staticKey(v.Call)+".stmt")], fr, handleStmt)
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
