// Package bus is an in-house webhook bus, configured as a sink in
// classes/a/authvet.yaml.
package bus

type Bus struct{}

func (b *Bus) Dispatch(topic string, payload any) error { return nil }
