package dev.innet.p4runtime;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.compiler.CompiledProgram;
import dev.innet.p4sim.frontend.Ast;
import dev.innet.p4sim.frontend.CheckedProgram;
import dev.innet.p4sim.frontend.Token;
import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.ActionProfileRuntime;
import dev.innet.p4sim.runtime.ActionRuntime;
import dev.innet.p4sim.runtime.CounterArray;
import dev.innet.p4sim.runtime.MeterArray;
import dev.innet.p4sim.runtime.RegisterArray;
import dev.innet.p4sim.runtime.TableRuntime;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.p4.config.v1.Action;
import org.p4.config.v1.ActionProfile;
import org.p4.config.v1.ActionRef;
import org.p4.config.v1.ControllerPacketMetadata;
import org.p4.config.v1.Counter;
import org.p4.config.v1.CounterSpec;
import org.p4.config.v1.Digest;
import org.p4.config.v1.DirectCounter;
import org.p4.config.v1.DirectMeter;
import org.p4.config.v1.MatchField;
import org.p4.config.v1.Meter;
import org.p4.config.v1.MeterSpec;
import org.p4.config.v1.P4BitstringLikeTypeSpec;
import org.p4.config.v1.P4BitTypeSpec;
import org.p4.config.v1.P4DataTypeSpec;
import org.p4.config.v1.P4Ids;
import org.p4.config.v1.P4Info;
import org.p4.config.v1.P4NamedType;
import org.p4.config.v1.P4StructTypeSpec;
import org.p4.config.v1.P4TypeInfo;
import org.p4.config.v1.PkgInfo;
import org.p4.config.v1.Preamble;
import org.p4.config.v1.Register;
import org.p4.config.v1.Table;
import org.p4.config.v1.ValueSet;

/**
 * The P4Info of a p4sim program, as p4c's v1model back end would describe it: tables (match fields,
 * action refs with scopes, const default action, direct resources, size), actions with their
 * control-plane parameters, counters, direct counters, meters, direct meters, registers, digests (with
 * their struct types in {@code type_info}) and controller packet metadata from headers annotated
 * {@code @controller_header("packet_in"|"packet_out")}. Names are p4sim's fully qualified names
 * ({@code MyIngress.t}), which are p4c's control-plane names; ids follow {@link IdAllocator}; aliases are
 * the shortest unique dot-separated suffix among all names, as p4c makes them.
 */
public final class P4InfoBuilder {
    private static final int BMV2_DEFAULT_TABLE_SIZE = 1024;

    /** A digest call site: its P4Info name, the receiver when constant (else -1), its leaf field widths. */
    public record DigestSite(String name, int receiver, List<String> fieldNames, List<Integer> widths) { }

    private final CheckedProgram checked;
    private final CompiledProgram runtime;
    private final IdAllocator ids = new IdAllocator();
    private final Map<String, Ast.ActionDecl> actionDecls = new HashMap<>();
    private final Map<String, Ast.TableDecl> tableDecls = new HashMap<>();
    private final Map<String, Ast.Instantiation> instances = new HashMap<>();
    private final List<DigestSite> digests = new ArrayList<>();
    private final Map<String, Type> digestTypes = new LinkedHashMap<>();

    private P4InfoBuilder(P4Sim.Program program) {
        this.checked = program.checked();
        this.runtime = program.instantiate(SwitchConfig.defaults().withSpecialization(false)).program();
        for (Ast.ActionDecl a : checked.globalActions()) {
            actionDecls.put(a.name, a);
        }
        for (Ast.ControlDecl c : List.of(checked.verifyChecksum(), checked.ingress(), checked.egress(),
                checked.computeChecksum(), checked.deparser())) {
            for (Ast.Node n : c.locals) {
                switch (n) {
                    case Ast.ActionDecl a -> {
                        actionDecls.put(c.name + "." + a.name, a);
                        walk(a.body);
                    }
                    case Ast.TableDecl t -> tableDecls.put(c.name + "." + t.name, t);
                    case Ast.Instantiation i -> instances.put(c.name + "." + i.name, i);
                    default -> { }
                }
            }
            walk(c.apply);
        }
        for (Ast.Stmt st : checked.parser().locals) {
            if (st instanceof Ast.Instantiation i && i.type instanceof Type.ValueSet) {
                instances.put(checked.parser().name + "." + i.name, i);
            }
        }
    }

