"""builtin: the types the samples take from it."""
from ..ir import BF16Type, F16Type, F32Type, F64Type, IndexType, IntegerType  # noqa: F401
