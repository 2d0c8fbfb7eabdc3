// Package riverdriver is a stub of github.com/riverqueue/river/riverdriver.
package riverdriver

import "context"

// Driver provides a database driver for use with river.Client.
type Driver[TTx any] interface {
	GetExecutor() Executor
	UnwrapExecutor(tx TTx) ExecutorTx
}

// Executor provides River operations against a database.
type Executor interface {
	Exec(ctx context.Context, sql string, args ...any) (struct{}, error)
}

// ExecutorTx is an executor which is a transaction.
type ExecutorTx interface {
	Executor
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}