    /** The P4Info of {@code program}; IllegalArgumentException for a bad {@code @id}. */
    public static P4Info build(P4Sim.Program program) {
        return new P4InfoBuilder(program).build();
    }

    /** The program's digest call sites, in the order of the P4Info's digests. */
    public static List<DigestSite> digestSites(P4Sim.Program program) {
        return List.copyOf(new P4InfoBuilder(program).digests);
    }

    private P4Info build() {
        Map<String, TableRuntime> tables = unique(runtime.tables(), t -> t.name);
        Map<String, ActionRuntime> actions = new TreeMap<>();
        for (TableRuntime t : tables.values()) {
            for (ActionRuntime a : t.actions) {
                actions.putIfAbsent(a.name, a);
            }
        }
        Map<String, RegisterArray> registers = unique(runtime.registers(), r -> r.name);
        Map<String, CounterArray> counters = unique(runtime.counters(), c -> c.name);
        Map<String, MeterArray> meters = unique(runtime.meters(), m -> m.name);
        Map<String, String> directMeterOf = new TreeMap<>(); // meter -> table
        Map<String, String> directCounterOf = new TreeMap<>(); // direct_counter -> table
        for (TableRuntime t : tables.values()) {
            if (t.directMeterName != null) {
                directMeterOf.put(qualified(t.name, t.directMeterName, meters), t.name);
            }
            Ast.TableDecl decl = tableDecls.get(t.name);
            if (t.directCounter && decl != null && decl.directCounter != null) {
                directCounterOf.put(scopeOf(t.name) + decl.directCounter, t.name);
            }
        }
        Map<String, Ast.StructDecl> controllerHeaders = new TreeMap<>();
        for (Ast.Decl d : checked.ast().decls()) {
            if (d instanceof Ast.StructDecl s && s.isHeader) {
                String kind = stringAnnotation(s.annotations, "controller_header");
                if (kind != null) {
                    controllerHeaders.put(kind, s);
                }
            }
        }

        for (String name : tables.keySet()) {
            ids.declare(P4Ids.Prefix.TABLE_VALUE, name, idAnnotation(tableDecls.get(name) == null ? null : tableDecls.get(name).annotations));
        }
        for (String name : actions.keySet()) {
            Ast.ActionDecl decl = actionDecls.get(name);
            ids.declare(P4Ids.Prefix.ACTION_VALUE, name, idAnnotation(decl == null ? null : decl.annotations));
        }
        for (String name : counters.keySet()) {
            ids.declare(P4Ids.Prefix.COUNTER_VALUE, name, instanceId(name));
        }
        for (String name : directCounterOf.keySet()) {
            ids.declare(P4Ids.Prefix.DIRECT_COUNTER_VALUE, name, instanceId(name));
        }
        for (String name : meters.keySet()) {
            boolean direct = directMeterOf.containsKey(name);
            ids.declare(direct ? P4Ids.Prefix.DIRECT_METER_VALUE : P4Ids.Prefix.METER_VALUE, name, instanceId(name));
        }
        for (String name : registers.keySet()) {
            ids.declare(P4Ids.Prefix.REGISTER_VALUE, name, instanceId(name));
        }
        for (String name : digestTypes.keySet()) {
            ids.declare(P4Ids.Prefix.DIGEST_VALUE, name, null);
        }
        Map<String, ActionProfileRuntime> profiles = new TreeMap<>();
        Map<String, List<String>> profileTables = new TreeMap<>();
        for (ActionProfileRuntime p : runtime.arch().actionProfiles.values()) {
            profiles.putIfAbsent(p.name, p);
            profileTables.putIfAbsent(p.name, new ArrayList<>());
        }
        for (TableRuntime t : tables.values()) {
            if (t.profile != null) {
                profileTables.computeIfAbsent(t.profile.name, k -> new ArrayList<>()).add(t.name);
            }
        }
        for (String name : profiles.keySet()) {
            ids.declare(P4Ids.Prefix.ACTION_PROFILE_VALUE, name, idAnnotation(profileAnnotations(name, profileTables.get(name))));
        }
        Map<String, dev.innet.p4sim.runtime.ValueSet> valueSets = unique(runtime.arch().valueSets, v -> v.name);
        for (String name : valueSets.keySet()) {
            ids.declare(P4Ids.Prefix.VALUE_SET_VALUE, name, instanceId(name));
        }
        for (Map.Entry<String, Ast.StructDecl> e : controllerHeaders.entrySet()) {
            ids.declare(P4Ids.Prefix.CONTROLLER_HEADER_VALUE, e.getKey(), idAnnotation(e.getValue().annotations));
        }
        Map<Integer, Map<String, Integer>> assigned = ids.assign();
        Aliases aliases = new Aliases(assigned);

        P4Info.Builder info = P4Info.newBuilder().setPkgInfo(PkgInfo.newBuilder().setArch("v1model"));
        for (TableRuntime t : tables.values()) {
            Table.Builder tb = table(t, assigned, aliases, directCounterOf, directMeterOf).toBuilder();
            if (t.profile != null) {
                tb.setImplementationId(assigned.get(P4Ids.Prefix.ACTION_PROFILE_VALUE).get(t.profile.name));
            }
            info.addTables(tb);
        }
        for (ActionRuntime a : actions.values()) {
            Action.Builder ab = Action.newBuilder().setPreamble(preamble(P4Ids.Prefix.ACTION_VALUE, a.name, assigned, aliases));
            for (int i = 0; i < a.paramNames.length; i++) {
                ab.addParams(Action.Param.newBuilder().setId(i + 1).setName(a.paramNames[i]).setBitwidth(a.paramWidths[i]));
            }
            info.addActions(ab);
        }
        for (CounterArray c : counters.values()) {
            info.addCounters(Counter.newBuilder().setPreamble(preamble(P4Ids.Prefix.COUNTER_VALUE, c.name, assigned, aliases))
                    .setSpec(CounterSpec.newBuilder().setUnit(unit(c.kind))).setSize(c.size));
        }
        for (Map.Entry<String, String> e : directCounterOf.entrySet()) {
            info.addDirectCounters(DirectCounter.newBuilder()
                    .setPreamble(preamble(P4Ids.Prefix.DIRECT_COUNTER_VALUE, e.getKey(), assigned, aliases))
                    .setSpec(CounterSpec.newBuilder().setUnit(directCounterUnit(e.getKey())))
                    .setDirectTableId(assigned.get(P4Ids.Prefix.TABLE_VALUE).get(e.getValue())));
        }
        for (MeterArray m : meters.values()) {
            MeterSpec spec = MeterSpec.newBuilder().setUnit(m.bytes ? MeterSpec.Unit.BYTES : MeterSpec.Unit.PACKETS).build();
            String table = directMeterOf.get(m.name);
            if (table != null) {
                info.addDirectMeters(DirectMeter.newBuilder().setPreamble(preamble(P4Ids.Prefix.DIRECT_METER_VALUE, m.name, assigned, aliases))
                        .setSpec(spec).setDirectTableId(assigned.get(P4Ids.Prefix.TABLE_VALUE).get(table)));
            } else {
                info.addMeters(Meter.newBuilder().setPreamble(preamble(P4Ids.Prefix.METER_VALUE, m.name, assigned, aliases))
                        .setSpec(spec).setSize(m.size));
            }
        }
        for (ActionProfileRuntime p : profiles.values()) {
            info.addActionProfiles(actionProfile(p, profileTables.get(p.name), assigned, aliases));
        }
        for (dev.innet.p4sim.runtime.ValueSet v : valueSets.values()) {
            ValueSet.Builder vb = ValueSet.newBuilder().setPreamble(preamble(P4Ids.Prefix.VALUE_SET_VALUE, v.name, assigned, aliases)).setSize(v.size);
            valueSetFields(v).forEach(vb::addMatch);
            info.addValueSets(vb);
        }
        for (Map.Entry<String, Ast.StructDecl> e : controllerHeaders.entrySet()) {
            ControllerPacketMetadata.Builder cb = ControllerPacketMetadata.newBuilder()
                    .setPreamble(preamble(P4Ids.Prefix.CONTROLLER_HEADER_VALUE, e.getKey(), assigned, aliases)
                            .toBuilder().addAnnotations("@controller_header(\"" + e.getKey() + "\")"));
            int id = 1;
            for (Ast.Field f : e.getValue().fields) {
                cb.addMetadata(ControllerPacketMetadata.Metadata.newBuilder().setId(id++).setName(f.name)
                        .setBitwidth(fieldWidth(e.getValue(), f)));
            }
            info.addControllerPacketMetadata(cb);
        }
        for (RegisterArray r : registers.values()) {
            info.addRegisters(Register.newBuilder().setPreamble(preamble(P4Ids.Prefix.REGISTER_VALUE, r.name, assigned, aliases))
                    .setTypeSpec(bits(r.width)).setSize(r.size));
        }
        P4TypeInfo.Builder types = P4TypeInfo.newBuilder();
        for (Map.Entry<String, Type> e : digestTypes.entrySet()) {
            info.addDigests(Digest.newBuilder().setPreamble(preamble(P4Ids.Prefix.DIGEST_VALUE, e.getKey(), assigned, aliases))
                    .setTypeSpec(P4DataTypeSpec.newBuilder().setStruct(P4NamedType.newBuilder().setName(e.getKey()))));
            P4StructTypeSpec.Builder sb = P4StructTypeSpec.newBuilder();
            DigestSite site = digests.stream().filter(d -> d.name().equals(e.getKey())).findFirst().orElseThrow();
            for (int i = 0; i < site.fieldNames().size(); i++) {
                sb.addMembers(P4StructTypeSpec.Member.newBuilder().setName(site.fieldNames().get(i))
                        .setTypeSpec(bits(site.widths().get(i))));
            }
            types.putStructs(e.getKey(), sb.build());
        }
        if (!digestTypes.isEmpty()) {
            info.setTypeInfo(types);
        }
        return info.build();
    }

