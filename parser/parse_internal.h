/* parse_internal.h - private interface between the Bison grammar (parser.y) and the IR builder
 * (parser/build.c, parser/type_parse.c). Not part of the public API (see parser.h).
 *
 * The grammar is generic: it turns an op statement into an OpDraft (name, items, signature,
 * region) and hands it to the builder, which looks the op up in the op table, normalises the
 * three spellings (DPS / SSA / assembly) into one Op, resolves value names and runs the
 * structural checks. Control structure (module, func.func, scf.*, func.call, return) has
 * dedicated rules that call the builder at region boundaries so that scoping is exact. */
#ifndef PTO_PARSE_INTERNAL_H
#define PTO_PARSE_INTERNAL_H

#include "ir.h"
#include "lexer.h"

/* Limits (SPEC 8: malformed input never crashes; issue #6 tests these). */
#define PARSE_MAX_REGION_DEPTH 256      /* nested regions (func body, scf.for, scf.if, ...) */
#define PARSE_MAX_GROUP_RESULTS 4096    /* %r:N */
#define PARSE_MAX_FUNCS 4096            /* func.func definitions and declarations of one module */

/* A token as the builder sees it (made from the token's location by pc_tok_at). */
typedef struct Tok {
    const char *text;
    uint32_t len;
    SrcLoc loc;
} Tok;

/* One written type: the module's shared Type for its spelling and where this use is written. */
typedef struct TypeUse {
    Type *type;
    SrcLoc loc;
} TypeUse;

/* Result names before `=`: `%a`, `%a, %b`, or a group `%r:N`. */
typedef struct ResultDefs {
    PtrVec names;         /* Tok* (text includes the leading %) */
    int group_count;      /* > 0 for `%r:N` */
    SrcLoc loc;
} ResultDefs;

typedef enum ItemKind {
    IT_OPERAND,       /* %v, 7, 2.5, true */
    IT_SYMBOL,        /* @name */
    IT_SYMBOL_CALL,   /* @tile(0x1000) */
    IT_BAREWORD,      /* slt (followed by a comma) */
    IT_KEYWORD,       /* key = operand */
    IT_KEYWORD_LIST,  /* key = [operands] */
    IT_KEYWORD_ATTR,  /* key = #pto.attr<...> */
    IT_INS,           /* ins(operands : types) */
    IT_OUTS,          /* outs(operands : types) */
    IT_ATTR_ARGS,     /* [ <A>, #pto.x<B>, ... ] */
    IT_ANGLE,         /* <PIPE_ALL> */
    IT_ATTR_DICT,     /* { key = value, ... } */
    IT_PAREN,         /* (operands [: types]) right after the op name (generic MLIR-style op syntax) */
    IT_INDEXED,       /* %arr[%i, ...] (positions marked SPEC_INDEX: event-id arrays): tok, operands */
    IT_ATTR_VALUE,    /* a bare attribute as an operand: dense<...>, #pto.x<...> (tok) */
    IT_ATTR_KEYWORD   /* key [values]: an attribute written as a keyword after the operands, PTOAS's
                       * `sizes [16, 8]` (rows' ATTR_KEYWORD attributes): tok, attr */
} ItemKind;

typedef struct Item {
    ItemKind kind;
    SrcLoc loc;
    Operand *operand;     /* IT_OPERAND, IT_KEYWORD */
    Tok tok;              /* symbol, bare word or key */
    PtrVec *operands;     /* IT_SYMBOL_CALL, IT_KEYWORD_LIST, IT_INS, IT_OUTS: Operand* */
    PtrVec *types;        /* IT_INS, IT_OUTS: TypeUse* (may be empty) */
    PtrVec *attrs;        /* IT_ATTR_ARGS, IT_ANGLE, IT_ATTR_DICT: Attr* */
    Attr *attr;           /* IT_KEYWORD_ATTR, IT_ATTR_KEYWORD; IT_INS: the string literal leading the list (OPF_STRING_IN_INS), key NULL */
    bool operand_attrs;   /* IT_INS / IT_OUTS: some operand carried its own {attr-dict} (PTOAS's tcvt, tcmp:
                           * the op's attributes, in `attrs`) */
    SrcLoc operand_attr_loc;
    bool named;           /* IT_PAREN: `(key = %v : T, ...)`, operands holds IT_KEYWORD items (PTOAS's pipe ops) */
} Item;

