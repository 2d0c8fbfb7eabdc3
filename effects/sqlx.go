package effects

import "golang.org/x/tools/go/ssa"

// github.com/jmoiron/sqlx. DB and Tx embed *sql.DB and *sql.Tx, whose
// promoted methods resolve to the database/sql models; these are sqlx's
// own. Argument indexes count the receiver.
const sqlxPath = "github.com/jmoiron/sqlx"

func init() {
	for _, recv := range []string{"DB", "Tx"} {
		p := sqlxPath + "." + recv + "."
		for name, i := range map[string]int{
			"MustExec": 1, "MustExecContext": 2,
			"NamedExec": 1, "NamedExecContext": 2,
			"Select": 2, "SelectContext": 3,
			"Get": 2, "GetContext": 3,
			"Queryx": 1, "QueryxContext": 2,
			"QueryRowx": 1, "QueryRowxContext": 2,
			"NamedQuery": 1, "NamedQueryContext": 2,
		} {
			models[p+name] = sqlTextModel(i)
		}
		prepareArgs[p+"Preparex"] = 1
		prepareArgs[p+"PreparexContext"] = 2
		prepareArgs[p+"PrepareNamed"] = 1
		prepareArgs[p+"PrepareNamedContext"] = 2
		stringModels[p+"Rebind"] = passThrough(1)
	}
	// Package-level helpers taking a Queryer/Execer.
	for name, i := range map[string]int{
		"Select": 2, "SelectContext": 3, "Get": 2, "GetContext": 3,
		"MustExec": 1, "MustExecContext": 2, "NamedExec": 1, "NamedExecContext": 2,
		"NamedQuery": 1, "NamedQueryContext": 2,
	} {
		models[sqlxPath+"."+name] = sqlTextModel(i)
	}
	stringModels[sqlxPath+".Rebind"] = passThrough(1)
	// In, Named and BindNamed return the rewritten query first.
	extractStringModels[sqlxPath+".In"] = passThrough(0)
	extractStringModels[sqlxPath+".Named"] = passThrough(0)
	extractStringModels[sqlxPath+".DB.BindNamed"] = passThrough(1)
	// Prepared statements: the SQL is traced back to Preparex/PrepareNamed.
	for _, name := range []string{"MustExec", "MustExecContext", "Select", "SelectContext", "Get", "GetContext", "Queryx", "QueryxContext", "QueryRowx", "QueryRowxContext"} {
		models[sqlxPath+".Stmt."+name] = stmtModel
	}
	for _, name := range []string{"Exec", "ExecContext", "MustExec", "MustExecContext", "Query", "QueryContext", "Queryx", "QueryxContext", "QueryRow", "QueryRowContext", "QueryRowx", "QueryRowxContext", "Select", "SelectContext", "Get", "GetContext"} {
		models[sqlxPath+".NamedStmt."+name] = stmtModel
	}
}

// passThrough evaluates a call to the string its argument i carries:
// Rebind and friends rewrite placeholders, not tables.
func passThrough(i int) func(e *Engine, args []ssa.Value, fr *frame) Str {
	return func(e *Engine, args []ssa.Value, fr *frame) Str {
		if i < len(args) {
			return e.trace(args[i], fr, handleString)
		}
		return unknownStr()
	}
}

// extractStringModels evaluate the first result of multi-result calls.
var extractStringModels = map[string]func(e *Engine, args []ssa.Value, fr *frame) Str{}

// stmtModel runs a prepared statement: its SQL is where it was prepared.
func stmtModel(e *Engine, c *callSite) {
	e.emit(Pending{Op: OpSQL, Text: e.trace(c.args[0], c.fr, handleStmt), Pos: e.pos(c.pos), Module: e.Module}, c.out)
}
