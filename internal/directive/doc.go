// Package directive parses authvet's two directive comments.
//
// Like //go: directives, an authvet directive is a line comment with no
// space after the slashes. "// agent:operable" is ordinary prose. Any other
// comment beginning "//agent:" (for example //agent:operate or
// //agent:effects) is reported as an unknown directive rather than ignored,
// so a typo never silently drops a check. As with //nolint, a directive may
// end in a trailing comment: text from a "//" that starts an item (outside
// quotes) to the end of the line is ignored.
//
// # //agent:operable
//
// Marks a function or method as callable by an agent and names the grant
// that bounds it. It belongs in the doc comment of the declaration:
//
//	//agent:operable grant=RefundDrafter
//	func (s *Server) DraftRefund(w http.ResponseWriter, r *http.Request) { ... }
//
//	//agent:operable grant=billing.RefundDrafter
//	func Draft(ctx context.Context, id string) error { ... }
//
// Syntax: whitespace-separated key=value pairs. The only key is grant; its
// value is an identifier (a grant variable in the same package) or
// pkg.Name (a grant variable reached through the file's imports). No spaces
// around "=".
//
// Errors:
//
//	unknown key "foo" in //agent:operable; valid keys: grant
//	//agent:operable needs grant=NAME                  (grant missing)
//	empty value for grant in //agent:operable; ...      (grant=)
//	malformed grant "a.b.c" in //agent:operable; ...    (not Name or pkg.Name)
//	key grant repeated in //agent:operable; ...
//	unexpected "..." in //agent:operable; ...           (trailing junk)
//
// # //agent:effect
//
// The hatch: declares the effects of one statement that the analysis cannot
// prove, or asserts facts about it. It sits on the line(s) directly above the
// statement or trailing on its line; on an interface method it is a contract
// that every implementation must fit.
//
//	//agent:effect writes(refunds, "billing.notes") outbound("https://api.stripe.com/v1/refunds") reason="finalize() does the row write"
//	refund, err := finalize(ctx, s.db, s.client, id)
//
//	//agent:effect none reason="pure formatting helper; verified effect-free"
//	summary := render(rows)
//
//	//agent:effect scoped reason="the view is already tenant-partitioned"
//	rows, err := s.db.QueryContext(ctx, "SELECT id FROM refunds_scoped")
//
// Syntax: whitespace-separated items, in any order, each one of
//
//	none                     the statement has no effect; replaces its analysis
//	scoped                   the statement's queries are tenant-scoped
//	writes(S, ...)           bounded writes to tables S
//	unbounded_writes(S, ...) unbounded writes to tables S
//	outbound("U", ...)       HTTP calls to URLs or URL prefixes U (or "alias:NAME")
//	jobs(S, ...)             background jobs of kinds S
//	webhooks(S, ...)         webhooks with topics S
//	reason="..."             why the declaration is true (required, non-empty)
//
// A subject S is an identifier, optionally dotted for schema-qualified
// tables (refunds, billing.refunds), or a Go string literal ("refund.drafted",
// `raw`), decoded as Go decodes it. Outbound subjects must be string
// literals. Spaces are allowed inside the parentheses and around commas,
// but not between a key and its "(" or around reason's "=". reason is a Go
// string literal, interpreted ("...", with escapes such as \") or raw.
//
// Errors (each message lists the valid keys where the input is not
// recognised):
//
//	unknown key "write" in //agent:effect; valid keys: none, scoped, writes(...), ...
//	unexpected "..." in //agent:effect; ...             (junk between or after items)
//	//agent:effect needs a non-empty reason="..."      (missing, empty or blank reason)
//	//agent:effect declares nothing; ...                (only a reason)
//	key writes repeated in //agent:effect; ...          (any key given twice)
//	none replaces the statement's analysis; it cannot be combined with writes(...)
//	empty writes() in //agent:effect; ...               (no subjects)
//	empty subject in writes(...) ...                    (writes(a,) or writes(,a))
//	empty subject "" in writes(...) ...                 (writes(""))
//	writes subject "$x" in //agent:effect is neither an identifier nor a string literal
//	outbound subjects must be string literals: outbound("api")   (suggests the fix)
//	duplicate subject "refunds" in writes(...) ...
//	unterminated writes( in //agent:effect; ...
//	reason in //agent:effect: unterminated string literal
//
// Every error is a single line. Parsing never panics and runs in time
// linear in the comment's length.
package directive