/* `: SIG` after an op. */
typedef struct Signature {
    PtrVec *inputs;       /* TypeUse* */
    PtrVec *results;      /* TypeUse* (only with -> or to) */
    bool arrow;           /* written with -> */
    bool to;              /* written `A to B` */
    SrcLoc loc;
} Signature;

/* One generic op statement before it is built. */
typedef struct OpDraft {
    Tok name;
    PtrVec *items;        /* Item*, may be NULL */
    Signature *sig;       /* may be NULL */
    Block *region;        /* may be NULL */
    SrcLoc loc;           /* whole statement */
    bool generic;         /* written in MLIR's generic form: operands plain, never `%arr[%i]` */
} OpDraft;

/* `%x = %init` in iter_args / scf.while. */
typedef struct InitPair {
    Tok name;
    Operand *init;
} InitPair;

/* `%a: T` (function or block argument). */
typedef struct ArgDecl {
    Tok name;
    TypeUse *type;
    PtrVec *attrs;        /* `%a: T {attrs}` (function arguments; rejected by name) or NULL */
} ArgDecl;

typedef enum TParamKind { TP_IDENT, TP_INT, TP_FLOAT, TP_SHAPE, TP_QUESTION, TP_STRING, TP_ATTR, TP_TYPE } TParamKind;

/* One parameter inside a type's `<...>`. */
typedef struct TParam {
    bool keyed;           /* written key=value */
    Tok key;
    TParamKind kind;
    Tok value;            /* text of the value token */
    Type *type;           /* TP_TYPE */
    SrcLoc loc;           /* whole parameter */
} TParam;

/* Value names of one function (heap memory): an open-addressing hash map of the definitions in
 * scope (few: looked up at every use, so it stays in cache) and a log of the definitions that went
 * out of scope, indexed by name only when a message or a forward reference needs a name's last
 * definition (at the end of a function with unresolved uses). A name is visible at most once:
 * an inner scope cannot redefine it. */
typedef struct NameEntry {
    Value *value;         /* NULL = empty slot; the name is value->name */
    uint32_t hash, len;
} NameEntry;

typedef struct NameTable {
    NameEntry *slots;
    uint32_t cap, count;  /* cap: 0 or a power of two */
} NameTable;

/* A definition in a scope or closed log. */
typedef struct ScopeName {
    Value *value;
    uint32_t hash, len;
} ScopeName;

typedef struct PendingUse {
    Operand *operand;
    Op *op;               /* NULL for uses outside ops */
    const char *role;     /* operand position name */
    unsigned kinds;       /* K_* accepted */
    bool forward_ok;      /* SPEC_FORWARD position */
} PendingUse;

/* Per-function parse state. Its tables are heap memory (not the arena), freed by pc_release. */
typedef struct FuncCtx {
    Func *func;
    struct FuncCtx *outer;
    struct FuncCtx *next_all; /* every FuncCtx of the parse (ParseCtx.all_funcs), for freeing */
    Block *body;
    NameTable visible;    /* definitions in scope */
    ScopeName *scope_log; /* definitions in scope, in definition order (heap) */
    size_t scope_count, scope_cap;
    ScopeName *closed_log; /* definitions that went out of scope, in that order (heap) */
    size_t closed_count, closed_cap;
    NameTable closed;     /* by name, the last of closed_log[0 .. closed_indexed) (built on demand) */
    size_t closed_indexed;
    PtrVec pending;       /* PendingUse* resolved at the end of the function (heap) */
} FuncCtx;

/* One open region: its block, the function it belongs to, and the scope mark to restore. */
typedef struct BlockFrame {
    Block *block;
    FuncCtx *fc;
    size_t scope_mark;    /* scope_count when the block opened */
} BlockFrame;

