// Package directives exercises //agent:operable errors.
package directives

import (
	"github.com/authvet/authvet/grant"
	other "grants"
)

var G = grant.Grant{Reversibility: grant.Reversible}

var NotAGrant = 3

var _ = other.OK.Rate

//agent:operable grant=G
func OK() {}

//agent:operable grant=other.OK
func OKImported() {}

//agent:operable grant=Missing // want `agent authority: MissingGrant: grant Missing is not declared`
func MissingGrant() {}

//agent:operable grant=NotAGrant // want `NotAGrantHandler: NotAGrant is not a grant variable`
func NotAGrantHandler() {}

//agent:operable grant=nope.G // want `BadImport: grant nope.G: no file of the package imports a package named nope`
func BadImport() {}

//agent:operable // want `//agent:operable needs grant=NAME`
func NoGrant() {}

//agent:operable grant=G scope=all // want `unknown key "scope" in //agent:operable; valid keys: grant`
func UnknownKey() {}

//agent:operable grant=G
//agent:operable grant=G // want `Twice has two //agent:operable directives`
func Twice() {}

func body() {
	//agent:operable grant=G // want `//agent:operable must be in the doc comment of a function or method declaration`
	_ = 1
}

//agent:operate grant=G // want `unknown directive //agent:operate`
func Typo() {}

// agent:operable grant=Missing is prose, not a directive.
func Prose() {}
