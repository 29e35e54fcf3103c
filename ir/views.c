/* views.c - tile views whose result type follows from their operands (rows with SIG_OPERAND0_VIEW):
 * pto.subset's window and its inferred type, as PTOAS infers it (SubsetOp::inferReturnTypes), used
 * by the parser to type the result and by the verifier to check a written one. */
#include "ir.h"

bool operand_const_int(const Operand *o, int64_t *out) {
    if (!o) return false;
    if (o->kind == OPD_INT) {
        *out = o->ival;
        return true;
    }
    if (o->kind != OPD_VALUE || !o->value || !o->value->def) return false;
    const Op *def = o->value->def;
    if (def->code != OP_CONSTANT || def->ins.count < 1 || def->ins.items[0].kind != OPD_INT) return false;
    *out = def->ins.items[0].ival;
    return true;
}

bool subset_sizes(const Op *op, int64_t *rows, int64_t *cols) {
    const Attr *a = attr_find(&op->attrs, "sizes");
    int64_t v[2];
    int n = 0;
    if (!a || !attr_int_array(a, v, 2, &n) || n != 2) return false;
    *rows = v[0];
    *cols = v[1];
    return true;
}

int64_t subset_valid_dim(int64_t size, int64_t pv, int64_t offset) {
    if (pv <= 0) return 0;
    int64_t rem = offset % pv;
    if (rem < 0) rem += pv;
    int64_t left = pv - rem; /* 1..pv */
    return size < left ? size : left;
}

bool view_result_tile(const Op *op, TileType *out) {
    if (op->ins.count < 1) return false;
    const Operand *src = &op->ins.items[0];
    const Type *st = src->kind == OPD_VALUE && src->value && src->value->type ? src->value->type : src->type;
    int64_t rows, cols;
    if (!st || st->kind != TY_TILE || !subset_sizes(op, &rows, &cols) || rows <= 0 || cols <= 0) return false;
    *out = st->tile;
    out->rows = rows;
    out->cols = cols;
    int64_t size[2] = {rows, cols}, pv[2] = {st->tile.valid_rows, st->tile.valid_cols}, valid[2];
    for (int i = 0; i < 2; i++) {
        int64_t off;
        if (pv[i] == DIM_DYNAMIC || 1 + i >= op->ins.count || !operand_const_int(&op->ins.items[1 + i], &off))
            valid[i] = DIM_DYNAMIC;
        else
            valid[i] = subset_valid_dim(size[i], pv[i], off);
    }
    out->valid_rows = valid[0];
    out->valid_cols = valid[1];
    return true;
}
