package dev.innet.p4runtime;

import static dev.innet.p4runtime.TestSwitch.bytes;
import static dev.innet.p4runtime.TestSwitch.update;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.p4.v1.Action;
import org.p4.v1.CapabilitiesRequest;
import org.p4.v1.CounterEntry;
import org.p4.v1.DigestEntry;
import org.p4.v1.Entity;
import org.p4.v1.FieldMatch;
import org.p4.v1.ForwardingPipelineConfig;
import org.p4.v1.GetForwardingPipelineConfigRequest;
import org.p4.v1.Index;
import org.p4.v1.P4Data;
import org.p4.v1.PacketMetadata;
import org.p4.v1.PacketOut;
import org.p4.v1.RegisterEntry;
import org.p4.v1.SetForwardingPipelineConfigRequest;
import org.p4.v1.StreamMessageRequest;
import org.p4.v1.StreamMessageResponse;
import org.p4.v1.TableAction;
import org.p4.v1.TableEntry;
import org.p4.v1.Update;
import org.p4.v1.WriteRequest;

class P4RuntimeServerTest {
    private static final byte[] FRAME = HexFormat.of().parseHex("0000000000aa" + "0000000000bb" + "0800" + "cafe");
    private TestSwitch ts;

    @BeforeEach
    void start() throws Exception {
        ts = new TestSwitch();
    }

    @AfterEach
    void stop() throws Exception {
        ts.close();
    }

