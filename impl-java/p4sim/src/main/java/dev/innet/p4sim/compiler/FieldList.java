package dev.innet.p4sim.compiler;

import dev.innet.p4sim.frontend.Ast.Expr;
import dev.innet.p4sim.frontend.Ast.ListExpr;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.BitIO;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.Wide;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The data argument of hash, checksum and digest externs flattened to its leaf fields (a list
 * expression, a struct or a header contributes its fields in order, bool as one bit). It can serialise
 * the fields into a per-call-site byte buffer, most significant bit first, zero-padded to whole bytes.
 */
final class FieldList {
    private final List<Place> leaves = new ArrayList<>();
    /** Per leaf: the header it belongs to (its validity slot), or null for a value that is always there. */
    private final List<Place> headerOf = new ArrayList<>();
    private boolean anyHeaderField;
    private final List<ExprLeaf> exprLeaves = new ArrayList<>();
    /** Width of each leaf; a varbit leaf is {@code -max} (its length comes from its slot at run time). */
    private final int[] widths;
    final int bits;
    private final byte[] buffer;
    /** Whether a leaf is a varbit: then the serialised length changes with the packet. */
    final boolean hasVarbit;
    /** Bytes written by the last {@link #serialize} (the whole buffer without varbit leaves). */
    private int length;
    /**
     * Straight-line serialisation when every leaf is a field at a fixed slot (checksums over headers);
     * else null, and always null with a varbit leaf (the leaves after it move with its length).
     */
    private final dev.innet.p4sim.runtime.FieldPacker packer;

    private record ExprLeaf(int index, dev.innet.p4sim.runtime.LExpr narrow, dev.innet.p4sim.runtime.WExpr wide, int scratch) { }

    FieldList(Expr data, ExprCompiler ex, CompileContext cx) {
        List<Integer> ws = new ArrayList<>();
        List<Expr> top = data instanceof ListExpr l ? l.elements : List.of(data);
        for (Expr e : top) {
            boolean headerField = e instanceof dev.innet.p4sim.frontend.Ast.Member m && m.target.type instanceof Type.Header;
            Place header = headerField ? ex.place(((dev.innet.p4sim.frontend.Ast.Member) e).target) : null;
            if (e.type instanceof Type.Varbit v) {
                ws.add(-v.max());
                leaves.add(ex.place(e));
                leafOf(header);
            } else if (e.type instanceof Type.Header || e.type instanceof Type.Struct || e.type instanceof Type.Tuple) {
                flattenPlace(ex.place(e), ws, e);
            } else if (e.type instanceof Type.Bits || e.type instanceof Type.Bool
                    || (e.type instanceof Type.Enum en && en.underlying() != null)) {
                int w = ExprCompiler.width(e.type);
                Place direct = storageOf(e, ex);
                leafOf(header);
                if (direct != null) {
                    // a field or variable: read from its slot, like any other leaf
                    ws.add(w);
                    leaves.add(direct);
                    continue;
                }
                int idx = ws.size();
                ws.add(w);
                leaves.add(null);
                if (Layout.isWide(e.type)) {
                    exprLeaves.add(new ExprLeaf(idx, null, ex.wide(e), cx.layout.allocRaw(Wide.words(w))));
                } else {
                    exprLeaves.add(new ExprLeaf(idx, ex.narrow(e), null, -1));
                }
            } else {
                throw CompileError.unsupported(e.pos, "field of type " + e.type + " in a field list");
            }
        }
        widths = ws.stream().mapToInt(Integer::intValue).toArray();
        int b = 0;
        boolean varbit = false;
        for (int w : widths) {
            b += Math.abs(w);
            varbit |= w < 0;
        }
        bits = b;
        hasVarbit = varbit;
        buffer = new byte[(b + 7) / 8];
        length = buffer.length;
        packer = !hasVarbit && exprLeaves.isEmpty() && leaves.stream().allMatch(Place::isStatic) ? packerOf() : null;
    }

    /** Records the header of the leaf just added (null: a value that is always there). */
    private void leafOf(Place header) {
        headerOf.add(header);
        anyHeaderField |= header != null;
    }

    private dev.innet.p4sim.runtime.FieldPacker packerOf() {
        int[] offsets = new int[widths.length];
        int[] slots = new int[widths.length];
        int bit = 0;
        for (int i = 0; i < widths.length; i++) {
            offsets[i] = bit;
            slots[i] = leaves.get(i).base();
            bit += widths[i];
        }
        return dev.innet.p4sim.runtime.FieldPacker.of(offsets, widths, slots);
    }

    /** Where a plain field or variable reference lives ({@code hdr.ipv4.ttl}, {@code meta.x}); null for other expressions. */
    private static Place storageOf(Expr e, ExprCompiler ex) {
        boolean plain = e instanceof dev.innet.p4sim.frontend.Ast.Name
                || e instanceof dev.innet.p4sim.frontend.Ast.Member m
                        && !(m.target.type instanceof Type.ApplyResult) && !(m.target.type instanceof Type.Stack);
        if (!plain) {
            return null;
        }
        try {
            return ex.place(e);
        } catch (CompileError notStorage) {
            return null; // a constant or another name without a slot: evaluated as an expression
        }
    }

