package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"testing"
)

func sampleMessage() Message {
	m := Message{Op: OpPut, Flags: FlagFromSwitch, Status: StatusOK, ReqID: 0xdeadbeef, Seq: 77,
		Ext: []byte{1, 2, 3, 4}, Value: []byte("hello world")}
	copy(m.Key[:], "user1000")
	return m
}

func sampleFrame() Frame {
	return Frame{
		EthDst: MAC{2, 0, 0, 0, 0, 2}, EthSrc: MAC{2, 0, 0, 0, 0, 1},
		IPSrc: [4]byte{10, 0, 0, 1}, IPDst: [4]byte{10, 0, 0, 2},
		UDPSrc: 40001, UDPDst: PortKeyValue, Message: sampleMessage(),
	}
}

func mustEncodeFrame(t *testing.T, f Frame) []byte {
	t.Helper()
	b, err := EncodeFrame(f)
	if err != nil {
		t.Fatalf("EncodeFrame: %v", err)
	}
	return b
}

func TestMessageRoundTrip(t *testing.T) {
	for _, valueLen := range []int{0, 1, 7, 8, 9, 128, 1023, 1024, 1375, 1376} {
		m := sampleMessage()
		m.Value = bytes.Repeat([]byte{0xab}, valueLen)
		b, err := EncodeMessage(m)
		if err != nil {
			t.Fatalf("vallen %d: encode: %v", valueLen, err)
		}
		paddedValue := len(b) - HeaderLen - len(m.Ext)
		if paddedValue%8 != 0 || paddedValue-valueLen >= 8 || len(b) != m.EncodedLen() {
			t.Errorf("vallen %d: %d bytes (EncodedLen %d); want the value padded to the next multiple of 8",
				valueLen, len(b), m.EncodedLen())
		}
		got, err := DecodeMessage(b)
		if err != nil || !messagesEqual(got, m) {
			t.Errorf("vallen %d: decode = %v, %v; want %v", valueLen, got, err, m)
		}
	}
}

func TestDecodedMessageDoesNotAliasInput(t *testing.T) {
	b, _ := EncodeMessage(sampleMessage())
	m, err := DecodeMessage(b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = 0
	}
	if string(m.Value) != "hello world" || !bytes.Equal(m.Ext, []byte{1, 2, 3, 4}) {
		t.Errorf("decoded message changed with its input buffer: %v", m)
	}
}

func TestEncoderRefusesWhatDecoderRejects(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Message)
		want ErrorCode
	}{
		{"extension not a multiple of 4", func(m *Message) { m.Ext = make([]byte, 6) }, BadExtlen},
		{"extension above 64", func(m *Message) { m.Ext = make([]byte, 68) }, BadExtlen},
		{"value above 1376", func(m *Message) { m.Value = make([]byte, 1377) }, ValueTooLarge},
	}
	for _, tc := range cases {
		m := sampleMessage()
		tc.edit(&m)
		if _, err := EncodeMessage(m); !errors.Is(err, tc.want) {
			t.Errorf("%s: EncodeMessage error %v, want %s", tc.name, err, tc.want)
		}
		f := sampleFrame()
		f.Message = m
		if _, err := EncodeFrame(f); !errors.Is(err, tc.want) {
			t.Errorf("%s: EncodeFrame error %v, want %s", tc.name, err, tc.want)
		}
	}
}

func TestFrameRoundTripAndFixedFields(t *testing.T) {
	f := sampleFrame()
	b := mustEncodeFrame(t, f)
	ip := b[EthernetHeaderLen:]
	if ip[0] != 0x45 || ip[1] != 0 || binary.BigEndian.Uint16(ip[4:6]) != 0 ||
		binary.BigEndian.Uint16(ip[6:8]) != 0x4000 || ip[8] != 64 || ip[9] != 17 {
		t.Errorf("fixed IPv4 fields wrong: % x", ip[:20])
	}
	if ipv4Checksum(ip[:20]) != 0 {
		t.Errorf("IPv4 checksum does not verify")
	}
	if sum := binary.BigEndian.Uint16(b[40:42]); sum != 0 {
		t.Errorf("UDP checksum %#x, want 0", sum)
	}
	got, err := DecodeFrame(b)
	if err != nil || !framesEqual(got, f) {
		t.Fatalf("DecodeFrame = %+v, %v; want %+v", got, err, f)
	}
}