typedef struct OpNameEntry {
    const char *name;
    uint32_t len;
    OpCode code;
} OpNameEntry;

/* A type spelling (exact source bytes) and the shared Type it was parsed into. */
typedef struct TypeEntry {
    const char *text;     /* points into the source text */
    uint32_t len, hash;
    Type *type;           /* NULL = empty slot */
} TypeEntry;

typedef struct ParseCtx {
    Arena *arena;                 /* the IR and everything it points to */
    Arena *scratch;               /* grammar temporaries (items, lists, type parameters), reset between
                                   * top-level statements so memory stays proportional to the IR */
    const SourceFile *file;
    DiagList *diags;
    Module *module;
    Lexer lexer;
    size_t errors_at_start;       /* diags->errors when the parse began: types are shared only while
                                   * no error has been reported (an error-free spelling always
                                   * parses to the same Type) */
    TypeEntry *types;             /* shared types by spelling (heap hash table) */
    uint32_t types_cap, types_count;
    Type *scalar_types[DT_COUNT]; /* shared scalar types */
    FuncCtx *func;                /* current function, NULL at top level */
    FuncCtx *implicit_main;       /* bare statements' function, once created */
    FuncCtx *all_funcs;           /* every FuncCtx made (linked by next_all), freed by pc_release */
    BlockFrame *frames;           /* open blocks (heap stack); frames[n_frames - 1] = where statements go */
    size_t n_frames, frames_cap;
    PtrVec calls;                 /* func.call ops, checked when the module is complete */
    PtrVec funcs;                 /* Func* in source order */
    OpNameEntry *op_names;        /* hash of op names and assembly mnemonics */
    uint32_t op_names_cap;
    bool depth_reported;
    bool in_recovery;             /* after a syntax error, until a statement starts a line */
    uint32_t recovery_offset;
    bool saw_module, saw_func, saw_bare;
    bool operand_attr_seen;       /* an ins/outs operand had an attribute dictionary (see Item) */
    PtrVec *operand_attr_list;    /* their attributes (Attr*), taken by the next ins/outs item */
    SrcLoc operand_attr_loc;
    bool mixing_reported;
    int syntax_errors;
    PtrVec call_funcs;            /* Func* holding each op of `calls` (its caller) */
    Func *blame_func;             /* while set, errors mark this function as failed (pc_error) instead
                                   * of the current one */
    TypeEntry *bad_types;         /* spellings whose type failed (heap hash table): a later use of the
                                   * same spelling gets the same poisoned type without a new error */
    uint32_t bad_types_cap, bad_types_count;
    uint32_t lex_error_end;       /* offset just past the last lexical error (0: none) */
} ParseCtx;

/* ---- builder entry points used by grammar actions (parser/build.c) ---- */
/* Prepares `ctx` to parse `file` into `arena`. */
void pc_init(ParseCtx *ctx, Arena *arena, const SourceFile *file, DiagList *diags);
/* Frees the parse's temporaries (scratch arena, name and type tables). */
void pc_release(ParseCtx *ctx);

/* The token at `loc` (every token's text is file->text + loc.offset, loc.len bytes). */
static inline Tok pc_tok_at(const ParseCtx *ctx, SrcLoc loc) {
    Tok t = {ctx->file->text + loc.offset, loc.len, loc};
    return t;
}
/* Allocates a zeroed grammar temporary (scratch arena). */
void *pc_temp(ParseCtx *ctx, size_t size);
void pc_finish_file(ParseCtx *ctx);
/* Rule IDs of parse errors (docs/rules.md, "Parse errors"). */
#define PARSE_RULE_TOKEN "PARSE.token"     /* lexical: characters, literals, comments, strings */
#define PARSE_RULE_SYNTAX "PARSE.syntax"   /* grammar: unexpected token */
#define PARSE_RULE_TYPE "PARSE.type"       /* type spellings: unknown type or element type, parameters */
#define PARSE_RULE_LITERAL "PARSE.literal" /* numeric literals out of range */
#define PARSE_RULE_OP "PARSE.op"           /* op structure: name, operands, keywords, attributes, signature, results */
#define PARSE_RULE_VALUE "PARSE.value"     /* value names: undefined, redefined, used before definition, not visible */
#define PARSE_RULE_REGION "PARSE.region"   /* regions and terminators: scf.yield, scf.condition, ops after a terminator */
#define PARSE_RULE_FUNC "PARSE.func"       /* module and functions: return, calls, entry, symbols */
#define PARSE_RULE_LIMIT "PARSE.limit"     /* input limits: file size, nesting, functions, result groups */
/* Reports an error of rule PARSE_RULE_OP (most structural checks); marks the function it is in as
 * failed (Func.parse_failed: the verifier skips it). */
