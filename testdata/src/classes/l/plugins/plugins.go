// Package plugins registers its operations from init.
package plugins

import (
	"classes/l/plug"
	"classes/l/store"
)

func init() {
	plug.Add("purge", store.PurgeGlobal)
	plug.AddStore("global", store.GlobalPurger{})
}
