/* parser.y - Bison grammar of the .pto text format (SPEC 1).
 *
 * The grammar is generic: an op statement is
 *     [results =] OPNAME items [attr-dict] [: signature] [region]
 * and the op table (ir/ops.def) decides what the items mean (parser/build.c). Only the language
 * structure has dedicated rules: module, func.func, scf.for, scf.if, scf.while, scf.condition,
 * func.call and return. The grammar is LALR(1) without conflicts thanks to a few lexer
 * classifications (see lexer.h: TK_VALUE_DEF, TK_KEY, TK_BARE_KW); Bison builds canonical LR(1)
 * tables for it (exact expected-token lists, see below).
 *
 * Speed: the parser costs about as much per reduction as per token, so the hot lists (operands,
 * items, types) take their common elements directly instead of through chain rules, and a type
 * spelling already parsed in this file arrives as one token (T_TYPE_READY). Such rewrites keep the
 * language, hence every message: with these tables the expected tokens depend only on the text
 * read so far.
 *
 * Error recovery: a syntax error skips to the next statement (`stmts: stmts error`); the builder
 * drops statements that do not start a line until the parser is back in step, so one file reports
 * several syntax errors without cascades. */

%code requires {
#include "parse_internal.h"
}

%code {
#include <stdio.h>
#include <string.h>

static int pto_yylex(PTO_YYSTYPE *lval, SrcLoc *lloc, ParseCtx *ctx);
static void pto_yyerror(SrcLoc *lloc, ParseCtx *ctx, const char *msg);

/* Tokens carry no semantic value: their text and location are the location (@N). */
#define TOK(loc) pc_tok_at(ctx, (loc))

/* Locations are SrcLoc: a rule spans from its first to the end of its last symbol; an empty rule
 * is a point after the symbol before it. Written field by field: this runs at every reduction. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                                            \
    do {                                                                                       \
        if (N) {                                                                               \
            const SrcLoc *first_ = &YYRHSLOC(Rhs, 1), *last_ = &YYRHSLOC(Rhs, N);              \
            uint32_t end_ = last_->offset + last_->len;                                        \
            (Cur).line = first_->line;                                                         \
            (Cur).col = first_->col;                                                           \
            (Cur).offset = first_->offset;                                                     \
            (Cur).len = end_ >= first_->offset ? end_ - first_->offset : 0;                    \
        } else {                                                                               \
            const SrcLoc *prev_ = &YYRHSLOC(Rhs, 0);                                           \
            (Cur).line = prev_->line;                                                          \
            (Cur).col = prev_->col + prev_->len;                                               \
            (Cur).offset = prev_->offset + prev_->len;                                         \
            (Cur).len = 0;                                                                     \
        }                                                                                      \
    } while (0)
}

%define api.prefix {pto_yy}
%define api.pure full
%define api.location.type {SrcLoc}
%define parse.error custom
/* Exact expected-token lists without LAC's per-token simulation: canonical LR(1) tables act on a
 * token only where it can really follow, and default reductions happen only in consistent states
 * (one reduction, no shift), which do not depend on the token; so an error is detected in the
 * state where the token was read, whose actions are exactly the tokens that may come next. */
%define lr.type canonical-lr
%define lr.default-reduction consistent
%locations
%param {ParseCtx *ctx}

%union {
    bool flag;
    Type *known;
    Operand *operand;
    PtrVec *list;
    Item *item;
    TypeUse *type;
    TParam *tparam;
    Signature *sig;
    Attr *attr;
    OpDraft *draft;
    Op *op;
    ResultDefs *defs;
    Block *block;
    Func *func;
    InitPair *init;
    ArgDecl *arg;
}

%token T_VALUE "value" T_VALUE_DEF "value definition" T_VALUE_GROUP "result group" T_VALUE_INDEX "indexed value"
%token T_SYMBOL "symbol" T_CARET "block label" T_TYPE_NAME "type name" T_ATTR "attribute"
%token T_BARE_ID "identifier" T_BARE_KW "keyword" T_KEY "key"
%token T_INT "integer" T_FLOAT "float" T_SHAPE "shape" T_STRING "string"
%token T_TRUE "'true'" T_FALSE "'false'" T_MODULE "'module'" T_FUNC "'func.func'"
%token T_ATTRIBUTES "'attributes'" T_PRIVATE "'private'" T_INS "'ins'" T_OUTS "'outs'"
%token T_TO "'to'" T_STEP "'step'" T_ITER_ARGS "'iter_args'" T_ELSE "'else'" T_DO "'do'"
%token T_SCF_FOR "'scf.for'" T_SCF_IF "'scf.if'" T_SCF_WHILE "'scf.while'"
%token T_SCF_CONDITION "'scf.condition'" T_CALL "'func.call'" T_RETURN "'return'"
%token T_ARROW "'->'" T_LBRACE_DICT "'{'"
/* A whole `!name<...>` spelling this parse has already turned into a type without error (the
 * lexer's shortcut, pc_known_type): it stands for T_TYPE_NAME '<' ... '>' and is never named in
 * messages (yyreport_syntax_error). */
%token <known> T_TYPE_READY "known type"

%type <flag> private_opt
%type <operand> operand lit_operand init_operand dps_operand_attrs
%type <list> named_operands operands operands_opt dps_operands dps_operands_opt item_list func_args func_args_opt func_results_opt func_attrs_opt
%type <list> type_list type_list_opt sig_results sig_inputs tparams tparams_opt attr_entries attr_dict
%type <list> attr_elems attr_elems_opt angle_elems attr_values attr_values_opt module_attrs_opt
%type <list> inits inits_opt iter_args_opt if_results_opt block_args block_args_opt
%type <item> named_operand first_item plain_item group_nodict dps_group ins_types
%type <type> type base_type nested_type attr_nested_type for_iv_type_opt
%type <tparam> tparam tvalue
%type <sig> sig
%type <attr> attr_entry attr_value attr_elem angle_elem
%type <draft> generic_op generic_form
%type <list> generic_props_opt generic_attrs_opt
%type <op> for_head for_stmt if_head if_then if_stmt while_head while_stmt call_stmt
%type <defs> result_defs result_group def_names
%type <block> region region_open
%type <func> func_head
%type <init> init
%type <arg> func_arg block_arg

/* A result list lost in a syntax error still defines its names (as poisoned values), so that
 * later uses do not cascade into "undefined value" errors. */
%destructor { pc_poison_defs(ctx, $$); } <defs>
/* A construct abandoned by error recovery closes the regions it opened. */
%destructor { pc_abandon_block(ctx, $$); } <block>
%destructor { pc_abandon_op(ctx, $$); } <op>
%destructor { pc_abandon_func(ctx, $$); } <func>

%start file

%%

file
    : top_list                              { pc_finish_file(ctx); }
    ;

top_list
    : %empty
    | top_list top_item
    | top_list error
    ;

top_item
    : module_def
    | func_def
    | stmt
    ;

/* ---- module and functions ------------------------------------------------------------------ */

module_def
    : module_head '{' module_body '}'       { pc_module_end(ctx); }
    ;

module_head
    : T_MODULE module_attrs_opt             { pc_module_begin(ctx, @1, $2); }
    | T_MODULE T_SYMBOL module_attrs_opt    { pc_module_begin(ctx, @1, $3); }
    ;

module_attrs_opt
    : %empty                                { $$ = NULL; }
    | T_ATTRIBUTES attr_dict                { $$ = $2; }
    ;

module_body
    : %empty
    | module_body func_def
    | module_body error
    ;

func_def
    : func_head                             { pc_func_end(ctx, $1, false, @1); }
    | func_head '{' stmts '}'               { pc_func_end(ctx, $1, true, @4); }
    ;

func_head
    : T_FUNC private_opt T_SYMBOL '(' func_args_opt ')' func_results_opt func_attrs_opt
                                            { $$ = pc_func_begin(ctx, $2, TOK(@3), $5, $7, $8); }
    ;

private_opt
    : %empty                                { $$ = false; }
    | T_PRIVATE                             { $$ = true; }
    ;

func_args_opt
    : %empty                                { $$ = pc_list(ctx); }
    | func_args
    ;

func_args
    : func_arg                              { $$ = pc_list1(ctx, $1); }
    | func_args ',' func_arg                { $$ = pc_push(ctx, $1, $3); }
    ;

func_arg
    : T_VALUE ':' type                      { $$ = pc_temp(ctx, sizeof *$$); $$->name = TOK(@1); $$->type = $3; }
    | T_VALUE ':' type attr_dict            { $$ = pc_temp(ctx, sizeof *$$); $$->name = TOK(@1); $$->type = $3; $$->attrs = $4; }
    ;

func_results_opt
    : %empty                                { $$ = pc_list(ctx); }
    | T_ARROW type                          { $$ = pc_list1(ctx, $2); }
    | T_ARROW '(' type_list_opt ')'         { $$ = $3; }
    ;

func_attrs_opt
    : %empty                                { $$ = NULL; }
    | T_ATTRIBUTES attr_dict                { $$ = $2; }
    ;

/* ---- statements ------------------------------------------------------------------------------ */

stmts
    : %empty
    | stmts stmt
    | stmts error
    ;

/* After a syntax error, the first complete statement that starts a line ends the recovery
 * (pc_* clear ctx->in_recovery); from then on the next syntax error is reported at once. */
stmt
    : generic_op                            { pc_generic_stmt(ctx, NULL, $1); if (!ctx->in_recovery) yyerrok; }
    | result_defs generic_op                { pc_generic_stmt(ctx, $1, $2); if (!ctx->in_recovery) yyerrok; }
    | for_stmt                              { pc_control_stmt(ctx, NULL, $1, @1); if (!ctx->in_recovery) yyerrok; }
    | result_defs for_stmt                  { pc_control_stmt(ctx, $1, $2, @2); if (!ctx->in_recovery) yyerrok; }
    | if_stmt                               { pc_control_stmt(ctx, NULL, $1, @1); if (!ctx->in_recovery) yyerrok; }
    | result_defs if_stmt                   { pc_control_stmt(ctx, $1, $2, @2); if (!ctx->in_recovery) yyerrok; }
    | while_stmt                            { pc_control_stmt(ctx, NULL, $1, @1); if (!ctx->in_recovery) yyerrok; }
    | result_defs while_stmt                { pc_control_stmt(ctx, $1, $2, @2); if (!ctx->in_recovery) yyerrok; }
    | generic_form                          { pc_generic_stmt(ctx, NULL, $1); if (!ctx->in_recovery) yyerrok; }
    | result_defs generic_form              { pc_generic_stmt(ctx, $1, $2); if (!ctx->in_recovery) yyerrok; }
    | call_stmt                             { pc_control_stmt(ctx, NULL, $1, @1); if (!ctx->in_recovery) yyerrok; }
    | result_defs call_stmt                 { pc_control_stmt(ctx, $1, $2, @2); if (!ctx->in_recovery) yyerrok; }
    | T_RETURN                              { pc_return(ctx, TOK(@1), NULL, NULL, @$); if (!ctx->in_recovery) yyerrok; }
    | T_RETURN operands ':' type_list       { pc_return(ctx, TOK(@1), $2, $4, @$); if (!ctx->in_recovery) yyerrok; }
    | T_SCF_CONDITION '(' operand ')'       { pc_condition(ctx, TOK(@1), $3, NULL, NULL, @$); if (!ctx->in_recovery) yyerrok; }
    | T_SCF_CONDITION '(' operand ')' operands ':' type_list
                                            { pc_condition(ctx, TOK(@1), $3, $5, $7, @$); if (!ctx->in_recovery) yyerrok; }
    ;

/* `%a, %b =` or `%r:N =` before an op */
result_defs
    : result_group '='                      { $$ = $1; }
    | def_names '='                         { $$ = $1; }
    ;

result_group
    : T_VALUE_GROUP                         { $$ = pc_defs_group(ctx, TOK(@1)); }
    ;

def_names
    : T_VALUE_DEF                           { $$ = pc_defs(ctx, TOK(@1)); }
    | def_names ',' T_VALUE_DEF             { $$ = $1; ptrvec_push(ctx->scratch, &$$->names, pc_tok(ctx, TOK(@3))); $$->loc = @$; }
    ;

generic_op
    : T_BARE_ID                             { $$ = pc_draft(ctx, TOK(@1), NULL, NULL, NULL, @$); }
    | T_BARE_ID region                      { $$ = pc_draft(ctx, TOK(@1), NULL, NULL, $2, @$); }
    | T_BARE_ID item_list                   { $$ = pc_draft(ctx, TOK(@1), $2, NULL, NULL, @$); }
    | T_BARE_ID ':' sig                     { $$ = pc_draft(ctx, TOK(@1), NULL, $3, NULL, @$); }
    | T_BARE_ID ':' sig region              { $$ = pc_draft(ctx, TOK(@1), NULL, $3, $4, @$); }
    | T_BARE_ID item_list ':' sig           { $$ = pc_draft(ctx, TOK(@1), $2, $4, NULL, @$); }
    | T_BARE_ID item_list ':' sig region    { $$ = pc_draft(ctx, TOK(@1), $2, $4, $5, @$); }
    | T_BARE_ID T_ARROW sig_results         { $$ = pc_draft(ctx, TOK(@1), NULL, pc_sig(ctx, NULL, $3, true, false, @2), NULL, @$); }
    | T_BARE_ID T_ARROW sig_results region
                                            { $$ = pc_draft(ctx, TOK(@1), NULL, pc_sig(ctx, NULL, $3, true, false, @2), $4, @$); }
    | T_BARE_ID item_list T_ARROW sig_results
                                            { $$ = pc_draft(ctx, TOK(@1), $2, pc_sig(ctx, NULL, $4, true, false, @3), NULL, @$); }
    | T_BARE_ID item_list T_ARROW sig_results region
                                            { $$ = pc_draft(ctx, TOK(@1), $2, pc_sig(ctx, NULL, $4, true, false, @3), $5, @$); }
    ;

region
    : region_open stmts '}'                 { $$ = pc_region_close(ctx, $1); }
    ;

/* MLIR's generic operation form: `"pto.tadd"(%a, %b, %d) <{props}> {attrs} : (A, B, D) -> ()`
 * (pc_generic_form turns it into the op's own form) */
generic_form
    : T_STRING '(' operands_opt ')' generic_props_opt generic_attrs_opt ':' '(' type_list_opt ')' T_ARROW sig_results
                                            { $$ = pc_generic_form(ctx, TOK(@1), $3, $5, $6, $9, $12, @$); }
    ;

generic_props_opt
    : %empty                                { $$ = NULL; }
    | '<' attr_dict '>'                     { $$ = $2; }
    ;

generic_attrs_opt
    : %empty                                { $$ = NULL; }
    | attr_dict
    ;

region_open
    : '{'                                   { $$ = pc_region_open(ctx, @1); }
    ;

/* ---- op items ------------------------------------------------------------------------------- */

/* The common items (plain_item, group_nodict, dps_group) go straight into the list, without
 * chain rules: every reduction costs as much as a token. */
item_list
    : plain_item                            { $$ = pc_list1(ctx, $1); }
    | group_nodict                          { $$ = pc_list1(ctx, $1); }
    | dps_group                             { $$ = pc_list1(ctx, $1); }
    | first_item                            { $$ = pc_list1(ctx, $1); }
    | item_list ',' plain_item              { $$ = pc_push(ctx, $1, $3); }
    | item_list ',' group_nodict            { $$ = pc_push(ctx, $1, $3); }
    | item_list ',' dps_group               { $$ = pc_push(ctx, $1, $3); }
    | item_list group_nodict                { $$ = pc_push(ctx, $1, $2); }
    | item_list dps_group                   { $$ = pc_push(ctx, $1, $2); }
    | item_list attr_dict                   { Item *it = pc_item(ctx, IT_ATTR_DICT, @2); it->attrs = $2; $$ = pc_push(ctx, $1, it); }
    ;

/* the items that may only come first */
first_item
    : T_LBRACE_DICT attr_entries '}'        { $$ = pc_item(ctx, IT_ATTR_DICT, @$); $$->attrs = $2; }
    | '(' operands_opt ')'                  { $$ = pc_item(ctx, IT_PAREN, @$); $$->operands = $2; }
    | '(' operands ':' type_list ')'        { $$ = pc_item(ctx, IT_PAREN, @$); $$->operands = $2; $$->types = $4; }
    | T_LBRACE_DICT attr_entries '}' '(' operands_opt ')'
                                            { $$ = pc_item(ctx, IT_PAREN, @4); $$->operands = $5; $$->attrs = $2; }
    | T_LBRACE_DICT attr_entries '}' '(' operands ':' ins_types ')'
                                            { /* `{...}(%a, %b : A, B)`, or each typed in place as PTOAS's
                                               * initialize_l2g2l_pipe writes them: `{...}(%gm : G, %buf : i32)` */
                                              $$ = pc_item(ctx, IT_PAREN, @4); $$->operands = pc_concat(ctx, $5, $7->operands);
                                              $$->types = $7->types; $$->attrs = $2; }
    | T_LBRACE_DICT attr_entries '}' '(' named_operands ')'
                                            { $$ = pc_item(ctx, IT_PAREN, @4); $$->operands = $5; $$->named = true; $$->attrs = $2; }
    ;

/* `key = %v : T` pairs in parentheses (PTOAS's aic_initialize_pipe): IT_KEYWORD items, typed */
named_operands
    : named_operand                         { $$ = pc_list1(ctx, $1); }
    | named_operands ',' named_operand      { $$ = pc_push(ctx, $1, $3); }
    ;

named_operand
    : T_KEY '=' operand ':' type            { $$ = pc_item(ctx, IT_KEYWORD, @1); $$->tok = TOK(@1); $$->operand = $3;
                                              $$->operand->type = $5->type; $$->operand->type_loc = $5->loc; }
    ;

plain_item
    : T_VALUE                               { $$ = pc_item(ctx, IT_OPERAND, @1); $$->operand = pc_operand_value(ctx, TOK(@1)); }
    | lit_operand                           { $$ = pc_item(ctx, IT_OPERAND, @1); $$->operand = $1; }
    | T_SYMBOL                              { $$ = pc_item(ctx, IT_SYMBOL, @1); $$->tok = TOK(@1); }
    | T_SYMBOL '(' operands_opt ')'         { $$ = pc_item(ctx, IT_SYMBOL_CALL, @$); $$->tok = TOK(@1); $$->operands = $3; }
    | T_BARE_KW                             { $$ = pc_item(ctx, IT_BAREWORD, @1); $$->tok = TOK(@1); }
    | T_VALUE_INDEX '[' operands_opt ']'    { $$ = pc_item(ctx, IT_INDEXED, @$); $$->tok = TOK(@1); $$->operands = $3; }
    | T_ATTR                                { $$ = pc_item(ctx, IT_ATTR_VALUE, @1); $$->tok = TOK(@1); }
    ;

group_nodict
    : T_KEY '=' operand                     { $$ = pc_item(ctx, IT_KEYWORD, @1); $$->tok = TOK(@1); $$->operand = $3; }
    | T_KEY '=' '[' ']'                     { $$ = pc_item(ctx, IT_KEYWORD_LIST, @1); $$->tok = TOK(@1); $$->operands = pc_list(ctx); }
    | T_KEY '=' '[' operands ']'            { $$ = pc_item(ctx, IT_KEYWORD_LIST, @1); $$->tok = TOK(@1); $$->operands = $4; }
    | T_KEY '=' T_ATTR                      { $$ = pc_item(ctx, IT_KEYWORD_ATTR, @1); $$->tok = TOK(@1);
                                              $$->attr = pc_attr(ctx, ATTR_RAW, pc_key_text(ctx, TOK(@1), false), TOK(@3), @3); }
    | '[' attr_elems_opt ']'                { $$ = pc_item(ctx, IT_ATTR_ARGS, @$); $$->attrs = $2; }
    /* `sizes [16, 8]` (the lexer makes `sizes` before `[` a key): an attribute written as a keyword */
    | T_KEY '[' attr_values_opt ']'         { SrcLoc list = @2; list.len = @4.offset + @4.len - @2.offset;
                                              $$ = pc_item(ctx, IT_ATTR_KEYWORD, @$); $$->tok = TOK(@1);
                                              $$->attr = pc_attr_raw(ctx, pc_key_text(ctx, TOK(@1), false), list); }
    | '<' angle_elems '>'                   { $$ = pc_item(ctx, IT_ANGLE, @$);
                                              $$->attrs = pc_list1(ctx, pc_attr_raw(ctx, NULL, @$)); }
    ;

/* ins(...) / outs(...); an operand may carry its own attribute dictionary (PTOAS tcvt rmode) */
dps_group
    : T_INS '(' dps_operands_opt ')'        { $$ = pc_item(ctx, IT_INS, @1); $$->operands = $3; $$->types = pc_list(ctx); pc_take_operand_attrs(ctx, $$); }
    | T_INS '(' dps_operands ':' ins_types ')'
                                            { $$ = pc_item(ctx, IT_INS, @1); $$->operands = pc_concat(ctx, $3, $5->operands); $$->types = $5->types; pc_take_operand_attrs(ctx, $$); }
    /* a string literal first, `ins("x = %f", %v : f32)` (pto.print's format: rows with OPF_STRING_IN_INS) */
    | T_INS '(' T_STRING ',' dps_operands ')'
                                            { $$ = pc_item(ctx, IT_INS, @1); $$->operands = $5; $$->types = pc_list(ctx);
                                              $$->attr = pc_attr(ctx, ATTR_STRING, NULL, TOK(@3), @3); pc_take_operand_attrs(ctx, $$); }
    | T_INS '(' T_STRING ',' dps_operands ':' ins_types ')'
                                            { $$ = pc_item(ctx, IT_INS, @1); $$->operands = pc_concat(ctx, $5, $7->operands); $$->types = $7->types;
                                              $$->attr = pc_attr(ctx, ATTR_STRING, NULL, TOK(@3), @3); pc_take_operand_attrs(ctx, $$); }
    | T_OUTS                                { $$ = pc_item(ctx, IT_OUTS, @1); $$->operands = pc_list(ctx); $$->types = pc_list(ctx); } /* PTOAS tgetval `outs : T` */
    | T_OUTS '(' dps_operands_opt ')'       { $$ = pc_item(ctx, IT_OUTS, @1); $$->operands = $3; $$->types = pc_list(ctx); pc_take_operand_attrs(ctx, $$); }
    | T_OUTS '(' dps_operands ':' type_list ')'
                                            { $$ = pc_item(ctx, IT_OUTS, @1); $$->operands = $3; $$->types = $5; pc_take_operand_attrs(ctx, $$); }
    ;

/* the types of ins(...), where PTOAS may add `%v : T` pairs after them: `ins(%acc : T, %pre : i64)` */
ins_types
    : type                                  { $$ = pc_item(ctx, IT_INS, @$); $$->types = pc_list1(ctx, $1); $$->operands = pc_list(ctx); }
    | ins_types ',' type                    { $$ = $1; pc_push(ctx, $$->types, $3); }
    | ins_types ',' T_VALUE ':' type        { $$ = $1; pc_push(ctx, $$->operands, pc_operand_value(ctx, TOK(@3))); pc_push(ctx, $$->types, $5); }
    ;

dps_operands_opt
    : %empty                                { $$ = pc_list(ctx); }
    | dps_operands
    ;

dps_operands
    : T_VALUE                               { $$ = pc_list1(ctx, pc_operand_value(ctx, TOK(@1))); }
    | lit_operand                           { $$ = pc_list1(ctx, $1); }
    | dps_operand_attrs                     { $$ = pc_list1(ctx, $1); }
    | dps_operands ',' T_VALUE              { $$ = pc_push(ctx, $1, pc_operand_value(ctx, TOK(@3))); }
    | dps_operands ',' lit_operand          { $$ = pc_push(ctx, $1, $3); }
    | dps_operands ',' dps_operand_attrs    { $$ = pc_push(ctx, $1, $3); }
    | dps_operands ',' attr_dict            { $$ = $1; pc_operand_attrs_seen(ctx, @3, $3); } /* PTOAS tgather `ins(%s, {maskPattern = ...} : T)` */
    ;

dps_operand_attrs
    : operand attr_dict                     { $$ = $1; pc_operand_attrs_seen(ctx, @2, $2); }
    ;

operands_opt
    : %empty                                { $$ = pc_list(ctx); }
    | operands
    ;

operands
    : T_VALUE                               { $$ = pc_list1(ctx, pc_operand_value(ctx, TOK(@1))); }
    | lit_operand                           { $$ = pc_list1(ctx, $1); }
    | operands ',' T_VALUE                  { $$ = pc_push(ctx, $1, pc_operand_value(ctx, TOK(@3))); }
    | operands ',' lit_operand              { $$ = pc_push(ctx, $1, $3); }
    ;

operand
    : T_VALUE                               { $$ = pc_operand_value(ctx, TOK(@1)); }
    | lit_operand
    ;

lit_operand
    : T_INT                                 { $$ = pc_operand_int(ctx, TOK(@1)); }
    | T_FLOAT                               { $$ = pc_operand_float(ctx, TOK(@1)); }
    | T_TRUE                                { $$ = pc_operand_bool(ctx, TOK(@1), true); }
    | T_FALSE                               { $$ = pc_operand_bool(ctx, TOK(@1), false); }
    ;

attr_elems_opt
    : %empty                                { $$ = pc_list(ctx); }
    | attr_elems
    ;

attr_elems
    : attr_elem                             { $$ = pc_list1(ctx, $1); }
    | attr_elems ',' attr_elem              { $$ = pc_push(ctx, $1, $3); }
    ;

attr_elem
    : '<' angle_elems '>'                   { $$ = pc_attr_raw(ctx, NULL, @$); }
    | T_ATTR                                { $$ = pc_attr_raw(ctx, NULL, @$); }
    | T_BARE_ID                             { $$ = pc_attr_raw(ctx, NULL, @$); }
    | T_BARE_KW                             { $$ = pc_attr_raw(ctx, NULL, @$); }
    | T_INT                                 { $$ = pc_attr_raw(ctx, NULL, @$); }
    | T_STRING                              { $$ = pc_attr_raw(ctx, NULL, @$); }
    | T_VALUE                               { $$ = pc_attr_raw(ctx, NULL, @$); } /* set_flag_dyn's event id */
    ;

angle_elems
    : angle_elem                            { $$ = pc_list1(ctx, $1); }
    | angle_elems ',' angle_elem            { $$ = pc_push(ctx, $1, $3); }
    ;

angle_elem
    : T_BARE_ID                             { $$ = NULL; }
    | T_BARE_KW                             { $$ = NULL; }
    | T_INT                                 { $$ = NULL; }
    ;

/* ---- signatures and types ------------------------------------------------------------------- */

sig
    : sig_inputs                            { $$ = pc_sig(ctx, $1, NULL, false, false, @$); }
    | sig_inputs T_ARROW sig_results        { $$ = pc_sig(ctx, $1, $3, true, false, @$); }
    | type T_TO type                        { $$ = pc_sig(ctx, pc_list1(ctx, $1), pc_list1(ctx, $3), false, true, @$); }
    ;

sig_inputs
    : type_list
    | '(' type_list_opt ')'                 { $$ = $2; }
    ;

sig_results
    : type                                  { $$ = pc_list1(ctx, $1); }
    | '(' type_list_opt ')'                 { $$ = $2; }
    ;

type_list_opt
    : %empty                                { $$ = pc_list(ctx); }
    | type_list
    ;

/* T_TYPE_READY (the commonest type) goes straight into lists */
type_list
    : base_type                             { $$ = pc_list1(ctx, $1); }
    | T_TYPE_READY                          { $$ = pc_list1(ctx, pc_type_use(ctx, $1, @1)); }
    | type_list ',' base_type               { $$ = pc_push(ctx, $1, $3); }
    | type_list ',' T_TYPE_READY            { $$ = pc_push(ctx, $1, pc_type_use(ctx, $3, @3)); }
    ;

type
    : base_type
    | T_TYPE_READY                          { $$ = pc_type_use(ctx, $1, @1); }
    ;

base_type
    : T_BARE_ID                             { $$ = pc_type(ctx, TOK(@1), NULL, @$); }
    | T_BARE_KW                             { $$ = pc_type(ctx, TOK(@1), NULL, @$); }
    | nested_type
    ;

nested_type
    : T_TYPE_NAME                           { $$ = pc_type(ctx, TOK(@1), NULL, @$); }
    | T_TYPE_NAME '<' tparams_opt '>'       { $$ = pc_type(ctx, TOK(@1), $3, @$); }
    | T_BARE_ID '<' tparams_opt '>'         { $$ = pc_type(ctx, TOK(@1), $3, @$); }
    /* PTOAS prints pto.addptr's pointer types without their prefix: `: <f32> -> <f32>` */
    | '<' tparams_opt '>'                   { $$ = pc_type(ctx, (Tok){"!pto.ptr", 8, @1}, $2, @$); }
    ;

/* nested_type without the `<f32>` pointer shorthand (an attribute value `<vec>` is an enum) */
attr_nested_type
    : T_TYPE_NAME                           { $$ = pc_type(ctx, TOK(@1), NULL, @$); }
    | T_TYPE_NAME '<' tparams_opt '>'       { $$ = pc_type(ctx, TOK(@1), $3, @$); }
    | T_BARE_ID '<' tparams_opt '>'         { $$ = pc_type(ctx, TOK(@1), $3, @$); }
    ;

tparams_opt
    : %empty                                { $$ = pc_list(ctx); }
    | tparams
    ;

tparams
    : tparam                                { $$ = pc_list1(ctx, $1); }
    | tparams ',' tparam                    { $$ = pc_push(ctx, $1, $3); }
    ;

tparam
    : T_KEY '=' tvalue                      { $$ = $3; $$->keyed = true; $$->key = TOK(@1); $$->loc = @$; }
    | tvalue
    ;

tvalue
    : T_BARE_ID        { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_IDENT; $$->value = TOK(@1); $$->loc = @$; }
    | T_BARE_KW        { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_IDENT; $$->value = TOK(@1); $$->loc = @$; }
    | T_INT            { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_INT; $$->value = TOK(@1); $$->loc = @$; }
    | T_FLOAT          { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_FLOAT; $$->value = TOK(@1); $$->loc = @$; }
    | T_SHAPE          { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_SHAPE; $$->value = TOK(@1); $$->loc = @$; }
    | '?'              { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_QUESTION; $$->value = TOK(@1); $$->loc = @$; }
    | T_STRING         { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_STRING; $$->value = TOK(@1); $$->loc = @$; }
    | T_ATTR           { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_ATTR; $$->value = TOK(@1); $$->loc = @$; }
    | nested_type      { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_TYPE; $$->type = $1->type; $$->loc = @$; }
    | T_TYPE_READY     { $$ = pc_temp(ctx, sizeof *$$); $$->kind = TP_TYPE; $$->type = $1; $$->loc = @$; }
    ;

/* ---- attribute dictionaries ----------------------------------------------------------------- */

attr_dict
    : '{' '}'                               { $$ = pc_list(ctx); }
    | '{' attr_entries '}'                  { $$ = $2; }
    | T_LBRACE_DICT attr_entries '}'        { $$ = $2; }
    ;

attr_entries
    : attr_entry                            { $$ = pc_list1(ctx, $1); }
    | attr_entries ',' attr_entry           { $$ = pc_push(ctx, $1, $3); }
    ;

attr_entry
    : T_KEY '=' attr_value                  { $$ = $3; $$->key = pc_key_text(ctx, TOK(@1), false); $$->loc = @1; }
    | T_STRING '=' attr_value               { $$ = $3; $$->key = pc_key_text(ctx, TOK(@1), true); $$->loc = @1; }
    | T_BARE_ID                             { $$ = pc_attr(ctx, ATTR_UNIT, pc_key_text(ctx, TOK(@1), false), TOK(@1), @1); }
    | T_BARE_KW                             { $$ = pc_attr(ctx, ATTR_UNIT, pc_key_text(ctx, TOK(@1), false), TOK(@1), @1); }
    ;

attr_value
    : T_STRING                              { $$ = pc_attr(ctx, ATTR_STRING, NULL, TOK(@1), @1); }
    | T_INT                                 { $$ = pc_attr(ctx, ATTR_INT, NULL, TOK(@1), @1); }
    | T_FLOAT                               { $$ = pc_attr(ctx, ATTR_FLOAT, NULL, TOK(@1), @1); }
    | T_INT ':' type                        { $$ = pc_attr_typed(ctx, pc_attr(ctx, ATTR_INT, NULL, TOK(@1), @1), $3); }
    | T_FLOAT ':' type                      { $$ = pc_attr_typed(ctx, pc_attr(ctx, ATTR_FLOAT, NULL, TOK(@1), @1), $3); }
    | T_TRUE                                { $$ = pc_attr(ctx, ATTR_BOOL, NULL, TOK(@1), @1); }
    | T_FALSE                               { $$ = pc_attr(ctx, ATTR_BOOL, NULL, TOK(@1), @1); }
    | T_ATTR                                { $$ = pc_attr_raw(ctx, NULL, @1); }
    | T_SYMBOL                              { $$ = pc_attr_raw(ctx, NULL, @1); }
    | T_BARE_ID                             { $$ = pc_attr_raw(ctx, NULL, @1); }
    | T_BARE_KW                             { $$ = pc_attr_raw(ctx, NULL, @1); }
    | attr_nested_type                      { $$ = pc_attr(ctx, ATTR_TYPE, NULL, (Tok){0}, @1); $$->type = $1->type; }
    /* PTOAS prints some enum attributes without their prefix (`location = <vec>`): kept as written */
    | '<' tparams_opt '>'                   { $$ = pc_attr_raw(ctx, NULL, @$); }
    | T_TYPE_READY                          { $$ = pc_attr(ctx, ATTR_TYPE, NULL, (Tok){0}, @1); $$->type = $1; }
    | '[' attr_values_opt ']'               { $$ = pc_attr_raw(ctx, NULL, @$); }
    ;

attr_values_opt
    : %empty                                { $$ = NULL; }
    | attr_values
    ;

attr_values
    : attr_value                            { $$ = pc_list1(ctx, $1); }
    | attr_values ',' attr_value            { $$ = pc_push(ctx, $1, $3); }
    ;

/* ---- control structure ---------------------------------------------------------------------- */

for_stmt
    : for_head '{' stmts '}'                { $$ = pc_for_end(ctx, $1); }
    ;

for_head
    : T_SCF_FOR T_VALUE_DEF '=' operand T_TO operand T_STEP operand iter_args_opt for_iv_type_opt
        { $$ = pc_for_begin(ctx, TOK(@2), $4, $6, $8, $9, $9 ? (PtrVec *)$9->items[$9->count - 1] : NULL, $10, @1); }
    ;

/* The list holds the InitPair* entries followed by one PtrVec* of result types. */
iter_args_opt
    : %empty                                { $$ = NULL; }
    | T_ITER_ARGS '(' inits ')' T_ARROW sig_results
                                            { $$ = pc_push(ctx, $3, $6); }
    ;

inits_opt
    : %empty                                { $$ = pc_list(ctx); }
    | inits
    ;

inits
    : init                                  { $$ = pc_list1(ctx, $1); }
    | inits ',' init                        { $$ = pc_push(ctx, $1, $3); }
    ;

init
    : T_VALUE_DEF '=' init_operand          { $$ = pc_temp(ctx, sizeof *$$); $$->name = TOK(@1); $$->init = $3; }
    ;

/* `%v` is lexed as a definition when followed by `, %y =` (the next init); here it is a use. */
init_operand
    : operand
    | T_VALUE_DEF                           { $$ = pc_operand_value(ctx, TOK(@1)); }
    ;

for_iv_type_opt
    : %empty                                { $$ = NULL; }
    | ':' type                              { $$ = $2; }
    ;

if_stmt
    : if_then                               { $$ = pc_if_end(ctx, $1, false); }
    | if_then T_ELSE                        <op>{ pc_else_begin(ctx, $1, @2); $$ = $1; }
      '{' stmts '}'                         { (void)$3; $$ = pc_if_end(ctx, $1, true); }
    ;

if_then
    : if_head '{' stmts '}'                 { pc_then_end(ctx, $1); $$ = $1; }
    ;

if_head
    : T_SCF_IF operand if_results_opt       { $$ = pc_if_begin(ctx, $2, $3, @1); }
    ;

if_results_opt
    : %empty                                { $$ = NULL; }
    | T_ARROW sig_results                   { $$ = $2; }
    ;

while_stmt
    : while_head '{' stmts '}' T_DO         <op>{ pc_while_do(ctx, $1, @5); $$ = $1; }
      '{' block_label_opt stmts '}'         { (void)$6; $$ = pc_while_end(ctx, $1); }
    ;

while_head
    : T_SCF_WHILE '(' inits_opt ')' ':' sig_inputs T_ARROW sig_results
                                            { $$ = pc_while_begin(ctx, $3, $6, $8, @1); }
    ;

block_label_opt
    : %empty
    | T_CARET '(' block_args_opt ')' ':'    { pc_block_args(ctx, $3); }
    ;

block_args_opt
    : %empty                                { $$ = pc_list(ctx); }
    | block_args
    ;

block_args
    : block_arg                             { $$ = pc_list1(ctx, $1); }
    | block_args ',' block_arg              { $$ = pc_push(ctx, $1, $3); }
    ;

block_arg
    : T_VALUE ':' type                      { $$ = pc_temp(ctx, sizeof *$$); $$->name = TOK(@1); $$->type = $3; }
    ;

call_stmt
    : T_CALL T_SYMBOL '(' operands_opt ')' ':' sig
                                            { $$ = pc_call(ctx, TOK(@2), $4, $7, @1); }
    ;

%%

/* Token kinds of the lexer, in Bison's numbering. */
static int bison_token(TokenKind kind) {
    switch (kind) {
    case TK_EOF: return PTO_YYEOF;
    case TK_VALUE: return T_VALUE;
    case TK_VALUE_DEF: return T_VALUE_DEF;
    case TK_VALUE_GROUP: return T_VALUE_GROUP;
    case TK_VALUE_INDEX: return T_VALUE_INDEX;
    case TK_SYMBOL: return T_SYMBOL;
    case TK_CARET_ID: return T_CARET;
    case TK_TYPE_NAME: return T_TYPE_NAME;
    case TK_ATTR: return T_ATTR;
    case TK_BARE_ID: return T_BARE_ID;
    case TK_BARE_KW: return T_BARE_KW;
    case TK_KEY: return T_KEY;
    case TK_INT: return T_INT;
    case TK_FLOAT: return T_FLOAT;
    case TK_SHAPE: return T_SHAPE;
    case TK_STRING: return T_STRING;
    case TK_TRUE: return T_TRUE;
    case TK_FALSE: return T_FALSE;
    case TK_MODULE: return T_MODULE;
    case TK_FUNC: return T_FUNC;
    case TK_ATTRIBUTES: return T_ATTRIBUTES;
    case TK_PRIVATE: return T_PRIVATE;
    case TK_INS: return T_INS;
    case TK_OUTS: return T_OUTS;
    case TK_TO: return T_TO;
    case TK_STEP: return T_STEP;
    case TK_ITER_ARGS: return T_ITER_ARGS;
    case TK_ELSE: return T_ELSE;
    case TK_DO: return T_DO;
    case TK_SCF_FOR: return T_SCF_FOR;
    case TK_SCF_IF: return T_SCF_IF;
    case TK_SCF_WHILE: return T_SCF_WHILE;
    case TK_SCF_CONDITION: return T_SCF_CONDITION;
    case TK_CALL: return T_CALL;
    case TK_RETURN: return T_RETURN;
    case TK_ARROW: return T_ARROW;
    case TK_LPAREN: return '(';
    case TK_RPAREN: return ')';
    case TK_LBRACKET: return '[';
    case TK_RBRACKET: return ']';
    case TK_LBRACE: return '{';
    case TK_RBRACE: return '}';
    case TK_LBRACE_DICT: return T_LBRACE_DICT;
    case TK_LANGLE: return '<';
    case TK_RANGLE: return '>';
    case TK_COMMA: return ',';
    case TK_COLON: return ':';
    case TK_EQUAL: return '=';
    case TK_QUESTION: return '?';
    case TK_ERROR:
    case TK_COUNT: break;
    }
    return PTO_YYUNDEF;
}

static int pto_yylex(PTO_YYSTYPE *lval, SrcLoc *lloc, ParseCtx *ctx) {
    for (;;) {
        Token t = lexer_next(&ctx->lexer);
        if (t.error) {
            pc_error_rule(ctx, PARSE_RULE_TOKEN, t.loc, "%s", t.error);
            if (t.fixit) {
                SrcLoc fix_loc = t.loc;
                fix_loc.len = t.fixit_len;
                pc_fixit(ctx, fix_loc, t.fixit);
            }
            if (t.note) pc_note(ctx, t.loc, "%s", t.note);
            ctx->lex_error_end = t.loc.offset + t.loc.len;
        }
        if (t.kind == TK_ERROR) continue;
        *lloc = t.loc;
        if (t.kind == TK_TYPE_NAME) {
            /* a spelling seen before: one token instead of re-parsing its parameters; a spelling
             * that failed before comes back poisoned, without its errors again */
            Type *known = ctx->diags->errors == ctx->errors_at_start ? pc_known_type(ctx, &t, lloc)
                                                                    : pc_known_bad_type(ctx, &t, lloc);
            if (known) {
                lval->known = known;
                return T_TYPE_READY;
            }
        }
        return bison_token(t.kind);
    }
}

static void pto_yyerror(SrcLoc *lloc, ParseCtx *ctx, const char *msg) {
    if (strcmp(msg, "memory exhausted") == 0)
        pc_error_rule(ctx, PARSE_RULE_LIMIT, *lloc, "input is nested too deeply (parser stack exhausted)");
    else
        pc_error_rule(ctx, PARSE_RULE_SYNTAX, *lloc, "%s", msg);
}

/* "syntax error: unexpected 'foo' (identifier), expected ':' or '('" */
static int yyreport_syntax_error(const yypcontext_t *yyctx, ParseCtx *ctx) {
    enum { MAX_EXPECTED = 6 };
    /* T_TYPE_READY is valid exactly where T_TYPE_NAME is; it is left out of the list */
    yysymbol_kind_t expected[MAX_EXPECTED + 1];
    int n = yypcontext_expected_tokens(yyctx, expected, MAX_EXPECTED + 1);
    for (int i = 0; i < n; i++)
        if (expected[i] == YYSYMBOL_T_TYPE_READY) {
            for (int j = i + 1; j < n; j++) expected[j - 1] = expected[j];
            n--;
            break;
        }
    yysymbol_kind_t got = yypcontext_token(yyctx);
    SrcLoc name_loc = *yypcontext_location(yyctx);
    const SrcLoc *loc = &name_loc;
    if (got == YYSYMBOL_T_TYPE_READY) {
        /* report the type name token, as without the shortcut, and let the lexer go on after it
         * (the parser discards this token: no rule accepts a type right after an error) */
        const char *text = ctx->file->text + name_loc.offset;
        uint32_t len = 1;
        while (len < name_loc.len && (text[len] == '_' || text[len] == '$' || text[len] == '.' ||
                                      (text[len] >= '0' && text[len] <= '9') || ((text[len] | 0x20) >= 'a' && (text[len] | 0x20) <= 'z')))
            len++;
        name_loc.len = len;
        lexer_advance_to(&ctx->lexer, text + len);
    }
    char buf[512];
    size_t len = 0;
    if (got == YYSYMBOL_YYEOF) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "syntax error: unexpected end of file");
    } else {
        const char *text = ctx->file->text + loc->offset;
        int shown = loc->len > 40 ? 40 : (int)loc->len;
        const char *kind = yysymbol_name(got == YYSYMBOL_T_TYPE_READY ? YYSYMBOL_T_TYPE_NAME : got);
        if (kind[0] == '"' || kind[0] == '\'') {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "syntax error: unexpected '%.*s'", shown, text);
        } else {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "syntax error: unexpected %s '%.*s'", kind, shown, text);
        }
    }
    if (n > 0 && n < MAX_EXPECTED) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, ", expected ");
        for (int i = 0; i < n && len < sizeof buf; i++) {
            const char *name = yysymbol_name(expected[i]);
            char quoted[64];
            if (name[0] == '"') { /* Bison quotes aliases: "'->'" comes back as "\"'->'\"" */
                size_t l = strlen(name);
                snprintf(quoted, sizeof quoted, "%.*s", (int)(l >= 2 ? l - 2 : 0), name + 1);
                name = quoted;
            }
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", name);
        }
    }
    pc_error_rule(ctx, PARSE_RULE_SYNTAX, *loc, "%s", buf);
    pc_syntax_error_seen(ctx, *loc);
    return 0;
}
