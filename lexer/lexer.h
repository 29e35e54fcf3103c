/* lexer.h - the re2c tokenizer of the .pto text format (SPEC 1.1).
 *
 * The lexer is reentrant: all state lives in a Lexer value. Tokens point into the source text
 * (no copies, no allocation); every token carries its exact location (1-based line, byte column,
 * byte offset and length). Bytes that cannot start a token (NUL, control characters, non-ASCII
 * outside comments and strings, invalid UTF-8) produce TK_ERROR tokens with a message; lexing
 * continues after them.
 *
 * Some tokens are classified with trailing context so that the grammar stays LALR(1):
 *   TK_VALUE_DEF  `%x` followed by `=` (or by `, %y, ... =`): a definition, not a use;
 *   TK_KEY        `ident` followed by `=` (not `==`): a keyword argument or type parameter key; also
 *                 `sizes` followed by `[` (PTOAS's `sizes [R, C]` of pto.subset, an attribute);
 *   TK_BARE_KW    `ident` followed by `,`: a bare keyword operand such as `slt` in `arith.cmpi slt, ...`
 *                 (also a type name like `f32` in `: f32, T`);
 *   TK_LBRACE_DICT `{` followed by `key =`: an attribute dictionary, never a region. */
#ifndef PTO_LEXER_H
#define PTO_LEXER_H

#include "ir.h"

typedef enum TokenKind {
    TK_EOF = 0,
    TK_ERROR,       /* a byte sequence that cannot be lexed; Token.error says why */
    TK_VALUE,       /* %name or %name#N (use) */
    TK_VALUE_DEF,   /* %name about to be defined (`%x =`, `%a, %b =`) */
    TK_VALUE_GROUP, /* %name:N (multi-result definition) */
    TK_VALUE_INDEX, /* %name right before `[` (PTOAS's `%arr[%c0]` indexing) */
    TK_SYMBOL,      /* @name */
    TK_CARET_ID,    /* ^bb0 */
    TK_TYPE_NAME,   /* !pto.tile_buf, !pto.ptr, ... */
    TK_ATTR,        /* #pto.layout<nd>, #pto<st_phase final>, #alias (one token, text as written) */
    TK_BARE_ID,     /* identifier (may contain dots): pto.tmuls, f32, vec, row_major */
    TK_BARE_KW,     /* identifier followed by `,` */
    TK_KEY,         /* identifier followed by `=` */
    TK_INT,         /* 12, -3, 0x1F */
    TK_FLOAT,       /* 1.0, -4.0e+00, 9.99e-07 */
    TK_SHAPE,       /* 32x32xf32, ?x?xbf16, 16x1, ?x? */
    TK_STRING,      /* "..." (text includes the quotes) */
    /* keywords */
    TK_TRUE, TK_FALSE, TK_MODULE, TK_FUNC, TK_ATTRIBUTES, TK_PRIVATE, TK_INS, TK_OUTS, TK_TO,
    TK_STEP, TK_ITER_ARGS, TK_ELSE, TK_DO, TK_SCF_FOR, TK_SCF_IF, TK_SCF_WHILE, TK_SCF_CONDITION,
    TK_CALL, TK_RETURN,
    /* punctuation */
    TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET, TK_LBRACE, TK_RBRACE, TK_LANGLE, TK_RANGLE,
    TK_LBRACE_DICT, /* `{` opening an attribute dictionary: followed by `key =` or `"key" =` */
    TK_COMMA, TK_COLON, TK_EQUAL, TK_QUESTION, TK_ARROW,
    TK_COUNT
} TokenKind;

typedef struct Token {
    TokenKind kind;
    const char *text;     /* points into the source; not NUL-terminated */
    uint32_t len;
    SrcLoc loc;
    bool at_line_start;   /* first token on its line */
    const char *error;    /* TK_ERROR: the message; another kind: a recoverable error about this token (e.g.
                           * `1e5` lexed as a float): report it, then use the token. Valid until the next
                           * lexer_next call; NULL when there is none. */
    const char *fixit;    /* with `error`: text that replaces the token's first fixit_len bytes and fixes
                           * the error (static storage or error_buf), or NULL */
    uint32_t fixit_len;
    const char *note;     /* with `error`: a hint shown as a note under the error, or NULL */
} Token;

typedef struct Lexer {
    const SourceFile *file;
    const char *cursor;       /* next byte to read */
    const char *limit;        /* the terminating NUL of the text */
    const char *line_start;   /* first byte of the current line */
    uint32_t line;
    bool at_line_start;       /* no token yet on the current line */
    char error_buf[160];      /* message storage for TK_ERROR tokens */
    char fixit_buf[80];       /* fix-it storage (Token.fixit) */
    const char *list_start;   /* the last `%a, %b, ...` list scanned for a trailing `=`: names ending */
    const char *list_end;     /* in (list_start, list_end] reuse list_is_def, so a list of n names */
    bool list_is_def;         /* is lexed in O(n), not O(n^2) (issue #6) */
} Lexer;

/* Prepares `lx` to tokenize `file` from its first byte. */
void lexer_init(Lexer *lx, const SourceFile *file);
/* Returns the next token (TK_EOF at the end, repeatedly). */
Token lexer_next(Lexer *lx);
/* Continues lexing at `p`, which must lie on the current line at or after the last token's start
 * (the parser skips a type spelling it already knows, or backs up inside one). */
void lexer_advance_to(Lexer *lx, const char *p);
/* Human-readable name of a token kind, e.g. "identifier", "'('". */
const char *token_kind_name(TokenKind kind);

#endif
