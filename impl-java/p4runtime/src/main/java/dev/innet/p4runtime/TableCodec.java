package dev.innet.p4runtime;

import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.p4.config.v1.Action;
import org.p4.config.v1.ActionRef;
import org.p4.config.v1.MatchField;
import org.p4.config.v1.Table;
import org.p4.v1.FieldMatch;
import org.p4.v1.TableAction;
import org.p4.v1.TableEntry;

/**
 * P4Runtime table entries to p4sim's {@link EntrySpec} and back, checking everything P4Runtime requires
 * of a request: known ids, each match field at most once and of the table's match kind, values that fit
 * their widths, no bits set outside a ternary mask or an LPM prefix, a don't-care match written by
 * omitting the field (an all-zero mask or a zero prefix length is an error), priorities exactly where
 * the table has ternary, range or optional keys, and actions the table allows in the entry's scope.
 */
final class TableCodec {
    private final ProgramIndex index;

    TableCodec(ProgramIndex index) {
        this.index = index;
    }

    /** The match of a (non-default) entry, in the table's key order. */
    List<Match> match(Table table, TableEntry e) {
        String tname = table.getPreamble().getName();
        Map<Integer, FieldMatch> byId = new HashMap<>();
        for (FieldMatch fm : e.getMatchList()) {
            if (byId.put(fm.getFieldId(), fm) != null) {
                throw P4RuntimeError.invalid(tname + ": match field id " + fm.getFieldId() + " given twice");
            }
        }
        List<Match> out = new ArrayList<>();
        for (MatchField mf : table.getMatchFieldsList()) {
            FieldMatch fm = byId.remove(mf.getId());
            String what = tname + " field " + mf.getName();
            if (fm == null) {
                if (mf.getMatchType() == MatchField.MatchType.EXACT) {
                    throw P4RuntimeError.invalid(what + ": an exact match field cannot be omitted");
                }
                out.add(new Match.Wildcard());
                continue;
            }
            int w = mf.getBitwidth();
            out.add(switch (mf.getMatchType()) {
                case EXACT -> {
                    require(fm.hasExact(), what, "exact", fm);
                    yield new Match.Exact(Bytes.decode(fm.getExact().getValue(), w, what));
                }
                case TERNARY -> {
                    require(fm.hasTernary(), what, "ternary", fm);
                    BigInteger v = Bytes.decode(fm.getTernary().getValue(), w, what + " value");
                    BigInteger m = Bytes.decode(fm.getTernary().getMask(), w, what + " mask");
                    if (m.signum() == 0) {
                        throw P4RuntimeError.invalid(what + ": an all-zero mask is a don't-care match: omit the field instead");
                    }
                    if (!v.andNot(m).equals(BigInteger.ZERO)) {
                        throw P4RuntimeError.invalid(what + ": value 0x" + v.toString(16) + " has bits outside mask 0x" + m.toString(16));
                    }
                    yield new Match.Ternary(v, m);
                }
                case LPM -> {
                    require(fm.hasLpm(), what, "lpm", fm);
                    int len = fm.getLpm().getPrefixLen();
                    if (len <= 0 || len > w) {
                        throw P4RuntimeError.invalid(what + ": prefix length " + len + " outside 1.." + w
                                + (len == 0 ? " (a zero-length prefix is a don't-care match: omit the field)" : ""));
                    }
                    BigInteger v = Bytes.decode(fm.getLpm().getValue(), w, what);
                    BigInteger hostMask = BigInteger.ONE.shiftLeft(w - len).subtract(BigInteger.ONE);
                    if (v.and(hostMask).signum() != 0) {
                        throw P4RuntimeError.invalid(what + ": value 0x" + v.toString(16) + " has bits set past prefix length " + len);
                    }
                    yield new Match.Lpm(v, len);
                }
                case RANGE -> {
                    require(fm.hasRange(), what, "range", fm);
                    BigInteger lo = Bytes.decode(fm.getRange().getLow(), w, what + " low");
                    BigInteger hi = Bytes.decode(fm.getRange().getHigh(), w, what + " high");
                    if (lo.compareTo(hi) > 0) {
                        throw P4RuntimeError.invalid(what + ": range low 0x" + lo.toString(16) + " > high 0x" + hi.toString(16));
                    }
                    yield new Match.Range(lo, hi);
                }
                case OPTIONAL -> {
                    require(fm.hasOptional(), what, "optional", fm);
                    yield new Match.Exact(Bytes.decode(fm.getOptional().getValue(), w, what));
                }
                default -> throw P4RuntimeError.unimplemented(what + ": match type " + mf.getMatchType());
            });
        }
        if (!byId.isEmpty()) {
            throw P4RuntimeError.invalid(tname + ": no match field with id " + byId.keySet().iterator().next());
        }
        return out;
    }