    private Table table(TableRuntime t, Map<Integer, Map<String, Integer>> assigned, Aliases aliases,
                        Map<String, String> directCounterOf, Map<String, String> directMeterOf) {
        Table.Builder tb = Table.newBuilder().setPreamble(preamble(P4Ids.Prefix.TABLE_VALUE, t.name, assigned, aliases));
        for (int i = 0; i < t.keyNames.length; i++) {
            tb.addMatchFields(MatchField.newBuilder().setId(i + 1).setName(t.keyNames[i]).setBitwidth(t.widths[i])
                    .setMatchType(switch (t.kinds[i]) {
                        case EXACT -> MatchField.MatchType.EXACT;
                        case TERNARY -> MatchField.MatchType.TERNARY;
                        case LPM -> MatchField.MatchType.LPM;
                        case RANGE -> MatchField.MatchType.RANGE;
                        case OPTIONAL -> MatchField.MatchType.OPTIONAL;
                    }));
        }
        Map<String, Integer> actionIds = assigned.get(P4Ids.Prefix.ACTION_VALUE);
        for (int i = 0; i < t.actions.length; i++) {
            String scope = t.actionScopes == null ? "" : t.actionScopes[i];
            ActionRef.Builder rb = ActionRef.newBuilder().setId(actionIds.get(t.actions[i].name));
            switch (scope) {
                case "defaultonly" -> rb.setScope(ActionRef.Scope.DEFAULT_ONLY).addAnnotations("@defaultonly");
                case "tableonly" -> rb.setScope(ActionRef.Scope.TABLE_ONLY).addAnnotations("@tableonly");
                default -> { }
            }
            tb.addActionRefs(rb);
        }
        if (t.defaultConst && t.defaultEntry() != null && t.defaultEntry().action != null) {
            tb.setConstDefaultActionId(actionIds.get(t.defaultEntry().action.name));
        }
        directCounterOf.forEach((counter, table) -> {
            if (table.equals(t.name)) {
                tb.addDirectResourceIds(assigned.get(P4Ids.Prefix.DIRECT_COUNTER_VALUE).get(counter));
            }
        });
        directMeterOf.forEach((meter, table) -> {
            if (table.equals(t.name)) {
                tb.addDirectResourceIds(assigned.get(P4Ids.Prefix.DIRECT_METER_VALUE).get(meter));
            }
        });
        tb.setSize(t.capacity > 0 ? t.capacity : BMV2_DEFAULT_TABLE_SIZE);
        if (t.constEntries) {
            tb.setIsConstTable(true);
        }
        return tb.build();
    }

