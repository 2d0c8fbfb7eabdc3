package sqltext

import (
	"errors"
	"maps"
	"slices"
	"strings"
)

// Kind is the kind of a SQL statement.
type Kind string

// Statement kinds. Control covers statements that change no data (BEGIN,
// COMMIT, SET, SHOW, EXPLAIN without ANALYZE); Other covers every other
// statement this package does not model (CALL, DO, CREATE, ALTER, DROP,
// GRANT, COPY, VACUUM, SET ROLE, ...), which a caller cannot bound.
const (
	Select   Kind = "select"
	Insert   Kind = "insert"
	Update   Kind = "update"
	Delete   Kind = "delete"
	Truncate Kind = "truncate"
	Merge    Kind = "merge"
	Control  Kind = "control" // transaction control, session settings, SHOW, EXPLAIN without ANALYZE: no data changes
	Other    Kind = "other"
)

// Statement is what the reader learned about one SQL statement.
type Statement struct {
	Kind             Kind     // statement kind
	Table            string   // target of INSERT/UPDATE/DELETE/TRUNCATE/MERGE, first FROM table of SELECT, object of other statements when obvious
	Writes           []string // every table written, including by data-changing CTEs; sorted, deduplicated
	Reads            []string // tables read (FROM, JOIN, USING, subqueries), CTE names excluded; sorted, deduplicated
	HasWhere         bool     // the main UPDATE/DELETE/SELECT has a top-level WHERE clause
	TenantBound      []string // columns bound to a bind parameter by a top-level AND conjunct `col = param` of the main WHERE; sorted, deduplicated
	DataChangingCTE  bool     // a WITH clause contains INSERT, UPDATE, DELETE or MERGE
	OnConflictUpdate bool     // upsert: ON CONFLICT DO UPDATE, ON DUPLICATE KEY UPDATE, INSERT OR REPLACE, REPLACE INTO
	Truncated        bool     // the statement runs to the end of a partial text
	// OpenWhere: the statement is truncated inside its WHERE (or its
	// source query's), so unknown text may add OR ...: HasWhere and
	// TenantBound prove nothing. Not set when the unknown text only adds
	// AND-joined constant conditions (Options.ConjunctiveTail).
	OpenWhere bool

	// The query an INSERT ... SELECT, CREATE TABLE ... AS or SELECT ...
	// INTO reads: its first table, and what its WHERE binds.
	SourceTable    string
	SourceHasWhere bool
	SourceBound    []string
	// ValueSources are the scalar subqueries of an INSERT's VALUES,
	// whose rows the statement copies like INSERT ... SELECT's.
	ValueSources []Source
}

// Source is a query whose rows a statement copies: its first table and
// the columns its WHERE binds.
type Source struct {
	Table    string
	HasWhere bool
	Bound    []string
}

// Options controls how Parse reads text.
type Options struct {
	// Partial: the text is only a known prefix and unknown runtime text
	// follows it. The reader reads what it can and marks the last statement
	// Truncated; HasWhere and TenantBound then reflect only the known text.
	Partial bool
	// ConjunctiveTail: the unknown text of a partial text only adds
	// AND-joined constant conditions (strings.Join of constant conditions
	// with " AND "), so it cannot reopen a WHERE with OR.
	ConjunctiveTail bool
	// Dialect fixes how the text is lexed: Postgres ('#' is an operator,
	// backslashes are plain in '...' strings) or MySQL ('#' starts a
	// comment, backslash escapes in '...'). With neither, Postgres rules
	// apply to strings and '#' starts a comment unless followed by '>' or
	// '-'; a caller that does not know the dialect reads the text both
	// ways (Postgres and MySQL) and keeps the unsafe reading.
	Dialect Dialect
}

// Dialect is a SQL dialect whose lexing differs from the others'.
type Dialect uint8

// Dialects.
const (
	AnyDialect Dialect = iota
	Postgres
	MySQL
)

const maxDepth = 200

// Parse reads every statement in text, split on top-level semicolons, with
// empty statements ignored. It returns an error when the text cannot be read
// well enough to fix each statement's kind and target table.
func Parse(text string, opts Options) ([]Statement, error) {
	toks, _, err := lex(text, opts.Partial, opts.Dialect)
	if err != nil {
		return nil, err
	}
	var segs [][]token
	depth, start, semis := 0, 0, 0
	for i, t := range toks {
		switch t.kind {
		case tLParen:
			depth++
			if depth > maxDepth {
				return nil, errors.New("nesting too deep")
			}
		case tRParen:
			if depth == 0 {
				return nil, errors.New("unbalanced parentheses")
			}
			depth--
		case tSemi:
			if depth == 0 {
				semis++
				if i > start {
					segs = append(segs, toks[start:i])
				}
				start = i + 1
			}
		}
	}
	if depth > 0 && !opts.Partial {
		return nil, errors.New("unbalanced parentheses")
	}
	if start < len(toks) {
		segs = append(segs, toks[start:])
	}
	if len(segs) == 0 {
		return nil, errors.New("empty SQL text")
	}
	if opts.Partial && start == len(toks) {
		return nil, errors.New("the known text ends before the next statement")
	}
	out := make([]Statement, 0, len(segs))
	for k, seg := range segs {
		st, err := parseStatement(seg, opts.Partial && k == len(segs)-1)
		if err != nil {
			return nil, err
		}
		if st.OpenWhere && opts.ConjunctiveTail {
			st.OpenWhere = false
		}
		out = append(out, st)
	}
	return out, nil
}

// info is what a statement or query contributes besides reads and writes.
type info struct {
	kind       Kind
	table      string
	tableOpen  bool // the table name may continue past the known text
	hasWhere   bool
	bound      []string
	onConflict bool
	openWhere  bool   // truncated inside the WHERE
	source     *info  // the query an INSERT ... SELECT (or CREATE TABLE ... AS) reads
	values     []info // the scalar subqueries of an INSERT's VALUES
	// passes: for a SELECT of one table, the columns its select list
	// hands on unchanged ("*" for all); nil when none is known to.
	passes map[string]bool
}

// scope is a linked list of CTE names in scope, each with the table its
// body reads or writes first.
type scope struct {
	parent *scope
	name   string
	table  string
	bound  []string // columns the CTE's own WHERE binds (a SELECT body)
}

func (s *scope) lookup(name string) (*scope, bool) {
	if strings.Contains(name, ".") {
		return nil, false
	}
	for ; s != nil; s = s.parent {
		if s.name == name {
			return s, true
		}
	}
	return nil, false
}

type parser struct {
	toks   []token
	match  []int // index of the matching ')' for each '(' (len(toks) if unclosed)
	trunc  bool  // the statement runs to the end of a partial text
	err    error
	reads  map[string]bool
	writes map[string]bool
	dcte   bool
	into   string // SELECT ... INTO t: the table the main query creates
}

func parseStatement(toks []token, trunc bool) (Statement, error) {
	p := &parser{toks: toks, trunc: trunc, reads: map[string]bool{}, writes: map[string]bool{}}
	p.match = make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		switch t.kind {
		case tLParen:
			stack = append(stack, i)
			p.match[i] = len(toks)
		case tRParen:
			if len(stack) > 0 {
				p.match[stack[len(stack)-1]] = i
				stack = stack[:len(stack)-1]
			}
		}
	}
	in := p.stmt(0, len(toks), nil)
	if p.err == nil && trunc && in.kind == Select && (in.table == "" || in.tableOpen) {
		p.fail("the table of SELECT is not fixed by the known text")
	}
	if p.into != "" && in.kind == Select {
		// SELECT ... INTO t creates t and fills it with the rows read.
		src := in
		in = info{kind: Insert, table: p.into, source: &src}
		p.addWrite(p.into)
	}
	if p.err != nil {
		return Statement{}, p.err
	}
	st := Statement{
		Kind:             in.kind,
		Table:            in.table,
		HasWhere:         in.hasWhere,
		DataChangingCTE:  p.dcte,
		OnConflictUpdate: in.onConflict,
		Truncated:        trunc,
		OpenWhere:        in.openWhere,
		Writes:           sortedKeys(p.writes),
		Reads:            sortedKeys(p.reads),
		TenantBound:      sortedSet(in.bound),
	}
	if src := in.source; src != nil {
		st.SourceTable, st.SourceHasWhere, st.SourceBound = src.table, src.hasWhere, sortedSet(src.bound)
		st.OpenWhere = st.OpenWhere || src.openWhere
	}
	for _, v := range in.values {
		if v.table != "" {
			st.ValueSources = append(st.ValueSources, Source{Table: v.table, HasWhere: v.hasWhere, Bound: sortedSet(v.bound)})
		}
	}
	return st, nil
}

