package analyzer

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/authvet/authvet/effects"
	"github.com/authvet/authvet/grant/urlprefix"
	"github.com/authvet/authvet/internal/directive"
)

// operable is a handler marked //agent:operable.
type operable struct {
	decl  *ast.FuncDecl
	file  *ast.File
	pos   token.Pos // the directive
	grant string
}

// contract is an //agent:effect directive on an interface method.
type contract struct {
	method *ast.Field
	hatch  directive.Hatch
}

// readDirectives finds every authvet directive in the package, reports
// misplaced and malformed ones, and returns the handlers and hatches.
func (a *run) readDirectives() {
	for _, f := range a.pass.Files {
		funcDocs := map[*ast.CommentGroup]*ast.FuncDecl{}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
				funcDocs[fd.Doc] = fd
			}
		}
		methodDocs := map[*ast.CommentGroup]*ast.Field{}
		ast.Inspect(f, func(n ast.Node) bool {
			if it, ok := n.(*ast.InterfaceType); ok {
				for _, m := range it.Methods.List {
					if len(m.Names) == 0 {
						continue
					}
					if m.Doc != nil {
						methodDocs[m.Doc] = m
					}
					if m.Comment != nil {
						methodDocs[m.Comment] = m
					}
				}
			}
			return true
		})
		stmts := statementsByLine(a.pass.Fset, f)
		hatched := map[ast.Stmt]bool{}
		seenOperable := map[*ast.FuncDecl]bool{}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				kind, rest, ok := directive.Split(c.Text)
				if !ok {
					continue
				}
				switch kind {
				case directive.OperablePrefix:
					fd := funcDocs[cg]
					if fd == nil {
						a.reportf(c, "directive", "agent authority: //agent:operable must be in the doc comment of a function or method declaration")
						continue
					}
					op, err := directive.ParseOperable(rest)
					if err != nil {
						a.reportf(c, "directive", "agent authority: %v", err)
						continue
					}
					if seenOperable[fd] {
						a.reportf(c, "directive", "agent authority: %s has two //agent:operable directives; keep one", fd.Name.Name)
						continue
					}
					seenOperable[fd] = true
					a.handlers = append(a.handlers, &operable{decl: fd, file: f, pos: c.Pos(), grant: op.Grant})
				case directive.EffectPrefix:
					h, err := directive.ParseHatch(rest)
					if err != nil {
						a.reportf(c, "directive", "agent authority: %v", err)
						continue
					}
					if fd := funcDocs[cg]; fd != nil {
						a.reportf(c, "directive", "agent authority: //agent:effect in the doc comment of %s would cover the whole body; put it on the statement that has the effect", fd.Name.Name)
						continue
					}
					if m := methodDocs[cg]; m != nil {
						if a.checkDeclared(c, h) {
							a.contracts = append(a.contracts, &contract{method: m, hatch: h})
						}
						continue
					}
					line := a.pass.Fset.Position(c.Pos()).Line
					stmt := trailingStmt(stmts[line], c.Pos())
					if stmt == nil {
						stmt = firstStmt(stmts[a.pass.Fset.Position(cg.End()).Line+1])
					}
					if stmt == nil {
						a.reportf(c, "directive", "agent authority: //agent:effect must sit on the line directly above one statement, or trail it on its line")
						continue
					}
					// Above `if _, err := f(); err != nil {`, the hatch covers
					// the if's init statement: the call, not the blocks.
					switch st := stmt.(type) {
					case *ast.IfStmt:
						if st.Init != nil {
							stmt = st.Init
						}
					case *ast.SwitchStmt:
						if st.Init != nil {
							stmt = st.Init
						}
					}
					if what := blockLike(stmt); what != "" {
						a.reportf(c, "directive", "agent authority: //agent:effect on %s would take every effect inside it out of the ledger; annotate the statement that has the effect, or move the block into a function and annotate the call", what)
						continue
					}
					if hatched[stmt] {
						a.reportf(c, "directive", "agent authority: a statement carries at most one //agent:effect; declare every effect of the site in one directive")
						continue
					}
					hatched[stmt] = true
					if !a.checkDeclared(c, h) {
						continue
					}
					eh := toHatch(stmt, h)
					eh.Fn = enclosingFunc(f, stmt.Pos())
					a.hatches = append(a.hatches, eh)
				default:
					a.reportf(c, "directive", "agent authority: unknown directive //agent:%s; authvet knows //agent:operable and //agent:effect", strings.Fields(rest + " ")[0])
				}
			}
		}
	}
}

