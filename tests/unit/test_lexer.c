/* test_lexer.c - the re2c tokenizer: every token kind, exact locations, trailing-context
 * classifications, comments, and every lexer error. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "lexer.h"

#define MAX_TOKENS 64

typedef struct Lexed {
    SourceFile file;
    Token tokens[MAX_TOKENS];
    char errors[MAX_TOKENS][128]; /* copies: Token.error is only valid until the next lexer_next call */
    char fixits[MAX_TOKENS][64];  /* copies of Token.fixit (it may live in the lexer) */
    int count;
} Lexed;

/* Tokenizes `text` (length given, so it may contain NUL bytes) up to and including TK_EOF. */
static Lexed *lex_n(const char *text, size_t len) {
    static Lexed lexed; /* one test at a time per process: Criterion runs each test in its own process */
    memset(&lexed, 0, sizeof lexed);
    lexed.file.path = "t.pto";
    lexed.file.text = text;
    lexed.file.len = len;
    Lexer lx;
    lexer_init(&lx, &lexed.file);
    for (;;) {
        cr_assert_lt(lexed.count, MAX_TOKENS, "too many tokens");
        Token t = lexer_next(&lx);
        if (t.error) {
            snprintf(lexed.errors[lexed.count], sizeof lexed.errors[0], "%s", t.error);
            t.error = lexed.errors[lexed.count];
        }
        if (t.fixit) {
            snprintf(lexed.fixits[lexed.count], sizeof lexed.fixits[0], "%s", t.fixit);
            t.fixit = lexed.fixits[lexed.count];
        }
        lexed.tokens[lexed.count++] = t;
        if (t.kind == TK_EOF) break;
    }
    return &lexed;
}

static Lexed *lex(const char *text) {
    return lex_n(text, strlen(text));
}

static void expect_token(const Token *t, TokenKind kind, const char *text) {
    cr_assert_eq(t->kind, kind, "token '%.*s': kind %s, expected %s", (int)t->len, t->text, token_kind_name(t->kind),
                 token_kind_name(kind));
    cr_assert_eq(t->len, strlen(text), "token '%.*s', expected '%s'", (int)t->len, t->text, text);
    cr_assert(memcmp(t->text, text, t->len) == 0, "token '%.*s', expected '%s'", (int)t->len, t->text, text);
}

/* The single token of `text` (followed by EOF) has `kind`. */
static void expect_single(const char *text, TokenKind kind) {
    Lexed *l = lex(text);
    cr_assert_eq(l->count, 2, "'%s' gave %d tokens", text, l->count - 1);
    expect_token(&l->tokens[0], kind, text);
    cr_assert_eq(l->tokens[1].kind, TK_EOF);
}

Test(lexer, values_and_symbols) {
    expect_single("%src0", TK_VALUE);
    expect_single("%0", TK_VALUE);
    expect_single("%c1_0", TK_VALUE);
    expect_single("%all_q__ssa_v0.view-1", TK_VALUE);
    expect_single("%r#1", TK_VALUE);
    expect_single("%r:2", TK_VALUE_GROUP);
    expect_single("@tile", TK_SYMBOL);
    expect_single("@\"quoted name\"", TK_SYMBOL);
    expect_single("^bb0", TK_CARET_ID);
    expect_single("!pto.tile_buf", TK_TYPE_NAME);
}

Test(lexer, value_definitions_use_trailing_context) {
    Lexed *l = lex("%a, %b = scf.if");
    expect_token(&l->tokens[0], TK_VALUE_DEF, "%a");
    expect_token(&l->tokens[1], TK_COMMA, ",");
    expect_token(&l->tokens[2], TK_VALUE_DEF, "%b");
    expect_token(&l->tokens[3], TK_EQUAL, "=");
    expect_token(&l->tokens[4], TK_SCF_IF, "scf.if");
    l = lex("%x\n  = 1");
    expect_token(&l->tokens[0], TK_VALUE_DEF, "%x");
    /* a use followed by another use is not a definition */
    l = lex("scf.yield %a, %b\n%c = x");
    expect_token(&l->tokens[1], TK_VALUE, "%a");
    expect_token(&l->tokens[3], TK_VALUE, "%b");
    expect_token(&l->tokens[4], TK_VALUE_DEF, "%c");
}

