package wire

import (
	"encoding/binary"
	"fmt"
	"net/netip"
)

// Sizes and fixed values of the framing (§1).
const (
	EthernetHeaderLen = 14
	IPv4HeaderLen     = 20
	UDPHeaderLen      = 8
	FrameHeadersLen   = EthernetHeaderLen + IPv4HeaderLen + UDPHeaderLen // 42

	etherTypeIPv4   = 0x0800
	ipVersionIHL    = 0x45 // version 4, IHL 5: no options
	ipDontFragment  = 0x4000
	ipMoreFragments = 0x2000
	ipFragOffset    = 0x1fff
	ipTTL           = 64
	ipProtocolUDP   = 17
	// maxUDPPayload keeps the IPv4 total length within its 16 bits.
	maxUDPPayload = 0xffff - IPv4HeaderLen - UDPHeaderLen
)

// UDP destination ports of requests, one per protocol (§1). Replies come from these ports.
const (
	PortKeyValue        uint16 = 5008 // FarReach, NetCache, no-cache
	PortFarReachControl uint16 = 5009
	PortPegasus         uint16 = 5010
	PortVisibility      uint16 = 5011
	PortDistCache       uint16 = 5012
	PortLaKe            uint16 = 11211 // memcached's binary protocol, not an innet header
)

// MAC is an Ethernet address.
type MAC [6]byte

