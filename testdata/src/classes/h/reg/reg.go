// Package reg is a registry of plugins held as any; it knows no
// interface of its own.
package reg

var plugins = map[string]any{}

func Register(name string, p any) { plugins[name] = p }

func Get(name string) any { return plugins[name] }

// Add registers p under name from a generic helper: the conversion to
// any happens inside the generic body, not at the caller.
func Add[T any](name string, p T) { plugins[name] = p }
