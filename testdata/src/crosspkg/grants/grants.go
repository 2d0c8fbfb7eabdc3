// Package grants declares grants used from another package.
package grants

import "github.com/authvet/authvet/grant"

var CategoryEditor = grant.Grant{
	Writes:        []string{"categories"},
	Reversibility: grant.Reversible,
}
