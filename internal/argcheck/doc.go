// Package argcheck checks authvet's table of named library arguments
// (effects.NamedArgs) against the real signatures: every row
// "pkgpath.Recv.Method.param" must name the parameter that sits at its
// index in a call, receiver counted. The standard library's rows are
// checked by the effects tests, the pinned libraries' by
// internal/realtest.
package argcheck
