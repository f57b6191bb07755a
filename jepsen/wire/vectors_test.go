package wire

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// vector is one test vector of conformance/vectors/*.vec, in the format of
// docs/wire-format.md §4.
type vector struct {
	file  string
	line  int // of the [name] line
	name  string
	bytes []byte            // all bytes = lines, concatenated
	field map[string]string // every other key, raw value
}

func (v vector) String() string {
	return fmt.Sprintf("%s:%d [%s]", filepath.Base(v.file), v.line, v.name)
}

var (
	messageFieldKeys = []string{"op", "flags", "status", "req_id", "key", "seq", "ext", "value"}
	frameFieldKeys   = []string{"eth_dst", "eth_src", "ip_src", "ip_dst", "udp_src", "udp_dst"}
)

// findVectorsDir walks up from the package directory to the repository's conformance/vectors.
// The conformance tests must not pass by finding nothing, so a missing directory is an error.
func findVectorsDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		candidate := filepath.Join(dir, "conformance", "vectors")
		if info, err := os.Stat(candidate); err == nil && info.IsDir() {
			return candidate, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no conformance/vectors directory in any parent of the test directory")
		}
		dir = parent
	}
}

// loadVectors reads every *.vec file of the vectors directory.
func loadVectors() ([]vector, error) {
	dir, err := findVectorsDir()
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.vec"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no *.vec files", dir)
	}
	sort.Strings(files)
	var all []vector
	for _, file := range files {
		vectors, err := parseVectorFile(file)
		if err != nil {
			return nil, err
		}
		if len(vectors) == 0 {
			return nil, fmt.Errorf("%s holds no vectors", file)
		}
		all = append(all, vectors...)
	}
	return all, nil
}

func parseVectorFile(path string) ([]vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var vectors []vector
	names := map[string]int{}
	scanner := bufio.NewScanner(f)
	scanner.Buffer(nil, 1<<20)
	for lineNumber := 1; scanner.Scan(); lineNumber++ {
		line := strings.TrimSpace(scanner.Text())
		where := fmt.Sprintf("%s:%d", filepath.Base(path), lineNumber)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			name := strings.TrimSpace(line[1 : len(line)-1])
			if name == "" {
				return nil, fmt.Errorf("%s: empty vector name", where)
			}
			if first, seen := names[name]; seen {
				return nil, fmt.Errorf("%s: vector [%s] already defined on line %d", where, name, first)
			}
			names[name] = lineNumber
			vectors = append(vectors, vector{file: path, line: lineNumber, name: name, field: map[string]string{}})
		default:
			key, value, found := strings.Cut(line, "=")
			if !found {
				return nil, fmt.Errorf("%s: expected [name], key = value, a comment or a blank line", where)
			}
			if len(vectors) == 0 {
				return nil, fmt.Errorf("%s: key before the first [name]", where)
			}
			current := &vectors[len(vectors)-1]
			key, value = strings.TrimSpace(key), strings.TrimSpace(value)
			if key == "bytes" {
				b, err := parseByteString(value)
				if err != nil {
					return nil, fmt.Errorf("%s: bytes: %v", where, err)
				}
				current.bytes = append(current.bytes, b...)
				current.field["bytes"] = "present"
				continue
			}
			if _, dup := current.field[key]; dup {
				return nil, fmt.Errorf("%s: %s given twice in [%s]", where, key, current.name)
			}
			current.field[key] = value
		}
	}
	return vectors, scanner.Err()
}

// parseByteString reads hex digits, with optional whitespace between bytes (not inside one).
func parseByteString(text string) ([]byte, error) {
	var out []byte
	for _, group := range strings.Fields(text) {
		b, err := hex.DecodeString(group)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number of hex bytes", group)
		}
		out = append(out, b...)
	}
	return out, nil
}

