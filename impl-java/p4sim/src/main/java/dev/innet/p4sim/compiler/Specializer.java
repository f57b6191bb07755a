package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.LExpr;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gives each combinator node (block, if, binary operator, ...) its own class, so that every call
 * from a node to its children is a monomorphic call on a constant receiver that the JIT can inline.
 * Shared lambda classes would make those calls megamorphic (every block in the program calling
 * through one call site), which is what makes closure interpreters slow. Each node is a hidden class
 * defined from a template's bytecode with the node's children as class data held in static finals.
 */
final class Specializer {
    private static final ConcurrentHashMap<String, byte[]> TEMPLATES = new ConcurrentHashMap<>();
    static final Exec NOP = f -> { };
    static final int BLOCK_WIDTH = 8;

    /** Off: plain closures (instantiation in milliseconds, packets about 2.5x slower). */
    private final boolean enabled;

    Specializer(boolean enabled) {
        this.enabled = enabled;
    }

    private static byte[] template(String simpleName) {
        return TEMPLATES.computeIfAbsent(simpleName, n -> {
            try (InputStream in = Specializer.class.getResourceAsStream(n + ".class")) {
                if (in == null) {
                    throw new IllegalStateException("missing template class " + n);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static Object instantiate(String template, Object[] data) {
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClassWithClassData(template(template), data, true);
            return hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (Throwable t) {
            throw new IllegalStateException("cannot specialise " + template, t);
        }
    }

    /** Runs the statements in order, stopping at the first exit/return/reject. */
    Exec block(Exec[] stmts) {
        if (stmts.length == 0) {
            return NOP;
        }
        if (stmts.length == 1) {
            return stmts[0];
        }
        if (!enabled) {
            return f -> {
                for (Exec e : stmts) {
                    e.run(f);
                    if (f.flow != dev.innet.p4sim.runtime.Frame.NORMAL) {
                        return;
                    }
                }
            };
        }
        if (stmts.length > BLOCK_WIDTH) {
            // a tree of blocks: a nested block stops at the same flow signal, and so does its parent
            int chunks = (stmts.length + BLOCK_WIDTH - 1) / BLOCK_WIDTH;
            Exec[] parts = new Exec[chunks];
            for (int i = 0; i < chunks; i++) {
                parts[i] = block(Arrays.copyOfRange(stmts, i * BLOCK_WIDTH, Math.min(stmts.length, (i + 1) * BLOCK_WIDTH)));
            }
            return block(parts);
        }
        Object[] data = new Object[BLOCK_WIDTH + 1];
        Arrays.fill(data, NOP);
        System.arraycopy(stmts, 0, data, 0, stmts.length);
        data[BLOCK_WIDTH] = stmts.length;
        return (Exec) instantiate("TBlock", data);
    }

    Exec ifElse(LExpr cond, Exec then, Exec otherwise) {
        if (!enabled) {
            Exec other = otherwise == null ? NOP : otherwise;
            return f -> {
                long c = cond.eval(f);
                if (f.flow != dev.innet.p4sim.runtime.Frame.NORMAL) {
                    return;
                }
                if (c != 0) {
                    then.run(f);
                } else {
                    other.run(f);
                }
            };
        }
        return (Exec) instantiate("TIf", new Object[] {cond, then, otherwise == null ? NOP : otherwise});
    }

    /** {@code f.s[slot] = value & mask}. */
    Exec storeStatic(int slot, long mask, LExpr value) {
        if (!enabled) {
            return f -> f.s[slot] = value.eval(f) & mask;
        }
        return (Exec) instantiate("TStore", new Object[] {slot, mask, value});
    }

    /** A binary operator on two narrow operands; see {@link TBinary} for the operator codes. */
    LExpr binary(int op, LExpr l, LExpr r, long mask, int width) {
        if (!enabled) {
            return TBinaryOps.closure(op, l, r, mask);
        }
        return (LExpr) instantiate("TBinary", new Object[] {op, l, r, mask, width});
    }

    /** A direct action call: {@code in} copies arguments in, {@code out} copies them back. */
    Exec actionCall(Exec in, Exec body, Exec out) {
        if (!enabled) {
            return f -> {
                in.run(f);
                body.run(f);
                int flow = f.flow == dev.innet.p4sim.runtime.Frame.RETURN ? dev.innet.p4sim.runtime.Frame.NORMAL : f.flow;
                f.flow = dev.innet.p4sim.runtime.Frame.NORMAL;
                out.run(f);
                f.flow = flow;
            };
        }
        return (Exec) instantiate("TActionCall", new Object[] {in, body, out});
    }

    /** A top-level control: local initialisers, the apply block; exit and return end it. */
    Exec control(Exec init, Exec body) {
        return f -> {
            init.run(f);
            body.run(f);
            if (f.flow == dev.innet.p4sim.runtime.Frame.EXIT || f.flow == dev.innet.p4sim.runtime.Frame.RETURN) {
                f.flow = dev.innet.p4sim.runtime.Frame.NORMAL;
            }
        };
    }

    /** {@code packet.emit} of a header at a fixed slot; {@code plain} is the same as a closure. */
    Exec emitHeader(int slot, dev.innet.p4sim.runtime.HeaderCodec codec, Exec plain) {
        if (!enabled) {
            return plain;
        }
        return (Exec) instantiate("TEmit", new Object[] {slot, codec.bytes, codec.packer()});
    }

    /** {@code packet.extract} into a header at a fixed slot; {@code plain} is the same as a closure. */
    Exec extractHeader(int slot, dev.innet.p4sim.runtime.HeaderCodec codec, int tooShort, Exec plain) {
        if (!enabled) {
            return plain;
        }
        return (Exec) instantiate("TExtract", new Object[] {slot, codec, codec.packer(), codec.bits, tooShort});
    }

    /** {@code packet.extract(stack.next)} for a stack at a fixed slot; {@code plain} is the same as a closure. */
    Exec extractNext(int stackSlot, dev.innet.p4sim.runtime.HeaderCodec codec, int tooShort, int elem, int size,
                     int outOfBounds, Exec plain) {
        if (!enabled) {
            return plain;
        }
        return (Exec) instantiate("TExtractNext",
                new Object[] {stackSlot, codec, codec.packer(), codec.bits, tooShort, elem, size, outOfBounds});
    }

    /** A parser state: {@code body}, then unless it raised a flow signal, {@code next}'s choice of the next state. */
    ParserCompiler.Step parserState(Exec body, ParserCompiler.Next next) {
        if (!enabled) {
            return f -> {
                body.run(f);
                return f.flow != dev.innet.p4sim.runtime.Frame.NORMAL ? 0 : next.next(f);
            };
        }
        return (ParserCompiler.Step) instantiate("TState", new Object[] {body, next});
    }

    /** A call of a fixed closure (action body, table apply) from one place. */
    Exec call(Exec target) {
        if (!enabled) {
            return target;
        }
        return (Exec) instantiate("TCall", new Object[] {target});
    }
}
