package dev.innet.tracegen;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A small JSON document model, enough for trace files: objects keep their members in order (the
 * trace format and the record encoding depend on it), and numbers are integers only (nothing in a
 * trace is fractional; a fraction or exponent is rejected rather than rounded). {@link #parse} and
 * {@link #write} are exact inverses on this model.
 */
public sealed interface Json {
    record Obj(List<Member> members) implements Json {
        public Obj {
            members = List.copyOf(members);
        }

        public Optional<Json> get(String name) {
            return members.stream().filter(m -> m.name().equals(name)).map(Member::value).findFirst();
        }

        /** The member {@code name}; a missing one is an error that names it. */
        public Json require(String name, String where) {
            return get(name).orElseThrow(() -> new JsonException("missing \"" + name + "\" in " + where));
        }
    }

    record Member(String name, Json value) {
        public Member {
            Objects.requireNonNull(name);
            Objects.requireNonNull(value);
        }
    }

    record Arr(List<Json> elements) implements Json {
        public Arr {
            elements = List.copyOf(elements);
        }
    }

    record Str(String value) implements Json {
        public Str {
            Objects.requireNonNull(value);
        }
    }

    record Num(BigInteger value) implements Json {
        public Num {
            Objects.requireNonNull(value);
        }

        public long longValue(String where) {
            try {
                return value.longValueExact();
            } catch (ArithmeticException e) {
                throw new JsonException(where + ": number out of range: " + value);
            }
        }
    }

    record Bool(boolean value) implements Json {}

    record Null() implements Json {}

    /** Bad JSON text, or JSON of the wrong shape for what is being read. */
    final class JsonException extends IllegalArgumentException {
        public JsonException(String message) {
            super(message);
        }
    }

    static Obj object(Member... members) {
        return new Obj(List.of(members));
    }

    static Member member(String name, Json value) {
        return new Member(name, value);
    }

    static Num number(long n) {
        return new Num(BigInteger.valueOf(n));
    }

    static Json parse(String text) {
        return JsonParser.parse(text);
    }

    /** Compact JSON on one line. */
    default String write() {
        StringBuilder out = new StringBuilder();
        JsonWriter.write(this, out, -1, 0);
        return out.toString();
    }

    /**
     * Indented JSON where an object or array that fits in {@code width} characters stays on one line:
     * small values (a record, a message) read at a glance, a trace's states one below the other.
     */
    default String writePretty(int width) {
        StringBuilder out = new StringBuilder();
        JsonWriter.write(this, out, width, 0);
        return out.toString();
    }

    /** Helper for readers: the object's kind checked, with a message naming what was expected. */
    static Obj asObject(Json json, String where) {
        if (json instanceof Obj o) {
            return o;
        }
        throw new JsonException(where + ": expected an object, found " + abbreviate(json));
    }

    static List<Json> asArray(Json json, String where) {
        if (json instanceof Arr a) {
            return a.elements();
        }
        throw new JsonException(where + ": expected an array, found " + abbreviate(json));
    }

    static String asString(Json json, String where) {
        if (json instanceof Str s) {
            return s.value();
        }
        throw new JsonException(where + ": expected a string, found " + abbreviate(json));
    }

    static long asLong(Json json, String where) {
        if (json instanceof Num n) {
            return n.longValue(where);
        }
        throw new JsonException(where + ": expected an integer, found " + abbreviate(json));
    }

    static String abbreviate(Json json) {
        String text = json.write();
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }

    /** Arrays built element by element. */
    static Arr array(List<? extends Json> elements) {
        return new Arr(new ArrayList<>(elements));
    }
}
