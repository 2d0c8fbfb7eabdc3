package effects

import (
	"bytes"
	"compress/flate"
	"encoding/gob"
	"fmt"
	"io"
)

// A summary crosses packages as an analysis fact, and under go vet every
// package re-exports the facts of the methods of every package it
// imports, directly or not. So a fact is encoded once, compressed, by
// the package that computed it, and read lazily: decoding keeps the
// bytes, Load decodes them when a call actually needs the summary, and
// re-exporting an undecoded summary writes the same bytes back.

// summaryFields is Summary without its methods, for gob.
type summaryFields Summary

// GobEncode encodes s compressed, or returns the bytes it was read from.
func (s *Summary) GobEncode() ([]byte, error) {
	if s.wire != nil {
		return s.wire, nil
	}
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	if err := gob.NewEncoder(zw).Encode((*summaryFields)(s)); err != nil {
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

// maxWire bounds what decoding one summary may allocate from its text.
const maxWire = 64 << 20

// Load decodes a summary read by GobDecode; it does nothing to a summary
// built in memory.
func (s *Summary) Load() error {
	if s == nil || s.wire == nil {
		return nil
	}
	wire := s.wire
	var f summaryFields
	zr := flate.NewReader(bytes.NewReader(wire))
	defer zr.Close()
	if err := gob.NewDecoder(io.LimitReader(zr, maxWire)).Decode(&f); err != nil {
		return fmt.Errorf("corrupt effect summary fact: %v", err)
	}
	*s = Summary(f)
	if err := s.Returned.Load(); err != nil {
		return err
	}
	for _, m := range s.ResultMethods {
		if err := m.Sum.Load(); err != nil {
			return err
		}
	}
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