func TestFrameDecodeIgnoresEthernetPaddingAndUDPChecksum(t *testing.T) {
	f := sampleFrame()
	b := append(mustEncodeFrame(t, f), 0xee, 0xee, 0xee) // bytes beyond the IPv4 total length
	binary.BigEndian.PutUint16(b[40:42], 0x1234)         // a UDP checksum decoders do not verify
	got, err := DecodeFrame(b)
	if err != nil || !framesEqual(got, f) {
		t.Fatalf("DecodeFrame = %+v, %v; want %+v", got, err, f)
	}
}

// reChecksum recomputes the IPv4 header checksum after a test edits the header, so that the edit
// and not the checksum is what the decoder sees.
func reChecksum(b []byte) {
	ip := b[EthernetHeaderLen : EthernetHeaderLen+IPv4HeaderLen]
	ip[10], ip[11] = 0, 0
	binary.BigEndian.PutUint16(ip[10:12], ipv4Checksum(ip))
}

// TestFrameCheckOrder covers the order of §1 in cases with two faults at once, where the order
// decides the answer.
func TestFrameCheckOrder(t *testing.T) {
	cases := []struct {
		name string
		edit func([]byte) []byte
		want ErrorCode
	}{
		{"short and not IPv4", func(b []byte) []byte { b[12] = 0x86; return b[:41] }, FrameTruncated},
		{"not IPv4 and options", func(b []byte) []byte { b[12], b[14] = 0x86, 0x46; return b }, NotIPv4},
		{"options and total length beyond frame", func(b []byte) []byte {
			b[14] = 0x46
			binary.BigEndian.PutUint16(b[16:18], 0xffff)
			return b
		}, IPOptions},
		{"total length beyond frame and fragment", func(b []byte) []byte {
			binary.BigEndian.PutUint16(b[16:18], uint16(len(b)-EthernetHeaderLen+1))
			binary.BigEndian.PutUint16(b[20:22], 0x2000)
			reChecksum(b)
			return b
		}, FrameTruncated},
		{"fragment and bad checksum", func(b []byte) []byte { binary.BigEndian.PutUint16(b[20:22], 0x0001); return b }, IPFragment},
		{"bad checksum and not UDP", func(b []byte) []byte { b[23] = 6; return b }, BadIPChecksum},
		{"not UDP and bad UDP length", func(b []byte) []byte { b[23] = 6; b[38] = 0; reChecksum(b); return b }, NotUDP},
		{"UDP length below 8", func(b []byte) []byte {
			binary.BigEndian.PutUint16(b[16:18], 20+4)
			binary.BigEndian.PutUint16(b[38:40], 4)
			reChecksum(b)
			return b
		}, BadUDPLength},
		{"IPv4 total length below its header", func(b []byte) []byte {
			binary.BigEndian.PutUint16(b[16:18], 10)
			reChecksum(b)
			return b
		}, BadUDPLength},
		{"UDP length one more than IPv4 carries", func(b []byte) []byte {
			binary.BigEndian.PutUint16(b[38:40], binary.BigEndian.Uint16(b[38:40])+1)
			return b
		}, BadUDPLength},
		{"framing fine, message truncated by total length", func(b []byte) []byte {
			binary.BigEndian.PutUint16(b[16:18], binary.BigEndian.Uint16(b[16:18])-8)
			binary.BigEndian.PutUint16(b[38:40], binary.BigEndian.Uint16(b[38:40])-8)
			reChecksum(b)
			return b
		}, ValueTruncated},
	}
	for _, tc := range cases {
		b := tc.edit(mustEncodeFrame(t, sampleFrame()))
		_, err := DecodeFrame(b)
		if got := CodeOf(err); got != tc.want {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.want)
		}
		var wireErr *Error
		if !errors.As(err, &wireErr) || wireErr.Detail == "" {
			t.Errorf("%s: error %v is not a *wire.Error with a detail", tc.name, err)
		}
	}
}

