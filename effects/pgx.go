package effects

import (
	"go/constant"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// pgx v5: github.com/jackc/pgx/v5 (Conn, the Tx interface, Batch,
// Identifier) and pgxpool (Pool, Conn). Argument indexes count the
// receiver.
const (
	pgxPath     = "github.com/jackc/pgx/v5"
	pgxpoolPath = "github.com/jackc/pgx/v5/pgxpool"
)

func init() {
	for _, recv := range []string{pgxPath + ".Conn", pgxpoolPath + ".Pool", pgxpoolPath + ".Conn"} {
		for _, name := range []string{"Exec", "Query", "QueryRow"} {
			models[recv+"."+name] = sqlTextModel(2)
		}
		models[recv+".CopyFrom"] = copyFromModel
		models[recv+".SendBatch"] = sendBatchModel
	}
	// pgx.Tx is an interface: its methods are modelled on the calls
	// through it, and it is never benign.
	for _, name := range []string{"Exec", "Query", "QueryRow"} {
		ifaceModels[pgxPath+".Tx."+name] = sqlTextModel(2)
	}
	ifaceModels[pgxPath+".Tx.CopyFrom"] = copyFromModel
	ifaceModels[pgxPath+".Tx.SendBatch"] = sendBatchModel
	for _, name := range []string{"Commit", "Rollback", "Begin", "Conn"} {
		ifaceModels[pgxPath+".Tx."+name] = func(*Engine, *callSite) {}
	}
	// BeginFunc and BeginTxFunc run their callback in a transaction.
	models[pgxPath+".BeginFunc"] = txCallback(2)
	models[pgxPath+".BeginTxFunc"] = txCallback(3)
	// Prepare(ctx, name, sql) only describes a statement.
	models[pgxPath+".Conn.Prepare"] = func(*Engine, *callSite) {}
}

// copyFromModel: CopyFrom(ctx, tableName pgx.Identifier, ...) inserts rows
// into the table the Identifier names.
func copyFromModel(e *Engine, c *callSite) {
	if len(c.args) < 3 {
		return
	}
	table, ok := identifier(c.args[2])
	if !ok {
		c.out.add(e.unprovable(c.pos, "copies rows into a table whose pgx.Identifier is not constant",
			`name the table with a constant pgx.Identifier{"schema", "table"}, or declare it with //agent:effect writes(...)`))
		return
	}
	c.out.add(Effect{Kind: Write, Subject: table, Provenance: Syntactic, Pos: e.pos(c.pos), Module: e.Module})
}

// identifier reads a constant pgx.Identifier{...} literal: a slice of a
// local array whose elements are stored constants. Unquoted parts are
// lower-cased, as SQL would, unless they carry upper case (pgx quotes
// each part, so case is significant).
func identifier(v ssa.Value) (string, bool) {
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return "", false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return "", false
	}
	parts := map[int64]string{}
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		idx, ok := ia.Index.(*ssa.Const)
		if !ok || idx.Value == nil {
			return "", false
		}
		i, _ := constant.Int64Val(idx.Value)
		for _, r2 := range *ia.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
				c, ok := st.Val.(*ssa.Const)
				if !ok || c.Value == nil || c.Value.Kind() != constant.String {
					return "", false
				}
				parts[i] = constant.StringVal(c.Value)
			}
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	out := make([]string, len(parts))
	for i := range out {
		p, ok := parts[int64(i)]
		if !ok {
			return "", false
		}
		out[i] = p
	}
	return strings.Join(out, "."), true
}

// sendBatchModel: SendBatch(ctx, b) runs every statement queued on b with
// b.Queue(sql, ...).
func sendBatchModel(e *Engine, c *callSite) {
	if len(c.args) < 3 {
		return
	}
	text, ok := batchSQL(e, c.args[2], c.fr)
	if !ok {
		c.out.add(e.unprovable(c.pos, "sends a pgx.Batch whose queued statements are not visible",
			"queue the statements on a local pgx.Batch in the same function, or declare what they do with //agent:effect"))
		return
	}
	e.emit(Pending{Op: OpSQL, Text: text, Pos: e.pos(c.pos), Module: e.Module}, c.out)
}

// batchSQL collects the SQL of every b.Queue call on a local batch.
func batchSQL(e *Engine, b ssa.Value, fr *frame) (Str, bool) {
	var text Str
	found := false
	for _, r := range *b.Referrers() {
		call, ok := r.(*ssa.Call)
		if !ok || staticKey(call.Call) != pgxPath+".Batch.Queue" || len(call.Call.Args) < 2 || call.Call.Args[0] != b {
			continue
		}
		text = unionStr(text, e.trace(call.Call.Args[1], fr, handleString))
		found = true
	}
	return text, found
}

// txCallback models a function that runs its callback argument i inside
// a transaction.
func txCallback(i int) model {
	return func(e *Engine, c *callSite) {
		if i < len(c.args) {
			e.txCallbacks++
			e.callArg(c.args[i], c.pos, c.fr, c.out)
			e.txCallbacks--
		}
	}
}
