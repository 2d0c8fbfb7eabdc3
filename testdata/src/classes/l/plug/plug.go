// Package plug is a plugin table that reaches no sink by itself (the
// database/sql driver pattern): what it hands back is what some other
// package's init put in.
package plug

import "context"

// Op is a tenant operation.
type Op func(ctx context.Context, tenant string) error

var table = map[string]Op{}

// Add registers an operation.
func Add(name string, f Op) { table[name] = f }

// Get returns a registered operation, or nil.
func Get(name string) Op { return table[name] }

// Purger is a registered store.
type Purger interface {
	Purge(ctx context.Context, tenant string) error
}

var stores = map[string]Purger{}

// AddStore registers a store.
func AddStore(name string, p Purger) { stores[name] = p }

// GetStore returns a registered store, or nil.
func GetStore(name string) Purger { return stores[name] }

// Table is a table whoever builds it owns.
type Table struct{ ops map[string]Op }

// NewTable returns an empty table.
func NewTable() *Table { return &Table{ops: map[string]Op{}} }

// Add registers an op.
func (t *Table) Add(name string, f Op) { t.ops[name] = f }

// Get returns an op, or nil.
func (t *Table) Get(name string) Op { return t.ops[name] }

// Version is made here: nothing the program handed over.
func Version() func() string { return func() string { return "1" } }