func TestMessageCheckOrder(t *testing.T) {
	base, _ := EncodeMessage(sampleMessage()) // ext 4 bytes, value 11 bytes padded to 16
	cases := []struct {
		name string
		edit func([]byte) []byte
		want ErrorCode
	}{
		{"short with bad magic", func(b []byte) []byte { b[0] = 0; return b[:31] }, HeaderTruncated},
		{"bad magic and bad extlen", func(b []byte) []byte { b[0], b[31] = 0, 3; return b }, BadMagic},
		{"bad extlen and value too large", func(b []byte) []byte { b[31] = 3; b[28] = 0xff; return b }, BadExtlen},
		{"value too large and truncated", func(b []byte) []byte { binary.BigEndian.PutUint16(b[28:30], MaxValueLen+1); return b }, ValueTooLarge},
		{"truncated with nonzero byte where padding would be", func(b []byte) []byte { b[len(b)-1] = 1; return b[:len(b)-1] }, ValueTruncated},
		{"nonzero padding and trailing bytes", func(b []byte) []byte { b[len(b)-1] = 1; return append(b, 0) }, NonzeroPadding},
		{"trailing bytes", func(b []byte) []byte { return append(b, 0, 0, 0, 0, 0, 0, 0, 0) }, TrailingBytes},
	}
	for _, tc := range cases {
		_, err := DecodeMessage(tc.edit(bytes.Clone(base)))
		if got := CodeOf(err); got != tc.want {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.want)
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: errors.Is(err, %s) is false", tc.name, tc.want)
		}
	}
}

func TestCodeOfNonWireError(t *testing.T) {
	if code := CodeOf(errors.New("other")); code != "" {
		t.Errorf("CodeOf(other error) = %q, want empty", code)
	}
	if code := CodeOf(nil); code != "" {
		t.Errorf("CodeOf(nil) = %q, want empty", code)
	}
}

// addVectorSeeds adds every vector's bytes to a fuzz corpus when the vectors can be found; the
// conformance test, not the fuzz targets, is what fails when they cannot.
func addVectorSeeds(f *testing.F, layer string) {
	dir, err := findVectorsDir()
	if err != nil {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.vec"))
	for _, file := range files {
		vectors, err := parseVectorFile(file)
		if err != nil {
			continue
		}
		for _, v := range vectors {
			if v.field["layer"] == layer {
				f.Add(v.bytes)
			}
		}
	}
}

// FuzzDecodeMessage: decoding arbitrary bytes never panics, fails only with a documented error,
// and whatever decodes re-encodes to the same bytes (the format has one encoding per message).
func FuzzDecodeMessage(f *testing.F) {
	b, _ := EncodeMessage(sampleMessage())
	f.Add(b)
	f.Add([]byte{})
	f.Add(make([]byte, 32))
	addVectorSeeds(f, "app")
	f.Fuzz(func(t *testing.T, input []byte) {
		m, err := DecodeMessage(input)
		if err != nil {
			if !isKnownCode(CodeOf(err)) {
				t.Fatalf("undocumented error %v", err)
			}
			return
		}
		again, err := EncodeMessage(m)
		if err != nil {
			t.Fatalf("decoded message does not encode: %v", err)
		}
		if !bytes.Equal(again, input) {
			t.Fatalf("re-encoded\n %x\nfrom\n %x", again, input)
		}
	})
}

// FuzzDecodeFrame: decoding never panics and fails only with a documented error; a decoded frame
// encodes and decodes back to itself. (Its bytes may differ from the input: decoders accept TTL,
// identification, padding and UDP checksum values that encoders do not write.)
func FuzzDecodeFrame(f *testing.F) {
	b, _ := EncodeFrame(sampleFrame())
	f.Add(b)
	f.Add(make([]byte, 42))
	addVectorSeeds(f, "frame")
	f.Fuzz(func(t *testing.T, input []byte) {
		frame, err := DecodeFrame(input)
		if err != nil {
			if !isKnownCode(CodeOf(err)) {
				t.Fatalf("undocumented error %v", err)
			}
			return
		}
		encoded, err := EncodeFrame(frame)
		if err != nil {
			t.Fatalf("decoded frame does not encode: %v", err)
		}
		again, err := DecodeFrame(encoded)
		if err != nil || !framesEqual(again, frame) {
			t.Fatalf("round trip changed the frame: %+v, %v; was %+v", again, err, frame)
		}
	})
}
