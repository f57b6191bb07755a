"""Drives p4sim's P4Runtime server with p4runtime-shell (PyPI, the P4 community's client), for
P4RuntimeShellTest. Uses impl-java/p4runtime/src/test/resources/p4rt.p4 (CPU port 64).

usage: shell_check.py HOST:PORT P4INFO.txt PROGRAM.p4

Sets the pipeline from the P4Info p4sim wrote and the program's source, reads the P4Info back,
inserts table entries and reads them back, writes action selector members, a group and an entry
running the group and reads them back, sends a packet-out that the program returns to the CPU,
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

        for member_id, port in ((1, "5"), (2, "6")):
            m = sh.ActionProfileMember("MyIngress.ecmp_sel")(member_id=member_id, action="MyIngress.set_port")
            m.action["port"] = port
            m.insert()
        g = sh.ActionProfileGroup("MyIngress.ecmp_sel")(group_id=7)
        g.add(1).add(2)
        g.insert()
        te = sh.TableEntry("MyIngress.ecmp")(group_id=7)
        te.match["hdr.eth.type"] = "0x0901"
        te.insert()
        members = sorted(m.member_id for m in sh.ActionProfileMember("MyIngress.ecmp_sel").read())
        assert members == [1, 2], members
        groups = list(sh.ActionProfileGroup("MyIngress.ecmp_sel").read())
        assert len(groups) == 1 and sorted(m.member_id for m in groups[0].members) == [1, 2], groups
        ecmp = list(sh.TableEntry("MyIngress.ecmp").read())
        assert len(ecmp) == 1 and ecmp[0].group_id == 7, ecmp
        print("ok: action selector members %s, group 7, ecmp entry runs group %d" % (members, ecmp[0].group_id))

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
