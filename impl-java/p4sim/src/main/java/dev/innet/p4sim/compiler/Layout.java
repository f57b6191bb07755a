package dev.innet.p4sim.compiler;

import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.Wide;
import java.util.List;

/**
 * How values of each type occupy the frame's slot array. Every value is a contiguous slot range, so
 * copying a header or struct is one {@code System.arraycopy}:
 * scalars of at most 64 bits take one slot; wider bit strings one slot per 64 bits (least significant
 * word first); a header is its validity slot followed by its fields; a struct is its fields; a header
 * stack is its next-index slot followed by its elements.
 */
public final class Layout {
    private int next;

    /** Reserves slots for a value of type {@code t}; returns the first slot. */
    public int alloc(Type t) {
        int base = next;
        next += slots(t);
        return base;
    }

    public int allocRaw(int n) {
        int base = next;
        next += n;
        return base;
    }

    public int size() {
        return next;
    }

    /**
     * Bits after a header's fields up to a whole byte: p4c's bmv2 back end gives such a header a hidden
     * {@code _padding} field there, which extract fills from the packet and emit writes back; p4sim keeps
     * it in a slot after the fields that no P4 expression names. 0 for whole-byte headers and for a
     * header with a varbit field (those must still be whole bytes).
     */
    public static int paddingBits(Type.Header h) {
        int[] bits = {0};
        boolean varbit = fixedBits(h.fields(), bits);
        return varbit ? 0 : (8 - bits[0] % 8) % 8;
    }

    /** Adds the fixed-width bits of these fields (nested structs included) to {@code bits[0]}; true if one is a varbit. */
    private static boolean fixedBits(List<Type.FieldT> fields, int[] bits) {
        boolean varbit = false;
        for (Type.FieldT f : fields) {
            switch (f.type()) {
                case Type.Varbit v -> varbit = true;
                case Type.Struct st -> varbit |= fixedBits(st.fields(), bits);
                default -> bits[0] += ExprCompiler.width(f.type());
            }
        }
        return varbit;
    }

    public static int slots(Type t) {
        return switch (t) {
            case Type.Bits b -> Wide.words(b.width());
            case Type.Bool b -> 1;
            case Type.Enum e -> 1;
            case Type.InfInt i -> 1;
            case Type.Header h -> {
                int n = 1;
                for (Type.FieldT f : h.fields()) {
                    n += slots(f.type());
                }
                yield paddingBits(h) > 0 ? n + 1 : n; // the padding's slot comes last
            }
            case Type.Struct s -> {
                int n = 0;
                for (Type.FieldT f : s.fields()) {
                    n += slots(f.type());
                }
                yield n;
            }
            case Type.Stack st -> 1 + (st.size() + 1) * slots(st.element()); // + a scratch element for out-of-range indices
            case Type.HeaderUnion u -> {
                int n = 0;
                for (Type.FieldT f : u.fields()) {
                    n += slots(f.type());
                }
                yield n;
            }
            case Type.Varbit v -> 1 + Wide.words(v.max()); // current length in bits, then the value
            case Type.Tuple tu -> {
                int n = 0;
                for (Type e : tu.elements()) {
                    n += slots(e);
                }
                yield n;
            }
            default -> throw new IllegalArgumentException("no storage for " + t);
        };
    }

    /** Offset of a field inside a header (after the validity slot) or struct. */
    public static int fieldOffset(Type t, String field) {
        int off = t instanceof Type.Header ? 1 : 0;
        java.util.List<Type.FieldT> fields = fields(t);
        for (Type.FieldT f : fields) {
            if (f.name().equals(field)) {
                return off;
            }
            off += slots(f.type());
        }
        throw new IllegalArgumentException("no field " + field + " in " + t);
    }

    /** The fields of a header, struct or header union (whose fields are its member headers). */
    static java.util.List<Type.FieldT> fields(Type t) {
        return switch (t) {
            case Type.Header h -> h.fields();
            case Type.Struct s -> s.fields();
            case Type.HeaderUnion u -> u.fields();
            default -> throw new IllegalArgumentException("no fields in " + t);
        };
    }

    /** Offset of element {@code i} inside a tuple. */
    static int tupleOffset(Type.Tuple t, int i) {
        int off = 0;
        for (int k = 0; k < i; k++) {
            off += slots(t.elements().get(k));
        }
        return off;
    }

    /** True for types stored in one slot and computed as {@code long}. */
    public static boolean isNarrow(Type t) {
        return (t instanceof Type.Bits b && b.width() <= 64) || t instanceof Type.Bool || t instanceof Type.Enum;
    }

    public static boolean isWide(Type t) {
        return t instanceof Type.Bits b && b.width() > 64;
    }
}
