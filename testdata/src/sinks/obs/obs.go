// Package obs declares a logging interface listed in benign_interfaces.
package obs

type Logger interface{ Info(msg string, args ...any) }
