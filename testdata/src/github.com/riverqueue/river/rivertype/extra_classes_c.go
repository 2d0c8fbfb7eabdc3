// Package rivertype is a stub of github.com/riverqueue/river/rivertype.
package rivertype

// JobRow is a job in the database.
type JobRow struct {
	ID   int64
	Kind string
}

// PeriodicJobHandle is a reference to a periodic job added to a client.
type PeriodicJobHandle int