    private Entity fwdEntry(long dst, String action, long... args) {
        Action.Builder a = Action.newBuilder().setActionId(ts.actionId(action));
        for (int i = 0; i < args.length; i++) {
            a.addParams(Action.Param.newBuilder().setParamId(i + 1).setValue(bytes(args[i])));
        }
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("fwd"))
                .addMatch(FieldMatch.newBuilder().setFieldId(1).setExact(FieldMatch.Exact.newBuilder().setValue(bytes(dst))))
                .setAction(TableAction.newBuilder().setAction(a))).build();
    }

    private Entity allOf(String table) {
        return Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId(table))).build();
    }

    @Test
    void capabilitiesAndPipelineConfig() {
        assertEquals("1.6.0", ts.stub.capabilities(CapabilitiesRequest.getDefaultInstance()).getP4RuntimeApiVersion());
        var cfg = ts.stub.getForwardingPipelineConfig(GetForwardingPipelineConfigRequest.newBuilder().setDeviceId(1)
                .setResponseType(GetForwardingPipelineConfigRequest.ResponseType.ALL).build()).getConfig();
        assertEquals(ts.p4info, cfg.getP4Info());
        assertTrue(cfg.getP4DeviceConfig().toStringUtf8().contains("@controller_header(\"packet_in\")"));
        // the @id(7) of table acl gets the table prefix 0x02
        assertEquals(0x02000007, ts.tableId("acl"));
    }

    @Test
    void primaryWritesAndReadsBackTableEntries() throws Exception {
        try (var client = ts.new Client()) {
            assertEquals(Status.Code.OK.value(), client.arbitrate(10).getStatus().getCode());
            ts.stub.write(ts.write(10, update(Update.Type.INSERT, fwdEntry(0xaa, "set_port", 3)),
                    update(Update.Type.INSERT, fwdEntry(0xbb, "to_cpu"))).build());
            List<Entity> read = ts.read(allOf("fwd"));
            assertEquals(2, read.size());
            assertTrue(read.contains(fwdEntry(0xaa, "set_port", 3)), read.toString());
            // the data plane uses it: 0xaa goes to port 3
            synchronized (ts.sw) {
                assertEquals(3, ts.sw.process(1, FRAME).getFirst().port());
            }
            ts.stub.write(ts.write(10, update(Update.Type.MODIFY, fwdEntry(0xaa, "set_port", 5))).build());
            assertTrue(ts.read(allOf("fwd")).contains(fwdEntry(0xaa, "set_port", 5)));
            ts.stub.write(ts.write(10, update(Update.Type.DELETE, fwdEntry(0xaa, "set_port", 5))).build());
            assertEquals(1, ts.read(allOf("fwd")).size());
            // a read of one entry by its match
            assertEquals(List.of(fwdEntry(0xbb, "to_cpu")), ts.read(fwdEntry(0xbb, "to_cpu")));
            // wildcard read of every table
            assertEquals(1, ts.read(Entity.newBuilder().setTableEntry(TableEntry.getDefaultInstance()).build()).size());
        }
    }

    @Test
    void defaultActionCanBeModifiedAndRestored() throws Exception {
        try (var client = ts.new Client()) {
            client.arbitrate(1);
            Entity def = Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("fwd")).setIsDefaultAction(true)
                    .setAction(TableAction.newBuilder().setAction(Action.newBuilder().setActionId(ts.actionId("set_port"))
                            .addParams(Action.Param.newBuilder().setParamId(1).setValue(bytes(7)))))).build();
            ts.stub.write(ts.write(1, update(Update.Type.MODIFY, def)).build());
            Entity query = Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("fwd")).setIsDefaultAction(true)).build();
            assertEquals(List.of(def), ts.read(query));
            // MODIFY without an action restores the program's default (drop)
            ts.stub.write(ts.write(1, update(Update.Type.MODIFY, query)).build());
            assertEquals(ts.actionId("drop"), ts.read(query).getFirst().getTableEntry().getAction().getAction().getActionId());
            // INSERT of a default entry is not allowed
            var e = assertThrows(StatusRuntimeException.class, () -> ts.stub.write(ts.write(1, update(Update.Type.INSERT, def)).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT.value(), TestSwitch.details(e).getFirst().getCanonicalCode());
        }
    }

    @Test
    void onlyThePrimaryMayWrite() throws Exception {
        try (var a = ts.new Client(); var b = ts.new Client()) {
            assertEquals(Status.Code.OK.value(), a.arbitrate(5).getStatus().getCode());
            var answer = b.arbitrate(3);
            assertEquals(Status.Code.ALREADY_EXISTS.value(), answer.getStatus().getCode());
            assertEquals(5, answer.getElectionId().getLow());
            var e = assertThrows(StatusRuntimeException.class,
                    () -> ts.stub.write(ts.write(3, update(Update.Type.INSERT, fwdEntry(1, "to_cpu"))).build()));
            assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
            assertTrue(ts.read(allOf("fwd")).isEmpty());
            // the same election id twice is refused
            try (var c = ts.new Client()) {
                c.send(StreamMessageRequest.newBuilder().setArbitration(org.p4.v1.MasterArbitrationUpdate.newBuilder()
                        .setDeviceId(1).setElectionId(TestSwitch.election(5))).build());
                Throwable t = c.errors.poll(10, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(Status.Code.INVALID_ARGUMENT, Status.fromThrowable(t).getCode());
            }
            // when the primary leaves, b becomes primary
            a.close();
            var promoted = b.next().getArbitration();
            assertEquals(Status.Code.OK.value(), promoted.getStatus().getCode());
            ts.stub.write(ts.write(3, update(Update.Type.INSERT, fwdEntry(1, "to_cpu"))).build());
            assertEquals(1, ts.read(allOf("fwd")).size());
        }
    }

    @Test
    void malformedUpdatesAreRejectedWithClearErrorsAndChangeNothing() throws Exception {
        try (var client = ts.new Client()) {
            client.arbitrate(1);
            ts.stub.write(ts.write(1, update(Update.Type.INSERT, fwdEntry(0xaa, "set_port", 3))).build());
            record Bad(String what, Entity entity, Status.Code code, String message) { }
            Entity tooWide = fwdEntry(1L << 47, "set_port", 512); // port is 9 bits
            Entity unknownTable = Entity.newBuilder().setTableEntry(fwdEntry(2, "to_cpu").getTableEntry().toBuilder().setTableId(0x0200ffff)).build();
            Entity missingExact = Entity.newBuilder().setTableEntry(fwdEntry(2, "to_cpu").getTableEntry().toBuilder().clearMatch()).build();
            Entity notTableAction = fwdEntry(2, "NoAction");
            Entity aclNoPriority = Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(ts.tableId("acl"))
                    .addMatch(FieldMatch.newBuilder().setFieldId(1).setTernary(FieldMatch.Ternary.newBuilder().setValue(bytes(0x0800)).setMask(bytes(0xffff))))
                    .setAction(TableAction.newBuilder().setAction(Action.newBuilder().setActionId(ts.actionId("drop"))))).build();
            Entity aclBitsOutsideMask = Entity.newBuilder().setTableEntry(aclNoPriority.getTableEntry().toBuilder().setPriority(1)
                    .setMatch(0, FieldMatch.newBuilder().setFieldId(1).setTernary(FieldMatch.Ternary.newBuilder().setValue(bytes(0x0801)).setMask(bytes(0xff00))))).build();
            List<Bad> bad = List.of(
                    new Bad("a value wider than its field", tooWide, Status.Code.INVALID_ARGUMENT, "does not fit in 9 bits"),
                    new Bad("an unknown table", unknownTable, Status.Code.NOT_FOUND, "no table with id"),
                    new Bad("an omitted exact field", missingExact, Status.Code.INVALID_ARGUMENT, "cannot be omitted"),
                    new Bad("an action the table does not have", notTableAction, Status.Code.INVALID_ARGUMENT, "not one of the table's actions"),
                    new Bad("a ternary table without priority", aclNoPriority, Status.Code.INVALID_ARGUMENT, "need a priority"),
                    new Bad("bits outside the mask", aclBitsOutsideMask, Status.Code.INVALID_ARGUMENT, "outside mask"),
                    new Bad("a duplicate entry", fwdEntry(0xaa, "set_port", 4), Status.Code.ALREADY_EXISTS, "already exists"));
            for (Bad b : bad) {
                // alone, and after a good update in the same batch: the good one must not be applied either
                for (boolean withGood : new boolean[] {false, true}) {
                    WriteRequest.Builder req = withGood
                            ? ts.write(1, update(Update.Type.INSERT, fwdEntry(0xcc, "to_cpu")), update(Update.Type.INSERT, b.entity))
                                    .setAtomicity(WriteRequest.Atomicity.ROLLBACK_ON_ERROR)
                            : ts.write(1, update(Update.Type.INSERT, b.entity));
                    var e = assertThrows(StatusRuntimeException.class, () -> ts.stub.write(req.build()), b.what);
                    List<org.p4.v1.Error> details = TestSwitch.details(e);
                    org.p4.v1.Error err = details.getLast();
                    assertEquals(b.code.value(), err.getCanonicalCode(), b.what + ": " + err);
                    assertTrue(err.getMessage().contains(b.message), b.what + ": " + err.getMessage());
                    assertTrue(e.getStatus().getDescription().contains(b.message), b.what + ": " + e.getStatus());
                    if (withGood) {
                        assertEquals(Status.Code.ABORTED.value(), details.getFirst().getCanonicalCode(), b.what);
                    }
                    assertEquals(List.of(fwdEntry(0xaa, "set_port", 3)), ts.read(allOf("fwd")), b.what + ": the switch changed");
                    assertTrue(ts.read(allOf("acl")).isEmpty(), b.what);
                }
            }
            // a request for another device is refused as a whole
            var e = assertThrows(StatusRuntimeException.class, () -> ts.stub.write(ts.write(1,
                    update(Update.Type.INSERT, fwdEntry(0xdd, "to_cpu"))).setDeviceId(9).build()));
            assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
            assertTrue(e.getStatus().getDescription().contains("no device 9"));
        }
    }

    @Test
    void continueOnErrorAppliesTheGoodUpdatesOfABatch() throws Exception {
        try (var client = ts.new Client()) {
            client.arbitrate(1);
            ts.stub.write(ts.write(1, update(Update.Type.INSERT, fwdEntry(0xaa, "set_port", 3))).build());
            var e = assertThrows(StatusRuntimeException.class, () -> ts.stub.write(ts.write(1,
                    update(Update.Type.INSERT, fwdEntry(0xbb, "to_cpu")), update(Update.Type.INSERT, fwdEntry(0xaa, "to_cpu")),
                    update(Update.Type.INSERT, fwdEntry(0xcc, "to_cpu"))).build()));
            var details = TestSwitch.details(e);
            assertEquals(List.of(0, Status.Code.ALREADY_EXISTS.value(), 0), details.stream().map(org.p4.v1.Error::getCanonicalCode).toList());
            assertEquals(3, ts.read(allOf("fwd")).size());
        }
    }

    @Test
    void countersAndRegisters() throws Exception {
        try (var client = ts.new Client()) {
            client.arbitrate(1);
            synchronized (ts.sw) {
                ts.sw.process(2, FRAME);
            }
            int counter = ts.p4info.getCounters(0).getPreamble().getId();
            var c = ts.read(Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(counter).setIndex(Index.newBuilder().setIndex(2))).build());
            assertEquals(1, c.getFirst().getCounterEntry().getData().getPacketCount());
            assertEquals(FRAME.length, c.getFirst().getCounterEntry().getData().getByteCount());
            // wildcard index: every cell
            assertEquals(16, ts.read(Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(counter)).build()).size());
            int register = ts.p4info.getRegisters(0).getPreamble().getId();
            Entity cell0 = Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder().setRegisterId(register).setIndex(Index.newBuilder().setIndex(0))).build();
            assertEquals(bytes(0x0800), ts.read(cell0).getFirst().getRegisterEntry().getData().getBitstring());
            Entity write = Entity.newBuilder().setRegisterEntry(cell0.getRegisterEntry().toBuilder().setData(P4Data.newBuilder().setBitstring(bytes(0x1234)))).build();
            ts.stub.write(ts.write(1, update(Update.Type.MODIFY, write)).build());
            assertEquals(bytes(0x1234), ts.read(cell0).getFirst().getRegisterEntry().getData().getBitstring());
            // 33 bits into a 32-bit register, or an index out of range: rejected, nothing written
            Entity tooWide = Entity.newBuilder().setRegisterEntry(cell0.getRegisterEntry().toBuilder().setData(P4Data.newBuilder().setBitstring(bytes(1L << 32)))).build();
            Entity outOfRange = Entity.newBuilder().setRegisterEntry(write.getRegisterEntry().toBuilder().setIndex(Index.newBuilder().setIndex(8))).build();
            for (Entity bad : List.of(tooWide, outOfRange)) {
                var e = assertThrows(StatusRuntimeException.class, () -> ts.stub.write(ts.write(1, update(Update.Type.MODIFY, bad)).build()));
                assertEquals(Status.Code.INVALID_ARGUMENT.value(), TestSwitch.details(e).getFirst().getCanonicalCode());
            }
            assertEquals(bytes(0x1234), ts.read(cell0).getFirst().getRegisterEntry().getData().getBitstring());
        }
    }

    @Test
    void packetOutReachesThePipelineAndPacketInCarriesItsHeader() throws Exception {
        try (var client = ts.new Client()) {
            client.arbitrate(1);
            // packet-out with egress_port = 64 (the CPU port): the program sends it straight back as a packet-in
            client.send(StreamMessageRequest.newBuilder().setPacket(PacketOut.newBuilder().setPayload(ByteString.copyFrom(FRAME))
                    .addMetadata(PacketMetadata.newBuilder().setMetadataId(1).setValue(bytes(64)))).build());
            StreamMessageResponse r = client.next();
            assertTrue(r.hasPacket(), r.toString());
            assertArrayEquals(FRAME, r.getPacket().getPayload().toByteArray());
            assertEquals(bytes(64), r.getPacket().getMetadata(0).getValue()); // ingress_port: it came from the CPU
            // a data-plane packet sent to the CPU by a table entry
            ts.stub.write(ts.write(1, update(Update.Type.INSERT, fwdEntry(0xaa, "to_cpu"))).build());
            synchronized (ts.sw) {
                ts.sw.process(3, FRAME);
            }
            r = client.next();
            assertEquals(bytes(3), r.getPacket().getMetadata(0).getValue());
            assertArrayEquals(FRAME, r.getPacket().getPayload().toByteArray());
            // packet-out metadata wider than its field: a stream error, nothing sent
            client.send(StreamMessageRequest.newBuilder().setPacket(PacketOut.newBuilder().setPayload(ByteString.copyFrom(FRAME))
                    .addMetadata(PacketMetadata.newBuilder().setMetadataId(1).setValue(bytes(1024)))).build());
            r = client.next();
            assertTrue(r.hasError(), r.toString());
            assertEquals(Status.Code.INVALID_ARGUMENT.value(), r.getError().getCanonicalCode());
            assertTrue(r.getError().getMessage().contains("egress_port"), r.getError().getMessage());
        }
    }

    @Test
    void digestsReachThePrimaryOnceConfigured() throws Exception {
        try (var client = ts.new Client()) {
            client.arbitrate(1);
            int digest = ts.p4info.getDigests(0).getPreamble().getId();
            assertEquals("learn_t", ts.p4info.getDigests(0).getPreamble().getName());
            ts.stub.write(ts.write(1, update(Update.Type.INSERT, Entity.newBuilder().setDigestEntry(DigestEntry.newBuilder()
                    .setDigestId(digest).setConfig(DigestEntry.Config.newBuilder().setMaxListSize(1))).build())).build());
            synchronized (ts.sw) {
                ts.sw.process(4, FRAME); // the learned table misses: its default action learn() sends the digest
            }
            StreamMessageResponse r = client.next();
            assertTrue(r.hasDigest(), r.toString());
            assertEquals(digest, r.getDigest().getDigestId());
            var members = r.getDigest().getData(0).getStruct().getMembersList();
            assertEquals(bytes(0xbb), members.get(0).getBitstring());
            assertEquals(bytes(4), members.get(1).getBitstring());
        }
    }

    @Test
    void setPipelineVerifiesTheSourceAndCommitResetsState() throws Exception {
        try (var client = ts.new Client()) {
            client.arbitrate(1);
            var get = ts.stub.getForwardingPipelineConfig(GetForwardingPipelineConfigRequest.newBuilder().setDeviceId(1)
                    .setResponseType(GetForwardingPipelineConfigRequest.ResponseType.ALL).build()).getConfig();
            ts.stub.write(ts.write(1, update(Update.Type.INSERT, fwdEntry(0xaa, "to_cpu"))).build());
            var set = SetForwardingPipelineConfigRequest.newBuilder().setDeviceId(1).setElectionId(TestSwitch.election(1));
            ts.stub.setForwardingPipelineConfig(set.setAction(SetForwardingPipelineConfigRequest.Action.VERIFY).setConfig(get).build());
            assertEquals(1, ts.read(allOf("fwd")).size());
            ts.stub.setForwardingPipelineConfig(set.setAction(SetForwardingPipelineConfigRequest.Action.VERIFY_AND_COMMIT).setConfig(get).build());
            assertTrue(ts.read(allOf("fwd")).isEmpty());
            // a source that does not compile, and a P4Info that does not match the source
            var broken = ForwardingPipelineConfig.newBuilder().setP4DeviceConfig(ByteString.copyFromUtf8("control X(")).build();
            var e = assertThrows(StatusRuntimeException.class, () -> ts.stub.setForwardingPipelineConfig(
                    set.setAction(SetForwardingPipelineConfigRequest.Action.VERIFY).setConfig(broken).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
            assertTrue(e.getStatus().getDescription().contains("does not compile"), e.getStatus().getDescription());
            var otherInfo = get.toBuilder().setP4Info(get.getP4Info().toBuilder().removeTables(0)).build();
            e = assertThrows(StatusRuntimeException.class, () -> ts.stub.setForwardingPipelineConfig(
                    set.setAction(SetForwardingPipelineConfigRequest.Action.VERIFY_AND_COMMIT).setConfig(otherInfo).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
            // not the primary
            e = assertThrows(StatusRuntimeException.class, () -> ts.stub.setForwardingPipelineConfig(
                    set.setElectionId(TestSwitch.election(2)).setAction(SetForwardingPipelineConfigRequest.Action.VERIFY).setConfig(get).build()));
            assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode());
        }
    }

    @Test
    void largeWildcardReadsComeInSeveralResponses() throws Exception {
        // a wildcard read of one of netcache.p4's Count-Min rows: 65,536 cells, split every 2,000
        var program = dev.innet.p4sim.P4Sim.compile(java.nio.file.Path.of(System.getProperty("innet.root", "../.."), "p4/netcache.p4"));
        var sw = program.instantiate(dev.innet.p4sim.v1model.SwitchConfig.defaults().withSpecialization(false));
        try (var server = P4RuntimeServer.start("127.0.0.1", 0, 1, program, new byte[0], sw, sw)) {
            var channel = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
            try {
                var register = server.p4info().getRegistersList().stream()
                        .filter(r -> r.getPreamble().getName().equals("MyIngress.cms_row_0")).findFirst().orElseThrow();
                var responses = org.p4.v1.P4RuntimeGrpc.newBlockingStub(channel).read(org.p4.v1.ReadRequest.newBuilder().setDeviceId(1)
                        .addEntities(Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder().setRegisterId(register.getPreamble().getId()))).build());
                long cells = 0;
                int messages = 0;
                while (responses.hasNext()) {
                    cells += responses.next().getEntitiesCount();
                    messages++;
                }
                assertEquals(register.getSize(), cells); // 65,536 cells, every one once
                assertEquals((register.getSize() + 1999) / 2000, messages);
            } finally {
                channel.shutdownNow();
            }
        }
    }

    @Test
    void readsOfUnknownIdsFailClearly() {
        var e = assertThrows(StatusRuntimeException.class, () -> ts.read(Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(42)).build()));
        assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("no counter with id 42"));
        BigInteger big = BigInteger.ONE.shiftLeft(100);
        assertEquals(big, PRuntimeIds.roundTrip(big));
    }

    /** Election ids are 128-bit: both halves survive the conversion. */
    static final class PRuntimeIds {
        static BigInteger roundTrip(BigInteger v) {
            return P4RuntimeService.toBig(P4RuntimeService.toUint128(v));
        }
    }
}
