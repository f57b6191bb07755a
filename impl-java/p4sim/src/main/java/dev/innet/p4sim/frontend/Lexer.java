package dev.innet.p4sim.frontend;

import java.util.ArrayList;
import java.util.List;

/** Splits one (already preprocessed) line-oriented source into tokens; directives are handled by {@link Preprocessor}. */
final class Lexer {
    // longest first, so "|+|" wins over "|" and "&&&" over "&&"
    private static final String[] PUNCTS = {
        "|+|=", "|-|=", "<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=",
        "|+|", "|-|", "&&&", "...", "++", "&&", "||", "==", "!=", "<=", ">=", "<<", "..",
        "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "?", ":", ";", ",", ".", "(", ")", "{", "}",
        "[", "]", "<", ">", "=", "@", "#"
    };

    private final String file;
    private final String text;
    private final int lineNo;
    private int i;

    Lexer(String file, String text, int lineNo) {
        this.file = file;
        this.text = text;
        this.lineNo = lineNo;
    }

    /** Tokenises one logical line; {@code inComment} carries block-comment state across lines. */
    List<Token> lex(boolean[] inComment) {
        List<Token> out = new ArrayList<>();
        int n = text.length();
        while (i < n) {
            if (inComment[0]) {
                int end = text.indexOf("*/", i);
                if (end < 0) {
                    i = n;
                    break;
                }
                i = end + 2;
                inComment[0] = false;
                continue;
            }
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (text.startsWith("//", i)) {
                break;
            }
            if (text.startsWith("/*", i)) {
                inComment[0] = true;
                i += 2;
                continue;
            }
            SourcePos pos = new SourcePos(file, lineNo, i + 1);
            int start = i;
            Token.Kind kind;
            if (Character.isLetter(c) || c == '_') {
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                    i++;
                }
                kind = Token.Kind.IDENT;
            } else if (Character.isDigit(c)) {
                lexNumber();
                kind = Token.Kind.INT;
            } else if (c == '"') {
                i++;
                while (i < n && text.charAt(i) != '"') {
                    if (text.charAt(i) == '\\') {
                        i++;
                    }
                    i++;
                }
                if (i >= n) {
                    throw new CompileError(pos, "unterminated string literal");
                }
                i++;
                kind = Token.Kind.STRING;
            } else {
                String p = null;
                for (String cand : PUNCTS) {
                    if (text.startsWith(cand, i)) {
                        p = cand;
                        break;
                    }
                }
                if (p == null) {
                    throw new CompileError(pos, "unexpected character '" + c + "'");
                }
                i += p.length();
                kind = Token.Kind.PUNCT;
            }
            String tokText = kind == Token.Kind.STRING ? text.substring(start + 1, i - 1) : text.substring(start, i);
            boolean adjacent = i < n && !Character.isWhitespace(text.charAt(i));
            out.add(new Token(kind, tokText, pos, adjacent));
        }
        return out;
    }

    /** Integer literals: decimal, 0x/0o/0b/0d, '_' separators, optional width prefix "8w" / "8s". */
    private void lexNumber() {
        int n = text.length();
        while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
            i++;
        }
    }
}
