package dev.innet.tracegen;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A TLA+ value as TLC prints it in a state: the shapes FarReach's (and the other specs') variables
 * take. Compound values keep the order TLC printed their parts in (record fields, function pairs,
 * set elements), so a value written back out reads like TLC's own output and two equal values print
 * the same. Equality is structural and order-sensitive: two sets with the same elements in a
 * different order are different {@code TlaValue}s (TLC prints a set in one canonical order, so values
 * from the same TLC build compare as expected).
 */
public sealed interface TlaValue {

    /** An integer. TLC's integers are 32-bit; a long leaves room for any spec. */
    record Int(long value) implements TlaValue {}

    /** {@code TRUE} or {@code FALSE}. */
    record Bool(boolean value) implements TlaValue {}

    /** A string literal, unescaped. */
    record Str(String value) implements TlaValue {
        public Str {
            Objects.requireNonNull(value);
        }
    }

    /** A model value (a constant the .cfg binds to itself, such as {@code c1}), printed as a bare name. */
    record ModelValue(String name) implements TlaValue {
        public ModelValue {
            if (!TlaSyntax.isIdentifier(name)) {
                throw new IllegalArgumentException("not a model value name: '" + name + "'");
            }
        }
    }

    /** One field of a record. */
    record Field(String name, TlaValue value) {
        public Field {
            if (!TlaSyntax.isIdentifier(name)) {
                throw new IllegalArgumentException("not a record field name: '" + name + "'");
            }
            Objects.requireNonNull(value);
        }
    }

    /** {@code [a |-> 1, b |-> "x"]}: fields in TLC's printed order. TLC prints the empty record as {@code <<>>}. */
    record Rec(List<Field> fields) implements TlaValue {
        public Rec {
            fields = List.copyOf(fields);
            if (fields.isEmpty()) {
                throw new IllegalArgumentException("a record has at least one field (TLC prints the empty one as <<>>)");
            }
            if (fields.stream().map(Field::name).distinct().count() != fields.size()) {
                throw new IllegalArgumentException("duplicate field in record " + fields);
            }
        }

        /** The value of field {@code name}, if the record has it. */
        public Optional<TlaValue> get(String name) {
            return fields.stream().filter(f -> f.name().equals(name)).map(Field::value).findFirst();
        }
    }

    /** One argument/result pair of a function. */
    record Pair(TlaValue key, TlaValue value) {
        public Pair {
            Objects.requireNonNull(key);
            Objects.requireNonNull(value);
        }
    }

    /**
     * {@code (k1 :> 0 @@ k2 :> 1)}: a function whose domain is not {@code 1..n}, pairs in TLC's printed
     * order. TLC prints a function with domain {@code 1..n} (and the empty function) as a sequence, so
     * those arrive as {@link Seq}.
     */
    record Fn(List<Pair> pairs) implements TlaValue {
        public Fn {
            pairs = List.copyOf(pairs);
            if (pairs.isEmpty()) {
                throw new IllegalArgumentException("a function printed with :> has at least one pair (TLC prints the empty one as <<>>)");
            }
            if (pairs.stream().map(Pair::key).distinct().count() != pairs.size()) {
                throw new IllegalArgumentException("duplicate argument in function " + pairs);
            }
        }

        /** The value at {@code key}, if it is in the domain. */
        public Optional<TlaValue> apply(TlaValue key) {
            return pairs.stream().filter(p -> p.key().equals(key)).map(Pair::value).findFirst();
        }
    }

    /** {@code <<1, 2>>}: a sequence or tuple. */
    record Seq(List<TlaValue> elements) implements TlaValue {
        public Seq {
            elements = List.copyOf(elements);
        }
    }

    /** {@code {1, 2}}: a finite set, elements in TLC's printed order. */
    record TlaSet(List<TlaValue> elements) implements TlaValue {
        public TlaSet {
            elements = List.copyOf(elements);
            if (elements.stream().distinct().count() != elements.size()) {
                throw new IllegalArgumentException("duplicate element in set " + elements);
            }
        }
    }

    /** Parses one value printed by TLC; see {@link TlaValueParser}. */
    static TlaValue parse(String text) {
        return TlaValueParser.parse(text);
    }

    /** This value in TLC's syntax, on one line; {@link #parse} reads it back to an equal value. */
    default String toTla() {
        StringBuilder out = new StringBuilder();
        TlaSyntax.print(this, out);
        return out.toString();
    }
}
