// Package argsrc puts the libraries that have rows in authvet's argument
// table, and no fixture service here, into this module's build list, so
// that internal/realtest checks those rows against their real signatures.
package argsrc

import (
	_ "github.com/hibiken/asynq"
	_ "github.com/jmoiron/sqlx"
	_ "github.com/riverqueue/river"
	_ "github.com/twmb/franz-go/pkg/kgo"
	_ "golang.org/x/sync/errgroup"
	_ "gorm.io/gorm"
)
