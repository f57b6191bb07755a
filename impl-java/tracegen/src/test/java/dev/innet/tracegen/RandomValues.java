package dev.innet.tracegen;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/** Seeded random TLA+ values of every shape, for round-trip properties. */
final class RandomValues {
    private static final String STRING_CHARS = "ab \"\\\n\t|->:@{}[]()<>,é";
    private final Random random;

    RandomValues(long seed) {
        this.random = new Random(seed);
    }

    TlaValue value(int depth) {
        int kind = random.nextInt(depth <= 0 ? 4 : 8);
        return switch (kind) {
            case 0 -> new TlaValue.Int(random.nextBoolean() ? random.nextInt(-5, 6) : random.nextLong());
            case 1 -> new TlaValue.Bool(random.nextBoolean());
            case 2 -> new TlaValue.Str(string());
            case 3 -> new TlaValue.ModelValue(name());
            case 4 -> {
                List<TlaValue.Field> fields = new ArrayList<>();
                Set<String> names = new LinkedHashSet<>();
                int n = 1 + random.nextInt(4);
                while (names.size() < n) {
                    names.add(name());
                }
                for (String name : names) {
                    fields.add(new TlaValue.Field(name, value(depth - 1)));
                }
                yield new TlaValue.Rec(fields);
            }
            case 5 -> {
                List<TlaValue.Pair> pairs = new ArrayList<>();
                Set<TlaValue> keys = new LinkedHashSet<>();
                int n = 1 + random.nextInt(3);
                while (keys.size() < n) {
                    keys.add(value(depth - 1));
                }
                for (TlaValue key : keys) {
                    pairs.add(new TlaValue.Pair(key, value(depth - 1)));
                }
                yield new TlaValue.Fn(pairs);
            }
            case 6 -> new TlaValue.Seq(list(depth));
            default -> new TlaValue.TlaSet(new ArrayList<>(new LinkedHashSet<>(list(depth))));
        };
    }

    private List<TlaValue> list(int depth) {
        List<TlaValue> elements = new ArrayList<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            elements.add(value(depth - 1));
        }
        return elements;
    }

    private String string() {
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(6);
        for (int i = 0; i < n; i++) {
            s.append(STRING_CHARS.charAt(random.nextInt(STRING_CHARS.length())));
        }
        return s.toString();
    }

    private String name() {
        String[] names = {"c1", "k2", "a", "rec", "s_1", "Init", "x9", "TRUEish", "v"};
        return names[random.nextInt(names.length)];
    }

    /** The printed value with random whitespace (spaces, newlines, tabs) between its tokens. */
    String withRandomWhitespace(String printed) {
        StringBuilder out = new StringBuilder();
        boolean inString = false;
        for (int i = 0; i < printed.length(); i++) {
            char c = printed.charAt(i);
            if (c == '"' && (i == 0 || printed.charAt(i - 1) != '\\' || escapedBackslash(printed, i))) {
                inString = !inString;
            }
            out.append(c);
            // only after a space TLC would print or after a bracket: never inside a token
            if (!inString && (c == ' ' || c == '[' || c == '(' || c == '{' || c == ',') && random.nextInt(3) == 0) {
                out.append(random.nextBoolean() ? "\n  " : "\t ");
            }
        }
        return out.toString();
    }

    private static boolean escapedBackslash(String s, int quoteAt) {
        int backslashes = 0;
        for (int i = quoteAt - 1; i >= 0 && s.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 0;
    }
}