    /**
     * An action_profile/action_selector as p4c describes it: the tables using it, {@code with_selector},
     * its size (the constructor's), {@code max_group_size} from {@code @max_group_size(N)} (0 without), and
     * for a selector the size semantics p4c writes: {@code sum_of_members} (with {@code @max_member_weight})
     * when {@code @selector_size_semantics(sum_of_members)}, {@code sum_of_weights} when that annotation
     * says so or {@code @max_group_size} is given, else none.
     */
    private ActionProfile actionProfile(ActionProfileRuntime p, List<String> tableNames,
                                        Map<Integer, Map<String, Integer>> assigned, Aliases aliases) {
        ActionProfile.Builder b = ActionProfile.newBuilder().setPreamble(preamble(P4Ids.Prefix.ACTION_PROFILE_VALUE, p.name, assigned, aliases));
        for (String t : tableNames) {
            b.addTableIds(assigned.get(P4Ids.Prefix.TABLE_VALUE).get(t));
        }
        b.setWithSelector(p.selector).setSize(p.size);
        List<Ast.Annotation> annos = profileAnnotations(p.name, tableNames);
        Integer maxGroupSize = intAnnotation(annos, "max_group_size");
        if (maxGroupSize != null) {
            b.setMaxGroupSize(maxGroupSize);
        }
        if (p.selector) {
            String semantics = stringAnnotation(annos, "selector_size_semantics");
            if ("sum_of_members".equals(semantics)) {
                Integer weight = intAnnotation(annos, "max_member_weight");
                b.setSumOfMembers(ActionProfile.SumOfMembers.newBuilder().setMaxMemberWeight(weight == null ? 0 : weight));
            } else if ("sum_of_weights".equals(semantics) || maxGroupSize != null) {
                b.setSumOfWeights(ActionProfile.SumOfWeights.getDefaultInstance());
            }
        }
        return b.build();
    }