void pc_error(ParseCtx *ctx, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* pc_error with another rule ID (PARSE_RULE_*). */
void pc_error_rule(ParseCtx *ctx, const char *rule, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Attaches a note / fix-it to the error reported last (diag_add_note, diag_add_fixit). */
#define pc_note(ctx, loc, ...) diag_add_note((ctx)->diags, (loc), __VA_ARGS__)
#define pc_fixit(ctx, loc, text) diag_add_fixit((ctx)->diags, (loc), (text))
void pc_syntax_error_seen(ParseCtx *ctx, SrcLoc loc);

PtrVec *pc_list(ParseCtx *ctx);
PtrVec *pc_list1(ParseCtx *ctx, void *item);
PtrVec *pc_push(ParseCtx *ctx, PtrVec *list, void *item);
Tok *pc_tok(ParseCtx *ctx, Tok tok);

Operand *pc_operand_value(ParseCtx *ctx, Tok tok);
Operand *pc_operand_int(ParseCtx *ctx, Tok tok);
Operand *pc_operand_float(ParseCtx *ctx, Tok tok);
Operand *pc_operand_bool(ParseCtx *ctx, Tok tok, bool value);

Item *pc_item(ParseCtx *ctx, ItemKind kind, SrcLoc loc);
void pc_operand_attrs_seen(ParseCtx *ctx, SrcLoc loc, PtrVec *attrs);
void pc_take_operand_attrs(ParseCtx *ctx, Item *item);
Attr *pc_attr(ParseCtx *ctx, AttrKind kind, const char *key, Tok value, SrcLoc loc);
Attr *pc_attr_raw(ParseCtx *ctx, const char *key, SrcLoc span);
Attr *pc_attr_typed(ParseCtx *ctx, Attr *attr, const TypeUse *type);
AttrList pc_attr_list(ParseCtx *ctx, PtrVec *attrs);
char *pc_key_text(ParseCtx *ctx, Tok tok, bool quoted);

ResultDefs *pc_defs(ParseCtx *ctx, Tok first);
ResultDefs *pc_defs_group(ParseCtx *ctx, Tok group);
void pc_poison_defs(ParseCtx *ctx, ResultDefs *defs);

Signature *pc_sig(ParseCtx *ctx, PtrVec *inputs, PtrVec *results, bool arrow, bool to, SrcLoc loc);
OpDraft *pc_draft(ParseCtx *ctx, Tok name, PtrVec *items, Signature *sig, Block *region, SrcLoc loc);
/* The generic operation form `"NAME"(operands) <{props}> {attrs} : (in_types) -> (result_types)`
 * as a draft of the op's own form: a DPS op's operands become ins(...)/outs(...) (PTOAS's operand
 * order), other ops' operands positional operands; props and attrs one attribute dictionary. */
OpDraft *pc_generic_form(ParseCtx *ctx, Tok name, PtrVec *operands, PtrVec *props, PtrVec *attrs, PtrVec *in_types,
                         PtrVec *result_types, SrcLoc loc);
/* `a` followed by the items of `b` (a new list when `b` is not empty). */
PtrVec *pc_concat(ParseCtx *ctx, PtrVec *a, PtrVec *b);

void pc_module_begin(ParseCtx *ctx, SrcLoc loc, PtrVec *attrs);
void pc_module_end(ParseCtx *ctx);
Func *pc_func_begin(ParseCtx *ctx, bool is_private, Tok name, PtrVec *args, PtrVec *results, PtrVec *attrs);
/* Ends a function; `close` is its body's closing '}' (for the missing-return fix-it). */
void pc_func_end(ParseCtx *ctx, Func *func, bool has_body, SrcLoc close);

Block *pc_region_open(ParseCtx *ctx, SrcLoc loc);
Block *pc_region_close(ParseCtx *ctx, Block *block);
/* Error recovery dropped a construct whose region(s) were open: closes them (no-op if already closed). */
void pc_abandon_block(ParseCtx *ctx, Block *block);
void pc_abandon_op(ParseCtx *ctx, Op *op);
void pc_abandon_func(ParseCtx *ctx, Func *func);

void pc_generic_stmt(ParseCtx *ctx, ResultDefs *defs, OpDraft *draft);
void pc_control_stmt(ParseCtx *ctx, ResultDefs *defs, Op *op, SrcLoc loc);

Op *pc_for_begin(ParseCtx *ctx, Tok iv, Operand *lb, Operand *ub, Operand *step, PtrVec *inits, PtrVec *iter_types,
                 TypeUse *iv_type, SrcLoc loc);
Op *pc_for_end(ParseCtx *ctx, Op *op);
Op *pc_if_begin(ParseCtx *ctx, Operand *cond, PtrVec *result_types, SrcLoc loc);
void pc_then_end(ParseCtx *ctx, Op *op);
void pc_else_begin(ParseCtx *ctx, Op *op, SrcLoc loc);
Op *pc_if_end(ParseCtx *ctx, Op *op, bool has_else);
Op *pc_while_begin(ParseCtx *ctx, PtrVec *inits, PtrVec *init_types, PtrVec *result_types, SrcLoc loc);
void pc_while_do(ParseCtx *ctx, Op *op, SrcLoc loc);
Op *pc_while_end(ParseCtx *ctx, Op *op);
void pc_block_args(ParseCtx *ctx, PtrVec *args);
Op *pc_call(ParseCtx *ctx, Tok callee, PtrVec *args, Signature *sig, SrcLoc loc);
void pc_return(ParseCtx *ctx, Tok kw, PtrVec *values, PtrVec *types, SrcLoc loc);
void pc_condition(ParseCtx *ctx, Tok kw, Operand *cond, PtrVec *values, PtrVec *types, SrcLoc loc);

/* ---- types (parser/type_parse.c) ---- */
/* Builds (or finds the shared) type from its name token and `<...>` parameters (params NULL when
 * there is no `<`); returns the use at `span`. */
TypeUse *pc_type(ParseCtx *ctx, Tok name, PtrVec *params, SrcLoc span);
/* A use at `span` of a type already known by its spelling (the lexer's shortcut, T_TYPE_READY). */
TypeUse *pc_type_use(ParseCtx *ctx, Type *type, SrcLoc span);
/* The type name token `name` (TK_TYPE_NAME) starts a `<...>` spelling that this parse has already
 * turned into a type without error: returns that type, moves the lexer past the spelling and
 * widens *span to it. NULL (nothing changed) otherwise. */
Type *pc_known_type(ParseCtx *ctx, const Token *name, SrcLoc *span);
/* The shared scalar type of `dt`. */
Type *pc_scalar_type(ParseCtx *ctx, DType dt);
/* Frees the type tables. */
void pc_types_release(ParseCtx *ctx);
/* A type name token `name` starts a `<...>` spelling that failed before in this parse: returns its
 * poisoned type (TY_INVALID), moves the lexer past the spelling and widens *span; NULL otherwise. */
Type *pc_known_bad_type(ParseCtx *ctx, const Token *name, SrcLoc *span);
/* Parses a decimal or 0x integer token; false (with a diagnostic) when out of the int64 range. */
bool pc_parse_int(ParseCtx *ctx, Tok tok, int64_t *out, bool *hex);

/* The Bison parser (generated from parser.y). */
int pto_yyparse(ParseCtx *ctx);

#endif