Test(lexer, identifiers_keys_and_bare_keywords) {
    expect_single("pto.tmuls", TK_BARE_ID);
    expect_single("ident.with.dots", TK_BARE_ID);
    expect_single("f32", TK_BARE_ID);
    Lexed *l = lex("loc=vec, blayout = col_major");
    expect_token(&l->tokens[0], TK_KEY, "loc");
    expect_token(&l->tokens[1], TK_EQUAL, "=");
    expect_token(&l->tokens[2], TK_BARE_KW, "vec");
    expect_token(&l->tokens[3], TK_COMMA, ",");
    expect_token(&l->tokens[4], TK_KEY, "blayout");
    expect_token(&l->tokens[6], TK_BARE_ID, "col_major");
    l = lex("arith.cmpi slt, %a");
    expect_token(&l->tokens[0], TK_BARE_ID, "arith.cmpi");
    expect_token(&l->tokens[1], TK_BARE_KW, "slt");
    /* true/false stay keywords even before a comma */
    l = lex("true, false");
    expect_token(&l->tokens[0], TK_TRUE, "true");
    expect_token(&l->tokens[2], TK_FALSE, "false");
}

Test(lexer, brace_opening_a_dictionary) {
    Lexed *l = lex("{layout = 1} { \"pto.x\" = 2} {pto.entry} {\n  %x = y}");
    expect_token(&l->tokens[0], TK_LBRACE_DICT, "{");
    expect_token(&l->tokens[1], TK_KEY, "layout");
    expect_token(&l->tokens[5], TK_LBRACE_DICT, "{");
    expect_token(&l->tokens[10], TK_LBRACE, "{"); /* a unit attribute: plain brace */
    expect_token(&l->tokens[13], TK_LBRACE, "{"); /* a region */
}

Test(lexer, keywords) {
    static const struct { const char *text; TokenKind kind; } kws[] = {
        {"module", TK_MODULE}, {"func.func", TK_FUNC}, {"attributes", TK_ATTRIBUTES}, {"private", TK_PRIVATE},
        {"ins", TK_INS}, {"outs", TK_OUTS}, {"to", TK_TO}, {"step", TK_STEP}, {"iter_args", TK_ITER_ARGS},
        {"else", TK_ELSE}, {"do", TK_DO}, {"scf.for", TK_SCF_FOR}, {"scf.if", TK_SCF_IF}, {"scf.while", TK_SCF_WHILE},
        {"scf.condition", TK_SCF_CONDITION}, {"func.call", TK_CALL}, {"return", TK_RETURN}, {"func.return", TK_RETURN},
        {"true", TK_TRUE}, {"false", TK_FALSE}};
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++) expect_single(kws[i].text, kws[i].kind);
    expect_single("modules", TK_BARE_ID);
    expect_single("scf.yield", TK_BARE_ID);
}

Test(lexer, numbers) {
    expect_single("42", TK_INT);
    expect_single("-7", TK_INT);
    expect_single("0x1000", TK_INT);
    expect_single("0x40490FDB", TK_INT);
    expect_single("1.0", TK_FLOAT);
    expect_single("-4.0e+00", TK_FLOAT);
    expect_single("9.99e-07", TK_FLOAT);
    expect_single("3.200010e+01", TK_FLOAT);
}

Test(lexer, shapes) {
    expect_single("32x32xf32", TK_SHAPE);
    expect_single("?x?xbf16", TK_SHAPE);
    expect_single("16x1", TK_SHAPE);
    expect_single("?x?", TK_SHAPE);
    expect_single("1x1x16x1024x1024xf32", TK_SHAPE);
    expect_single("4xi16", TK_SHAPE);
    /* `0x...` is hex, not a shape */
    expect_single("0x10", TK_INT);
    expect_single("0xf32", TK_INT);
    expect_single("0x16xf32", TK_SHAPE);
}

Test(lexer, attributes_strings_punctuation) {
    expect_single("#pto.layout<nd>", TK_ATTR);
    expect_single("#pto<st_phase final>", TK_ATTR);
    expect_single("#pto.tile_buf_config<blayout=#pto.blayout<row_major>, s_fractal_size=512>", TK_ATTR);
    expect_single("#map<(d0) -> (d0)>", TK_ATTR);
    /* an alias reference is an attribute after another token; at the start of a line it is taken
     * for a comment without its space (see comment_without_space_is_one_error) */
    Lexed *alias = lex("x #alias");
    cr_assert_eq(alias->count, 3);
    expect_token(&alias->tokens[1], TK_ATTR, "#alias");
    expect_single("\"a5\"", TK_STRING);
    expect_single("\"esc \\\" aped\"", TK_STRING);
    expect_single("\"caf\xc3\xa9\"", TK_STRING);
    Lexed *l = lex("()[]{}<>,:=?->");
    TokenKind want[] = {TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET, TK_LBRACE, TK_RBRACE, TK_LANGLE,
                        TK_RANGLE, TK_COMMA, TK_COLON, TK_EQUAL, TK_QUESTION, TK_ARROW, TK_EOF};
    cr_assert_eq(l->count, (int)(sizeof want / sizeof *want));
    for (int i = 0; i < l->count; i++) cr_assert_eq(l->tokens[i].kind, want[i], "token %d", i);
}

