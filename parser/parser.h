/* parser.h - the front end's public API: read a .pto file and parse it into the IR (ir.h).
 *
 * parse_module() runs the lexer and the Bison parser, builds the IR in the arena, and performs the
 * structural checks of SPEC 3 (arity, operand kinds, undefined / redefined values, use before
 * definition, use type != definition type, entry-function rules). All problems go to the DiagList;
 * parsing continues after errors so one run reports many. Reentrant: no global state. */
#ifndef PTO_PARSER_H
#define PTO_PARSER_H

#include "ir.h"

/* Largest source file accepted (bytes). */
#define SOURCE_FILE_MAX_BYTES ((size_t)64 << 20)

/* Reads `path` ("-" = standard input) into `out` (text NUL-terminated, stored in the arena).
 * On failure writes a one-line reason to err and returns false. */
bool source_file_read(Arena *arena, const char *path, SourceFile *out, char *err, size_t err_size);

/* Makes a SourceFile over in-memory text (copied into the arena); `path` names it in diagnostics. */
SourceFile *source_file_from_string(Arena *arena, const char *path, const char *text, size_t len);

/* Parses `file` into a Module allocated in `arena`. Diagnostics are appended to `diags`; the
 * Module is returned even when there are errors (it may then be incomplete). */
Module *parse_module(Arena *arena, const SourceFile *file, DiagList *diags);

#endif
