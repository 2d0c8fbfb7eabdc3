// Package proxyenv sets a proxy in the environment at start-up: the
// default transport's ProxyFromEnvironment sends every request of the
// default client to it.
package proxyenv

import (
	"net/http"
	"os"

	"github.com/authvet/authvet/grant"
)

var Partner = grant.Grant{Outbound: []string{"https://api.partner.example/v1/"}, Reversibility: grant.Compensable}

func init() {
	os.Setenv("HTTPS_PROXY", "http://proxy.example:3128")
}

//agent:operable grant=Partner
func Ping(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("https://api.partner.example/v1/ping") // want `Ping sends a request through http.DefaultClient, which the program rewires`
	if err == nil {
		resp.Body.Close()
	}
}
