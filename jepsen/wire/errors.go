// Package wire is the Go codec of the innet wire format (docs/wire-format.md): the innet
// application header (§2) and the Ethernet II / IPv4 / UDP frames that carry it (§1).
//
// It is one of three implementations of the format (with the P4 headers and the Java codec
// dev.innet.wire); all of them are tested against the shared vectors in conformance/vectors, so
// the names and the order of the decode errors here are the document's, exactly.
package wire

import (
	"errors"
	"fmt"
)

// ErrorCode names a decode failure; its value is the error name used by docs/wire-format.md and
// the conformance vectors. An ErrorCode is itself an error, so callers can test for one with
// errors.Is(err, wire.BadMagic).
type ErrorCode string

// Frame-level errors (§1), in the order a decoder checks them (FRAME_TRUNCATED is checked twice:
// first for the 42-byte minimum, then, after IP_OPTIONS, for the IPv4 total length).
const (
	FrameTruncated ErrorCode = "FRAME_TRUNCATED"
	NotIPv4        ErrorCode = "NOT_IPV4"
	IPOptions      ErrorCode = "IP_OPTIONS"
	IPFragment     ErrorCode = "IP_FRAGMENT"
	BadIPChecksum  ErrorCode = "BAD_IP_CHECKSUM"
	NotUDP         ErrorCode = "NOT_UDP"
	BadUDPLength   ErrorCode = "BAD_UDP_LENGTH"
)

// Application-level errors (§2.1), in the order a decoder checks them.
const (
	HeaderTruncated ErrorCode = "HEADER_TRUNCATED"
	BadMagic        ErrorCode = "BAD_MAGIC"
	BadExtlen       ErrorCode = "BAD_EXTLEN"
	ValueTooLarge   ErrorCode = "VALUE_TOO_LARGE"
	ValueTruncated  ErrorCode = "VALUE_TRUNCATED"
	NonzeroPadding  ErrorCode = "NONZERO_PADDING"
	TrailingBytes   ErrorCode = "TRAILING_BYTES"
)

// ErrorCodes lists every error code, frame-level first, each group in check order.
var ErrorCodes = []ErrorCode{
	FrameTruncated, NotIPv4, IPOptions, IPFragment, BadIPChecksum, NotUDP, BadUDPLength,
	HeaderTruncated, BadMagic, BadExtlen, ValueTooLarge, ValueTruncated, NonzeroPadding, TrailingBytes,
}

func (c ErrorCode) Error() string { return string(c) }

// Error is a decode failure, or an encoder's refusal to build a message that would fail decoding.
type Error struct {
	Code   ErrorCode
	Detail string // what was found, for people; not part of the format
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Detail }

// Unwrap makes errors.Is(err, code) work.
func (e *Error) Unwrap() error { return e.Code }

func fail(code ErrorCode, format string, args ...any) error {
	return &Error{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// CodeOf returns the ErrorCode of a wire error, or "" if err is not one.
func CodeOf(err error) ErrorCode {
	var code ErrorCode
	if errors.As(err, &code) {
		return code
	}
	return ""
}