    /** The annotations of a profile: its instantiation's, or for one written inline, those of the table's property. */
    private List<Ast.Annotation> profileAnnotations(String name, List<String> tableNames) {
        Ast.Instantiation i = instances.get(name);
        if (i != null) {
            return i.annotations;
        }
        for (String t : tableNames) {
            Ast.TableDecl d = tableDecls.get(t);
            if (d != null && d.inlineImplementation != null) {
                return d.implementationAnnotations;
            }
            if (d != null && d.implementation != null) {
                Ast.Instantiation named = instances.get(scopeOf(t) + d.implementation);
                if (named != null) {
                    return named.annotations;
                }
            }
        }
        return List.of();
    }

    /**
     * A value set's match fields as p4c writes them: for {@code value_set<bit<W>>} one unnamed EXACT field
     * of W bits; for a struct, one field per member, named, EXACT unless {@code @match(kind)} says otherwise.
     */
    private List<MatchField> valueSetFields(dev.innet.p4sim.runtime.ValueSet v) {
        Ast.Instantiation i = instances.get(v.name);
        if (i == null) {
            for (Map.Entry<String, Ast.Instantiation> e : instances.entrySet()) {
                if (e.getValue().type instanceof Type.ValueSet && (e.getKey().equals(v.name) || v.name.endsWith("." + e.getValue().name))) {
                    i = e.getValue();
                }
            }
        }
        List<MatchField> out = new ArrayList<>();
        if (i != null && i.type instanceof Type.ValueSet vs && vs.element() instanceof Type.Struct st) {
            int id = 1;
            for (Type.FieldT f : st.fields()) {
                String kind = f.annotations() == null ? null : stringAnnotation(f.annotations(), "match");
                out.add(MatchField.newBuilder().setId(id++).setName(f.name()).setBitwidth(f.type().bitWidth())
                        .setMatchType(switch (kind == null ? "exact" : kind) {
                            case "ternary" -> MatchField.MatchType.TERNARY;
                            case "lpm" -> MatchField.MatchType.LPM;
                            case "range" -> MatchField.MatchType.RANGE;
                            case "optional" -> MatchField.MatchType.OPTIONAL;
                            default -> MatchField.MatchType.EXACT;
                        }).build());
            }
            return out;
        }
        out.add(MatchField.newBuilder().setId(1).setBitwidth(v.width).setMatchType(MatchField.MatchType.EXACT).build());
        return out;
    }