// parseUint reads a decimal or 0x-prefixed hexadecimal integer of at most bits bits. (strconv's
// base 0 is not used: it would read a leading 0 as octal, which the format does not have.)
func parseUint(text string, bits int) (uint64, error) {
	if hexDigits, isHex := strings.CutPrefix(strings.ToLower(text), "0x"); isHex {
		return strconv.ParseUint(hexDigits, 16, bits)
	}
	return strconv.ParseUint(text, 10, bits)
}

// vectorFields turns a valid vector's field keys into the Frame the codec should decode (Message
// alone for app vectors).
func vectorFields(v vector) (Frame, error) {
	var f Frame
	m := &f.Message
	integers := []struct {
		key  string
		bits int
		set  func(uint64)
	}{
		{"op", 8, func(n uint64) { m.Op = byte(n) }},
		{"flags", 8, func(n uint64) { m.Flags = byte(n) }},
		{"status", 8, func(n uint64) { m.Status = byte(n) }},
		{"req_id", 32, func(n uint64) { m.ReqID = uint32(n) }},
		{"seq", 32, func(n uint64) { m.Seq = uint32(n) }},
	}
	for _, field := range integers {
		n, err := parseUint(v.field[field.key], field.bits)
		if err != nil {
			return f, fmt.Errorf("%s: %v", field.key, err)
		}
		field.set(n)
	}
	key, err := parseByteString(v.field["key"])
	if err != nil || len(key) != KeyLen {
		return f, fmt.Errorf("key: want %d hex bytes, got %q", KeyLen, v.field["key"])
	}
	copy(m.Key[:], key)
	if m.Ext, err = parseByteString(v.field["ext"]); err != nil {
		return f, fmt.Errorf("ext: %v", err)
	}
	if m.Value, err = parseByteString(v.field["value"]); err != nil {
		return f, fmt.Errorf("value: %v", err)
	}
	if v.field["layer"] != "frame" {
		return f, nil
	}
	for _, mac := range []struct {
		key string
		to  *MAC
	}{{"eth_dst", &f.EthDst}, {"eth_src", &f.EthSrc}} {
		b, err := hex.DecodeString(v.field[mac.key])
		if err != nil || len(b) != 6 {
			return f, fmt.Errorf("%s: want 12 hex digits, got %q", mac.key, v.field[mac.key])
		}
		copy(mac.to[:], b)
	}
	for _, ip := range []struct {
		key string
		to  *[4]byte
	}{{"ip_src", &f.IPSrc}, {"ip_dst", &f.IPDst}} {
		addr, err := netip.ParseAddr(v.field[ip.key])
		if err != nil || !addr.Is4() {
			return f, fmt.Errorf("%s: want a dotted quad, got %q", ip.key, v.field[ip.key])
		}
		*ip.to = addr.As4()
	}
	for _, port := range []struct {
		key string
		to  *uint16
	}{{"udp_src", &f.UDPSrc}, {"udp_dst", &f.UDPDst}} {
		n, err := strconv.ParseUint(v.field[port.key], 10, 16)
		if err != nil {
			return f, fmt.Errorf("%s: want a decimal port, got %q", port.key, v.field[port.key])
		}
		*port.to = uint16(n)
	}
	return f, nil
}

// checkVectorKeys enforces §4's table: which keys a vector of each kind has, and nothing else, so
// that a misspelt key fails loudly instead of being ignored.
func checkVectorKeys(v vector) error {
	layer := v.field["layer"]
	if layer != "app" && layer != "frame" {
		return fmt.Errorf("layer %q, want app or frame", layer)
	}
	if _, ok := v.field["bytes"]; !ok {
		return fmt.Errorf("no bytes")
	}
	allowed := map[string]bool{"layer": true, "bytes": true}
	var required []string
	if _, malformed := v.field["error"]; malformed {
		allowed["error"] = true
	} else {
		required = append(required, messageFieldKeys...)
		if layer == "frame" {
			required = append(required, frameFieldKeys...)
		}
	}
	for _, key := range required {
		allowed[key] = true
		if _, ok := v.field[key]; !ok {
			return fmt.Errorf("valid %s vector without %s", layer, key)
		}
	}
	for key := range v.field {
		if !allowed[key] {
			return fmt.Errorf("key %q not allowed here (a malformed vector has only layer, bytes and error)", key)
		}
	}
	return nil
}

