package dev.innet.tracegen;

import java.util.ArrayList;
import java.util.List;

/**
 * The JSON encoding of {@link TlaValue} that trace files use. It is tagged so that every JSON value
 * decodes to exactly one TLA+ value (a string and a model value, or a record and a function, never
 * look alike). The replayer reads this exact format: change it only together with the replayer.
 * <pre>
 *   integer      -3                         JSON number
 *   boolean      TRUE                       true / false
 *   string       "x"                        {"str": "x"}
 *   model value  c1                         {"mv": "c1"}
 *   record       [a |-> 1, b |-> 2]         {"rec": {"a": 1, "b": 2}}      (field order kept)
 *   function     (k1 :> 0 @@ k2 :> 1)       {"fn": [[{"mv": "k1"}, 0], [{"mv": "k2"}, 1]]}
 *   sequence     &lt;&lt;1, 2&gt;&gt;                   {"seq": [1, 2]}
 *   set          {1, 2}                     {"set": [1, 2]}
 * </pre>
 */
public final class TlaJson {
    private TlaJson() {}

    public static Json encode(TlaValue value) {
        return switch (value) {
            case TlaValue.Int i -> Json.number(i.value());
            case TlaValue.Bool b -> new Json.Bool(b.value());
            case TlaValue.Str s -> tagged("str", new Json.Str(s.value()));
            case TlaValue.ModelValue m -> tagged("mv", new Json.Str(m.name()));
            case TlaValue.Rec r -> {
                List<Json.Member> fields = new ArrayList<>();
                for (TlaValue.Field f : r.fields()) {
                    fields.add(Json.member(f.name(), encode(f.value())));
                }
                yield tagged("rec", new Json.Obj(fields));
            }
            case TlaValue.Fn f -> {
                List<Json> pairs = new ArrayList<>();
                for (TlaValue.Pair p : f.pairs()) {
                    pairs.add(new Json.Arr(List.of(encode(p.key()), encode(p.value()))));
                }
                yield tagged("fn", new Json.Arr(pairs));
            }
            case TlaValue.Seq s -> tagged("seq", new Json.Arr(s.elements().stream().map(TlaJson::encode).toList()));
            case TlaValue.TlaSet s -> tagged("set", new Json.Arr(s.elements().stream().map(TlaJson::encode).toList()));
        };
    }

    /** Decodes the encoding above; anything else is an error naming {@code where} and what was found. */
    public static TlaValue decode(Json json, String where) {
        switch (json) {
            case Json.Num n -> {
                return new TlaValue.Int(n.longValue(where));
            }
            case Json.Bool b -> {
                return new TlaValue.Bool(b.value());
            }
            case Json.Obj o -> {
                if (o.members().size() != 1) {
                    throw new Json.JsonException(where + ": a TLA+ value object has exactly one tag "
                            + "(str, mv, rec, fn, seq, set), found " + Json.abbreviate(o));
                }
                Json.Member tag = o.members().getFirst();
                String inner = where + "." + tag.name();
                try {
                    return switch (tag.name()) {
                        case "str" -> new TlaValue.Str(Json.asString(tag.value(), inner));
                        case "mv" -> new TlaValue.ModelValue(Json.asString(tag.value(), inner));
                        case "rec" -> {
                            List<TlaValue.Field> fields = new ArrayList<>();
                            for (Json.Member m : Json.asObject(tag.value(), inner).members()) {
                                fields.add(new TlaValue.Field(m.name(), decode(m.value(), inner + "." + m.name())));
                            }
                            yield new TlaValue.Rec(fields);
                        }
                        case "fn" -> {
                            List<TlaValue.Pair> pairs = new ArrayList<>();
                            List<Json> elements = Json.asArray(tag.value(), inner);
                            for (int i = 0; i < elements.size(); i++) {
                                List<Json> pair = Json.asArray(elements.get(i), inner + "[" + i + "]");
                                if (pair.size() != 2) {
                                    throw new Json.JsonException(inner + "[" + i + "]: a function pair is [key, value]");
                                }
                                pairs.add(new TlaValue.Pair(decode(pair.get(0), inner + "[" + i + "][0]"),
                                        decode(pair.get(1), inner + "[" + i + "][1]")));
                            }
                            yield new TlaValue.Fn(pairs);
                        }
                        case "seq" -> new TlaValue.Seq(decodeAll(Json.asArray(tag.value(), inner), inner));
                        case "set" -> new TlaValue.TlaSet(decodeAll(Json.asArray(tag.value(), inner), inner));
                        default -> throw new Json.JsonException(where + ": unknown TLA+ value tag \"" + tag.name()
                                + "\" (expected str, mv, rec, fn, seq or set)");
                    };
                } catch (Json.JsonException e) {
                    throw e;
                } catch (IllegalArgumentException e) {
                    // a value the TlaValue constructors refuse: empty record, duplicate keys, bad names
                    throw new Json.JsonException(inner + ": " + e.getMessage());
                }
            }
            default -> throw new Json.JsonException(where + ": not a TLA+ value: " + Json.abbreviate(json));
        }
    }

    private static List<TlaValue> decodeAll(List<Json> elements, String where) {
        List<TlaValue> values = new ArrayList<>();
        for (int i = 0; i < elements.size(); i++) {
            values.add(decode(elements.get(i), where + "[" + i + "]"));
        }
        return values;
    }

    private static Json tagged(String tag, Json inner) {
        return Json.object(Json.member(tag, inner));
    }
}