func sortedSet(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	return slices.Compact(slices.Sorted(slices.Values(xs)))
}

func sortedKeys(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

func (p *parser) fail(msg string) {
	if p.err == nil {
		p.err = errors.New(msg)
	}
}

// lenient reports whether a construct cut short at hi is excused because the
// known text of a partial statement ends there.
func (p *parser) lenient(hi int) bool { return p.trunc && hi >= len(p.toks) }

func (p *parser) word(i, hi int, ws ...string) bool {
	if i < 0 || i >= hi || i >= len(p.toks) || p.toks[i].kind != tIdent {
		return false
	}
	return slices.Contains(ws, p.toks[i].val)
}

func (p *parser) is(i, hi int, k tokKind) bool {
	return i >= 0 && i < hi && i < len(p.toks) && p.toks[i].kind == k
}

func (p *parser) op(i, hi int, ops ...string) bool {
	return p.is(i, hi, tOp) && slices.Contains(ops, p.toks[i].val)
}

// end returns the index of the ')' closing the '(' at i, clamped to hi.
func (p *parser) end(i, hi int) int { return min(p.match[i], hi) }

// after returns the index just past the group opened at i, clamped to hi.
func (p *parser) after(i, hi int) int { return min(p.match[i]+1, hi) }

// clauseWord reports whether the identifier at i can be a keyword: it is not
// a qualified name part or a column label after AS.
func (p *parser) clauseWord(i, lo int) bool {
	if p.toks[i].kind != tIdent {
		return false
	}
	if i > lo {
		pt := p.toks[i-1]
		if pt.kind == tDot || pt.kind == tIdent && pt.val == "as" {
			return false
		}
	}
	return true
}

// find returns the first depth-0 keyword of ws in [lo,hi), or hi.
func (p *parser) find(lo, hi int, ws ...string) int {
	for i := lo; i < hi; {
		if p.toks[i].kind == tLParen {
			i = p.after(i, hi)
			continue
		}
		if p.clauseWord(i, lo) && p.word(i, hi, ws...) {
			return i
		}
		i++
	}
	return hi
}

// reserved words are never an unquoted table name, alias or CTE name.
var reserved = setOf("all", "and", "any", "as", "asc", "between", "by", "case", "cross", "default",
	"delete", "desc", "distinct", "do", "else", "end", "except", "exists", "false", "fetch", "for",
	"force", "from", "full", "group", "having", "ignore", "in", "indexed", "inner", "insert",
	"intersect", "into", "is", "join", "lateral", "left", "like", "limit", "lock", "merge",
	"natural", "not", "null", "offset", "on", "only", "or", "order", "outer", "partition",
	"returning", "right", "select", "set", "straight_join", "table", "tablesample", "then",
	"true", "union", "update", "use", "using", "values", "when", "where", "window", "with")

// otherStatements start statements of kind Other.
var otherStatements = setOf("abort", "alter", "analyse", "analyze", "attach", "begin", "binlog",
	"cache", "call", "change", "checkpoint", "checksum", "close", "cluster", "comment", "commit",
	"copy", "create", "deallocate", "declare", "desc", "describe", "detach", "discard", "do",
	"drop", "end", "execute", "explain", "fetch", "flush", "get", "grant", "handler", "help",
	"import", "install", "kill", "listen", "load", "lock", "move", "notify", "optimize", "pragma",
	"prepare", "purge", "reassign", "refresh", "reindex", "release", "rename", "repair", "reset",
	"resignal", "revoke", "rollback", "savepoint", "security", "set", "show", "shutdown", "signal",
	"start", "uninstall", "unlisten", "unlock", "use", "vacuum", "xa")

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// isName reports whether the token at i can start a name.
func (p *parser) isName(i, hi int) bool {
	if i < 0 || i >= hi || i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	return t.kind == tIdent && !reserved[t.val] || t.kind == tQuoted && t.val != ""
}

func (p *parser) isNamePart(i, hi int) bool {
	if i < 0 || i >= hi || i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	return t.kind == tIdent || t.kind == tQuoted && t.val != ""
}

// name reads a possibly schema-qualified name at i and returns it normalised
// and the index after it.
func (p *parser) name(i, hi int) (string, int, bool) {
	if !p.isName(i, hi) {
		return "", i, false
	}
	var b strings.Builder
	b.WriteString(p.toks[i].val)
	j := i + 1
	// The parts of a qualified name touch their dots: "a .b" is not one
	// name (so a known prefix "a " fixes it).
	for p.is(j, hi, tDot) && p.isNamePart(j+1, hi) && p.toks[j].start == p.toks[j-1].end && p.toks[j+1].start == p.toks[j].end {
		b.WriteByte('.')
		b.WriteString(p.toks[j+1].val)
		j += 2
	}
	return b.String(), j, true
}

// nameOpen reports whether a name ending just before j may continue past the
// known text of a partial statement.
func (p *parser) nameOpen(j int) bool {
	if !p.trunc || j <= 0 {
		return false
	}
	// The name may go on past the known text: a part cut in the middle,
	// or the text ending right after a dot.
	if p.toks[j-1].atEnd {
		return true
	}
	return j < len(p.toks) && p.toks[j].kind == tDot && (j+1 >= len(p.toks) || p.toks[j+1].atEnd)
}

// target reads the target table of a data-changing statement.
func (p *parser) target(i, hi int, stmt string) (string, int) {
	name, j, ok := p.name(i, hi)
	switch {
	case !ok && i >= len(p.toks) && p.trunc:
		p.fail("the target table of " + stmt + " is not fixed by the known text")
	case !ok:
		p.fail("cannot read the target table of " + stmt)
	case p.nameOpen(j):
		p.fail("the target table of " + stmt + " is not fixed by the known text")
	}
	return name, j
}

func (p *parser) addRead(name string)  { p.reads[name] = true }
func (p *parser) addWrite(name string) { p.writes[name] = true }

// isQueryStart reports whether [i,hi) starts a query (possibly parenthesised).
func (p *parser) isQueryStart(i, hi int) bool {
	for p.is(i, hi, tLParen) {
		i++
	}
	return p.word(i, hi, "select", "with", "values", "table")
}

// stmt reads one statement in [lo,hi).
func (p *parser) stmt(lo, hi int, sc *scope) info {
	for {
		if p.err != nil {
			return info{}
		}
		if lo >= hi {
			if p.lenient(hi) {
				p.fail("the statement kind is not fixed by the known text")
			} else {
				p.fail("missing statement")
			}
			return info{}
		}
		if p.toks[lo].atEnd {
			p.fail("the statement kind is not fixed by the known text")
			return info{}
		}
		if !p.word(lo, hi, "with") {
			break
		}
		sc, lo = p.with(lo, hi, sc)
	}
	t := p.toks[lo]
	if t.kind == tLParen {
		return p.query(lo, hi, sc)
	}
	if t.kind == tIdent {
		switch t.val {
		case "select", "values", "table":
			return p.query(lo, hi, sc)
		case "insert", "replace":
			return p.insert(lo, hi, sc)
		case "update":
			return p.update(lo, hi, sc)
		case "delete":
			return p.delete(lo, hi, sc)
		case "truncate":
			return p.truncate(lo, hi)
		case "merge":
			return p.merge(lo, hi, sc)
		case "explain":
			return p.explain(lo, hi, sc)
		case "copy":
			if in, ok := p.copyStmt(lo, hi, sc); ok {
				return in
			}
		case "analyze", "analyse":
			// MariaDB's ANALYZE <statement> runs the statement; ANALYZE
			// [TABLE] t only gathers statistics.
			i := lo + 1
			if p.word(i, hi, "format") && p.op(i+1, hi, "=") {
				i += 3
			}
			if p.word(i, hi, "select", "insert", "replace", "update", "delete", "with", "values") {
				return p.stmt(i, hi, sc)
			}
			if i >= hi && p.lenient(hi) || i < hi && p.toks[i].atEnd {
				p.fail("the statement kind is not fixed by the known text")
				return info{}
			}
		case "create":
			if in, ok := p.createAs(lo, hi, sc); ok {
				return in
			}
		}
		if p.control(lo, hi) {
			return info{kind: Control}
		}
		if otherStatements[t.val] {
			return p.other(lo, hi)
		}
	}
	p.fail("unrecognised statement")
	return info{}
}

// with reads a WITH clause at lo and returns the scope extended by its CTE
// names and the index of the main statement.
func (p *parser) with(lo, hi int, sc *scope) (*scope, int) {
	bad := func(i int) (*scope, int) {
		if p.lenient(hi) && i >= hi {
			p.fail("the statement kind is not fixed by the known text")
		} else {
			p.fail("cannot read the WITH clause")
		}
		return sc, hi
	}
	i := lo + 1
	if p.word(i, hi, "recursive") {
		i++
	}
	for p.err == nil {
		if !p.isName(i, hi) {
			return bad(i)
		}
		nm := p.toks[i].val
		i++
		if p.is(i, hi, tLParen) {
			i = p.after(i, hi)
		}
		if !p.word(i, hi, "as") {
			return bad(i)
		}
		i++
		if p.word(i, hi, "not") {
			i++
		}
		if p.word(i, hi, "materialized") {
			i++
		}
		if !p.is(i, hi, tLParen) {
			return bad(i)
		}
		in := p.stmt(i+1, p.end(i, hi), &scope{parent: sc, name: nm})
		switch in.kind {
		case Insert, Update, Delete, Merge:
			p.dcte = true
		}
		sc = &scope{parent: sc, name: nm, table: in.table}
		switch in.kind {
		case Select, Update, Delete:
			// The rows the CTE yields (a data-changing one's RETURNING
			// rows) are those its WHERE chose.
			sc.bound = in.bound
		}
		i = p.after(i, hi)
		if p.word(i, hi, "search", "cycle") {
			for i < hi && !p.is(i, hi, tComma) && !p.word(i, hi, "select", "insert", "update", "delete", "merge", "values", "table") {
				if p.is(i, hi, tLParen) {
					i = p.after(i, hi)
					continue
				}
				i++
			}
		}
		if !p.is(i, hi, tComma) {
			return sc, i
		}
		i++
	}
	return sc, hi
}

// query reads a SELECT, VALUES or TABLE query, or a set operation of them.
func (p *parser) query(lo, hi int, sc *scope) info {
	res := info{kind: Select, hasWhere: true}
	first := true
	a := lo
	for p.err == nil {
		if a >= hi {
			if !p.lenient(hi) {
				p.fail("cannot read the query")
			}
			res.hasWhere, res.bound = false, nil
			break
		}
		b := a
		for b < hi {
			if p.is(b, hi, tLParen) {
				b = p.after(b, hi)
				continue
			}
			if b > a && p.clauseWord(b, a) && p.word(b, hi, "union", "intersect", "except") {
				break
			}
			b++
		}
		bi := p.branch(a, b, sc)
		if res.table == "" {
			res.table, res.tableOpen = bi.table, bi.tableOpen
		}
		res.openWhere = res.openWhere || bi.openWhere
		res.hasWhere = res.hasWhere && bi.hasWhere
		if first {
			res.bound, res.passes = bi.bound, bi.passes
		} else {
			res.bound = slices.DeleteFunc(res.bound, func(c string) bool { return !slices.Contains(bi.bound, c) })
			res.passes = nil // a set operation's columns come from every branch
		}
		first = false
		if b >= hi {
			break
		}
		a = b + 1
		if p.word(a, hi, "all", "distinct") {
			a++
		}
	}
	return res
}

// branch reads one operand of a set operation.
func (p *parser) branch(lo, hi int, sc *scope) info {
	switch {
	case p.is(lo, hi, tLParen):
		in := p.stmt(lo+1, p.end(lo, hi), sc)
		p.scanExpr(p.after(lo, hi), hi, sc)
		return info{kind: Select, table: in.table, tableOpen: in.tableOpen, hasWhere: in.hasWhere, bound: in.bound, openWhere: in.openWhere}
	case p.word(lo, hi, "select"):
		r := p.clauses(lo+1, hi, sc, selectClauses)
		res := info{kind: Select, hasWhere: r.hasWhere, bound: ownBound(r.bound), openWhere: r.openWhere}
		for _, it := range r.items {
			if it.tableOf != "" {
				res.table, res.tableOpen = it.tableOf, it.open
				// Reading through a CTE or subquery: its own WHERE
				// scopes the table too. An outer predicate on a
				// subquery's column binds the table only if the
				// subquery hands that column on unchanged.
				own := ownBound(r.bound, qualifiers(it.alias, it.name, it.tableOf)...)
				if it.sub {
					own = slices.DeleteFunc(own, func(c string) bool { return !it.passes["*"] && !it.passes[c] })
				}
				res.bound = append(own, it.bound...)
				res.openWhere = res.openWhere || it.openWhere
				break
			}
		}
		if len(r.items) == 1 && r.items[0].isTable {
			res.passes = p.passedColumns(r.head[0], r.head[1], r.items[0])
		}
		if r.into[1] > r.into[0] {
			p.selectInto(r.into[0], r.into[1])
		}
		return res
	case p.word(lo, hi, "values"):
		p.scanExpr(lo+1, hi, sc)
		return info{kind: Select}
	case p.word(lo, hi, "table"):
		name, j, ok := p.name(lo+1, hi)
		if !ok {
			if !p.lenient(hi) || lo+1 < hi {
				p.fail("cannot read the query")
			}
			return info{kind: Select}
		}
		res := info{kind: Select, tableOpen: p.nameOpen(j)}
		if cte, ok := sc.lookup(name); ok {
			res.table, res.bound = cte.table, cte.bound
		} else {
			res.table = name
			p.addRead(name)
		}
		return res
	}
	p.fail("cannot read the query")
	return info{}
}

// passedColumns reads a SELECT list over one table item: the columns it
// hands on unchanged ("*" for every one): `*`, `t.*`, a column, or a
// column renamed to itself. Anything else hands on nothing.
func (p *parser) passedColumns(lo, hi int, it fromItem) map[string]bool {
	if p.word(lo, hi, "all") {
		lo++
	} else if p.word(lo, hi, "distinct") {
		lo++
		if p.word(lo, hi, "on") && p.is(lo+1, hi, tLParen) {
			lo = p.after(lo+1, hi)
		}
	}
	own := func(q string) bool {
		for _, n := range qualifiers(it.alias, it.name, it.tableOf) {
			if n != "" && (q == n || strings.HasSuffix(n, "."+q)) {
				return true
			}
		}
		return false
	}
	out := map[string]bool{}
	for _, d := range p.commaList(lo, hi) {
		a, b := d[0], d[1]
		switch {
		case b == a+1 && p.op(a, hi, "*"):
			out["*"] = true
			continue
		case b == a+3 && p.isNamePart(a, hi) && p.is(a+1, hi, tDot) && p.op(a+2, hi, "*"):
			if own(p.toks[a].val) {
				out["*"] = true
			}
			continue
		}
		end := b
		as := ""
		if b-a >= 3 && p.word(b-2, hi, "as") && p.isNamePart(b-1, hi) {
			end, as = b-2, p.toks[b-1].val
		}
		col, ok := p.colRef(a, end)
		if !ok {
			continue
		}
		q, c, qualified := strings.Cut(col, "\x00")
		if !qualified {
			c = q
		} else if !own(q) {
			continue
		}
		if as == "" || as == c {
			out[c] = true
		}
	}
	return out
}

// commaList splits [lo,hi) at its top-level commas.
func (p *parser) commaList(lo, hi int) [][2]int {
	var out [][2]int
	start := lo
	for i := lo; i < hi; {
		if p.is(i, hi, tLParen) {
			i = p.after(i, hi)
			continue
		}
		if p.is(i, hi, tComma) {
			out = append(out, [2]int{start, i})
			start = i + 1
		}
		i++
	}
	return append(out, [2]int{start, hi})
}

var (
	selectClauses = setOf("from", "where", "group", "having", "window", "order", "limit", "offset", "fetch", "for", "into", "lock")
	updateClauses = setOf("from", "where", "returning", "order", "limit")
	deleteClauses = setOf("using", "where", "returning", "order", "limit")
	mysqlDelete   = setOf("from", "where", "order", "limit")
)

type clauseInfo struct {
	head      [2]int // the text before the first clause (a SELECT's list)
	hasWhere  bool
	bound     []string   // qualified as written: "col" or "qual.col"
	items     []fromItem // items of the first FROM/USING clause
	openWhere bool       // the WHERE runs to the end of a partial text
	openFrom  bool       // the FROM list runs to the end of a partial text
	into      [2]int     // the INTO clause of a SELECT, if any
}

// clauses splits [lo,hi) at the depth-0 clause keywords ws (each taken once)
// and reads each clause: FROM/USING lists, the WHERE, and subqueries elsewhere.
func (p *parser) clauses(lo, hi int, sc *scope, ws map[string]bool) clauseInfo {
	var r clauseInfo
	seen := map[string]bool{}
	cur, start := "", lo
	flush := func(end int) {
		switch cur {
		case "from", "using":
			r.items = p.fromList(start, end, sc, true)
			r.openFrom = p.lenient(end)
		case "where":
			r.hasWhere = true
			r.bound = p.conjuncts(start, end, nil)
			r.openWhere = p.lenient(end)
			p.scanExpr(start, end, sc)
		case "into":
			r.into = [2]int{start, end}
		default:
			if cur == "" {
				r.head = [2]int{start, end}
			}
			p.scanExpr(start, end, sc)
		}
	}
	for i := lo; i < hi && p.err == nil; {
		t := p.toks[i]
		if t.kind == tLParen {
			i = p.after(i, hi)
			continue
		}
		if t.kind == tIdent && ws[t.val] && !seen[t.val] && !t.atEnd && p.clauseWord(i, lo) &&
			!(t.val == "from" && p.word(i-1, hi, "distinct") && p.word(i-2, hi, "is", "not")) &&
			!(t.val == "group" && p.word(i-1, hi, "within")) {
			flush(i)
			seen[t.val] = true
			cur, start = t.val, i+1
		}
		i++
	}
	if p.err == nil {
		flush(hi)
	}
	return r
}

// selectInto reads the INTO clause of a SELECT in [lo,hi): a new table
// (PostgreSQL, SQL Server), or variables (MySQL); a file is refused.
func (p *parser) selectInto(lo, hi int) {
	i := lo
	for p.word(i, hi, "temporary", "temp", "unlogged") {
		i++
	}
	if p.word(i, hi, "table") {
		i++
	}
	switch {
	case p.word(i, hi, "outfile", "dumpfile"):
		p.fail("SELECT ... INTO OUTFILE writes a file")
	case p.is(i, hi, tParam), p.is(i, hi, tIdent) && strings.HasPrefix(p.toks[i].val, "@"):
		// variables
	case p.isName(i, hi):
		name, j, _ := p.name(i, hi)
		if p.nameOpen(j) {
			p.fail("the table SELECT ... INTO creates is not fixed by the known text")
			return
		}
		p.into = name
	default:
		if !p.lenient(hi) {
			p.fail("cannot read the INTO clause of SELECT")
		}
	}
}

// fromItem is one item of a FROM list.
type fromItem struct {
	name    string // table name, if the item names a table or CTE
	alias   string
	tableOf string // the table the item stands for: the table, a CTE's or subquery's first table
	isTable bool   // the item names a real table (not a CTE)
	open    bool   // the name may continue past the known text
	// bound: for a CTE or subquery, the columns its own WHERE binds; the
	// table it reads is scoped there as well as by the outer WHERE.
	bound     []string
	openWhere bool // a subquery whose WHERE runs to the end of a partial text
	// sub: the item is a subquery; passes the columns it hands on from
	// its table unchanged (an outer predicate binds only those).
	sub    bool
	passes map[string]bool
}

var joinWords = setOf("join", "inner", "left", "right", "full", "cross", "natural", "straight_join")

// fromList reads a FROM/USING list (or an UPDATE/DELETE target list) in
// [lo,hi); with record set, named tables are recorded as reads.
func (p *parser) fromList(lo, hi int, sc *scope, record bool) []fromItem {
	var items []fromItem
	expect := true
	for i := lo; i < hi && p.err == nil; {
		t := p.toks[i]
		if expect {
			switch {
			case p.word(i, hi, "lateral", "only"):
				i++
				continue
			case t.kind == tLParen:
				e := p.end(i, hi)
				if p.isQueryStart(i+1, e) {
					in := p.stmt(i+1, e, sc)
					it := fromItem{tableOf: in.table, open: in.tableOpen, openWhere: in.openWhere, sub: true}
					if in.kind == Select {
						it.bound, it.passes = in.bound, in.passes
					}
					i = p.after(i, hi)
					// (SELECT ...) AS o, or (SELECT ...) o
					if p.word(i, hi, "as") && p.isName(i+1, hi) {
						it.alias = p.toks[i+1].val
						i += 2
					} else if p.isName(i, hi) {
						it.alias = p.toks[i].val
						i++
					}
					items = append(items, it)
					expect = false
					continue
				} else {
					items = append(items, p.fromList(i+1, e, sc, record)...)
				}
				i = p.after(i, hi)
			case p.word(i, hi, "rows") && p.word(i+1, hi, "from"):
				i += 2
				items = append(items, fromItem{})
			case p.isName(i, hi):
				name, j, _ := p.name(i, hi)
				if p.is(j, hi, tLParen) { // table function
					p.scanExpr(j+1, p.end(j, hi), sc)
					i = p.after(j, hi)
					items = append(items, fromItem{})
					break
				}
				it := fromItem{name: name, open: p.nameOpen(j)}
				if cte, ok := sc.lookup(name); ok {
					it.tableOf, it.bound = cte.table, cte.bound
				} else if !(name == "dual" && t.kind == tIdent) {
					it.tableOf, it.isTable = name, true
					if record {
						p.addRead(name)
					}
				}
				if p.op(j, hi, "*") {
					j++
				}
				if p.word(j, hi, "as") && p.isName(j+1, hi) {
					it.alias = p.toks[j+1].val
					it.open = it.open || p.toks[j+1].atEnd
					j += 2
				} else if p.isName(j, hi) {
					it.alias = p.toks[j].val
					it.open = it.open || p.toks[j].atEnd
					j++
				}
				items = append(items, it)
				i = j
			default:
				p.fail("cannot read the FROM clause")
				return items
			}
			expect = false
			continue
		}
		switch {
		case t.kind == tComma, p.word(i, hi, "join", "straight_join"):
			expect = true
			i++
		case p.word(i, hi, "on"):
			e := i + 1
			for e < hi && !p.is(e, hi, tComma) && !(p.is(e, hi, tIdent) && joinWords[p.toks[e].val] && !p.is(e+1, hi, tLParen)) {
				if p.is(e, hi, tLParen) {
					e = p.after(e, hi)
					continue
				}
				e++
			}
			p.scanExpr(i+1, e, sc)
			i = e
		case p.word(i, hi, "using") && p.is(i+1, hi, tLParen):
			i = p.after(i+1, hi)
		case t.kind == tLParen:
			p.scanExpr(i+1, p.end(i, hi), sc)
			i = p.after(i, hi)
		default:
			i++
		}
	}
	if expect && p.err == nil && !p.lenient(hi) {
		p.fail("cannot read the FROM clause")
	}
	return items
}

// subqueries reads the subqueries of an expression in [lo,hi) like
// scanExpr and appends to out what the outermost ones read.
func (p *parser) subqueries(lo, hi int, sc *scope, out []info) []info {
	for i := lo; i < hi && p.err == nil; {
		if p.toks[i].kind != tLParen {
			i++
			continue
		}
		e := p.end(i, hi)
		if p.isQueryStart(i+1, e) {
			out = append(out, p.stmt(i+1, e, sc))
		} else {
			out = p.subqueries(i+1, e, sc, out)
		}
		i = p.after(i, hi)
	}
	return out
}

// scanExpr reads the subqueries of an expression in [lo,hi).
func (p *parser) scanExpr(lo, hi int, sc *scope) { p.subqueries(lo, hi, sc, nil) }

// conjuncts appends to out the columns bound by the top-level AND conjuncts
// of the condition in [lo,hi).
func (p *parser) conjuncts(lo, hi int, out []string) []string {
	// AND binds tighter than OR: `a = $1 AND b OR c` is (a = $1 AND b)
	// OR c, and a column is bound only if every OR branch binds it.
	if branches := p.disjuncts(lo, hi); len(branches) > 1 {
		common := p.conjuncts(branches[0][0], branches[0][1], nil)
		for _, b := range branches[1:] {
			got := p.conjuncts(b[0], b[1], nil)
			common = slices.DeleteFunc(common, func(c string) bool { return !slices.Contains(got, c) })
		}
		return append(out, common...)
	}
	start, between, cases := lo, 0, 0
	for i := lo; i < hi; {
		t := p.toks[i]
		if t.kind == tLParen {
			i = p.after(i, hi)
			continue
		}
		if t.kind == tIdent {
			switch t.val {
			case "case":
				cases++
			case "end":
				if cases > 0 {
					cases--
				}
			case "between":
				if cases == 0 {
					between++
				}
			case "and":
				if cases > 0 {
					break
				}
				if between > 0 {
					between--
					break
				}
				out = p.conjunct(start, i, out)
				start = i + 1
			}
		}
		i++
	}
	return p.conjunct(start, hi, out)
}

// disjuncts splits [lo,hi) at its top-level ORs (outside parentheses
// and CASE expressions) into the branches' bounds; one branch when it has
// none.
func (p *parser) disjuncts(lo, hi int) [][2]int {
	var out [][2]int
	start, cases := lo, 0
	for i := lo; i < hi; {
		t := p.toks[i]
		if t.kind == tLParen {
			i = p.after(i, hi)
			continue
		}
		if t.kind == tIdent {
			switch t.val {
			case "case":
				cases++
			case "end":
				if cases > 0 {
					cases--
				}
			case "or":
				if cases == 0 {
					out = append(out, [2]int{start, i})
					start = i + 1
				}
			}
		}
		i++
	}
	return append(out, [2]int{start, hi})
}

func (p *parser) conjunct(lo, hi int, out []string) []string {
	if lo < hi && p.toks[lo].kind == tLParen && p.match[lo] == hi-1 {
		return p.conjuncts(lo+1, hi-1, out)
	}
	eq := -1
	for i := lo; i < hi; i++ {
		if p.op(i, hi, "=", "==") {
			eq = i
			break
		}
	}
	if eq < 0 {
		return out
	}
	if col, ok := p.colRef(lo, eq); ok && p.paramExpr(eq+1, hi) {
		return append(out, col)
	}
	if col, ok := p.colRef(eq+1, hi); ok && p.paramExpr(lo, eq) {
		return append(out, col)
	}
	return out
}

// ownBound keeps, of the columns a WHERE binds (as written, "qual.col"
// or "col"), those of the statement's own table: unqualified, or
// qualified by one of names (the table, its last name part, its alias).
// A predicate on a joined table's tenant column scopes that table, not
// this one.
func ownBound(bound []string, names ...string) []string {
	var out []string
	for _, b := range bound {
		q, col, ok := strings.Cut(b, "\x00")
		if !ok {
			out = append(out, b)
			continue
		}
		for _, n := range names {
			if n != "" && (q == n || strings.HasSuffix(n, "."+q)) {
				out = append(out, col)
				break
			}
		}
	}
	return out
}

// qualifiers returns the names that qualify a column of a FROM item: its
// alias alone when it has one (the table name then names some other
// item, as in a self-join), else its names.
func qualifiers(alias string, names ...string) []string {
	if alias != "" {
		return []string{alias}
	}
	return names
}

var notColumns = setOf("null", "true", "false", "not", "default", "current_user", "session_user",
	"current_date", "current_time", "current_timestamp", "localtime", "localtimestamp", "user",
	"case", "exists", "all", "any", "some", "array", "row", "interval")

// colRef reads a column reference filling exactly [lo,hi) and returns its
// column name, preceded by its qualifier and a NUL when it has one.
func (p *parser) colRef(lo, hi int) (string, bool) {
	if lo >= hi || (hi-lo)%2 == 0 {
		return "", false
	}
	for i := lo; i < hi; i += 2 {
		if !p.isNamePart(i, hi) || i+1 < hi && !p.is(i+1, hi, tDot) {
			return "", false
		}
	}
	if hi-lo == 1 && p.toks[lo].kind == tIdent && (notColumns[p.toks[lo].val] || reserved[p.toks[lo].val]) {
		return "", false
	}
	if hi-lo >= 3 {
		return p.toks[hi-3].val + "\x00" + p.toks[hi-1].val, true
	}
	return p.toks[hi-1].val, true
}

// paramExpr reports whether [lo,hi) is a bind parameter, possibly cast
// with :: or CAST(param AS type).
func (p *parser) paramExpr(lo, hi int) bool {
	if p.word(lo, hi, "cast") && p.is(lo+1, hi, tLParen) && p.match[lo+1] == hi-1 {
		return p.is(lo+2, hi, tParam) && p.word(lo+3, hi, "as")
	}
	if !p.is(lo, hi, tParam) {
		return false
	}
	j := lo + 1
	for p.op(j, hi, "::") {
		j++
		if !p.isNamePart(j, hi) {
			return false
		}
		j++
		for p.is(j, hi, tDot) && p.isNamePart(j+1, hi) {
			j += 2
		}
		for {
			if p.is(j, hi, tLParen) {
				if p.match[j] >= hi {
					return false
				}
				j = p.match[j] + 1
				continue
			}
			if !p.word(j, hi, "varying", "precision", "with", "without", "time", "zone") {
				break
			}
			j++
		}
	}
	return j == hi
}

// insert reads INSERT and REPLACE.
func (p *parser) insert(lo, hi int, sc *scope) info {
	res := info{kind: Insert, onConflict: p.toks[lo].val == "replace"}
	i := lo + 1
	for {
		if p.word(i, hi, "low_priority", "delayed", "high_priority", "ignore") {
			i++
			continue
		}
		if p.word(i, hi, "or") && p.is(i+1, hi, tIdent) {
			if p.toks[i+1].val == "replace" {
				res.onConflict = true
			}
			i += 2
			continue
		}
		break
	}
	if p.word(i, hi, "into") {
		i++
	}
	name, j := p.target(i, hi, "INSERT")
	if p.err != nil {
		return res
	}
	res.table = name
	p.addWrite(name)
	i = j
	if p.word(i, hi, "as") && p.isName(i+1, hi) {
		i += 2
	}
	if p.word(i, hi, "partition") && p.is(i+1, hi, tLParen) {
		i = p.after(i+1, hi)
	}
	if p.is(i, hi, tLParen) && !p.isQueryStart(i+1, p.end(i, hi)) {
		i = p.after(i, hi)
	}
	e := i
	for e < hi {
		if p.is(e, hi, tLParen) {
			e = p.after(e, hi)
			continue
		}
		if p.word(e, hi, "on") && p.word(e+1, hi, "conflict", "duplicate") || p.word(e, hi, "returning") {
			break
		}
		e++
	}
	if p.word(i, hi, "overriding") {
		i += 3
	}
	switch {
	case i >= e:
		if !p.lenient(e) {
			p.fail("cannot read the values of INSERT")
		}
	case p.word(i, hi, "default") && p.word(i+1, hi, "values"):
	case p.word(i, hi, "set"):
		res.values = p.subqueries(i+1, e, sc, nil)
	case p.word(i, hi, "values"):
		// INSERT ... VALUES (..., (SELECT ...)): each scalar subquery
		// is a source of the inserted rows.
		res.values = p.subqueries(i+1, e, sc, nil)
		for _, v := range res.values {
			res.openWhere = res.openWhere || v.openWhere
		}
	case p.isQueryStart(i, e):
		src := p.stmt(i, e, sc)
		res.source, res.openWhere = &src, src.openWhere
	default:
		p.fail("cannot read the values of INSERT")
	}
	for k := e; k < hi; {
		if p.is(k, hi, tLParen) {
			k = p.after(k, hi)
			continue
		}
		if p.word(k, hi, "do") && p.word(k+1, hi, "update") ||
			p.word(k, hi, "duplicate") && p.word(k+1, hi, "key") && p.word(k+2, hi, "update") {
			res.onConflict = true
		}
		k++
	}
	p.scanExpr(e, hi, sc)
	return res
}

// update reads UPDATE.
func (p *parser) update(lo, hi int, sc *scope) info {
	res := info{kind: Update}
	i := lo + 1
	for {
		if p.word(i, hi, "low_priority", "ignore") {
			i++
			continue
		}
		if p.word(i, hi, "or") && p.is(i+1, hi, tIdent) {
			i += 2
			continue
		}
		break
	}
	s := p.find(i, hi, "set")
	t := i
	if p.word(t, s, "only") {
		t++
	}
	name, _ := p.target(t, s, "UPDATE")
	if p.err != nil {
		return res
	}
	res.table = name
	p.addWrite(name)
	alias := ""
	for k, it := range p.fromList(i, s, sc, false) {
		if it.open {
			p.fail("the target table of UPDATE is not fixed by the known text")
			return res
		}
		if k == 0 {
			alias = it.alias
		}
		if it.isTable {
			p.addWrite(it.name)
			if k > 0 {
				p.addRead(it.name)
			}
		}
	}
	if s >= hi {
		if !p.lenient(hi) {
			p.fail("cannot read the SET clause of UPDATE")
		}
		return res
	}
	r := p.clauses(s+1, hi, sc, updateClauses)
	res.hasWhere, res.bound, res.openWhere = r.hasWhere, ownBound(r.bound, qualifiers(alias, name)...), r.openWhere
	return res
}

// delete reads DELETE, including MySQL's multi-table forms.
func (p *parser) delete(lo, hi int, sc *scope) info {
	res := info{kind: Delete}
	i := lo + 1
	for p.word(i, hi, "low_priority", "quick", "ignore") {
		i++
	}
	if p.word(i, hi, "from") {
		i++
		e := p.find(i, hi, "using", "where", "returning", "order", "limit")
		t := i
		if p.word(t, e, "only") {
			t++
		}
		name, _ := p.target(t, e, "DELETE")
		if p.err != nil {
			return res
		}
		res.table = name
		p.addWrite(name)
		alias := ""
		for k, it := range p.fromList(i, e, sc, false) {
			if it.open {
				p.fail("the target table of DELETE is not fixed by the known text")
				return res
			}
			if k == 0 {
				alias = it.alias
			}
			if it.isTable {
				p.addWrite(it.name)
			}
		}
		r := p.clauses(e, hi, sc, deleteClauses)
		res.hasWhere, res.bound, res.openWhere = r.hasWhere, ownBound(r.bound, qualifiers(alias, name)...), r.openWhere
		return res
	}
	// MySQL: DELETE t1[.*] [, t2[.*]] FROM table_references ...
	f := p.find(i, hi, "from")
	var targets []string
	for j := i; p.err == nil; {
		name, k := p.target(j, f, "DELETE")
		if p.err != nil {
			return res
		}
		targets = append(targets, name)
		if p.is(k, f, tDot) && p.op(k+1, f, "*") {
			k += 2
		}
		if !p.is(k, f, tComma) {
			if k < f {
				p.fail("cannot read the target table of DELETE")
			}
			break
		}
		j = k + 1
	}
	if f >= hi {
		if p.trunc {
			p.fail("the target table of DELETE is not fixed by the known text")
		} else {
			p.fail("cannot read the FROM clause of DELETE")
		}
		return res
	}
	r := p.clauses(f, hi, sc, mysqlDelete)
	if p.err != nil {
		return res
	}
	if r.openFrom {
		// More tables (and aliases) may follow: the targets are not
		// resolved yet.
		p.fail("the target table of DELETE is not fixed by the known text")
		return res
	}
	res.hasWhere, res.openWhere = r.hasWhere, r.openWhere
	var names []string
	for k, tg := range targets {
		resolved, found := tg, false
		for _, it := range r.items {
			if it.alias == tg || it.alias == "" && it.name == tg {
				if !it.isTable || it.open {
					p.fail("cannot read the target table of DELETE")
					return res
				}
				resolved, found = it.name, true
				break
			}
		}
		if !found && p.trunc {
			p.fail("the target table of DELETE is not fixed by the known text")
			return res
		}
		if k == 0 {
			res.table = resolved
			names = append(names, tg, resolved)
		}
		p.addWrite(resolved)
	}
	res.bound = ownBound(r.bound, names...)
	return res
}

// truncate reads TRUNCATE [TABLE] [ONLY] a [*], b ...
func (p *parser) truncate(lo, hi int) info {
	res := info{kind: Truncate}
	i := lo + 1
	if p.word(i, hi, "table") {
		i++
	}
	for p.err == nil {
		if p.word(i, hi, "only") {
			i++
		}
		name, j := p.target(i, hi, "TRUNCATE")
		if p.err != nil {
			break
		}
		if res.table == "" {
			res.table = name
		}
		p.addWrite(name)
		i = j
		if p.op(i, hi, "*") {
			i++
		}
		if !p.is(i, hi, tComma) {
			break
		}
		i++
	}
	return res
}

// merge reads MERGE [INTO] t [[AS] a] USING source ON ... WHEN ...
func (p *parser) merge(lo, hi int, sc *scope) info {
	res := info{kind: Merge}
	i := lo + 1
	if p.word(i, hi, "into") {
		i++
	}
	if p.word(i, hi, "only") {
		i++
	}
	name, j := p.target(i, hi, "MERGE")
	if p.err != nil {
		return res
	}
	res.table = name
	p.addWrite(name)
	u := p.find(j, hi, "using")
	if u >= hi {
		if !p.lenient(hi) {
			p.fail("cannot read the MERGE statement")
		}
		return res
	}
	on := p.find(u+1, hi, "on")
	if on >= hi && !p.lenient(hi) {
		p.fail("cannot read the MERGE statement")
		return res
	}
	p.fromList(u+1, on, sc, true)
	p.scanExpr(on, hi, sc)
	return res
}

// Conjunctive reports whether cond, a WHERE condition, adds no top-level
// OR when it is joined to others with AND: it reads, has no OR at
// parenthesis depth 0 and no statement separator. '||' is concatenation,
// as in standard SQL (MySQL's deprecated OR synonym is not followed).
func Conjunctive(cond string) bool {
	toks, _, err := lex(cond, false, AnyDialect)
	if err != nil || len(toks) == 0 {
		return false
	}
	depth := 0
	for _, t := range toks {
		switch {
		case t.kind == tLParen:
			depth++
		case t.kind == tRParen:
			depth--
			if depth < 0 {
				return false
			}
		case t.kind == tSemi:
			return false
		case depth == 0 && t.kind == tIdent && (t.val == "or" || t.val == "union" || t.val == "order" || t.val == "group" || t.val == "limit"):
			return false
		}
	}
	return depth == 0
}

// controlStatements change no data: transaction control, settings,
// plans, cursors of prepared statements.
var controlStatements = setOf("begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release",
	"show", "listen", "unlisten", "discard", "deallocate", "prepare", "checkpoint", "analyze", "analyse",
	"describe", "desc", "help")

// control reports whether the statement at lo changes no data. SET and
// RESET are settings, except for the role or session authorization, which
// change what the session may do.
func (p *parser) control(lo, hi int) bool {
	switch v := p.toks[lo].val; {
	case controlStatements[v]:
		return true
	case v == "set" || v == "reset":
		if lo+1 >= hi && p.lenient(hi) {
			return false // what is set is not known yet
		}
		for i := lo + 1; i <= lo+3; i++ {
			if i >= hi {
				return !p.lenient(hi) // SET SESSION ... cut before what is set
			}
			if p.toks[i].atEnd || p.word(i, hi, "role", "authorization") {
				return false
			}
			if !p.word(i, hi, "session", "local") {
				break
			}
		}
		return true
	}
	return false
}

// explain reads EXPLAIN: with ANALYZE the statement runs, so its effects
// are the inner statement's; without, it only plans.
func (p *parser) explain(lo, hi int, sc *scope) info {
	i := lo + 1
	analyze := false
	if p.is(i, hi, tLParen) {
		for k := i + 1; k < p.end(i, hi); k++ {
			if p.word(k, hi, "analyze", "analyse") && !p.word(k+1, hi, "false", "off", "0") {
				analyze = true
			}
		}
		i = p.after(i, hi)
	}
	for p.word(i, hi, "analyze", "analyse", "verbose", "format", "json", "text", "xml", "yaml", "query", "plan", "extended", "partitions") {
		if p.word(i, hi, "analyze", "analyse") {
			analyze = true
		}
		i++
	}
	if analyze {
		return p.stmt(i, hi, sc)
	}
	// Read the planned statement for its syntax only: it does not run.
	reads, writes, dcte := p.reads, p.writes, p.dcte
	p.reads, p.writes = map[string]bool{}, map[string]bool{}
	p.stmt(i, hi, sc)
	p.reads, p.writes, p.dcte = reads, writes, dcte
	return info{kind: Control}
}

// copyStmt reads COPY t [(cols)] FROM STDIN (an insert into t), COPY t
// [(cols)] TO STDOUT (a read of t) and COPY (query) TO STDOUT (the query
// runs). COPY to or from a file or a PROGRAM runs on the server: it is
// left to other, unprovable.
func (p *parser) copyStmt(lo, hi int, sc *scope) (info, bool) {
	i := lo + 1
	if p.is(i, hi, tLParen) {
		e := p.after(i, hi)
		if !p.word(e, hi, "to") || !p.word(e+1, hi, "stdout") {
			return info{}, false
		}
		return p.stmt(i+1, p.end(i, hi), sc), true
	}
	name, j, ok := p.name(i, hi)
	if !ok || p.nameOpen(j) {
		return info{}, false
	}
	if p.is(j, hi, tLParen) {
		j = p.after(j, hi)
	}
	switch {
	case p.word(j, hi, "from") && p.word(j+1, hi, "stdin"):
		p.addWrite(name)
		return info{kind: Insert, table: name}, true
	case p.word(j, hi, "to") && p.word(j+1, hi, "stdout"):
		p.addRead(name)
		return info{kind: Select, table: name}, true
	}
	return info{}, false
}

// createAs reads CREATE [TEMP ...] TABLE t [(cols)] AS query and CREATE
// MATERIALIZED VIEW v AS query: they create t and fill it with the rows
// the query reads.
func (p *parser) createAs(lo, hi int, sc *scope) (info, bool) {
	i := lo + 1
	for p.word(i, hi, "temp", "temporary", "unlogged", "global", "local", "or", "replace") {
		i++
	}
	switch {
	case p.word(i, hi, "table"):
		i++
	case p.word(i, hi, "materialized") && p.word(i+1, hi, "view"):
		i += 2
	default:
		return info{}, false
	}
	for p.word(i, hi, "if", "not", "exists") {
		i++
	}
	name, j, ok := p.name(i, hi)
	if !ok {
		return info{}, false
	}
	if p.is(j, hi, tLParen) {
		j = p.after(j, hi)
	}
	if !p.word(j, hi, "as") || !p.isQueryStart(j+1, hi) {
		return info{}, false
	}
	if p.nameOpen(j) {
		p.fail("the target table of CREATE TABLE is not fixed by the known text")
		return info{}, true
	}
	src := p.stmt(j+1, hi, sc)
	p.addWrite(name)
	return info{kind: Insert, table: name, source: &src, openWhere: src.openWhere}, true
}

var objectKinds = setOf("table", "view", "index", "sequence")

// other reads a statement of kind Other, naming its object when obvious.
func (p *parser) other(lo, hi int) info {
	res := info{kind: Other}
	i := lo + 1
	switch p.toks[lo].val {
	case "create", "alter", "drop":
		for i < hi && p.toks[i].kind == tIdent && !objectKinds[p.toks[i].val] {
			i++
		}
		if !p.word(i, hi, "table", "view", "index", "sequence") {
			return res
		}
		index := p.toks[i].val == "index" && p.toks[lo].val == "create"
		i++
		if index {
			i = p.find(i, hi, "on") + 1
		}
		for p.word(i, hi, "if", "not", "exists", "concurrently", "only") {
			i++
		}
	case "copy":
	case "lock":
		for p.word(i, hi, "table", "tables", "only") {
			i++
		}
	default:
		return res
	}
	if name, _, ok := p.name(i, hi); ok {
		res.table = name
	}
	return res
}

// tokKind classifies a token.
type tokKind uint8

const (
	tIdent  tokKind = iota // unquoted identifier or keyword; val is ASCII lower-cased
	tQuoted                // quoted identifier; val is the name without quotes
	tString                // string literal, dollar-quoted body (opaque)
	tNumber                // numeric literal
	tParam                 // bind parameter: $1, ?, ?1, :name, @name
	tOp                    // operator or other punctuation
	tLParen
	tRParen
	tComma
	tDot
	tSemi
)

type token struct {
	kind  tokKind
	val   string
	start int  // byte offset of the token
	end   int  // byte offset just past the token
	atEnd bool // partial text: the token ends exactly where the known text ends, so it may continue
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// lex splits s into tokens, dropping whitespace and comments. In partial
// mode an unterminated literal, quoted identifier or comment ends the token
// stream (cut is true) instead of being an error.
func lex(s string, partial bool, dialect Dialect) (toks []token, cut bool, err error) {
	n := len(s)
	fail := func(msg string) ([]token, bool, error) {
		if partial {
			return toks, true, nil
		}
		return nil, false, errors.New(msg)
	}
	i, execComments := 0, 0
	add := func(k tokKind, val string, end int) {
		toks = append(toks, token{kind: k, val: val, start: i, end: end})
	}
	for i < n {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < n && s[i+1] == '-' && (dialect != MySQL || i+2 >= n || s[i+2] <= ' '),
			c == '#' && dialect == MySQL,
			c == '#' && dialect == AnyDialect && !(i+1 < n && (s[i+1] == '>' || s[i+1] == '-')):
			// PostgreSQL ends a line comment at a carriage return as
			// well as a newline: what follows a lone '\r' is SQL. Reading
			// it as SQL in every dialect can only show more.
			j := strings.IndexAny(s[i:], "\n\r")
			if j < 0 {
				i = n
			} else {
				i += j + 1
			}
		case c == '*' && execComments > 0 && i+1 < n && s[i+1] == '/':
			execComments-- // the end of a MySQL executable comment
			i += 2
		case c == '/' && i+1 < n && s[i+1] == '*' && dialect == MySQL && i+2 < n && (s[i+2] == '!' || s[i+2] == 'M' && i+3 < n && s[i+3] == '!'):
			// MySQL and MariaDB run the text of /*! ... */ (and
			// /*M! ... */): read it as SQL.
			i += 3
			if s[i-1] == 'M' {
				i++
			}
			for i < n && isDigit(s[i]) {
				i++
			}
			execComments++
		case c == '/' && i+1 < n && s[i+1] == '*':
			// PostgreSQL block comments nest; MySQL's do not.
			depth, j := 1, i+2
			for depth > 0 {
				k := strings.Index(s[j:], "*/")
				if k < 0 {
					return fail("unterminated comment")
				}
				if dialect == Postgres {
					if o := strings.Index(s[j:j+k], "/*"); o >= 0 {
						depth++
						j += o + 2
						continue
					}
				}
				depth--
				j += k + 2
			}
			i = j
		case c == '\'':
			end, ok := scanString(s, i+1, dialect == MySQL)
			if !ok {
				return fail("unterminated string literal")
			}
			add(tString, "", end)
			i = end
		case c == '"' || c == '`':
			q := string(c)
			j := i + 1
			for {
				k := strings.IndexByte(s[j:], c)
				if k < 0 {
					return fail("unterminated quoted identifier")
				}
				j += k + 1
				if j < n && s[j] == c {
					j++
					continue
				}
				break
			}
			add(tQuoted, strings.ReplaceAll(s[i+1:j-1], q+q, q), j)
			i = j
		case c == '[':
			k := strings.IndexByte(s[i+1:], ']')
			if k < 0 {
				return fail("unterminated quoted identifier")
			}
			add(tQuoted, s[i+1:i+1+k], i+2+k)
			i += k + 2
		case c == '$':
			if i+1 < n && isDigit(s[i+1]) {
				j := i + 1
				for j < n && isDigit(s[j]) {
					j++
				}
				add(tParam, s[i:j], j)
				i = j
				break
			}
			if dialect == MySQL && i+1 < n && isIdentChar(s[i+1]) {
				// Only PostgreSQL has dollar quoting: in MySQL $q$
				// is an identifier.
				j := i + 1
				for j < n && isIdentChar(s[j]) {
					j++
				}
				add(tIdent, lowerASCII(s[i:j]), j)
				i = j
				break
			}
			if tagEnd, ok := dollarTag(s, i); ok {
				tag := s[i:tagEnd]
				k := strings.Index(s[tagEnd:], tag)
				if k < 0 {
					return fail("unterminated dollar-quoted string")
				}
				end := tagEnd + k + len(tag)
				add(tString, "", end)
				i = end
				break
			}
			add(tOp, "$", i+1)
			i++
		case c == '?':
			j := i + 1
			for j < n && isDigit(s[j]) {
				j++
			}
			add(tParam, s[i:j], j)
			i = j
		case c == ':':
			switch {
			case i+1 < n && (s[i+1] == ':' || s[i+1] == '='):
				add(tOp, s[i:i+2], i+2)
				i += 2
			case i+1 < n && isIdentStart(s[i+1]):
				j := i + 1
				for j < n && isIdentChar(s[j]) {
					j++
				}
				add(tParam, s[i:j], j)
				i = j
			default:
				add(tOp, ":", i+1)
				i++
			}
		case c == '@' && i+1 < n && isIdentStart(s[i+1]):
			j := i + 1
			for j < n && isIdentChar(s[j]) {
				j++
			}
			if dialect == MySQL {
				// A MySQL user variable, which any earlier
				// statement may have set: not a bind parameter.
				add(tIdent, lowerASCII(s[i:j]), j)
				i = j
				break
			}
			add(tParam, s[i:j], j)
			i = j
		case isDigit(c) || c == '.' && i+1 < n && isDigit(s[i+1]):
			j := i
			for j < n && (isIdentChar(s[j]) || s[j] == '.') {
				if (s[j] == 'e' || s[j] == 'E') && j+1 < n && (s[j+1] == '+' || s[j+1] == '-') {
					j += 2
					continue
				}
				j++
			}
			add(tNumber, s[i:j], j)
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < n && isIdentChar(s[j]) {
				j++
			}
			if j == i+1 && (c == 'e' || c == 'E') && j < n && s[j] == '\'' {
				end, ok := scanString(s, j+1, true)
				if !ok {
					return fail("unterminated string literal")
				}
				add(tString, "", end)
				i = end
				break
			}
			add(tIdent, lowerASCII(s[i:j]), j)
			i = j
		case c == '(':
			add(tLParen, "(", i+1)
			i++
		case c == ')':
			add(tRParen, ")", i+1)
			i++
		case c == ',':
			add(tComma, ",", i+1)
			i++
		case c == ';':
			add(tSemi, ";", i+1)
			i++
		case c == '.':
			add(tDot, ".", i+1)
			i++
		default:
			op := s[i : i+1]
			for _, m := range [...]string{"<=>", "==", "=>", "<=", "<>", ">=", "!=", "||"} {
				if strings.HasPrefix(s[i:], m) {
					op = m
					break
				}
			}
			add(tOp, op, i+len(op))
			i += len(op)
		}
	}
	if partial && len(toks) > 0 && toks[len(toks)-1].end == n {
		toks[len(toks)-1].atEnd = true
	}
	return toks, false, nil
}

// scanString scans a single-quoted literal body starting at i (just past the
// opening quote); backslash escapes apply to E'...' strings.
func scanString(s string, i int, backslash bool) (int, bool) {
	for i < len(s) {
		switch s[i] {
		case '\\':
			if backslash {
				i += 2
				continue
			}
		case '\'':
			if i+1 < len(s) && s[i+1] == '\'' {
				i += 2
				continue
			}
			return i + 1, true
		}
		i++
	}
	return 0, false
}

// dollarTag reports whether a dollar-quote opener ($$ or $tag$) starts at i,
// returning the offset just past it.
func dollarTag(s string, i int) (int, bool) {
	j := i + 1
	if j < len(s) && s[j] == '$' {
		return j + 1, true
	}
	if j < len(s) && (isIdentStart(s[j]) && s[j] < 0x80) {
		for j < len(s) && (isIdentStart(s[j]) && s[j] < 0x80 || isDigit(s[j])) {
			j++
		}
		if j < len(s) && s[j] == '$' {
			return j + 1, true
		}
	}
	return 0, false
}