func (a MAC) String() string {
	return fmt.Sprintf("%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1], a[2], a[3], a[4], a[5])
}

// UDPFrame is one UDP datagram in one Ethernet II frame over IPv4 without options, with its
// payload left undecoded: what every protocol shares, including LaKe's memcached payloads.
type UDPFrame struct {
	EthDst, EthSrc MAC
	IPSrc, IPDst   [4]byte
	UDPSrc, UDPDst uint16
	Payload        []byte
}

// Frame is a UDPFrame whose payload is an innet message.
type Frame struct {
	EthDst, EthSrc MAC
	IPSrc, IPDst   [4]byte
	UDPSrc, UDPDst uint16
	Message        Message
}

// IPSrcAddr and IPDstAddr give the addresses as netip values, for printing and comparison.
func (f UDPFrame) IPSrcAddr() netip.Addr { return netip.AddrFrom4(f.IPSrc) }
func (f UDPFrame) IPDstAddr() netip.Addr { return netip.AddrFrom4(f.IPDst) }

// ipv4Checksum is the RFC 791 header checksum: the ones' complement of the ones' complement sum
// of the header's 16-bit words. Over a header that carries a correct checksum it yields 0.
func ipv4Checksum(header []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(header); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(header[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

// EncodeUDPFrame builds the frame with the fixed header values §1 prescribes: IPv4 identification
// 0, DF, TTL 64, computed header checksum, UDP checksum 0. A frame is never shorter than the
// 60-byte Ethernet minimum when it carries an innet message, so no padding is added.
func EncodeUDPFrame(f UDPFrame) ([]byte, error) {
	if len(f.Payload) > maxUDPPayload {
		return nil, fmt.Errorf("wire: UDP payload of %d bytes exceeds %d", len(f.Payload), maxUDPPayload)
	}
	b := make([]byte, FrameHeadersLen, FrameHeadersLen+len(f.Payload))
	copy(b[0:6], f.EthDst[:])
	copy(b[6:12], f.EthSrc[:])
	binary.BigEndian.PutUint16(b[12:14], etherTypeIPv4)
	ip := b[EthernetHeaderLen : EthernetHeaderLen+IPv4HeaderLen]
	ip[0] = ipVersionIHL
	binary.BigEndian.PutUint16(ip[2:4], uint16(IPv4HeaderLen+UDPHeaderLen+len(f.Payload)))
	binary.BigEndian.PutUint16(ip[6:8], ipDontFragment)
	ip[8] = ipTTL
	ip[9] = ipProtocolUDP
	copy(ip[12:16], f.IPSrc[:])
	copy(ip[16:20], f.IPDst[:])
	binary.BigEndian.PutUint16(ip[10:12], ipv4Checksum(ip)) // computed with the field still 0
	udp := b[EthernetHeaderLen+IPv4HeaderLen:]
	binary.BigEndian.PutUint16(udp[0:2], f.UDPSrc)
	binary.BigEndian.PutUint16(udp[2:4], f.UDPDst)
	binary.BigEndian.PutUint16(udp[4:6], uint16(UDPHeaderLen+len(f.Payload)))
	return append(b, f.Payload...), nil
}

// DecodeUDPFrame decodes the framing of b and returns its UDP payload (a copy). Checks run in the
// order §1 prescribes and the first failure is returned as an *Error. Fields the format fixes but
// defines no error for (DSCP/ECN, identification, DF, TTL, a non-zero UDP checksum) are not
// checked. Bytes after the IPv4 total length are Ethernet padding and are ignored.
func DecodeUDPFrame(b []byte) (UDPFrame, error) {
	var f UDPFrame
	if len(b) < FrameHeadersLen {
		return f, fail(FrameTruncated, "%d bytes, Ethernet+IPv4+UDP headers need %d", len(b), FrameHeadersLen)
	}
	etherType := binary.BigEndian.Uint16(b[12:14])
	ip := b[EthernetHeaderLen : EthernetHeaderLen+IPv4HeaderLen]
	version, ihl := ip[0]>>4, ip[0]&0x0f
	if etherType != etherTypeIPv4 || version != 4 {
		return f, fail(NotIPv4, "EtherType 0x%04x, IP version %d", etherType, version)
	}
	if ihl != 5 {
		return f, fail(IPOptions, "IHL %d", ihl)
	}
	totalLen := int(binary.BigEndian.Uint16(ip[2:4]))
	if totalLen > len(b)-EthernetHeaderLen {
		return f, fail(FrameTruncated, "IPv4 total length %d, but %d bytes follow the Ethernet header",
			totalLen, len(b)-EthernetHeaderLen)
	}
	if fragment := binary.BigEndian.Uint16(ip[6:8]); fragment&(ipMoreFragments|ipFragOffset) != 0 {
		return f, fail(IPFragment, "flags/fragment offset word 0x%04x", fragment)
	}
	if ipv4Checksum(ip) != 0 {
		return f, fail(BadIPChecksum, "header checksum 0x%04x does not verify", binary.BigEndian.Uint16(ip[10:12]))
	}
	if ip[9] != ipProtocolUDP {
		return f, fail(NotUDP, "IP protocol %d", ip[9])
	}
	udp := b[EthernetHeaderLen+IPv4HeaderLen : FrameHeadersLen]
	udpLen := int(binary.BigEndian.Uint16(udp[4:6]))
	if udpLen < UDPHeaderLen || udpLen != totalLen-IPv4HeaderLen {
		return f, fail(BadUDPLength, "UDP length %d, IPv4 total length %d carries %d", udpLen, totalLen, totalLen-IPv4HeaderLen)
	}
	copy(f.EthDst[:], b[0:6])
	copy(f.EthSrc[:], b[6:12])
	copy(f.IPSrc[:], ip[12:16])
	copy(f.IPDst[:], ip[16:20])
	f.UDPSrc = binary.BigEndian.Uint16(udp[0:2])
	f.UDPDst = binary.BigEndian.Uint16(udp[2:4])
	f.Payload = append([]byte{}, b[FrameHeadersLen:EthernetHeaderLen+totalLen]...)
	return f, nil
}

// EncodeFrame encodes f's message and frames it.
func EncodeFrame(f Frame) ([]byte, error) {
	payload, err := EncodeMessage(f.Message)
	if err != nil {
		return nil, err
	}
	return EncodeUDPFrame(UDPFrame{
		EthDst: f.EthDst, EthSrc: f.EthSrc, IPSrc: f.IPSrc, IPDst: f.IPDst,
		UDPSrc: f.UDPSrc, UDPDst: f.UDPDst, Payload: payload,
	})
}

// DecodeFrame decodes a frame carrying one innet message: the framing checks of §1, then the
// message checks of §2.1 on the UDP payload. It does not look at the ports; a caller that receives
// LaKe (memcached) traffic uses DecodeUDPFrame instead.
func DecodeFrame(b []byte) (Frame, error) {
	udp, err := DecodeUDPFrame(b)
	if err != nil {
		return Frame{}, err
	}
	m, err := DecodeMessage(udp.Payload)
	if err != nil {
		return Frame{}, err
	}
	return Frame{
		EthDst: udp.EthDst, EthSrc: udp.EthSrc, IPSrc: udp.IPSrc, IPDst: udp.IPDst,
		UDPSrc: udp.UDPSrc, UDPDst: udp.UDPDst, Message: m,
	}, nil
}
