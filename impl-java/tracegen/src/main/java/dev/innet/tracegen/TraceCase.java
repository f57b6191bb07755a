package dev.innet.tracegen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One behaviour of a spec as a conformance test case: the spec and model it came from, how it was
 * generated, and its states, the initial state first. Each state carries the spec's action label (the
 * value of its {@code act} variable: the action that led to the state, {@code [a |-> "Init"]} for the
 * first) and the values of all variables. On disk it is JSON ({@code .json}, generated) or the same
 * JSON after a header of {@code # } comment lines ({@code .trace}, curated and committed; a
 * {@code # why:} line saying what the case exercises is required there). See docs/conformance.md.
 */
public record TraceCase(String spec, String model, Source source, List<TraceState> states, List<String> comments) {
    /** Where a case came from: enough to generate it again. */
    public sealed interface Source {
        /** Behaviour {@code index} of {@code tlc -simulate ... -seed seed}. */
        record Simulate(long seed, int index) implements Source {}

        /** Path {@code index} of a path cover; {@code edges} = the steps in it. */
        record PathCover(int index, int edges) implements Source {}
    }

    /** A state of the behaviour: the action that produced it and every variable's value. */
    public record TraceState(TlaValue action, List<TlaValue.Field> vars) {
        public TraceState {
            Objects.requireNonNull(action);
            vars = List.copyOf(vars);
        }

        public TlaValue get(String name) {
            return vars.stream().filter(f -> f.name().equals(name)).map(TlaValue.Field::value).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no variable '" + name + "' in the state"));
        }

        /** The action's name: field {@code a} of a record action, or the action itself if it is a string. */
        public String actionName() {
            return TraceCase.actionName(action);
        }
    }

    public TraceCase {
        Objects.requireNonNull(spec);
        Objects.requireNonNull(model);
        Objects.requireNonNull(source);
        states = List.copyOf(states);
        comments = List.copyOf(comments);
        if (states.isEmpty()) {
            throw new IllegalArgumentException("a trace case has at least its initial state");
        }
        List<String> names = states.getFirst().vars().stream().map(TlaValue.Field::name).toList();
        for (int i = 1; i < states.size(); i++) {
            List<String> here = states.get(i).vars().stream().map(TlaValue.Field::name).toList();
            if (!here.equals(names)) {
                throw new IllegalArgumentException("state " + i + " has variables " + here + ", state 0 has " + names);
            }
        }
        for (String c : comments) {
            if (c.contains("\n")) {
                throw new IllegalArgumentException("a comment is one line: " + c);
            }
        }
    }

    /** The same case with a header of comment lines (without the leading "# "). */
    public TraceCase withComments(List<String> lines) {
        return new TraceCase(spec, model, source, states, lines);
    }

    /** The steps taken: states after the initial one. */
    public int steps() {
        return states.size() - 1;
    }

    static String actionName(TlaValue action) {
        if (action instanceof TlaValue.Rec r && r.get("a").orElse(null) instanceof TlaValue.Str s) {
            return s.value();
        }
        if (action instanceof TlaValue.Str s) {
            return s.value();
        }
        throw new IllegalArgumentException("an action label is a string or a record with a string field a: "
                + action.toTla());
    }

    public Json toJson() {
        Json sourceJson = switch (source) {
            case Source.Simulate s -> Json.object(Json.member("kind", new Json.Str("simulate")),
                    Json.member("seed", Json.number(s.seed())), Json.member("index", Json.number(s.index())));
            case Source.PathCover p -> Json.object(Json.member("kind", new Json.Str("pathcover")),
                    Json.member("index", Json.number(p.index())), Json.member("edges", Json.number(p.edges())));
        };
        List<Json> stateJson = new ArrayList<>();
        for (TraceState s : states) {
            List<Json.Member> vars = new ArrayList<>();
            for (TlaValue.Field f : s.vars()) {
                vars.add(Json.member(f.name(), TlaJson.encode(f.value())));
            }
            stateJson.add(Json.object(Json.member("action", TlaJson.encode(s.action())),
                    Json.member("vars", new Json.Obj(vars))));
        }
        return Json.object(Json.member("spec", new Json.Str(spec)), Json.member("model", new Json.Str(model)),
                Json.member("source", sourceJson), Json.member("states", new Json.Arr(stateJson)));
    }

    /** The file text: comment header lines ({@code # ...}), then the JSON, a state's variables one per line. */
    public String toText() {
        StringBuilder out = new StringBuilder();
        for (String c : comments) {
            out.append(c.isEmpty() ? "#" : "# " + c).append('\n');
        }
        return out.append(toJson().writePretty(110)).append('\n').toString();
    }

    public void write(Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, toText());
    }

    /** Reads a {@code .json} or {@code .trace} file; a {@code .trace} file must say why in a {@code # why:} line. */
    public static TraceCase read(Path file) throws IOException {
        String name = file.getFileName().toString();
        TraceCase c;
        try {
            c = parse(Files.readString(file));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
        if (name.endsWith(".trace") && c.comments().stream().noneMatch(l -> l.startsWith("why:"))) {
            throw new IllegalArgumentException(file + ": a curated .trace file starts with a '# why: ...' line "
                    + "saying what it exercises");
        }
        return c;
    }

    /** Parses file text: optional leading comment lines starting with '#', then one JSON object. */
    public static TraceCase parse(String text) {
        List<String> comments = new ArrayList<>();
        int pos = 0;
        while (pos < text.length() && text.charAt(pos) == '#') {
            int eol = text.indexOf('\n', pos);
            String line = text.substring(pos, eol < 0 ? text.length() : eol);
            comments.add(line.startsWith("# ") ? line.substring(2) : line.substring(1));
            pos = eol < 0 ? text.length() : eol + 1;
        }
        Json.Obj root = Json.asObject(Json.parse(text.substring(pos)), "trace case");
        String spec = Json.asString(root.require("spec", "the trace case"), "spec");
        String model = Json.asString(root.require("model", "the trace case"), "model");
        Json.Obj src = Json.asObject(root.require("source", "the trace case"), "source");
        String kind = Json.asString(src.require("kind", "source"), "source.kind");
        Source source = switch (kind) {
            case "simulate" -> new Source.Simulate(Json.asLong(src.require("seed", "source"), "source.seed"),
                    Math.toIntExact(Json.asLong(src.require("index", "source"), "source.index")));
            case "pathcover" -> new Source.PathCover(
                    Math.toIntExact(Json.asLong(src.require("index", "source"), "source.index")),
                    Math.toIntExact(Json.asLong(src.require("edges", "source"), "source.edges")));
            default -> throw new Json.JsonException("source.kind: expected simulate or pathcover, found \"" + kind + "\"");
        };
        List<Json> stateJson = Json.asArray(root.require("states", "the trace case"), "states");
        List<TraceState> states = new ArrayList<>();
        for (int i = 0; i < stateJson.size(); i++) {
            String where = "states[" + i + "]";
            Json.Obj s = Json.asObject(stateJson.get(i), where);
            TlaValue action = TlaJson.decode(s.require("action", where), where + ".action");
            List<TlaValue.Field> vars = new ArrayList<>();
            for (Json.Member m : Json.asObject(s.require("vars", where), where + ".vars").members()) {
                vars.add(new TlaValue.Field(m.name(), TlaJson.decode(m.value(), where + ".vars." + m.name())));
            }
            states.add(new TraceState(action, vars));
        }
        return new TraceCase(spec, model, source, states, comments);
    }
}