Test(lexer, comments) {
    Lexed *l = lex("// a comment\n# Manual mode: bind\n#\n%a # trailing\n#");
    cr_assert_eq(l->count, 2);
    expect_token(&l->tokens[0], TK_VALUE, "%a");
    cr_assert_eq(l->tokens[0].loc.line, 4);
    /* `#pto...` is an attribute, `#\t` a comment */
    l = lex("#\tx\n#pto.event<EVENT_ID0>");
    cr_assert_eq(l->count, 2);
    expect_token(&l->tokens[0], TK_ATTR, "#pto.event<EVENT_ID0>");
    /* UTF-8 is fine in comments */
    l = lex("// caf\xc3\xa9 \xe2\x9c\x93\nx");
    cr_assert_eq(l->count, 2);
    expect_token(&l->tokens[0], TK_BARE_ID, "x");
}

/* `#word ...` at the start of a line: one error that says comments are `//`, with a fix-it and a
 * note, and the rest of the line skipped (no cascade); the next line lexes normally (issue 13). */
Test(lexer, comment_without_space_is_one_error) {
    Lexed *l = lex("#this is not a comment %x = (\n  %a");
    cr_assert_eq(l->count, 3, "%d tokens", l->count);
    cr_assert_eq(l->tokens[0].kind, TK_ERROR);
    cr_assert(strstr(l->tokens[0].error, "comments start with '//'"), "%s", l->tokens[0].error);
    cr_assert_str_eq(l->tokens[0].fixit, "//");
    cr_assert_eq(l->tokens[0].fixit_len, 1);
    cr_assert(l->tokens[0].note && strstr(l->tokens[0].note, "space"));
    expect_token(&l->tokens[1], TK_VALUE, "%a");
    cr_assert_eq(l->tokens[1].loc.line, 2);
    /* indented, after a statement on the line before: still a line start */
    l = lex("x\n   #note\ny");
    cr_assert_eq(l->count, 4);
    cr_assert_eq(l->tokens[1].kind, TK_ERROR);
    expect_token(&l->tokens[2], TK_BARE_ID, "y");
}

/* `...` is one error (a placeholder), not one per dot; `1e5` carries a fix-it `1.0e5`. */
Test(lexer, placeholder_and_float_fixit) {
    Lexed *l = lex("<...>");
    cr_assert_eq(l->count, 4, "%d tokens", l->count);
    cr_assert_eq(l->tokens[1].kind, TK_ERROR);
    cr_assert_eq(l->tokens[1].len, 3);
    cr_assert(strstr(l->tokens[1].error, "placeholder"), "%s", l->tokens[1].error);
    l = lex("-2E+7");
    cr_assert_eq(l->tokens[0].kind, TK_FLOAT);
    cr_assert_str_eq(l->tokens[0].fixit, "-2.0E+7");
    cr_assert_eq(l->tokens[0].fixit_len, 5);
}

Test(lexer, locations_are_exact) {
    Lexed *l = lex("%a = pto.tmuls %b,\n\t  %c : f32");
    const Token *t = l->tokens;
    cr_assert_eq(t[0].loc.line, 1);
    cr_assert_eq(t[0].loc.col, 1);
    cr_assert_eq(t[0].loc.offset, 0);
    cr_assert_eq(t[0].loc.len, 2);
    cr_assert(t[0].at_line_start);
    expect_token(&t[2], TK_BARE_ID, "pto.tmuls");
    cr_assert_eq(t[2].loc.col, 6);
    cr_assert_eq(t[2].loc.offset, 5);
    cr_assert_eq(t[2].loc.len, 9);
    cr_assert_not(t[2].at_line_start);
    expect_token(&t[5], TK_VALUE, "%c");
    cr_assert_eq(t[5].loc.line, 2);
    cr_assert_eq(t[5].loc.col, 4); /* tab and two spaces: columns count bytes */
    cr_assert_eq(t[5].loc.offset, 22);
    cr_assert(t[5].at_line_start);
    expect_token(&t[7], TK_BARE_ID, "f32");
    cr_assert_eq(t[7].loc.col, 9);
    /* a multi-line attribute moves the line counter */
    l = lex("#pto.x<a,\nb> y");
    expect_token(&l->tokens[1], TK_BARE_ID, "y");
    cr_assert_eq(l->tokens[1].loc.line, 2);
    cr_assert_eq(l->tokens[1].loc.col, 4);
}

Test(lexer, eof_repeats) {
    SourceFile f = {"t.pto", "x", 1};
    Lexer lx;
    lexer_init(&lx, &f);
    cr_assert_eq(lexer_next(&lx).kind, TK_BARE_ID);
    cr_assert_eq(lexer_next(&lx).kind, TK_EOF);
    Token t = lexer_next(&lx);
    cr_assert_eq(t.kind, TK_EOF);
    cr_assert_eq(t.loc.offset, 1);
}

