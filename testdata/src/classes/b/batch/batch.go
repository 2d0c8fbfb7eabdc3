// Package batch is a third-party generic helper.
package batch

type Validator interface{ Validate() error }

// ValidateAll calls the constraint's method on each element of a slice.
func ValidateAll[T Validator](xs []T) error {
	for _, x := range xs {
		if err := x.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Pool is a generic container whose method calls the constraint's method.
type Pool[T interface{ Run() error }] struct{ items []T }

func NewPool[T interface{ Run() error }](xs ...T) *Pool[T] { return &Pool[T]{items: xs} }

func (p *Pool[T]) RunAll() error {
	for _, it := range p.items {
		if err := it.Run(); err != nil {
			return err
		}
	}
	return nil
}
