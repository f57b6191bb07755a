"""Drives p4sim's P4Runtime server with p4runtime-shell (PyPI, the P4 community's client), for
P4RuntimeShellTest. Uses impl-java/p4runtime/src/test/resources/p4rt.p4 (CPU port 64).

usage: shell_check.py HOST:PORT P4INFO.txt PROGRAM.p4

Sets the pipeline from the P4Info p4sim wrote and the program's source, reads the P4Info back,
inserts table entries and reads them back, sends a packet-out that the program returns to the CPU,
and receives it as a packet-in. Prints one "ok: ..." line per step; any failure raises (exit 1).
"""
import sys

import p4runtime_sh.shell as sh

FRAME = bytes.fromhex("0000000000aa" "0000000000bb" "0800" "cafe")


def main():
    addr, p4info_path, program_path = sys.argv[1:4]
    sh.setup(device_id=1, grpc_addr=addr, election_id=(0, 1),
             config=sh.FwdPipeConfig(p4info_path, program_path), verbose=False)
    try:
        # the P4Info as the shell read it from the switch
        p4info = sh.client.get_p4info()
        tables = sorted(t.preamble.name for t in p4info.tables)
        assert "MyIngress.fwd" in tables, tables
        print("ok: p4info tables " + " ".join(tables))

        te = sh.TableEntry("MyIngress.fwd")(action="MyIngress.set_port")
        te.match["hdr.eth.dst"] = "0x0000000000aa"
        te.action["port"] = "3"
        te.insert()
        te = sh.TableEntry("MyIngress.acl")(action="MyIngress.drop")
        te.match["hdr.eth.type"] = "0x0800&&&0xff00"
        te.match["hdr.eth.src"] = "0x0000000000bb/48"
        te.priority = 10
        te.insert()

        read = list(sh.TableEntry("MyIngress.fwd").read())
        assert len(read) == 1, read
        assert read[0].action["port"].value == b"\x03", read[0]
        acl = list(sh.TableEntry("MyIngress.acl").read())
        assert len(acl) == 1 and acl[0].priority == 10, acl
        print("ok: read back fwd port=%d, acl priority=%d" % (read[0].action["port"].value[0], acl[0].priority))

        packet_in = sh.PacketIn()
        sh.PacketOut(FRAME, egress_port="64").send()
        got = list(packet_in.sniff(timeout=10))
        assert got, "no packet-in within 10 s"
        msg = got[0].packet
        assert msg.payload == FRAME, msg
        ports = [int.from_bytes(m.value, "big") for m in msg.metadata if m.metadata_id == 1]
        assert ports == [64], msg
        print("ok: packet-in of %d bytes, ingress_port=%d" % (len(msg.payload), ports[0]))
    finally:
        sh.teardown()


if __name__ == "__main__":
    main()
