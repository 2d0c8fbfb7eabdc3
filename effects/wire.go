package effects

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"sync"
)

// A summary crosses packages as an analysis fact, and under go vet every
// package re-exports the facts of the methods of every package it
// imports, directly or not. So a fact is encoded once (compressed when
// large) by the package that computed it, and read lazily: decoding
// keeps the bytes, Load decodes them when a call actually needs the
// summary, and re-exporting an undecoded summary writes the same bytes
// back.

// A fact's bytes start with a tag: wireRaw, then the payload (codec.go)
// as is, or wireFlate, then the payload flate-compressed. Most summaries
// are a few dozen bytes, which flate does not shrink; setting up its
// state costs far more than the payload itself.
const (
	wireRaw   = 'r'
	wireFlate = 'z'
	// compressAt is the payload size from which a fact is compressed.
	compressAt = 512
)

// Flate's state is large: writers and readers are reused.
var (
	flateWriters = sync.Pool{New: func() any {
		zw, _ := flate.NewWriter(nil, flate.BestSpeed)
		return zw
	}}
	flateReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
)

// GobEncode encodes s, or returns the bytes it was read from.
func (s *Summary) GobEncode() ([]byte, error) {
	if s.wire != nil {
		return s.wire, nil
	}
	payload, err := encodeSummary(s)
	if err != nil {
		return nil, err
	}
	if len(payload) > maxWire {
		return nil, fmt.Errorf("effect summary of %d bytes, past the bound of %d", len(payload), maxWire)
	}
	if len(payload) < compressAt {
		return append([]byte{wireRaw}, payload...), nil
	}
	buf := bytes.NewBuffer([]byte{wireFlate})
	zw := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(zw)
	zw.Reset(buf)
	if _, err := zw.Write(payload); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// GobDecode keeps the encoded bytes; Load decodes them.
func (s *Summary) GobDecode(data []byte) error {
	*s = Summary{wire: bytes.Clone(data)}
	return nil
}

// maxWire bounds the decompressed size of one summary, and so (codec.go)
// what decoding it may allocate.
const maxWire = 8 << 20

// Load decodes a summary read by GobDecode; it does nothing to a summary
// built in memory.
func (s *Summary) Load() error {
	if s == nil || s.wire == nil {
		return nil
	}
	var payload []byte
	switch {
	case len(s.wire) > 0 && s.wire[0] == wireRaw:
		payload = s.wire[1:]
	case len(s.wire) > 0 && s.wire[0] == wireFlate:
		zr := flateReaders.Get().(io.ReadCloser)
		defer flateReaders.Put(zr)
		if err := zr.(flate.Resetter).Reset(bytes.NewReader(s.wire[1:]), nil); err != nil {
			return fmt.Errorf("corrupt effect summary fact: %v", err)
		}
		var err error
		payload, err = io.ReadAll(io.LimitReader(zr, maxWire+1))
		if err != nil {
			return fmt.Errorf("corrupt effect summary fact: %v", err)
		}
	default:
		return fmt.Errorf("corrupt effect summary fact: no known tag")
	}
	if len(payload) > maxWire {
		return fmt.Errorf("corrupt effect summary fact: more than %d bytes", maxWire)
	}
	d, err := decodeSummary(payload)
	if err != nil {
		return fmt.Errorf("corrupt effect summary fact: %v", err)
	}
	*s = *d
	return nil
}

// Unreadable is the summary of a function whose fact could not be
// decoded: one unprovable site.
func Unreadable(name string, err error) *Summary {
	return &Summary{Effects: []Effect{{
		Kind:   Unprovable,
		Reason: fmt.Sprintf("calls %s, whose effect summary could not be read (%v)", name, err),
		Fix:    "clear the build cache (go clean -cache) and run again with one authvet version",
	}}}
}
