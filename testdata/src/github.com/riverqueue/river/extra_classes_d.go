package river

import "context"

// ClientFromContext returns the Client a worker's context carries
// (github.com/riverqueue/river, same signature).
func ClientFromContext[TTx any](ctx context.Context) *Client[TTx] { return nil }
