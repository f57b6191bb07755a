package dev.innet.p4sim.frontend;

import java.util.List;

/** Semantic types assigned by the {@link TypeChecker}. */
public sealed interface Type {
    /** Width in bits when serialised into a header or a field; -1 if the type is not fixed-width. */
    default int bitWidth() {
        return -1;
    }

    record Bits(int width, boolean signed) implements Type {
        @Override
        public int bitWidth() {
            return width;
        }

        @Override
        public String toString() {
            return (signed ? "int<" : "bit<") + width + ">";
        }
    }

    record Bool() implements Type {
        @Override
        public int bitWidth() {
            return 1;
        }

        @Override
        public String toString() {
            return "bool";
        }
    }

    /** The type of an integer literal without a width. */
    record InfInt() implements Type {
        @Override
        public String toString() {
            return "int";
        }
    }

    record Str() implements Type {
        @Override
        public String toString() {
            return "string";
        }
    }

    record Void() implements Type {
        @Override
        public String toString() {
            return "void";
        }
    }

    /** error, match_kind and enum types; {@code underlying} is non-null for serializable enums. */
    record Enum(String name, List<String> members, Bits underlying) implements Type {
        @Override
        public int bitWidth() {
            return underlying == null ? -1 : underlying.width();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    record FieldT(String name, Type type, List<Ast.Annotation> annotations) { }

    record Header(String name, List<FieldT> fields) implements Type {
        @Override
        public int bitWidth() {
            int w = 0;
            for (FieldT f : fields) {
                w += f.type().bitWidth();
            }
            return w;
        }

        public FieldT field(String n) {
            for (FieldT f : fields) {
                if (f.name().equals(n)) {
                    return f;
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return "header " + name;
        }
    }

    record Struct(String name, List<FieldT> fields) implements Type {
        public FieldT field(String n) {
            for (FieldT f : fields) {
                if (f.name().equals(n)) {
                    return f;
                }
            }
            return null;
        }

        @Override
        public int bitWidth() {
            int w = 0;
            for (FieldT f : fields) {
                int fw = f.type().bitWidth();
                if (fw < 0 || f.type() instanceof Header) {
                    return -1;
                }
                w += fw;
            }
            return w;
        }

        @Override
        public String toString() {
            return "struct " + name;
        }
    }

    /** A header_union: at most one of its member headers is valid at a time. */
    record HeaderUnion(String name, List<FieldT> fields) implements Type {
        public FieldT field(String n) {
            for (FieldT f : fields) {
                if (f.name().equals(n)) {
                    return f;
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return "header_union " + name;
        }
    }

    /** {@code varbit<max>}: a bit string whose length (at most {@code max}) is set when it is extracted. */
    record Varbit(int max) implements Type {
        @Override
        public String toString() {
            return "varbit<" + max + ">";
        }
    }

    /** A parser's {@code value_set<T>(size)}: a control-plane managed set of T values for select cases. */
    record ValueSet(Type element, int size) implements Type {
        @Override
        public String toString() {
            return "value_set<" + element + ">";
        }
    }

    /** A header stack {@code H[N]}; the element is a header or a header union. */
    record Stack(Type element, int size) implements Type {
        @Override
        public String toString() {
            return (element instanceof HeaderUnion u ? u.name() : ((Header) element).name()) + "[" + size + "]";
        }
    }

    /** The type of a list expression {@code { a, b }}. */
    record Tuple(List<Type> elements) implements Type {
        @Override
        public int bitWidth() {
            int w = 0;
            for (Type t : elements) {
                if (t.bitWidth() < 0) {
                    return -1;
                }
                w += t.bitWidth();
            }
            return w;
        }

        @Override
        public String toString() {
            return "tuple" + elements;
        }
    }

    record Extern(Ast.ExternDecl decl, List<Type> args) implements Type {
        @Override
        public String toString() {
            return "extern " + decl.name + (args.isEmpty() ? "" : args.toString());
        }
    }

    /** A type parameter of a generic extern, function or prototype. */
    record Var(String name) implements Type {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A name that denotes a type, used as an expression prefix ({@code error.NoMatch}, {@code E.A}). */
    record TypeName(Type denoted) implements Type {
        @Override
        public String toString() {
            return "type " + denoted;
        }
    }

    record Table(Ast.TableDecl decl) implements Type {
        @Override
        public String toString() {
            return "table " + decl.name;
        }
    }

    /** What {@code t.apply()} returns: has {@code hit}, {@code miss} and {@code action_run}. */
    record ApplyResult(Ast.TableDecl decl) implements Type {
        @Override
        public String toString() {
            return "apply result of " + decl.name;
        }
    }

    record Action(Ast.ActionDecl decl) implements Type {
        @Override
        public String toString() {
            return "action " + decl.name;
        }
    }

    /** A parser or control instance, or a package (the {@code main} instantiation). */
    record Block(Ast.Decl decl) implements Type {
        @Override
        public String toString() {
            return decl.name;
        }
    }

    record DontCare() implements Type {
        @Override
        public String toString() {
            return "_";
        }
    }

    static boolean isScalar(Type t) {
        return t instanceof Bits || t instanceof Bool || t instanceof Enum;
    }
}
