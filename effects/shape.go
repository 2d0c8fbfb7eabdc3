package effects

import (
	"go/types"
	"strings"
)

// An interface whose methods have the shape of a modelled SQL handle's
// (sqlc's DBTX: ExecContext/QueryContext/QueryRowContext(ctx, string,
// ...any) with database/sql results; pgx's Exec/Query/QueryRow,
// CopyFrom and SendBatch; sqlx's Queryx, Select, Get, NamedExec, ...) is
// a SQL handle: a call through it runs its SQL text, whatever the value
// behind it. Where the concrete value is in sight, its own method is
// walked instead (a wrapper's other effects count).

// sqlMethodNames are the methods of the modelled handles that run SQL
// text given as their first string parameter.
var sqlMethodNames = map[string]bool{
	"Exec": true, "ExecContext": true, "Query": true, "QueryContext": true, "QueryRow": true, "QueryRowContext": true,
	"Queryx": true, "QueryxContext": true, "QueryRowx": true, "QueryRowxContext": true,
	"Select": true, "SelectContext": true, "Get": true, "GetContext": true,
	"NamedExec": true, "NamedExecContext": true, "NamedQuery": true, "NamedQueryContext": true,
	"MustExec": true, "MustExecContext": true,
}

// sqlResultPackages are the packages whose result types mark a handle.
var sqlResultPackages = []string{"database/sql", sqlxPath, pgxPath}

// shapeOf returns the model of an interface method shaped like a SQL
// handle's, with the index (receiver not counted) of its SQL text, or nil.
func shapeOf(m *types.Func) (model, int) {
	sig := m.Signature()
	// CopyFrom returns (int64, error): its pgx.Identifier parameter is
	// what marks it.
	switch m.Name() {
	case "CopyFrom":
		if sig.Params().Len() >= 2 && qualifiedName(sig.Params().At(1).Type()) == pgxPath+".Identifier" {
			return copyFromModel, -1
		}
	case "SendBatch":
		if sig.Params().Len() >= 2 && qualifiedName(sig.Params().At(1).Type()) == pgxPath+".Batch" && sqlResults(sig) {
			return sendBatchModel, -1
		}
	}
	if !sqlResults(sig) || !sqlMethodNames[m.Name()] {
		return nil, -1
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if t := sig.Params().At(i).Type(); isString(t) && !types.IsInterface(t) {
			return sqlText(i + 1), i
		}
	}
	return nil, -1
}

// sqlResults reports whether some result of sig is a type of a modelled
// SQL library.
func sqlResults(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		t := sig.Results().At(i).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.Obj().Pkg() == nil {
			continue
		}
		path := n.Obj().Pkg().Path()
		for _, p := range sqlResultPackages {
			if path == p || strings.HasPrefix(path, p+"/") {
				return true
			}
		}
	}
	return false
}

// SQLShaped reports whether m, an interface method, is shaped like a SQL
// handle's: a package that calls it can reach the database.
func SQLShaped(m *types.Func) bool {
	md, _ := shapeOf(m)
	return md != nil
}
