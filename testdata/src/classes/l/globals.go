package l

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"sync"
)

// --- An unexported variable only this package writes, wherever it
// writes it: every value stored to it is what a call through it runs.

var (
	checkOnce sync.Once
	check     func(string) error
)

func validate(name string) error {
	checkOnce.Do(func() {
		check = func(s string) error {
			if s == "" {
				return errors.New("empty name")
			}
			return nil
		}
	})
	return check(name)
}

// Clean twin: the check only looks at the string.
//
//agent:operable grant=Narrow
func (s *Server) Validate(name string) error {
	return validate(name)
}

var purge func(ctx context.Context, tenant string) error

// usePurge installs the purge main wires.
func usePurge(db *sql.DB) {
	purge = func(ctx context.Context, tenant string) error {
		_, err := db.ExecContext(ctx, "DELETE FROM payout_locks WHERE tenant_id = $1", tenant)
		return err
	}
}

//agent:operable grant=Narrow
func (s *Server) PurgeInstalled(ctx context.Context, tenant string) error {
	return purge(ctx, tenant) // want `PurgeInstalled writes "payout_locks"`
}

// --- A dispatch table in an unexported package variable only its
// declaration fills, read by name.

type action func(ctx context.Context, s *Server, tenant string) error

var readActions = map[string]action{
	"count": func(ctx context.Context, s *Server, tenant string) error {
		return s.db.QueryRowContext(ctx, "SELECT count(*) FROM refunds WHERE tenant_id = $1", tenant).Err()
	},
}

var writeActions = map[string]action{
	"release": func(ctx context.Context, s *Server, tenant string) error {
		_, err := s.db.ExecContext(ctx, "DELETE FROM payout_locks WHERE tenant_id = $1", tenant)
		return err
	},
}

// Clean twin: every action of the table reads.
//
//agent:operable grant=Narrow
func (s *Server) Query(ctx context.Context, name, tenant string) error {
	if a, ok := readActions[name]; ok {
		return a(ctx, s, tenant)
	}
	return nil
}

//agent:operable grant=Narrow
func (s *Server) Act(ctx context.Context, name, tenant string) error {
	if a, ok := writeActions[name]; ok {
		return a(ctx, s, tenant) // want `Act writes "payout_locks"`
	}
	return nil
}

// A table that another function adds to (maps.Copy into it): what it
// holds at the call is out of sight.
var extraActions = map[string]action{
	"count": func(ctx context.Context, s *Server, tenant string) error {
		return s.db.QueryRowContext(ctx, "SELECT count(*) FROM refunds WHERE tenant_id = $1", tenant).Err()
	},
}

// AddActions registers more actions.
func AddActions(m map[string]action) { maps.Copy(extraActions, m) }

//agent:operable grant=Narrow
func (s *Server) Extra(ctx context.Context, name, tenant string) error {
	if a, ok := extraActions[name]; ok {
		return a(ctx, s, tenant) // want `Extra calls a function value the analysis cannot resolve`
	}
	return nil
}
