// Package bodiless calls functions the analysis cannot read.
package bodiless

import (
	"database/sql"
	"reflect"
	_ "unsafe"

	"github.com/authvet/authvet/grant"
)

var G = grant.Grant{Reversibility: grant.Compensable}

// fastPurge has no Go body.
//
//go:linkname fastPurge runtime.fastPurge
func fastPurge(db *sql.DB)

// fastHash has no Go body either, and is handed no handle: in the module
// being developed it is still unprovable (SPEC §4.1), since nothing says
// what it does.
//
//go:linkname fastHash runtime.fastHash
func fastHash(b []byte) uint64

//agent:operable grant=G
func Purge(db *sql.DB) {
	fastHash(nil) // want `Purge calls fastHash, a function with no Go body \(assembly, //go:linkname or cgo\) the analysis cannot read`
	fastPurge(db) // want `Purge calls a function with no Go body \(assembly or //go:linkname\) that is handed a DB`
}

//agent:operable grant=G
func Reflect(f any) {
	reflect.ValueOf(f).Call(nil) // want `Reflect calls a function through reflection`
}

//agent:operable grant=G
func ReflectRead(v any) string {
	return reflect.ValueOf(v).Kind().String() // reading by reflection calls nothing
}
