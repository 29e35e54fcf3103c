/* parse_module.c - the front end's entry point: lexer + Bison parser + IR builder. */
#include "parse_internal.h"
#include "parser.h"

Module *parse_module(Arena *arena, const SourceFile *file, DiagList *diags) {
    ParseCtx ctx;
    pc_init(&ctx, arena, file, diags);
    if (file->len > SOURCE_FILE_MAX_BYTES) {
        /* locations are 32-bit byte offsets; source_file_read enforces the same limit */
        pc_error_rule(&ctx, PARSE_RULE_LIMIT, (SrcLoc){0, 0, 0, 0}, "file is larger than the limit of %zu MiB", SOURCE_FILE_MAX_BYTES >> 20);
        pc_finish_file(&ctx);
    } else {
        pto_yyparse(&ctx);
        if (ctx.module->funcs == NULL) pc_finish_file(&ctx); /* the parser aborted before the end */
    }
    pc_release(&ctx);
    return ctx.module;
}
