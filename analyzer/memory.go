package analyzer

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

// BoundMemory, set by a vet tool's main (one package per process),
// makes the first pass cap the process's heap at a multiple of what the
// driver already holds for the package (its syntax, types and the
// facts of its imports), unless GOMEMLIMIT is set: the garbage collector
// then works harder on a package whose summaries grow large, instead of
// letting the heap double (the goal: a peak within twice stock vet's).
// The manifest and the golangci-lint plugin analyse many packages in
// one process and leave the limit alone.
var BoundMemory bool

// memoryFactor times the heap at the first pass is the soft limit: about
// what stock vet's process peaks at for the same package, twice over.
const memoryFactor = 4

// memoryFloor is the least limit set: small packages are never slowed.
const memoryFloor = 256 << 20

var boundOnce sync.Once

func boundMemory() {
	boundOnce.Do(func() {
		if debug.SetMemoryLimit(-1) != math.MaxInt64 {
			return // the user's GOMEMLIMIT
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if int64(ms.HeapAlloc)*memoryFactor <= memoryFloor {
			debug.SetMemoryLimit(memoryFloor)
			return
		}
		// What is live, not what awaits collection: one collection, in
		// the processes whose packages are large.
		runtime.GC()
		runtime.ReadMemStats(&ms)
		limit := int64(ms.HeapAlloc) * memoryFactor
		if limit < memoryFloor {
			limit = memoryFloor
		}
		debug.SetMemoryLimit(limit)
	})
}
