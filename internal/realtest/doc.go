// Package realtest proves authvet's library models on the libraries' real
// versions: its test runs the analyzer over testdata/libmod, a module that
// pins gRPC, Temporal, go-redis, NATS, kafka-go, squirrel, bun, ent,
// sqlc's output and stripe-go, with a fixture that must fire and a clean
// twin that must not for each. It has no code of its own; it is a package
// so that this long test gets its own test binary and time budget.
package realtest
