package effects

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// github.com/jmoiron/sqlx. DB and Tx embed *sql.DB and *sql.Tx, whose
// promoted methods resolve to the database/sql models; these are sqlx's
// own; the arguments they read are named in args.go.
const sqlxPath = "github.com/jmoiron/sqlx"

// sqlxMethods are the methods of sqlx's handles that run or prepare SQL
// text (a Conn has only the context-taking ones; ExecContext and the
// like are database/sql's, promoted).
var sqlxMethods = map[string][]string{
	"DB": {"MustExec", "MustExecContext", "NamedExec", "NamedExecContext", "Select", "SelectContext", "Get", "GetContext",
		"Queryx", "QueryxContext", "QueryRowx", "QueryRowxContext", "NamedQuery", "NamedQueryContext",
		"Preparex", "PreparexContext", "PrepareNamed", "PrepareNamedContext"},
	"Tx": {"MustExec", "MustExecContext", "NamedExec", "NamedExecContext", "Select", "SelectContext", "Get", "GetContext",
		"Queryx", "QueryxContext", "QueryRowx", "QueryRowxContext", "NamedQuery",
		"Preparex", "PreparexContext", "PrepareNamed", "PrepareNamedContext"},
	"Conn": {"SelectContext", "GetContext", "QueryxContext", "QueryRowxContext", "PreparexContext"},
}