// enclosingFunc returns the position of the innermost function
// declaration or literal that holds pos: a hatch covers its statement
// there, not in a closure the statement defines.
func enclosingFunc(f *ast.File, pos token.Pos) token.Pos {
	best := token.NoPos
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return n == nil || !(pos < n.Pos() || pos >= n.End())
		}
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			best = n.Pos()
		}
		return true
	})
	return best
}

// checkDeclared validates the outbound subjects of a hatch.
func (a *run) checkDeclared(c *ast.Comment, h directive.Hatch) bool {
	for _, u := range h.Outbound {
		if err := urlprefix.CheckEntry(u); err != nil {
			a.reportf(c, "directive", "agent authority: //agent:effect outbound(%q): %v", u, err)
			return false
		}
	}
	return true
}

func toHatch(stmt ast.Stmt, h directive.Hatch) *effects.Hatch {
	eh := &effects.Hatch{Start: stmt.Pos(), End: stmt.End(), None: h.None, Scoped: h.Scoped, Reason: h.Reason}
	eh.Declared = declaredEffects(h)
	return eh
}

// declaredEffects lists the effects a hatch or contract declares.
func declaredEffects(h directive.Hatch) []effects.Effect {
	var out []effects.Effect
	for _, l := range []struct {
		kind string
		subs []string
	}{
		{effects.Write, h.Writes},
		{effects.UnboundedWrite, h.UnboundedWrites},
		{effects.Outbound, h.Outbound},
		{effects.Job, h.Jobs},
		{effects.Webhook, h.Webhooks},
	} {
		for _, s := range l.subs {
			out = append(out, effects.Effect{Kind: l.kind, Subject: s, Provenance: effects.Declared})
		}
	}
	return out
}

// statementsByLine indexes every statement of the file by the line it
// starts on, outermost first. Function bodies are not statements a hatch
// can sit on, so they are left out.
func statementsByLine(fset *token.FileSet, f *ast.File) map[int][]ast.Stmt {
	bodies := map[*ast.BlockStmt]bool{}
	m := map[int][]ast.Stmt{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			bodies[n.Body] = true
		case *ast.FuncLit:
			bodies[n.Body] = true
		case *ast.CaseClause, *ast.CommClause, *ast.EmptyStmt:
			return true
		case ast.Stmt:
			if b, ok := n.(*ast.BlockStmt); ok && bodies[b] {
				return true
			}
			line := fset.Position(n.Pos()).Line
			m[line] = append(m[line], n)
		}
		return true
	})
	return m
}

// trailingStmt returns the outermost statement that starts on the
// comment's line, before it.
func trailingStmt(stmts []ast.Stmt, pos token.Pos) ast.Stmt {
	for _, s := range stmts {
		if s.Pos() < pos {
			return s
		}
	}
	return nil
}

func firstStmt(stmts []ast.Stmt) ast.Stmt {
	if len(stmts) > 0 {
		return stmts[0]
	}
	return nil
}

// blockLike names the statement kind a hatch may not sit on, or "".
func blockLike(s ast.Stmt) string {
	if l, ok := s.(*ast.LabeledStmt); ok {
		s = l.Stmt
	}
	switch s := s.(type) {
	case *ast.BlockStmt:
		return "a block"
	case *ast.IfStmt:
		return "an if statement"
	case *ast.ForStmt:
		return "a for loop"
	case *ast.RangeStmt:
		return "a range loop"
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		return "a switch"
	case *ast.SelectStmt:
		return "a select"
	case *ast.GoStmt:
		return "a go statement"
	case *ast.DeferStmt:
		if _, ok := s.Call.Fun.(*ast.FuncLit); ok {
			return "a defer of a closure"
		}
	case *ast.ExprStmt:
		if c, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if _, ok := ast.Unparen(c.Fun).(*ast.FuncLit); ok {
				return "a function literal called in place"
			}
		}
	}
	return ""
}
