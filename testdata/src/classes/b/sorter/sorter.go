// Package sorter is a third-party helper configured with a callback in
// an options struct.
package sorter

import "sort"

type Options struct {
	Less func(a, b int) bool
}

func Sort(xs []int, opts Options) {
	sort.Slice(xs, func(i, j int) bool { return opts.Less(xs[i], xs[j]) })
}