    private static Integer intAnnotation(List<Ast.Annotation> annotations, String name) {
        for (Ast.Annotation a : annotations) {
            if (a.name().equals(name)) {
                if (a.body().size() != 1 || a.body().get(0).kind() != Token.Kind.INT) {
                    throw new IllegalArgumentException(a.pos() + ": @" + name + " needs one integer");
                }
                String text = a.body().get(0).text().replace("_", "");
                return (text.startsWith("0x") || text.startsWith("0X") ? new BigInteger(text.substring(2), 16) : new BigInteger(text)).intValue();
            }
        }
        return null;
    }

    private static Preamble preamble(int prefix, String name, Map<Integer, Map<String, Integer>> assigned, Aliases aliases) {
        return Preamble.newBuilder().setId(assigned.get(prefix).get(name)).setName(name).setAlias(aliases.of(name)).build();
    }

    private static P4DataTypeSpec bits(int width) {
        return P4DataTypeSpec.newBuilder().setBitstring(P4BitstringLikeTypeSpec.newBuilder()
                .setBit(P4BitTypeSpec.newBuilder().setBitwidth(width))).build();
    }

    private static CounterSpec.Unit unit(CounterArray.Kind kind) {
        return switch (kind) {
            case PACKETS -> CounterSpec.Unit.PACKETS;
            case BYTES -> CounterSpec.Unit.BYTES;
            case PACKETS_AND_BYTES -> CounterSpec.Unit.BOTH;
        };
    }

    private CounterSpec.Unit directCounterUnit(String name) {
        Ast.Instantiation i = instances.get(name);
        if (i != null && !i.args.isEmpty() && i.args.get(0) instanceof Ast.Member m) {
            return switch (m.member) {
                case "packets" -> CounterSpec.Unit.PACKETS;
                case "bytes" -> CounterSpec.Unit.BYTES;
                default -> CounterSpec.Unit.BOTH;
            };
        }
        return CounterSpec.Unit.BOTH;
    }

    private Integer instanceId(String name) {
        Ast.Instantiation i = instances.get(name);
        return i == null ? null : idAnnotation(i.annotations);
    }

    private int fieldWidth(Ast.StructDecl header, Ast.Field f) {
        if (f.typeRef instanceof Ast.BitsRef b) {
            BigInteger w = checked.constEval().tryEval(b.width);
            if (w != null) {
                return w.intValue();
            }
        }
        throw new IllegalArgumentException("controller header " + header.name + ": field " + f.name
                + " is not a bit<N> with a constant width");
    }

    /** The value of {@code @id(N)}, or null without one. */
    static Integer idAnnotation(List<Ast.Annotation> annotations) {
        if (annotations == null) {
            return null;
        }
        for (Ast.Annotation a : annotations) {
            if (a.name().equals("id")) {
                if (a.body().size() != 1 || a.body().get(0).kind() != Token.Kind.INT) {
                    throw new IllegalArgumentException(a.pos() + ": @id needs one integer");
                }
                String text = a.body().get(0).text().replace("_", "");
                BigInteger v = text.startsWith("0x") || text.startsWith("0X") ? new BigInteger(text.substring(2), 16)
                        : new BigInteger(text);
                if (v.signum() < 0 || v.bitLength() > 32) {
                    throw new IllegalArgumentException(a.pos() + ": @id should be an unsigned 32-bit integer");
                }
                return v.intValue();
            }
        }
        return null;
    }