/* ---- errors ---------------------------------------------------------------------------------- */

static void expect_error(const Token *t, uint32_t line, uint32_t col, const char *fragment) {
    cr_assert_eq(t->kind, TK_ERROR, "expected an error token, got %s", token_kind_name(t->kind));
    cr_assert_eq(t->loc.line, line, "line %u", t->loc.line);
    cr_assert_eq(t->loc.col, col, "col %u", t->loc.col);
    cr_assert(strstr(t->error, fragment), "message '%s' lacks '%s'", t->error, fragment);
}

Test(lexer, nul_byte_is_an_error_and_lexing_continues) {
    static const char text[] = "%a\0%b";
    Lexed *l = lex_n(text, sizeof text - 1);
    expect_token(&l->tokens[0], TK_VALUE, "%a");
    expect_error(&l->tokens[1], 1, 3, "NUL byte");
    expect_token(&l->tokens[2], TK_VALUE, "%b");
    cr_assert_eq(l->tokens[3].kind, TK_EOF);
}

Test(lexer, invalid_utf8_outside_comments) {
    Lexed *l = lex("x \xff y");
    expect_error(&l->tokens[1], 1, 3, "invalid UTF-8 byte 0xFF");
    expect_token(&l->tokens[2], TK_BARE_ID, "y");
    l = lex("x \xc3\xa9 y");
    expect_error(&l->tokens[1], 1, 3, "U+00E9");
    cr_assert_eq(l->tokens[1].len, 2);
    expect_token(&l->tokens[2], TK_BARE_ID, "y");
}

Test(lexer, invalid_utf8_in_comment_and_string) {
    Lexed *l = lex("// ok \xc0\xaf bad\nz");
    expect_error(&l->tokens[0], 1, 7, "invalid UTF-8");
    expect_token(&l->tokens[1], TK_BARE_ID, "z");
    l = lex("\"a\xed\xa0\x80\" w"); /* an encoded surrogate is not UTF-8 */
    expect_error(&l->tokens[0], 1, 3, "invalid UTF-8 byte 0xED");
    expect_token(&l->tokens[1], TK_BARE_ID, "w");
}

Test(lexer, other_errors) {
    Lexed *l = lex("\"open\nx");
    expect_error(&l->tokens[0], 1, 1, "unterminated string");
    expect_token(&l->tokens[1], TK_BARE_ID, "x");
    l = lex("#pto.x<abc");
    expect_error(&l->tokens[0], 1, 1, "unterminated attribute");
    l = lex("a #1");
    expect_error(&l->tokens[1], 1, 3, "'#' must start a comment");
    l = lex("a \x01 b");
    expect_error(&l->tokens[1], 1, 3, "control character 0x01");
    l = lex("a ; b");
    expect_error(&l->tokens[1], 1, 3, "unexpected character ';'");
    expect_token(&l->tokens[2], TK_BARE_ID, "b");
    l = lex("- 1");
    expect_error(&l->tokens[0], 1, 1, "unexpected character '-'");
}

Test(lexer, float_without_dot_is_reported_and_read_as_float) {
    Lexed *l = lex("a 1e5 -2E+07 b");
    cr_assert_eq(l->tokens[1].kind, TK_FLOAT, "1e5 is a float token carrying an error");
    cr_assert_str_eq(l->tokens[1].error, "float literal '1e5' needs a '.' (write 1.0e5)");
    cr_assert_eq(l->tokens[1].loc.col, 3);
    cr_assert_eq(l->tokens[2].kind, TK_FLOAT);
    cr_assert_str_eq(l->tokens[2].error, "float literal '-2E+07' needs a '.' (write -2.0E+07)");
    expect_token(&l->tokens[3], TK_BARE_ID, "b");
    cr_assert_null(l->tokens[3].error);
    l = lex("1.0e5 0x1e5");
    expect_token(&l->tokens[0], TK_FLOAT, "1.0e5");
    cr_assert_null(l->tokens[0].error);
    expect_token(&l->tokens[1], TK_INT, "0x1e5");
}

Test(lexer, byte_order_mark_is_skipped) {
    Lexed *l = lex("\xEF\xBB\xBF%a x\n\xEF\xBB\xBF");
    expect_token(&l->tokens[0], TK_VALUE, "%a");
    cr_assert_eq(l->tokens[0].loc.col, 1);
    cr_assert_eq(l->tokens[0].loc.offset, 3);
    expect_token(&l->tokens[1], TK_BARE_ID, "x");
    /* only at the start of the file: elsewhere it is an ordinary non-ASCII character */
    cr_assert_eq(l->tokens[2].kind, TK_ERROR);
    cr_assert(strstr(l->tokens[2].error, "U+FEFF"), "%s", l->tokens[2].error);
}
