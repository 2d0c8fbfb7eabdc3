// Package config reads authvet.yaml, the optional per-module configuration
// of authvet (SPEC section 7).
//
// The file lives at the module root (Find locates it by walking up from a
// directory to the one holding go.mod) or is named explicitly with -config.
// Its keys are fixed:
//
//	tenant_columns: [tenant_id, org_id]   # default [tenant_id]
//	sinks:                                # in-house effect APIs
//	  - func: example.com/shop/queue.Enqueue
//	    effect: job                       # job | webhook | write | outbound
//	    subject_arg: 1                    # 0-based, receiver not counted
//	  - func: example.com/shop/hooks.(*Bus).Dispatch
//	    effect: webhook
//	    subject_arg: 0
//	benign_interfaces: [example.com/shop/obs.Logger]
//
// A sink's func is a package path followed by ".Name" for a function, or by
// ".(*Recv).Name" or ".Recv.Name" for a method; pointer-ness of the receiver
// is ignored when matching. Because a package path's last element may itself
// contain dots (gopkg.in/yaml.v3), "a/b.c.d" is read as method d of type c in
// package a/b unless c looks like a major version (v2, v3, ...); whatever the
// split, Sink.Matches and Config.SinkFor compare the whole qualified name, so
// matching never depends on it.
//
// The organisation policy key, policy, is reserved: this version rejects it
// with an error rather than silently ignoring rules the user relies on.
//
// Every error is an *Error carrying the file and the line of the offending
// node, formatted as "authvet.yaml:7: message". Unknown and duplicate keys
// are errors at every level.
//
// Config.Hash is the hex SHA-256 of the file's bytes. go vet caches analysis
// results by flag strings rather than file contents, so the analyzer exposes
// the hash as a flag value to make a config change invalidate cached results.
package config