// sqlxLibrary: github.com/jmoiron/sqlx. DB and Tx embed *sql.DB and
// *sql.Tx, whose promoted methods resolve to the database/sql models;
// these are sqlx's own.
func sqlxLibrary() *Library {
	const p = sqlxPath
	l := &Library{
		Name:     "sqlx",
		Paths:    []string{p},
		Modelled: true,
		Models:   map[string]model{},
		Strings:  map[string]strModel{p + ".Rebind": passThrough(1), p + ".DB.Rebind": passThrough(1), p + ".Tx.Rebind": passThrough(1), p + ".Conn.Rebind": passThrough(1)},
		// In, Named and BindNamed return the rewritten query first.
		Extracts: map[string]strModel{p + ".In": passThrough(0), p + ".Named": passThrough(0),
			p + ".DB.BindNamed": passThrough(1), p + ".Tx.BindNamed": passThrough(1), p + ".BindNamed": passThrough(1)},
		Prepares:     map[string]int{},
		IfaceModels:  map[string]model{},
		Handles:      []string{p + ".DB", p + ".Tx", p + ".Conn", p + ".Stmt", p + ".NamedStmt"},
		SinkIfaces:   []string{p + ".Execer", p + ".ExecerContext", p + ".Ext", p + ".ExtContext", p + ".Queryer", p + ".QueryerContext", p + ".Preparer", p + ".PreparerContext"},
		ReaderIfaces: []string{p + ".ColScanner"},
		TxBegins:     keys(p+".DB.", "Beginx", "MustBegin", "BeginTxx", "MustBeginTx"),
		TxCommits:    keys(p+".Tx.", "Commit", "Rollback"),
		TxHandles:    []string{p + ".Tx"},
		Safe: []string{
			p + ".Open", p + ".MustOpen", p + ".Connect", p + ".ConnectContext", p + ".MustConnect", p + ".NewDb",
			p + ".In", p + ".Named", p + ".Rebind", p + ".BindNamed", p + ".BindType", p + ".BindDriver", p + ".MapScan", p + ".SliceScan", p + ".StructScan",
			p + ".Row.*", p + ".Rows.*", p + ".Stmt.Close", p + ".Stmt.Unsafe", p + ".NamedStmt.Close", p + ".NamedStmt.Unsafe",
			p + "/reflectx.*", p + "/types.*",
		},
	}
	l.Safe = append(l.Safe, keys(p+".DB.", "Begin", "BeginTx", "BeginTxx", "Beginx", "MustBegin", "MustBeginTx", "Close", "Conn", "Connx", "Driver", "DriverName",
		"MapperFunc", "Ping", "PingContext", "SetConnMaxIdleTime", "SetConnMaxLifetime", "SetMaxIdleConns", "SetMaxOpenConns", "Stats", "Unsafe", "Rebind", "BindNamed")...)
	l.Safe = append(l.Safe, keys(p+".Tx.", "Commit", "Rollback", "DriverName", "Unsafe", "Rebind", "BindNamed", "Stmt", "StmtContext", "Stmtx", "StmtxContext", "NamedStmt", "NamedStmtContext")...)
	l.Safe = append(l.Safe, keys(p+".Conn.", "BeginTx", "BeginTxx", "Close", "PingContext", "Raw", "Rebind")...)
	for recv, names := range sqlxMethods {
		r := p + "." + recv + "."
		for _, name := range names {
			if strings.HasPrefix(name, "Prepare") {
				l.Prepares[r+name] = arg(r + name + ".query")
			} else {
				l.Models[r+name] = sqlText(arg(r + name + ".query"))
			}
		}
		l.Safe = append(l.Safe, keys(r, "Preparex", "PreparexContext", "PrepareNamed", "PrepareNamedContext", "PrepareContext", "Prepare")...)
	}
	// Package-level helpers taking a Queryer/Execer.
	for _, name := range []string{"Select", "SelectContext", "Get", "GetContext", "MustExec", "MustExecContext", "NamedExec", "NamedExecContext", "NamedQuery", "NamedQueryContext"} {
		l.Models[p+"."+name] = sqlText(arg(p + "." + name + ".query"))
	}
	l.Prepares[p+".Preparex"] = arg(p + ".Preparex.query")
	l.Prepares[p+".PreparexContext"] = arg(p + ".PreparexContext.query")
	l.Safe = append(l.Safe, p+".Preparex", p+".PreparexContext")
	// Calls through sqlx's client interfaces run their SQL text.
	for iface, methods := range map[string][]string{
		"Execer": {"Exec"}, "ExecerContext": {"ExecContext"},
		"Queryer": {"Query", "Queryx", "QueryRowx"}, "QueryerContext": {"QueryContext", "QueryxContext", "QueryRowxContext"},
		"Ext":        {"Exec", "Query", "Queryx", "QueryRowx"},
		"ExtContext": {"ExecContext", "QueryContext", "QueryxContext", "QueryRowxContext"},
	} {
		for _, name := range methods {
			key := p + "." + iface + "." + name
			l.IfaceModels[key] = sqlText(arg(key + ".query"))
		}
		for _, name := range []string{"Rebind", "BindNamed", "DriverName"} {
			l.IfaceModels[p+"."+iface+"."+name] = func(*callSite) {}
		}
	}
	// Prepared statements: the SQL is traced back to Preparex/PrepareNamed.
	for _, name := range []string{"Exec", "ExecContext", "MustExec", "MustExecContext", "Query", "QueryContext", "Queryx", "QueryxContext", "QueryRow", "QueryRowContext", "QueryRowx", "QueryRowxContext", "Select", "SelectContext", "Get", "GetContext"} {
		l.Models[p+".Stmt."+name] = stmtModel
		l.Models[p+".NamedStmt."+name] = stmtModel
	}
	// LoadFile runs the statements of a file the analysis does not read.
	for _, name := range []string{"LoadFile", "LoadFileContext"} {
		l.Models[p+"."+name] = func(c *callSite) {
			c.unprovable("runs the SQL statements of a file (sqlx."+c.fn.Name()+"), which the analysis does not read",
				"declare what the file does with //agent:effect writes(...)")
		}
	}
	return l
}

// passThrough evaluates a call to the string its argument i carries:
// Rebind and friends rewrite placeholders, not tables.
func passThrough(i int) strModel {
	return func(e *Engine, args []ssa.Value, fr *frame) Str {
		if i < len(args) {
			return e.trace(args[i], fr, handleString)
		}
		return unknownStr()
	}
}
