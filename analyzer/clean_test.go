package analyzer_test

import "testing"

// TestClean runs the clean corpus: ordinary conforming handlers that must
// produce no diagnostic (SPEC §10: a false positive is as much a bug as a
// false negative).
func TestClean(t *testing.T) { run(t, "clean") }