    private static void require(boolean present, String what, String kind, FieldMatch fm) {
        if (!present) {
            throw P4RuntimeError.invalid(what + ": the field is " + kind + ", the request gives " + fm.getFieldMatchTypeCase());
        }
    }

    int priority(Table table, TableEntry e) {
        boolean needs = table.getMatchFieldsList().stream().anyMatch(mf -> switch (mf.getMatchType()) {
            case TERNARY, RANGE, OPTIONAL -> true;
            default -> false;
        });
        String tname = table.getPreamble().getName();
        if (needs && e.getPriority() <= 0) {
            throw P4RuntimeError.invalid(tname + ": entries of a table with ternary, range or optional keys need a priority >= 1");
        }
        if (!needs && e.getPriority() != 0) {
            throw P4RuntimeError.invalid(tname + ": a table with only exact and lpm keys takes no priority (got " + e.getPriority() + ")");
        }
        return e.getPriority();
    }

    /** The action of an entry (or default entry): its name and arguments, checked against the table. */
    record ActionCall(String name, List<BigInteger> args) { }

    ActionCall action(Table table, TableAction ta, boolean forDefault) {
        String tname = table.getPreamble().getName();
        boolean indirect = table.getImplementationId() != 0;
        switch (ta.getTypeCase()) {
            case TYPE_NOT_SET -> throw P4RuntimeError.invalid(tname + ": the entry has no action");
            case ACTION -> {
                if (indirect) {
                    throw P4RuntimeError.invalid(tname + " has an action profile: its entries take an action_profile_member_id"
                            + " or action_profile_group_id, not an action");
                }
            }
            case ACTION_PROFILE_ACTION_SET -> throw P4RuntimeError.unimplemented(tname + ": one-shot action selector programming"
                    + " (action_profile_action_set) is not supported by p4sim");
            default -> throw P4RuntimeError.invalid(tname + " has no action profile: its entries take an action, not "
                    + (ta.hasActionProfileGroupId() ? "an action_profile_group_id" : "an action_profile_member_id"));
        }
        return directAction(table, ta.getAction(), forDefault);
    }

    /** An action as a table (or, for an action profile member, any table using the profile) allows it. */
    ActionCall directAction(Table table, org.p4.v1.Action a, boolean forDefault) {
        String tname = table.getPreamble().getName();
        Action decl = index.action(a.getActionId());
        ActionRef ref = table.getActionRefsList().stream().filter(r -> r.getId() == a.getActionId()).findFirst()
                .orElseThrow(() -> P4RuntimeError.invalid(tname + ": action " + decl.getPreamble().getName() + " is not one of the table's actions"));
        if (forDefault && ref.getScope() == ActionRef.Scope.TABLE_ONLY) {
            throw P4RuntimeError.invalid(tname + ": action " + decl.getPreamble().getName() + " is @tableonly: it cannot be the default action");
        }
        if (!forDefault && ref.getScope() == ActionRef.Scope.DEFAULT_ONLY) {
            throw P4RuntimeError.invalid(tname + ": action " + decl.getPreamble().getName() + " is @defaultonly: it cannot be used in an entry");
        }
        Map<Integer, org.p4.v1.Action.Param> byId = new HashMap<>();
        for (org.p4.v1.Action.Param p : a.getParamsList()) {
            if (byId.put(p.getParamId(), p) != null) {
                throw P4RuntimeError.invalid(decl.getPreamble().getName() + ": parameter id " + p.getParamId() + " given twice");
            }
        }
        List<BigInteger> args = new ArrayList<>();
        for (Action.Param p : decl.getParamsList()) {
            org.p4.v1.Action.Param given = byId.remove(p.getId());
            if (given == null) {
                throw P4RuntimeError.invalid(decl.getPreamble().getName() + ": parameter " + p.getName() + " (id " + p.getId() + ") is missing");
            }
            args.add(Bytes.decode(given.getValue(), p.getBitwidth(), decl.getPreamble().getName() + " parameter " + p.getName()));
        }
        if (!byId.isEmpty()) {
            throw P4RuntimeError.invalid(decl.getPreamble().getName() + ": no parameter with id " + byId.keySet().iterator().next());
        }
        return new ActionCall(decl.getPreamble().getName(), args);
    }