func TestConformanceVectors(t *testing.T) {
	vectors, err := loadVectors()
	if err != nil {
		t.Fatalf("conformance vectors: %v", err)
	}
	counts := map[string]int{}
	for _, v := range vectors {
		t.Run(filepath.Base(v.file)+"/"+v.name, func(t *testing.T) {
			if err := checkVectorKeys(v); err != nil {
				t.Fatalf("%v: %v", v, err)
			}
			layer := v.field["layer"]
			if wantName, malformed := v.field["error"]; malformed {
				counts[layer+" malformed"]++
				checkMalformedVector(t, v, layer, ErrorCode(wantName))
				return
			}
			counts[layer+" valid"]++
			want, err := vectorFields(v)
			if err != nil {
				t.Fatalf("%v: %v", v, err)
			}
			checkValidVector(t, v, layer, want)
		})
	}
	t.Logf("%d vectors: %v", len(vectors), counts)
}

func checkMalformedVector(t *testing.T, v vector, layer string, want ErrorCode) {
	if !isKnownCode(want) {
		t.Fatalf("%v: error %q is not an error name of docs/wire-format.md", v, want)
	}
	var err error
	if layer == "app" {
		_, err = DecodeMessage(v.bytes)
	} else {
		_, err = DecodeFrame(v.bytes)
	}
	if err == nil {
		t.Fatalf("%v: decoded without error, want %s", v, want)
	}
	if got := CodeOf(err); got != want {
		t.Errorf("%v: decode failed with %v, want %s", v, err, want)
	}
}

func checkValidVector(t *testing.T, v vector, layer string, want Frame) {
	if layer == "app" {
		got, err := DecodeMessage(v.bytes)
		if err != nil {
			t.Fatalf("%v: decode: %v", v, err)
		}
		if !messagesEqual(got, want.Message) {
			t.Errorf("%v: decoded\n  %v\nwant\n  %v", v, got, want.Message)
		}
		encoded, err := EncodeMessage(want.Message)
		if err != nil {
			t.Fatalf("%v: encode: %v", v, err)
		}
		if !bytes.Equal(encoded, v.bytes) {
			t.Errorf("%v: encoded\n  %x\nwant\n  %x", v, encoded, v.bytes)
		}
		return
	}
	got, err := DecodeFrame(v.bytes)
	if err != nil {
		t.Fatalf("%v: decode: %v", v, err)
	}
	if !framesEqual(got, want) {
		t.Errorf("%v: decoded\n  %+v\nwant\n  %+v", v, got, want)
	}
	encoded, err := EncodeFrame(want)
	if err != nil {
		t.Fatalf("%v: encode: %v", v, err)
	}
	if !bytes.Equal(encoded, v.bytes) {
		t.Errorf("%v: encoded\n  %x\nwant\n  %x", v, encoded, v.bytes)
	}
}

func isKnownCode(code ErrorCode) bool {
	for _, known := range ErrorCodes {
		if code == known {
			return true
		}
	}
	return false
}

func messagesEqual(a, b Message) bool {
	return a.Op == b.Op && a.Flags == b.Flags && a.Status == b.Status && a.ReqID == b.ReqID &&
		a.Key == b.Key && a.Seq == b.Seq && bytes.Equal(a.Ext, b.Ext) && bytes.Equal(a.Value, b.Value)
}

func framesEqual(a, b Frame) bool {
	return a.EthDst == b.EthDst && a.EthSrc == b.EthSrc && a.IPSrc == b.IPSrc && a.IPDst == b.IPDst &&
		a.UDPSrc == b.UDPSrc && a.UDPDst == b.UDPDst && messagesEqual(a.Message, b.Message)
}
