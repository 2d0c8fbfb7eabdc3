// Package sqltext is a small, careful reader of SQL text, used by authvet to
// learn what a statement passed to a database call does: its kind, the tables
// it writes and reads, whether an UPDATE/DELETE/SELECT has a WHERE, and which
// tenant columns a top-level AND conjunct of that WHERE binds to a bind
// parameter (SPEC section 4: write, unbounded_write and cross_tenant effects).
//
// It is a reader, not a parser. It tokenises PostgreSQL, MySQL and SQLite
// text (quoted identifiers "x", `x` and [x]; '...' strings with doubled-quote
// escapes; E'...' strings with backslash escapes; dollar-quoted $$...$$ and
// $tag$...$tag$ bodies, which are opaque; comments --, /* */ and MySQL #;
// bind parameters $1, ?, ?1, :name, @name), splits statements on top-level
// semicolons, and then reads only the clause structure it needs: WITH lists,
// set operations, SELECT clauses, FROM lists with joins and subqueries,
// INSERT sources and upsert clauses, UPDATE/DELETE targets (including MySQL
// multi-table and modifier forms), TRUNCATE lists and MERGE targets.
// Expressions are otherwise opaque: the reader only looks inside them for
// parenthesised subqueries (their tables are reads), for AND at parenthesis
// depth 0 (skipping BETWEEN ... AND and CASE ... END), and for the exact
// conjunct shape `column = param` or `param = column`, where column may be
// qualified or quoted and param may carry a :: cast. Anything else (IN, <=>,
// functions, arithmetic, a literal or another column) binds nothing; a
// top-level OR leaves a single conjunct and so binds nothing.
//
// What it does not understand, by design: the meaning of expressions, types,
// procedural bodies (dollar-quoted or BEGIN ... END trigger bodies), DDL
// beyond naming the object (DDL, COPY, EXPLAIN, CALL, SET, transaction
// control and the like are Kind Other with no writes, so the analyzer treats
// them as unprovable), which of several MySQL multi-table UPDATE targets the
// SET list really assigns (all listed tables count as written, an
// over-approximation), and dialect settings that change lexing (MySQL
// ANSI_QUOTES or backslash escapes in ordinary strings, PostgreSQL
// standard_conforming_strings off). A '#' starts a comment unless followed
// by '>' or '-' (PostgreSQL JSON operators). A set operation (UNION ...)
// has a WHERE only if every branch has one, and binds only the columns every
// branch binds.
//
// Whenever the text cannot be read well enough to fix each statement's kind
// and target table, Parse returns an error rather than a guess: unknown
// statements, unreadable targets, unterminated literals or comments,
// unbalanced parentheses, nesting deeper than 200. With Options.Partial the
// text is a known prefix of a longer runtime string: the reader accepts a
// text cut anywhere after the target (even inside an open literal or
// parenthesis), marks the last statement Truncated, and refuses a prefix
// that ends inside the statement keyword or target name, or after a final
// semicolon. Note that an unknown tail can still add a disjunct (OR ...) to
// a truncated WHERE; TenantBound only reflects the known text.
//
// Why a small reader rather than a full parser: no maintained pure-Go parser
// covers PostgreSQL, MySQL and SQLite together without large dependencies
// (the PostgreSQL parser bindings use cgo, the MySQL parsers pull in large
// engine packages), and the analyzer needs only a few facts per statement.
// A reader that refuses what it cannot fix is smaller, has no dependencies,
// never panics, and runs in near-linear time; recursion is bounded by the
// parenthesis depth.
package sqltext