    private static String stringAnnotation(List<Ast.Annotation> annotations, String name) {
        for (Ast.Annotation a : annotations) {
            if (a.name().equals(name) && a.body().size() == 1) {
                String text = a.body().get(0).text();
                return text.startsWith("\"") && text.endsWith("\"") && text.length() >= 2 ? text.substring(1, text.length() - 1) : text;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------- digest call sites

    private void walk(Ast.Stmt s) {
        switch (s) {
            case null -> { }
            case Ast.Block b -> b.stmts.forEach(this::walk);
            case Ast.If i -> {
                walk(i.then);
                walk(i.otherwise);
            }
            case Ast.Switch sw -> sw.cases.forEach(c -> walk(c.body()));
            case Ast.CallStmt c -> digestCall(c.call);
            default -> { }
        }
    }

    private void digestCall(Ast.Call call) {
        if (!(call.callee instanceof Ast.Name n) || !n.name.equals("digest") || call.args.size() != 2) {
            return;
        }
        BigInteger receiver = checked.constEval().tryEval(call.args.get(0));
        Ast.Expr data = call.args.get(1);
        List<String> names = new ArrayList<>();
        List<Integer> widths = new ArrayList<>();
        String typeName;
        if (data.type instanceof Type.Struct st) {
            typeName = st.name();
            for (Type.FieldT f : st.fields()) {
                names.add(f.name());
                widths.add(f.type().bitWidth());
            }
        } else if (data instanceof Ast.ListExpr list) {
            // p4c would reject a list here in its P4Runtime back end; p4sim names the tuple by its receiver
            typeName = "digest_" + (receiver == null ? digests.size() : receiver);
            for (int i = 0; i < list.elements.size(); i++) {
                names.add("f" + i);
                widths.add(list.elements.get(i).type.bitWidth());
            }
        } else {
            throw new IllegalArgumentException(call.pos + ": digest data of type " + data.type + " is not a struct");
        }
        digestTypes.putIfAbsent(typeName, data.type);
        if (digests.stream().noneMatch(d -> d.name().equals(typeName))) {
            digests.add(new DigestSite(typeName, receiver == null ? -1 : receiver.intValue(), names, widths));
        }
    }

    // ---------------------------------------------------------------- names

    private static <T> Map<String, T> unique(Map<String, T> byNameAndAlias, java.util.function.Function<T, String> name) {
        Map<String, T> out = new TreeMap<>();
        for (T v : byNameAndAlias.values()) {
            out.putIfAbsent(name.apply(v), v);
        }
        return out;
    }

    private static String scopeOf(String qualified) {
        int dot = qualified.lastIndexOf('.');
        return dot < 0 ? "" : qualified.substring(0, dot + 1);
    }

    private static String qualified(String table, String name, Map<String, ?> known) {
        if (known.containsKey(name)) {
            return name;
        }
        return scopeOf(table) + name;
    }

    /** p4c's aliases: the shortest suffix of dot-separated components that no other name shares. */
    private static final class Aliases {
        private final Map<String, Integer> suffixCount = new HashMap<>();

        Aliases(Map<Integer, Map<String, Integer>> assigned) {
            java.util.Set<String> all = new java.util.TreeSet<>();
            assigned.values().forEach(m -> all.addAll(m.keySet()));
            for (String name : all) {
                String[] parts = name.split("\\.");
                for (int k = 1; k <= parts.length; k++) {
                    suffixCount.merge(String.join(".", java.util.Arrays.copyOfRange(parts, parts.length - k, parts.length)), 1, Integer::sum);
                }
            }
        }

        String of(String name) {
            String[] parts = name.split("\\.");
            for (int k = 1; k <= parts.length; k++) {
                String suffix = String.join(".", java.util.Arrays.copyOfRange(parts, parts.length - k, parts.length));
                if (suffixCount.get(suffix) < 2) {
                    return suffix;
                }
            }
            return name;
        }
    }
}
