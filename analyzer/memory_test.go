package analyzer

import (
	"math"
	"runtime/debug"
	"sync"
	"testing"
)

func TestBoundMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	// No GOMEMLIMIT: a limit is set, never below the floor.
	debug.SetMemoryLimit(math.MaxInt64)
	boundOnce = sync.Once{}
	boundMemory()
	if got := debug.SetMemoryLimit(-1); got == math.MaxInt64 || got < memoryFloor {
		t.Errorf("limit after boundMemory = %d, want a limit of at least %d", got, memoryFloor)
	}

	// The user's GOMEMLIMIT wins.
	const user = 3 << 30
	debug.SetMemoryLimit(user)
	boundOnce = sync.Once{}
	boundMemory()
	if got := debug.SetMemoryLimit(-1); got != user {
		t.Errorf("limit after boundMemory with GOMEMLIMIT set = %d, want the user's %d", got, user)
	}
}
