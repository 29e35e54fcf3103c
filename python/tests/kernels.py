"""Small PTO-AS kernels the tests build as text."""


def scale_kernel(src="f32", dst="f32", rows=4, cols=16, factor="2.0", scalar_arg=False):
    """arg1 (dst) = arg0 (src) * factor, on a rows x cols tile; with scalar_arg the factor is %s."""
    fac_def = "" if scalar_arg else f"    %f = arith.constant {factor} : {src}\n"
    fac = "%s" if scalar_arg else "%f"
    extra = f", %s: {src}" if scalar_arg else ""
    ts, td = f"!pto.tile_buf<vec, {rows}x{cols}x{src}>", f"!pto.tile_buf<vec, {rows}x{cols}x{dst}>"
    return f"""module {{
  func.func @scale(%arg0: !pto.ptr<{src}>, %arg1: !pto.ptr<{dst}>{extra}) attributes {{pto.entry}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.constant {rows} : index
    %c = arith.constant {cols} : index
{fac_def}    %in = pto.make_tensor_view %arg0, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<?x?x{src}>
    %out = pto.make_tensor_view %arg1, shape = [%r, %c], strides = [%c, %c1] : !pto.tensor_view<?x?x{dst}>
    %pin = pto.partition_view %in, offsets = [%c0, %c0], sizes = [%r, %c] : !pto.tensor_view<?x?x{src}> -> !pto.partition_tensor_view<{rows}x{cols}x{src}>
    %pout = pto.partition_view %out, offsets = [%c0, %c0], sizes = [%r, %c] : !pto.tensor_view<?x?x{dst}> -> !pto.partition_tensor_view<{rows}x{cols}x{dst}>
    %a = pto.alloc_tile : {ts}
    %b = pto.alloc_tile : {td}
    pto.tload ins(%pin : !pto.partition_tensor_view<{rows}x{cols}x{src}>) outs(%a : {ts})
    pto.tmuls ins(%a, {fac} : {ts}, {src}) outs(%b : {td})
    pto.tstore ins(%b : {td}) outs(%pout : !pto.partition_tensor_view<{rows}x{cols}x{dst}>)
    return
  }}
}}
"""