    // ---------------------------------------------------------------- p4sim -> P4Runtime

    TableEntry toP4Runtime(Table table, EntrySpec spec, boolean isDefault) {
        return toP4Runtime(table, spec, isDefault, null);
    }

    /** As above; {@code indirect}, when not null, is the entry's member or group reference instead of its action. */
    TableEntry toP4Runtime(Table table, EntrySpec spec, boolean isDefault, TableAction indirect) {
        TableEntry.Builder b = isDefault ? TableEntry.newBuilder().setTableId(table.getPreamble().getId()).setIsDefaultAction(true)
                : matchOnly(table, spec.match(), spec.priority());
        if (indirect != null) {
            return b.setAction(indirect).build();
        }
        b.setAction(TableAction.newBuilder().setAction(toP4Runtime(spec.action(), spec.args())));
        return b.build();
    }

    /** p4sim's action and arguments as a P4Runtime action. */
    org.p4.v1.Action toP4Runtime(String action, List<BigInteger> args) {
        Action decl = actionByName(action);
        org.p4.v1.Action.Builder ab = org.p4.v1.Action.newBuilder().setActionId(decl.getPreamble().getId());
        for (int i = 0; i < decl.getParamsCount(); i++) {
            ab.addParams(org.p4.v1.Action.Param.newBuilder().setParamId(decl.getParams(i).getId()).setValue(Bytes.encode(args.get(i))));
        }
        return ab.build();
    }

    /** An entry with this match and priority and no action: the key of a DELETE or a read. */
    TableEntry.Builder matchOnly(Table table, List<Match> match, int priority) {
        TableEntry.Builder b = TableEntry.newBuilder().setTableId(table.getPreamble().getId());
        {
            for (int i = 0; i < table.getMatchFieldsCount(); i++) {
                MatchField mf = table.getMatchFields(i);
                Match m = match.get(i);
                FieldMatch.Builder fm = FieldMatch.newBuilder().setFieldId(mf.getId());
                switch (m) {
                    case Match.Wildcard w -> {
                        continue;
                    }
                    case Match.Exact x -> {
                        switch (mf.getMatchType()) {
                            case OPTIONAL -> fm.setOptional(FieldMatch.Optional.newBuilder().setValue(Bytes.encode(x.value())));
                            case TERNARY -> fm.setTernary(FieldMatch.Ternary.newBuilder().setValue(Bytes.encode(x.value()))
                                    .setMask(Bytes.encode(BigInteger.ONE.shiftLeft(mf.getBitwidth()).subtract(BigInteger.ONE))));
                            case LPM -> fm.setLpm(FieldMatch.LPM.newBuilder().setValue(Bytes.encode(x.value())).setPrefixLen(mf.getBitwidth()));
                            case RANGE -> fm.setRange(FieldMatch.Range.newBuilder().setLow(Bytes.encode(x.value())).setHigh(Bytes.encode(x.value())));
                            default -> fm.setExact(FieldMatch.Exact.newBuilder().setValue(Bytes.encode(x.value())));
                        }
                    }
                    case Match.Ternary t -> fm.setTernary(FieldMatch.Ternary.newBuilder().setValue(Bytes.encode(t.value())).setMask(Bytes.encode(t.mask())));
                    case Match.Lpm l -> fm.setLpm(FieldMatch.LPM.newBuilder().setValue(Bytes.encode(l.value())).setPrefixLen(l.prefixLength()));
                    case Match.Range r -> fm.setRange(FieldMatch.Range.newBuilder().setLow(Bytes.encode(r.lo())).setHigh(Bytes.encode(r.hi())));
                }
                b.addMatch(fm);
            }
            b.setPriority(priority);
        }
        return b;
    }

    Action actionByName(String name) {
        for (Action a : index.actions.values()) {
            if (a.getPreamble().getName().equals(name)) {
                return a;
            }
        }
        throw new P4RuntimeError(io.grpc.Status.Code.INTERNAL, "action " + name + " is not in the P4Info");
    }
}
