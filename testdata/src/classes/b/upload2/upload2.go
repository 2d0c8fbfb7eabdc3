// Package upload2 is a third-party uploader that authvet analyses (it
// calls a progress callback it is configured with): the body it drains
// sits in an options struct passed by pointer.
package upload2

import (
	"context"
	"fmt"
	"io"
)

type Options struct {
	Body     io.Reader
	Progress func(n int)
}

func Put(ctx context.Context, opts *Options) error {
	b, err := io.ReadAll(opts.Body)
	if opts.Progress != nil {
		opts.Progress(len(b))
	}
	return err
}

// Concat drains several readers as one.
func Concat(rs []io.Reader) ([]byte, error) {
	return io.ReadAll(io.MultiReader(rs...))
}

// Logf formats its arguments with fmt.
func Logf(format string, args ...any) string {
	return fmt.Sprintf(format, args...)
}