    private void flattenPlace(Place p, List<Integer> ws, Expr at) {
        List<Place> parts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        if (p.type() instanceof Type.Tuple tu) {
            for (int i = 0; i < tu.elements().size(); i++) {
                parts.add(p.withOffset(Layout.tupleOffset(tu, i), null, tu.elements().get(i)));
                names.add(String.valueOf(i));
            }
        } else {
            for (Type.FieldT f : Layout.fields(p.type())) {
                parts.add(p.field(f.name()));
                names.add(f.name());
            }
        }
        for (int i = 0; i < parts.size(); i++) {
            Place fp = parts.get(i);
            Type.FieldT f = new Type.FieldT(names.get(i), fp.type(), List.of());
            // a header starts with its validity slot, so the header's place is where validity is
            Place header = p.type() instanceof Type.Header ? p : null;
            if (fp.type() instanceof Type.Varbit v) {
                ws.add(-v.max());
                leaves.add(fp);
                leafOf(header);
            } else if (fp.type() instanceof Type.Header || fp.type() instanceof Type.Struct || fp.type() instanceof Type.Tuple) {
                flattenPlace(fp, ws, at);
            } else if (fp.type() instanceof Type.Bits || fp.type() instanceof Type.Bool
                    || (fp.type() instanceof Type.Enum en && en.underlying() != null)) {
                ws.add(ExprCompiler.width(fp.type()));
                leaves.add(fp);
                leafOf(header);
            } else {
                throw CompileError.unsupported(at.pos, "field '" + f.name() + "' of type " + fp.type() + " in a field list");
            }
        }
    }

    /** Serialises the current values; returns the buffer (valid until the next call). */
    byte[] serialize(Frame f) {
        if (packer != null) {
            // every bit up to the padding is a field and is overwritten; the padding is never written
            packer.pack(f.s, 0, buffer, 0);
            return buffer;
        }
        length = write(f, false);
        return buffer;
    }

    /**
     * Writes the leaves into the buffer, leaving out those of invalid headers when {@code validOnly};
     * returns the bytes written.
     */
    private int write(Frame f, boolean validOnly) {
        java.util.Arrays.fill(buffer, (byte) 0);
        int exprIdx = 0;
        int bit = 0;
        for (int i = 0; i < widths.length; i++) {
            int w = widths[i];
            Place p = leaves.get(i);
            ExprLeaf el = p == null ? exprLeaves.get(exprIdx++) : null;
            Place hdr = headerOf.get(i);
            if (validOnly && hdr != null && f.s[hdr.slot(f)] == 0) {
                continue;
            }
            if (w < 0) {
                // a varbit: its current length, then its bits
                int slot = p.slot(f);
                w = (int) f.s[slot];
                if (w > 0) {
                    BitIO.writeWide(buffer, bit, w, f.s, slot + 1);
                }
            } else if (p != null) {
                BitIO.writeField(buffer, bit, w, f.s, p.slot(f));
            } else if (el.narrow() != null) {
                BitIO.write(buffer, bit, w, el.narrow().eval(f));
            } else {
                el.wide().eval(f, f.s, el.scratch());
                BitIO.writeWide(buffer, bit, w, f.s, el.scratch());
            }
            bit += w;
        }
        return (bit + 7) >>> 3;
    }

    int byteLength() {
        return buffer.length;
    }

    /** Bytes the last {@link #serialize} wrote: {@link #byteLength} unless a varbit leaf is shorter than its maximum. */
    int serializedLength() {
        return length;
    }

    /** The buffer {@link #serialize} and {@link #serializeValid} fill. */
    byte[] buffer() {
        return buffer;
    }

    /**
     * Serialises as bmv2 builds a calculation's input (calculations.cpp, BufBuilder::Deparse): the fields
     * of headers that are invalid now are left out, the rest packed together. Returns the length in bytes.
     */
    int serializeValid(Frame f) {
        if (!anyHeaderField || allHeadersValid(f)) {
            serialize(f); // the packer's straight-line path, when there is one
            return length;
        }
        return write(f, true);
    }

    private boolean allHeadersValid(Frame f) {
        for (int i = 0; i < headerOf.size(); i++) { // indexed: no iterator per packet
            Place hdr = headerOf.get(i);
            if (hdr != null && f.s[hdr.slot(f)] == 0) {
                return false;
            }
        }
        return true;
    }

    /** The values of the leaves (for digests). */
    List<BigInteger> values(Frame f) {
        byte[] b = serialize(f);
        List<BigInteger> out = new ArrayList<>();
        int bit = 0;
        for (int w : widths) {
            BigInteger v = BigInteger.ZERO;
            for (int k = 0; k < w; k += 64) {
                int take = Math.min(64, w - k);
                long part = BitIO.read(b, bit + k, take);
                v = v.shiftLeft(take).or(new BigInteger(Long.toUnsignedString(part)));
            }
            out.add(v);
            bit += w;
        }
        return out;
    }
}
