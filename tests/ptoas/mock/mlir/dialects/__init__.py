"""Dialects of the stand-in MLIR bindings: func, arith, scf, pto."""
