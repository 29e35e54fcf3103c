/* lexer.re - re2c specification of the .pto tokenizer (SPEC 1.1); see lexer.h.
 * Generated into $(BUILD)/gen/lexer.c by the Makefile. The source text is NUL-terminated, so the
 * NUL byte is the sentinel: reaching it at the end of the text is TK_EOF, anywhere else an error. */
#include "lexer.h"

#include <stdio.h>
#include <string.h>

/* Length of the well-formed UTF-8 sequence at p (1..4), or 0 if the bytes are not valid UTF-8.
 * Reads at most up to `end`; *code receives the code point. */
static int utf8_sequence(const unsigned char *p, const unsigned char *end, uint32_t *code) {
    unsigned c = p[0];
    int n;
    uint32_t cp, min;
    if (c < 0x80) {
        *code = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        n = 2, cp = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, cp = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (end - p < n) return 0;
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    *code = cp;
    return n;
}

/* First byte in [p, end) that is not valid UTF-8 (or a control character other than tab / CR),
 * or NULL when the span is clean. */
static const char *first_bad_byte(const char *p, const char *end) {
    const unsigned char *u = (const unsigned char *)p, *e = (const unsigned char *)end;
    while (u < e) {
        if (*u < 0x80) {
            if (*u < 0x20 && *u != '\t' && *u != '\r') return (const char *)u;
            u++;
            continue;
        }
        uint32_t cp;
        int n = utf8_sequence(u, e, &cp);
        if (n == 0) return (const char *)u;
        u += n;
    }
    return NULL;
}

void lexer_init(Lexer *lx, const SourceFile *file) {
    memset(lx, 0, sizeof *lx);
    lx->file = file;
    lx->cursor = file->text;
    lx->limit = file->text + file->len;
    if (file->len >= 3 && memcmp(file->text, "\xEF\xBB\xBF", 3) == 0) lx->cursor += 3; /* UTF-8 byte-order mark */
    lx->line_start = lx->cursor;
    lx->line = 1;
    lx->at_line_start = true;
}

void lexer_advance_to(Lexer *lx, const char *p) {
    lx->cursor = p;
    lx->at_line_start = false;
}

/* Builds a token of `kind` spanning [start, end). */
static Token make_token(Lexer *lx, TokenKind kind, const char *start, const char *end) {
    Token t;
    t.kind = kind;
    t.text = start;
    t.len = (uint32_t)(end - start);
    t.loc.line = lx->line;
    t.loc.col = (uint32_t)(start - lx->line_start) + 1;
    t.loc.offset = (uint32_t)(start - lx->file->text);
    t.loc.len = t.len;
    t.at_line_start = lx->at_line_start;
    t.error = NULL;
    t.fixit = NULL;
    t.fixit_len = 0;
    t.note = NULL;
    lx->at_line_start = false;
    return t;
}

/* Builds a TK_ERROR token at [start, start+len) with a formatted message. */
static Token error_token(Lexer *lx, const char *start, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static Token error_token(Lexer *lx, const char *start, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lx->error_buf, sizeof lx->error_buf, fmt, ap);
    va_end(ap);
    Token t = make_token(lx, TK_ERROR, start, start + len);
    t.error = lx->error_buf;
    return t;
}

/* Error token for the byte at p, which cannot start a token. */
static Token bad_byte_token(Lexer *lx, const char *p) {
    const unsigned char *u = (const unsigned char *)p;
    if (*u == 0) return error_token(lx, p, 1, "NUL byte in source text");
    if (*u < 0x80) {
        if (*u < 0x20 || *u == 0x7F) return error_token(lx, p, 1, "unexpected control character 0x%02X", *u);
        return error_token(lx, p, 1, "unexpected character '%c'", *u);
    }
    uint32_t cp;
    int n = utf8_sequence(u, (const unsigned char *)lx->limit, &cp);
    if (n == 0) return error_token(lx, p, 1, "invalid UTF-8 byte 0x%02X", *u);
    lx->cursor = p + n;
    return error_token(lx, p, (size_t)n, "unexpected character U+%04X (non-ASCII text is only allowed in comments and strings)",
                       (unsigned)cp);
}

/* Keyword kind of an identifier, or TK_BARE_ID. */
static TokenKind keyword_kind(const char *s, size_t n) {
#define KW(text, kind) if (n == sizeof(text) - 1 && memcmp(s, text, n) == 0) return kind
    switch (s[0]) {
    case 'a': KW("attributes", TK_ATTRIBUTES); break;
    case 'c': KW("call", TK_CALL); break;
    case 'd': KW("do", TK_DO); break;
    case 'e': KW("else", TK_ELSE); break;
    case 'f':
        KW("false", TK_FALSE);
        KW("func.func", TK_FUNC);
        KW("func.call", TK_CALL);
        KW("func.return", TK_RETURN);
        break;
    case 'i': KW("ins", TK_INS); KW("iter_args", TK_ITER_ARGS); break;
    case 'm': KW("module", TK_MODULE); break;
    case 'o': KW("outs", TK_OUTS); break;
    case 'p': KW("private", TK_PRIVATE); break;
    case 'r': KW("return", TK_RETURN); break;
    case 's':
        KW("step", TK_STEP);
        KW("scf.for", TK_SCF_FOR);
        KW("scf.if", TK_SCF_IF);
        KW("scf.while", TK_SCF_WHILE);
        KW("scf.condition", TK_SCF_CONDITION);
        break;
    case 't': KW("to", TK_TO); KW("true", TK_TRUE); break;
    default: break;
    }
#undef KW
    return TK_BARE_ID;
}

static bool is_anyws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Whether the `%name` ending at p is one of the results of a definition `%a, %b, ... = ...`:
 * the rest of the list must be `(anyws* "," anyws* "%" valname)* anyws* "=" [^=]`. The answer is
 * remembered for the later names of the same list, so lexing a list of n names is O(n). */
static bool value_list_is_definition(Lexer *lx, const char *p) {
    if (lx->list_start && p > lx->list_start && p <= lx->list_end) return lx->list_is_def;
    const char *q = p, *last = p;
    bool def = false;
    for (;;) {
        while (is_anyws(*q)) q++;
        if (*q != ',') {
            def = *q == '=' && q[1] != '=';
            break;
        }
        q++;
        while (is_anyws(*q)) q++;
        if (*q != '%') break;
        q++;
        if (is_digit(*q)) {
            while (is_digit(*q)) q++;
        } else if (is_letter(*q) || *q == '_' || *q == '$' || *q == '.' || *q == '-') {
            while (is_letter(*q) || is_digit(*q) || *q == '_' || *q == '$' || *q == '.' || *q == '-') q++;
        } else {
            break;
        }
        last = q;
    }
    lx->list_start = p;
    lx->list_end = last;
    lx->list_is_def = def;
    return def;
}

/* Scans the balanced `<...>` body of an attribute starting at p (which points at '<').
 * Returns the byte after the closing '>', or NULL if the text ends first. Counts newlines. */
static const char *scan_angle_body(const char *p, const char **newline_start, uint32_t *newlines) {
    int depth = 0;
    for (;;) {
        char c = *p;
        if (c == '\0') return NULL;
        if (c == '"') {
            p++;
            while (*p && *p != '"' && *p != '\n') {
                if (*p == '\\' && p[1] && p[1] != '\n') p++;
                p++;
            }
            if (*p != '"') return NULL;
            p++;
            continue;
        }
        if (c == '-' && p[1] == '>') {
            p += 2;
            continue;
        }
        if (c == '\n') {
            (*newlines)++;
            *newline_start = p + 1;
        }
        if (c == '<') depth++;
        if (c == '>' && --depth == 0) return p + 1;
        p++;
    }
}

Token lexer_next(Lexer *lx) {
    const char *cur, *mar, *ctxmar, *start;
    (void)ctxmar;
    for (;;) {
        cur = lx->cursor;
        start = cur;
        mar = cur;
        ctxmar = cur;
        /*!re2c
        re2c:define:YYCTYPE = "unsigned char";
        re2c:define:YYCURSOR = "cur";
        re2c:define:YYMARKER = "mar";
        re2c:define:YYCTXMARKER = "ctxmar";
        re2c:yyfill:enable = 0;
        re2c:indent:top = 2;

        ws       = [ \t\r\f\v];
        nl       = "\n";
        anyws    = [ \t\r\n];
        digit    = [0-9];
        hexdigit = [0-9a-fA-F];
        letter   = [A-Za-z];
        ident    = (letter | "_") (letter | digit | [_$.])*;
        suffix   = (letter | digit | [_$.-]);
        valname  = ((letter | [_$.-]) suffix*) | digit+;
        dim      = digit+ | "?";
        int      = "-"? digit+;
        hex      = "-"? "0x" hexdigit+;
        float    = "-"? digit+ "." digit* ([eE] [+-]? digit+)?;
        shape    = (dim "x")+ (dim | (letter | "_") (letter | digit | "_")*);

        "\x00" {
            if (start == lx->limit) {
                lx->cursor = start;
                return make_token(lx, TK_EOF, start, start);
            }
            lx->cursor = start + 1;
            return bad_byte_token(lx, start);
        }
        ws+ { lx->cursor = cur; continue; }
        nl {
            lx->cursor = cur;
            lx->line++;
            lx->line_start = cur;
            lx->at_line_start = true;
            continue;
        }
        "#" / [\r\n\x00] { lx->cursor = cur; continue; }
        "//" [^\n\x00]* | "#" [ \t] [^\n\x00]* {
            const char *bad = first_bad_byte(start, cur);
            lx->cursor = cur;
            if (bad) {
                Token t = bad_byte_token(lx, bad);
                lx->cursor = cur; /* skip the rest of the comment */
                return t;
            }
            continue;
        }

        "%" valname / anyws* "=" [^=] {
            lx->cursor = cur;
            return make_token(lx, TK_VALUE_DEF, start, cur);
        }
        "%" valname / anyws* "," {
            lx->cursor = cur;
            return make_token(lx, value_list_is_definition(lx, cur) ? TK_VALUE_DEF : TK_VALUE, start, cur);
        }
        "%" valname / "[" { lx->cursor = cur; return make_token(lx, TK_VALUE_INDEX, start, cur); }
        "%" valname ("#" digit+)? { lx->cursor = cur; return make_token(lx, TK_VALUE, start, cur); }
        "%" valname ":" digit+ { lx->cursor = cur; return make_token(lx, TK_VALUE_GROUP, start, cur); }
        "@" (ident | "\"" [^"\n\x00]* "\"") { lx->cursor = cur; return make_token(lx, TK_SYMBOL, start, cur); }
        "^" suffix+ { lx->cursor = cur; return make_token(lx, TK_CARET_ID, start, cur); }
        "!" ident { lx->cursor = cur; return make_token(lx, TK_TYPE_NAME, start, cur); }
        "#" ident / [^<A-Za-z0-9_$.] {
            /* an attribute alias (`#alias`) cannot start a line: there this is a comment written
             * without the space after '#' (or in another language's style); one error, line skipped */
            lx->cursor = cur;
            if (!lx->at_line_start) return make_token(lx, TK_ATTR, start, cur);
            Token t = error_token(lx, start, (size_t)(cur - start),
                                  "'%.*s' starts a line like a comment, but comments start with '//'",
                                  (int)(cur - start), start);
            t.fixit = "//";
            t.fixit_len = 1;
            t.note = "'#' starts a comment only when a space, a tab or the end of the line follows it; "
                     "attributes are written '#pto.name<...>'";
            while (*lx->cursor != '\n' && lx->cursor < lx->limit) lx->cursor++;
            return t;
        }
        "#" ident {
            const char *end = cur;
            uint32_t newlines = 0;
            const char *new_line_start = NULL;
            if (*cur == '<') {
                end = scan_angle_body(cur, &new_line_start, &newlines);
                if (!end) {
                    lx->cursor = cur;
                    return error_token(lx, start, (size_t)(cur - start), "unterminated attribute '%.*s<'",
                                       (int)(cur - start), start);
                }
            }
            Token t = make_token(lx, TK_ATTR, start, end);
            lx->cursor = end;
            if (newlines) {
                lx->line += newlines;
                lx->line_start = new_line_start;
            }
            return t;
        }

        ("array" | "dense") "<" { /* MLIR builtin attributes: array<i32: 1, 0>, dense<[1, 2]> (one token) */
            uint32_t newlines = 0;
            const char *new_line_start = NULL;
            const char *end = scan_angle_body(cur - 1, &new_line_start, &newlines);
            if (!end) {
                lx->cursor = cur;
                return error_token(lx, start, (size_t)(cur - start), "unterminated attribute '%.*s'", (int)(cur - start), start);
            }
            Token t = make_token(lx, TK_ATTR, start, end);
            lx->cursor = end;
            if (newlines) {
                lx->line += newlines;
                lx->line_start = new_line_start;
            }
            return t;
        }

        ident / anyws* "=" [^=] { lx->cursor = cur; return make_token(lx, TK_KEY, start, cur); }
        "sizes" / anyws* "[" { lx->cursor = cur; return make_token(lx, TK_KEY, start, cur); } /* PTOAS's `sizes [R, C]` (pto.subset) */
        ident / anyws* "," {
            lx->cursor = cur;
            TokenKind k = keyword_kind(start, (size_t)(cur - start));
            return make_token(lx, (k == TK_TRUE || k == TK_FALSE) ? k : TK_BARE_KW, start, cur);
        }
        ident {
            lx->cursor = cur;
            return make_token(lx, keyword_kind(start, (size_t)(cur - start)), start, cur);
        }

        hex   { lx->cursor = cur; return make_token(lx, TK_INT, start, cur); }
        int   { lx->cursor = cur; return make_token(lx, TK_INT, start, cur); }
        float { lx->cursor = cur; return make_token(lx, TK_FLOAT, start, cur); }
        "-"? digit+ [eE] [+-]? digit+ { /* MLIR needs the '.': say so, not 'unexpected e5' */
            lx->cursor = cur;
            int mantissa = 0;
            while (start[mantissa] != 'e' && start[mantissa] != 'E') mantissa++;
            int len = (int)(cur - start);
            Token t = error_token(lx, start, (size_t)len, "float literal '%.*s' needs a '.' (write %.*s.0%.*s)", len,
                                  start, mantissa, start, len - mantissa, start + mantissa);
            if (snprintf(lx->fixit_buf, sizeof lx->fixit_buf, "%.*s.0%.*s", mantissa, start, len - mantissa,
                         start + mantissa) < (int)sizeof lx->fixit_buf) {
                t.fixit = lx->fixit_buf;
                t.fixit_len = (uint32_t)len;
            }
            t.kind = TK_FLOAT; /* reported, then parsed as the float it means: no follow-on errors */
            return t;
        }
        shape { lx->cursor = cur; return make_token(lx, TK_SHAPE, start, cur); }

        "\"" ([^"\\\n\x00] | "\\" [^\n\x00])* "\"" {
            const char *bad = first_bad_byte(start, cur);
            lx->cursor = cur;
            if (bad) {
                Token t = bad_byte_token(lx, bad);
                lx->cursor = cur;
                return t;
            }
            return make_token(lx, TK_STRING, start, cur);
        }
        "\"" ([^"\\\n\x00] | "\\" [^\n\x00])* {
            lx->cursor = cur;
            return error_token(lx, start, 1, "unterminated string literal");
        }

        "{" / anyws* (ident | "\"" [^"\n\x00]* "\"") anyws* "=" [^=] {
            lx->cursor = cur;
            return make_token(lx, TK_LBRACE_DICT, start, cur);
        }
        "->" { lx->cursor = cur; return make_token(lx, TK_ARROW, start, cur); }
        "("  { lx->cursor = cur; return make_token(lx, TK_LPAREN, start, cur); }
        ")"  { lx->cursor = cur; return make_token(lx, TK_RPAREN, start, cur); }
        "["  { lx->cursor = cur; return make_token(lx, TK_LBRACKET, start, cur); }
        "]"  { lx->cursor = cur; return make_token(lx, TK_RBRACKET, start, cur); }
        "{"  { lx->cursor = cur; return make_token(lx, TK_LBRACE, start, cur); }
        "}"  { lx->cursor = cur; return make_token(lx, TK_RBRACE, start, cur); }
        "<"  { lx->cursor = cur; return make_token(lx, TK_LANGLE, start, cur); }
        ">"  { lx->cursor = cur; return make_token(lx, TK_RANGLE, start, cur); }
        ","  { lx->cursor = cur; return make_token(lx, TK_COMMA, start, cur); }
        ":"  { lx->cursor = cur; return make_token(lx, TK_COLON, start, cur); }
        "="  { lx->cursor = cur; return make_token(lx, TK_EQUAL, start, cur); }
        "?"  { lx->cursor = cur; return make_token(lx, TK_QUESTION, start, cur); }

        "..." "."* {
            lx->cursor = cur;
            return error_token(lx, start, (size_t)(cur - start),
                               "'%.*s' is a placeholder, not PTO-AS text: write out what it stands for", (int)(cur - start), start);
        }
        "#" {
            lx->cursor = cur;
            return error_token(lx, start, 1, "'#' must start a comment ('# ' or '#' at the end of a line) or an attribute ('#pto.name<...>')");
        }
        * {
            lx->cursor = start + 1;
            return bad_byte_token(lx, start);
        }
        */
    }
}

const char *token_kind_name(TokenKind kind) {
    static const char *const names[TK_COUNT] = {
        [TK_EOF] = "end of file",
        [TK_ERROR] = "invalid token",
        [TK_VALUE] = "value",
        [TK_VALUE_DEF] = "value definition",
        [TK_VALUE_GROUP] = "result group",
        [TK_SYMBOL] = "symbol",
        [TK_CARET_ID] = "block label",
        [TK_TYPE_NAME] = "type",
        [TK_ATTR] = "attribute",
        [TK_VALUE_INDEX] = "indexed value",
        [TK_BARE_ID] = "identifier",
        [TK_BARE_KW] = "keyword",
        [TK_KEY] = "key",
        [TK_INT] = "integer",
        [TK_FLOAT] = "float",
        [TK_SHAPE] = "shape",
        [TK_STRING] = "string",
        [TK_TRUE] = "'true'",
        [TK_FALSE] = "'false'",
        [TK_MODULE] = "'module'",
        [TK_FUNC] = "'func.func'",
        [TK_ATTRIBUTES] = "'attributes'",
        [TK_PRIVATE] = "'private'",
        [TK_INS] = "'ins'",
        [TK_OUTS] = "'outs'",
        [TK_TO] = "'to'",
        [TK_STEP] = "'step'",
        [TK_ITER_ARGS] = "'iter_args'",
        [TK_ELSE] = "'else'",
        [TK_DO] = "'do'",
        [TK_SCF_FOR] = "'scf.for'",
        [TK_SCF_IF] = "'scf.if'",
        [TK_SCF_WHILE] = "'scf.while'",
        [TK_SCF_CONDITION] = "'scf.condition'",
        [TK_CALL] = "'func.call'",
        [TK_RETURN] = "'return'",
        [TK_LPAREN] = "'('",
        [TK_RPAREN] = "')'",
        [TK_LBRACKET] = "'['",
        [TK_RBRACKET] = "']'",
        [TK_LBRACE] = "'{'",
        [TK_RBRACE] = "'}'",
        [TK_LANGLE] = "'<'",
        [TK_RANGLE] = "'>'",
        [TK_LBRACE_DICT] = "'{'",
        [TK_COMMA] = "','",
        [TK_COLON] = "':'",
        [TK_EQUAL] = "'='",
        [TK_QUESTION] = "'?'",
        [TK_ARROW] = "'->'",
    };
    return (unsigned)kind < TK_COUNT && names[kind] ? names[kind] : "token";
}
