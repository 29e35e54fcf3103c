#!/bin/sh
# pto-run command-line tests: sh tests/run-cli/suite.sh BUILD_DIR
# Each case runs build/pto-run from this directory and checks its exit status and, as listed,
#   out=FILE     stdout equals expected/FILE exactly
#   out~TEXT     stdout contains TEXT            err~TEXT   stderr contains TEXT
#   same=A:B     file A (in the scratch directory) has the bytes of B
#   size=A:N     file A has N bytes              absent=A   file A does not exist
#   noout~TEXT   stdout lacks TEXT               noerr~TEXT stderr lacks TEXT
#   empty        stdout is empty                 json       stdout is one JSON document
# Scratch files live in a temporary directory, named $T in arguments.
# Data files come from gen.py (numpy); expected/*.out were checked by hand against SPEC 5 and the
# TPRINT layout of the ISA's CPU simulator.
# Prints "PASS run-cli/NAME" or "FAIL run-cli/NAME" (with details) per case.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
run="$build/pto-run"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$here" || exit 1

# invoke ARGS...: runs pto-run, keeping status, stdout and stderr
invoke() {
    rm -f "$T/out" "$T/err"
    "$run" "$@" >"$T/out" 2>"$T/err"
    status=$?
    cmdline="pto-run $*"
}

# expect NAME STATUS CHECKS...
expect() {
    name=$1 want=$2
    shift 2
    problems=""
    if [ ! -x "$run" ]; then
        echo "FAIL run-cli/$name"
        echo "    $run: not built"
        return
    fi
    [ "$status" -eq "$want" ] || problems="$problems|exit status $status, expected $want"
    for c in "$@"; do
        case $c in
        out=*)
            cmp -s "$T/out" "expected/${c#out=}" || problems="$problems|stdout differs from expected/${c#out=}" ;;
        out~*)
            grep -qF -- "${c#out~}" "$T/out" || problems="$problems|stdout lacks: ${c#out~}" ;;
        err~*)
            grep -qF -- "${c#err~}" "$T/err" || problems="$problems|stderr lacks: ${c#err~}" ;;
        same=*)
            spec=${c#same=}
            cmp -s "$T/${spec%%:*}" "${spec#*:}" || problems="$problems|$T/${spec%%:*} differs from ${spec#*:}" ;;
        size=*)
            spec=${c#size=}
            got=$(wc -c <"$T/${spec%%:*}" 2>/dev/null | tr -d ' ')
            [ "$got" = "${spec#*:}" ] || problems="$problems|${spec%%:*} has ${got:-no} bytes, expected ${spec#*:}" ;;
        absent=*)
            [ ! -e "$T/${c#absent=}" ] || problems="$problems|${c#absent=} was written" ;;
        noout~*)
            ! grep -qF -- "${c#noout~}" "$T/out" || problems="$problems|stdout has: ${c#noout~}" ;;
        noerr~*)
            ! grep -qF -- "${c#noerr~}" "$T/err" || problems="$problems|stderr has: ${c#noerr~}" ;;
        empty)
            [ ! -s "$T/out" ] || problems="$problems|stdout is not empty" ;;
        json)
            /usr/bin/python3 -c 'import json, sys; json.load(sys.stdin)' <"$T/out" 2>/dev/null ||
                problems="$problems|stdout is not one JSON document" ;;
        esac
    done
    if [ -z "$problems" ]; then
        echo "PASS run-cli/$name"
    else
        echo "FAIL run-cli/$name"
        echo "    $cmdline"
        printf '%s\n' "$problems" | tr '|' '\n' | sed -e '/^$/d' -e 's/^/    /'
        sed -e 's/^/    out: /' "$T/out" | head -n 20
        sed -e 's/^/    err: /' "$T/err" | head -n 20
    fi
}

# ---- informational options ------------------------------------------------------------------
invoke --help
expect help 0 "out~Usage: pto-run [OPTIONS] FILE" "out~--expect NAME=PATH" "out~--max-steps N" "out~--blocks N"
invoke --version
expect version 0 "out~pto-run $(cat "$root/VERSION" 2>/dev/null)"

# ---- usage and I/O problems: exit 2 -----------------------------------------------------------
invoke
expect no_file 2 "err~no program file given"
invoke scale.pto --frobnicate
expect unknown_option 2 "err~pto-run: error: unknown option '--frobnicate'" "err~Try 'pto-run --help'."
invoke --diagnostics=json --frobnicate five.pto
expect unknown_option_json 2 json "out~\"errors\": [\"unknown option '--frobnicate'\"]" "out~\"status\": 2" "err~pto-run: error: unknown option '--frobnicate'"
invoke scale.pto --in arg0
expect in_without_path 2 "err~--in expects NAME=PATH"
invoke scale.pto --target=a9
expect bad_target 2 "err~unknown target 'a9'"
invoke scale.pto --max-steps 0
expect bad_max_steps 2 "err~--max-steps expects a positive integer"
invoke missing.pto
expect missing_program 2 "err~missing.pto"
invoke scale.pto --in arg0=data/in16.bin --sweep s=1,2.5 --print arg1
expect sweep_two_values 0 "out~== --sweep s=1" "out~== --sweep s=2.5" "out~== --sweep s: 2 values, 0 failed"
invoke scale.pto --in arg0=data/in16.bin --sweep s=1,,2
expect sweep_empty_value 2 "err~--sweep s: an empty value in '1,,2'"
invoke scale.pto --in arg0=data/in16.bin --sweep s=1 --set s=2
expect sweep_and_set 2 "err~--sweep s and --set s both give its value"
invoke scale.pto --in arg0=data/in16.bin --sweep s=1,2 --out arg1=$T/sw.bin
expect sweep_no_out 2 "err~--out writes one run's result; --sweep runs the kernel once per value" absent=sw.bin
invoke scale.pto --in arg0=data/in16.bin --sweep s=1,two
expect sweep_bad_value_stops 2 "out~== --sweep s=two" "out~2 values, 1 failed" "err~--set s"
invoke scale.pto --in nosuch=data/in16.bin --set s=1
expect unknown_name 2 "err~--in nosuch: @scale has no argument or value named 'nosuch'"
invoke scale.pto --in arg0=data/missing.bin --set s=1
expect missing_data 2 "err~cannot open 'data/missing.bin'"
invoke scale.pto --in arg0=data/i32_16.npy --set s=1
expect missing_npy 2 "err~cannot open"
invoke scale.pto --in arg0=data/corrupt.npy --set s=1
expect corrupt_npy 2 "err~corrupt .npy header"
invoke two_funcs.pto --entry second --in arg0=data/in16.npy
expect npy_dtype_mismatch 2 "err~holds dtype '<f4' but the binding is i16 ('<i2')"
invoke scale.pto --in arg0=data/in16.bin --set s=two
expect bad_scalar 2 "err~'two' is not a valid f32 value for %s"
invoke scale.pto --in s=data/in16.bin
expect in_on_scalar 2 "err~%s is a scalar argument; give its value with --set s=VALUE"
invoke bare.pto --in src=data/in15.bin
expect tile_input_size 2 "err~the data holds 15 elements but the valid region of %src is 2x3 (6 elements)"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --out arg1=$T/no/such/dir/out.bin
expect out_unwritable 2 "err~cannot create a temporary file next to"

# ---- verifier and run-time errors: exit 1 ------------------------------------------------------
invoke misaligned.pto
expect verifier_error 1 "err~misaligned.pto:2:17: error: 'pto.tassign' op"
invoke divzero.pto --set n=0 --out arg0=$T/div.bin
expect runtime_error_located 1 "err~divzero.pto:8:10: error: 'arith.divsi' op division by zero (8 / 0)" \
    "err~%q = arith.divsi %c8, %n : index" absent=div.bin
invoke divzero.pto --set n=2 --out arg0=$T/div.bin
expect runtime_ok_writes_out 0 size=div.bin:32
invoke setval.pto --set i=9 --print t
expect tsetval_runtime_offset 0 "out~  0.0000   2.5000   0.0000"
invoke getval.pto --set i=31 --print d
expect tgetval_f16_i8_values 0 "out~  0.0000   0.0000   0.0000   1.5000  -3.0000   0.0000"
invoke getval.pto --set i=32
expect tgetval_offset_error 1 "err~getval.pto:17:10: error: 'pto.tgetval' op reads element offset 32 of %th, which has 32 elements (2x16) [TGETVAL.offset]"
invoke setval.pto --set i=32
expect tsetval_offset_error 1 "err~setval.pto:15:5: error: 'pto.tsetval' op writes element offset 32 of %t, which has 32 elements (4x8) [TSETVAL.offset]"
invoke ttrans.pto --set r=2 --set c=3 --set k=3 --print d
expect ttrans_dynamic_valid 0 "out~%d: 3x2 f32" "out~  0.0000   7.0000" "out~  5.0000   0.0000"
invoke ttrans.pto --set r=2 --set c=20 --set k=16
expect ttrans_dst_shape_error 1 "err~ttrans.pto:19:5: error: 'pto.ttrans' op expects dst (16x8) to hold src's valid region 2x20 transposed (20x2) [TTRANS.shape]"
invoke scale.pto --in arg0=data/in16.bin
expect unbound_scalar 1 "err~scalar argument %s of @scale has no value; pass --set s=VALUE"
invoke loop.pto --max-steps 100
expect max_steps 1 "err~loop.pto:6:8: error: 'arith.addi' op exceeds the limit of 100 executed steps (--max-steps)"
invoke loop.pto --max-steps 10000
expect max_steps_enough 0
invoke two_funcs.pto --in arg0=data/i16_16.bin
expect no_entry 1 "err~cannot choose the function to run: mark one with attributes {pto.entry} or pass --entry NAME"
invoke two_funcs.pto --entry third --in arg0=data/i16_16.bin
expect entry_unknown 2 "err~pto-run: error: --entry third: two_funcs.pto has no function @third"
invoke scale.pto --in arg0=data/in16.bin --in %arg0=data/in16.npy --set s=2.0
expect in_given_twice 2 "err~pto-run: error: --in %arg0: %arg0 already has its input from --in arg0"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --set %s=3.0
expect set_given_twice 2 "err~pto-run: error: --set %s: %s already has its input from --set s"
invoke --in arg0=data/in16.bin --set s=2.0 -- scale.pto
expect double_dash_ends_options 0
invoke -- scale.pto --in arg0=data/in16.bin
expect double_dash_then_option 2 "err~more than one program file ('scale.pto' and '--in')"
: > "$T/empty.pto"
invoke "$T/empty.pto"
expect empty_program_runs 0
invoke one_dynamic_dim.pto --print t --print r
expect one_dynamic_valid_dim 0 "out~%t: 8x5 f32" "out~%r: 3x16 f32"
invoke zero_cols.pto --print t
expect print_zero_columns 0 "out~TPRINT 3x0" "out~%t: 3x0 f32"

# ---- results -------------------------------------------------------------------------------------
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2.bin --print arg1
expect expect_and_print 0 out=expect_and_print.out
invoke --set s=2.0 --expect arg1=data/out16_x2.bin scale.pto --in %arg0=data/in16.bin --atol 0 --rtol 0
expect options_after_file 0 "out~%arg1: 16 elements, 0 mismatches"
invoke scale.pto --in arg0=data/in16.npy --set s=0x40000000 --expect arg1=data/out16_x2.npy
expect npy_and_hex_scalar 0 "out~%arg1: 16 elements, 0 mismatches"
invoke scale.pto --in arg0=data/in16.bin --set s=-0.0 --expect arg1=data/zero16.bin
expect compare_allclose_signed_zero 0 "out~%arg1: 16 elements, 0 mismatches"
invoke scale.pto --in arg0=data/in16.bin --set s=-0.0 --expect arg1=data/zero16.bin --compare=bits
expect compare_bits_signed_zero 1 "out~%arg1: 16 elements, 16 mismatches (100%), max abs err 0, max rel err 0 (bit patterns)" "out~got -0 (0x80000000), want 0 (0x00000000)"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2.bin --compare bits
expect compare_bits_equal 0 "out~%arg1: 16 elements, 0 mismatches, max abs err 0, max rel err 0 (bit patterns)"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2.bin --compare=bits --atol 0
expect compare_bits_with_tolerance 2 "err~--compare=bits takes no tolerance"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --compare=exact --expect arg1=data/out16_x2.bin
expect compare_unknown_mode 2 "err~--compare expects allclose, bits or isa[:eps=E,frac=F], got 'exact'" "err~Try 'pto-run --help'."
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --atol 0.1
expect atol_without_expect 2 "err~pto-run: error: --compare, --atol, --rtol and --show apply to --expect, and none is given" "err~Try 'pto-run --help'."
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2_wrong.bin
expect expect_mismatch 1 out=expect_mismatch.out
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/in15.bin
expect expect_count_mismatch 2 "err~result has 16 elements but the expected data has 15"
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --out arg1=$T/o.bin --out arg1=$T/o.npy
expect out_bin_and_npy 0 same=o.bin:data/out16_x2.bin same=o.npy:data/out16_x2.npy
invoke scale.pto --in arg0=data/in16.bin --set s=2.0 --expect arg1=data/out16_x2_wrong.bin --out arg1=$T/m.bin
expect out_despite_mismatch 1 same=m.bin:data/out16_x2.bin
cp data/i16_16.bin "$T/inout.bin"
invoke two_funcs.pto --entry second --in arg0=$T/inout.bin --out arg0=$T/inout.bin
expect in_out_same_file 0 same=inout.bin:data/i16_16_x3.bin
invoke grow.pto --out arg0=$T/g.bin
expect out_only_buffer_sized_by_reach 0 size=g.bin:112
invoke bare.pto --in src=data/src2x3.bin --trace --print dst --out dst=$T/dst.bin
expect trace_tprint_print 0 out=trace_tprint_print.out size=dst.bin:24
invoke --target a5 bare.pto --in src=data/src2x3.bin
expect tprint_only 0 out=tprint_only.out
invoke - <bare.pto
expect program_from_stdin 0 "out~TPRINT 2x3"
invoke calls.pto --trace
expect trace_calls_loops_if 0 out=calls_trace.out
invoke blocks.pto --blocks 3 --out arg0=$T/b.bin --print arg0
expect blocks_three 0 size=b.bin:768 "out~%arg0: 192 f32" "out~  3.0000"
invoke blocks.pto --out arg0=$T/b1.bin
expect blocks_default_one 0 size=b1.bin:256
invoke blocks.pto --blocks=2 --out arg0=$T/b2.bin
expect blocks_equals_form 0 size=b2.bin:512
invoke blocks.pto --blocks 0
expect blocks_zero 2 "err~--blocks expects an integer from 1 to 65536, got '0'"
invoke blocks.pto --blocks -3
expect blocks_negative 2 "err~--blocks expects an integer from 1 to 65536, got '-3'"
invoke blocks.pto --blocks two
expect blocks_not_a_number 2 "err~--blocks expects an integer from 1 to 65536, got 'two'"
invoke blocks.pto --blocks 4x
expect blocks_trailing_junk 2 "err~--blocks expects an integer from 1 to 65536, got '4x'"
invoke blocks.pto --blocks 65537
expect blocks_too_many 2 "err~--blocks expects an integer from 1 to 65536, got '65537'"
invoke blocks.pto --blocks
expect blocks_missing_value 2 "err~--blocks expects an integer from 1 to 65536"
invoke blocks.pto --blocks 2 --trace
expect blocks_trace 0 "out~-- block 1 of 2" "out~pto.addptr %p=gm:%arg0+64"
invoke acc_store.pto --out "gc=$T/c.bin" --out "gd=$T/d.bin"
expect acc_store_cast_relu 0 "same=c.bin:data/acc_store_f16.bin" "same=d.bin:data/acc_store_relu_bf16.bin"
invoke quant_fp_words.pto --set sel=0
expect tstore_fp_word_per_row 1 "err~'pto.tstore_fp' op expects fp %q to hold a word for each row of src (16), got 8 valid columns" "err~[TSTORE_FP.fp-words]"
invoke quant_fp_words.pto --set sel=1
expect textract_fp_word_per_col 1 "err~'pto.textract_fp' op expects fp %q to hold a word for each src column read (32), got 8 valid columns [TEXTRACT_FP.fp-cols]"
invoke boxed_roundtrip.pto --in a=data/f16_48x32.bin --out "b=$T/b.bin"
expect boxed_roundtrip_zn_dn 0 "same=b.bin:data/f16_48x32.bin"
invoke bare.pto --check-sync=sometimes
expect check_sync_bad_mode 2 "err~--check-sync takes auto or strict, got 'sometimes'"
invoke --help
expect help_check_sync 0 "out~--check-sync[=auto|strict]"

# ---- golden comparison (issue 13.4) --------------------------------------------------------------
# out16_x2_wrong: element (1, 3) is 22.5 instead of 22 (abs 0.5, rel 0.022 > eps 1e-3)
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin --compare=isa
expect isa_default_eps_fails 1 "out~%arg1: 16 elements, 1 mismatch (6.25%)" \
    "out~(isa eps 0.001, frac 0.001: at most 0 may fail): FAIL" "out~mismatch at (1, 3): got 22, want 22.5"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin --compare=isa:eps=0.001,frac=0.1
expect isa_frac_allows_one 0 "out~(isa eps 0.001, frac 0.1: at most 1 may fail): pass"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin --compare=isa:eps=0.03
expect isa_eps_above_rel_err 0 "out~0 mismatches" "out~: pass"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin --compare=isa --atol 1
expect isa_with_atol 2 "err~--compare=isa takes eps= and frac="
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin --compare=isa:atol=1
expect isa_with_atol_key 2 "err~--compare=isa takes eps=, frac= and zeros=, not atol/rtol"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin --compare=isa:eps=x
expect isa_bad_eps 2 "err~needs a number >= 0"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin:atol=0.5
expect expect_own_atol 0 "out~%arg1: 16 elements, 0 mismatches, max abs err 0.5 at (1, 3)" "out~(atol 0.5, rtol 1e-05)"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --atol 1 --expect arg1=data/out16_x2_wrong.bin:atol=0.1,rtol=0
expect expect_own_atol_overrides_global 1 "out~(atol 0.1, rtol 0)"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --compare=isa --expect arg1=data/out16_x2_wrong.bin:rtol=0.05 \
    --expect arg1=data/out16_x2_wrong.bin
expect expect_own_mode_per_buffer 1 "out~(atol 1e-05, rtol 0.05)" "out~: FAIL"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin:eps=0.001,frac=0.1
expect expect_own_isa 0 "out~(isa eps 0.001, frac 0.1: at most 1 may fail): pass"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin:atol=1,eps=1
expect expect_own_mixed 2 "err~--expect arg1: atol/rtol (allclose) and eps/frac/zeros (isa) do not mix"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin:atol=1,speed=2
expect expect_own_unknown_key 2 "err~has an unknown key"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --compare=bits --expect arg1=data/out16_x2_wrong.bin:atol=1
expect expect_own_with_bits 2 "err~--compare=bits takes no tolerance"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_many_wrong.bin --show 3
expect show_three 1 "out~%arg1: 16 elements, 15 mismatches (93.75%), max abs err 1 at (0, 1), max rel err 0.333333 at (0, 1)" \
    "out~  mismatch at (0, 3): got 6, want 7 (abs err 1, rel err 0.142857)" noout~"mismatch at (0, 4)" \
    "out~  ... 12 more mismatches" "out~  failing rows: 0-1 (2 of 2); cols: 0-7 (8 of 8)" "out~    .#######" "out~    ########"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_many_wrong.bin --show 0
expect show_none 1 noout~"mismatch at" "out~  ... 15 more mismatches"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --show 3
expect show_without_expect 2 "err~apply to --expect, and none is given"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2.bin --show=-1
expect show_negative 2 "err~--show expects a count from 0 to 1000000, got '-1'"

# ---- inputs: a large --in file is mapped copy-on-write ----------------------------------------------
# 400000 f32 (1.6 MB, over the 1 MiB mapping threshold): rows 4000..4015 go to %arg1 and over rows
# 0..15 of %arg0; the --in file must keep its bytes, --out arg0 must have the new rows
head -c 1600000 /dev/urandom >"$T/big.bin"
cp "$T/big.bin" "$T/big_orig.bin"
dd if="$T/big.bin" of="$T/big_rows.bin" bs=4096 skip=250 count=1 2>/dev/null
{ cat "$T/big_rows.bin"; tail -c +4097 "$T/big.bin"; } >"$T/big_want0.bin"
invoke big_in.pto --in arg0=$T/big.bin --set r=4000 --out arg1=$T/big_o1.bin --out arg0=$T/big_o0.bin
expect large_input_mapped 0 same=big_o1.bin:$T/big_rows.bin same=big_o0.bin:$T/big_want0.bin same=big.bin:$T/big_orig.bin

# ---- inputs: --zero-inputs ------------------------------------------------------------------------
invoke scale.pto --set s=2 --out arg1=$T/z.bin
expect no_in_is_an_error 1 "err~scale.pto:14:5: error: 'pto.tload' op reads element 0 of %arg0, which has no input data and was not written before: pass --in arg0=FILE, or --zero-inputs to run on zeros" absent=z.bin
invoke scale.pto --set s=2 --zero-inputs --expect arg1=data/zero16.bin
expect zero_inputs 0 "out~%arg1: 16 elements, 0 mismatches"
invoke rw.pto --set n=0 --out arg1=$T/rw.bin
expect written_before_read 0 size=rw.bin:64
invoke rw.pto --set n=1
expect read_unwritten_element 1 "err~rw.pto:22:5: error: 'pto.tload' op reads element 8 of %arg1, which has no input data and was not written before"
invoke rw.pto --set n=1 --zero-inputs
expect read_unwritten_with_zero_inputs 0
# views: --print and --out read the GM elements a tensor or partition view covers; --in refuses one
invoke rw.pto --set n=0 --print p --print 'q[0:1, 0:2]' --print p@19 --out p=$T/pv.bin
expect view_print 0 "out~%p @19 in @rw (step 14): 1x8 f32" "out~%p: 1x8 f32" "out~%q: 1x8 f32" \
    "out~  3.0000   3.0000   3.0000   3.0000   3.0000   3.0000   3.0000   3.0000" size=pv.bin:32 noout~not defined
invoke rw.pto --set n=0 --in p=data/zero16.bin
expect view_in_refused 2 "err~--in p: %p is a view; give the data to the pointer argument it views"

# ---- .npy outputs keep the shape ------------------------------------------------------------------
invoke five.pto --in arg0=data/in64.bin --out arg1=$T/five.npy --out arg0=$T/five_in.npy
expect npy_keeps_5d_shape 0 same=five.npy:data/in64_5d.npy same=five_in.npy:data/in64_5d.npy
invoke five.pto --in arg0=data/in64_5d.npy --expect arg1=data/in64.bin --compare=bits
expect npy_5d_in_and_expect 0 "out~%arg1: 64 elements, 0 mismatches"

# ---- --print: formats, regions, any function of the call chain ------------------------------------
invoke scale.pto --in arg0=data/in16.bin --set s=2.5 --print 'arg1[1:2, 2:5]' --print-format=%g
expect print_region_g 0 "out~%arg1: 2x8 f32" "out~          25         27.5           30"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --print 'b[0, 1:3]' --print-format hex
expect print_region_hex 0 "out~  0x40000000   0x40800000"
invoke scale.pto --in arg0=data/in16.bin --set s=0.1 --print 'b[0:1, 1:2]' --print-format=%a
expect print_format_a 0 "out~0x1.99999ap-4"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --print-format=%e --print b
expect print_format_unknown 2 "err~--print-format expects tprint, %g, %a or hex, got '%e'"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --print 'b[0:3, :]'
expect print_region_outside 2 "err~--print b[0:3, :]: region [0:3, 0:8] lies outside the 2x8 data"
invoke calls.pto --print d@5 --print-format=%g
expect print_at_line_in_callee 0 "out~%d @5 in @twice (step 10): 1x8 i32" "out~%d @5 in @twice (step 15): 1x8 i32" \
    "out~           6            6" "out~          12           12"
invoke calls.pto --print 'twice:t@5[0, 0:2]'
expect print_func_qualified_region 0 "out~%t @5 in @twice (step 10): 1x8 i32" "out~       3        3"
invoke calls.pto --print two@4 --print n@16
expect print_scalar_and_call_result 0 "out~%two @4 in @twice (step 9): 1 i32" "out~%n @16 in @main (step 13): 1x8 i32"
invoke blocks.pto --blocks 2 --print 'arg0@19[:, 0:3]' --print-format=%g
expect print_at_line_per_block 0 "out~%arg0 @19 in @k (step 16, block 0): 8x8 f32" "out~%arg0 @19 in @k (step 33, block 1): 128 f32"
invoke calls.pto --print twice:d
expect print_callee_without_line 2 "err~only the entry function's values (@main) exist after the run; add @LINE"
invoke calls.pto --print d@9
expect print_line_without_op 2 "err~--print d@9: no function that has a value named 'd' has an operation on line 9"
invoke calls.pto --print nope@5
expect print_unknown_name 2 "err~no function has a value named 'nope'"
invoke calls.pto --print other:d@5
expect print_unknown_func 2 "err~the program has no function @other"
invoke calls.pto --print d@x
expect print_bad_line 2 "err~@LINE needs a source line number"

# ---- --trace and --diff-trace ---------------------------------------------------------------------
invoke scale.pto --in arg0=data/in16.bin --set s=2 --trace
expect trace_tload_tstore_checksums 0 "out~[11] L14 pto.tload dst=%a@auto(scale)#0[2x8] src=%pin@%arg0+0<2x8> => %a=fnv1a:13fdf84d829c1708" \
    "out~[12] L15 pto.tmuls dst=%b@auto(scale)#1[2x8] src=%a@auto(scale)#0[2x8] scalar=%s=2 => %b=fnv1a:f9c7610ccd4fde45" \
    "out~[13] L16 pto.tstore dst=%pout@%arg1+0<2x8> src=%b@auto(scale)#1[2x8] => %pout=fnv1a:f9c7610ccd4fde45"
cp "$T/out" "$T/s2.trace"
invoke scale.pto --in arg0=data/in16.bin --set s=2 --trace --zero-inputs
cp "$T/out" "$T/s2b.trace"
invoke scale.pto --in arg0=data/in16.bin --set s=3 --trace
cp "$T/out" "$T/s3.trace"
invoke --diff-trace "$T/s2.trace" "$T/s2b.trace"
expect diff_trace_same 0 "out~traces agree: 14 records"
invoke --diff-trace "$T/s2.trace" "$T/s3.trace"
expect diff_trace_differs 1 "out~traces part ways at record 12 (line 15 in $T/s2.trace, line 15 in $T/s3.trace):" \
    "out~  $T/s3.trace: [12] L15 pto.tmuls dst=%b@auto(scale)#1[2x8] src=%a@auto(scale)#0[2x8] scalar=%s=3 => %b=fnv1a:fd4a943e4fd16b0b"
head -n 5 "$T/s2.trace" >"$T/short.trace"
invoke --diff-trace "$T/short.trace" "$T/s2.trace"
expect diff_trace_shorter 1 "out~traces part ways at record 6: $T/short.trace ends after 5 records, $T/s2.trace goes on (line 9):"
invoke --diff-trace "$T/s2.trace" "$T/missing.trace"
expect diff_trace_missing 2 "err~cannot open"
invoke --diff-trace "$T/s2.trace"
expect diff_trace_one_file 2 "err~--diff-trace needs two trace files"
invoke --diff-trace "$T/s2.trace" "$T/s3.trace" scale.pto
expect diff_trace_with_program 2 "err~takes no program"

# ---- -q, -Werror, --diagnostics=json ----------------------------------------------------------------
invoke -q scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2.bin
expect quiet_passing_expect 0 empty
invoke -q scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2.bin --expect arg1=data/out16_x2_wrong.bin
expect quiet_failing_expect 1 "out~%arg1: 16 elements, 1 mismatch" noout~"16 elements, 0 mismatches"
invoke warn.pto --entry uses_scratch
expect warnings_shown 0 "err~warning: 'pto.tassign' op tile at [0x2e000, 0x2e040)"
invoke -q warn.pto --entry uses_scratch
expect quiet_drops_warnings 0 noerr~warning
invoke ../sync/auto_no_sync_note.pto --check-sync --zero-inputs
expect check_sync_note_shown 0 "err~note: @k executes no set_flag"
invoke -q ../sync/auto_no_sync_note.pto --check-sync --zero-inputs
expect quiet_drops_notes 0 noerr~note:
invoke -Werror warn.pto --entry uses_scratch
expect werror 1 "err~error: 'pto.tassign' op tile at [0x2e000, 0x2e040)" "err~[MEM.scratch-overlap]"
invoke --diagnostics=json misaligned.pto
expect json_verifier_error 1 json "out~{\"tool\": \"pto-run\", \"status\": 1," "out~\"line\": 2" noerr~error
invoke --diagnostics=json divzero.pto --set n=0
expect json_runtime_error 1 json "out~division by zero (8 / 0)" "out~\"line\": 8"
invoke --diagnostics=json scale.pto --in arg0=data/in16.bin --set s=2 --expect arg1=data/out16_x2_wrong.bin --trace
expect json_expect_report 1 json "out~\"expect\": [{\"name\": \"%arg1\", \"file\": \"data/out16_x2_wrong.bin\", \"mode\": \"allclose\", \"passed\": false" \
    "out~\"first_mismatches\": [{\"at\": [1, 3], \"got\": \"22\", \"want\": \"22.5\"" "err~L15 pto.tmuls" noout~"L15 pto.tmuls"
invoke --diagnostics json scale.pto --in arg0=data/missing.bin --set s=2
expect json_io_error 2 json "out~\"errors\": [\"--in arg0: cannot open 'data/missing.bin'" noerr~"cannot open"
invoke --diagnostics=json -Werror warn.pto --entry uses_scratch
expect json_werror 1 json "out~\"severity\": \"error\"" "out~MEM.scratch-overlap"
invoke --diagnostics=xml scale.pto
expect json_bad_format 2 "err~--diagnostics expects text or json, got 'xml'" "err~Try 'pto-run --help'."
# ---- event-id arrays (issue #14): ids held per declaration, traced and printed; ids from an array
# reach set_flag_dyn / wait_flag_dyn (and their range check) on both targets
invoke eventid_array.pto --set n=2 --set id=5 --trace --check-sync --print ids@13
expect eventid_array_trace_print 0 "out~[4] L8 pto.declare_eventid_array %ids=[0, 0]" \
    "out~[15] L12 pto.eventid_array_set array=%ids=[2, 3] index=%s=1 value=%v=3" \
    "out~[16] L13 pto.eventid_array_get %e=3 array=%ids=[2, 3] index=%s=1" "out~[17] L14 pto.set_flag_dyn event_id=%e=3" \
    "out~%ids @13 in @k (step 16): 2 i32" noerr~SYNC
invoke eventid_array.pto --set n=3 --set id=8 --check-sync
expect eventid_array_id_range_a2a3 1 "err~eventid_array.pto:19:5: error: 'pto.set_flag_dyn' op event id 8 is out of range 0..7 [SET_FLAG_DYN.event]" \
    "err~eventid_array.pto:18:13: note: the id %last comes from this 'pto.eventid_array_get'"
invoke eventid_array.pto --set n=3 --set id=8 --check-sync --target=a5
expect eventid_array_id_range_a5 1 "err~'pto.set_flag_dyn' op event id 8 is out of range 0..7 [SET_FLAG_DYN.event]"
invoke eventid_array.pto --set n=1 --set id=7 --target=a5
expect eventid_array_id_7_a5 0 empty
invoke eventid_array_arg.pto
expect eventid_array_entry_argument 1 "err~argument %ids of @k is an event-id array, which pto-run cannot pass to a kernel"
invoke eventid_array.pto --set n=1 --set id=1 --print ids
expect eventid_array_print_at_end_refused 2 "err~names %ids, an event-id array: it holds no data after the run; see its ids at a source line with --print ids@LINE"
invoke bitcast.pto --target=a5 --in a=data/bitcast_f32_2x8.bin --out o=$T/bitcast.bin
expect bitcast_abs_bits 0 same=bitcast.bin:data/bitcast_abs_2x8.bin
invoke scalar_ptr.pto --in src=data/in16.bin --set off=4 --out dst=$T/sp.bin
expect scalar_ptr_load_store 0 same=sp.bin:data/scalar_ptr_dst.bin
invoke scalar_ptr.pto --in src=data/in16.bin --set off=8 --out dst=$T/sp2.bin
expect scalar_ptr_past_input 1 "err~scalar_ptr.pto:9:10: error: 'pto.load_scalar' op view reaches 17 elements of %src, but its --in data holds only 16" absent=sp2.bin
invoke scalar_ptr.pto --set off=0
expect scalar_ptr_no_input 1 "err~'pto.load_scalar' op reads element 8 of %src, which has no input data and was not written before"
invoke scalar_ptr.pto --in src=data/in16.bin --set off=-1
expect scalar_ptr_negative_offset 1 "err~'pto.load_scalar' op expects a non-negative offset, got -1 [LOAD_SCALAR.offset]"
invoke async_put_get.pto --in src=data/in16.bin --set so=3 --set do=5 --set stride=1 --out dst=$T/async_dst.bin \
    --out back=$T/async_back.bin --out flag=$T/async_flag.bin --check-sync=strict --check-init
expect async_put_wait_get_test 0 same=async_dst.bin:data/async_dst.bin same=async_back.bin:data/async_back.bin \
    same=async_flag.bin:data/async_flag.bin empty
# --trace: a transfer's line ends with the checksum of the dst it wrote (FNV-1a 64 of floats 3..10)
invoke async_put_get.pto --in src=data/in16.bin --set so=3 --set do=5 --set stride=1 --trace
expect async_trace_dst_checksum 0 "out~[14] L19 pto.tput_async %put dst=%dp@%dst+5<8> src=%sp@%src+3<8> session=%s => %dp=fnv1a:13b9f461ff3f6232" \
    "out~[17] L22 pto.tget_async %get dst=%bp@%back+0<8> src=%dp@%dst+5<8> session=%s => %bp=fnv1a:13b9f461ff3f6232" \
    "out~[15] L20 pto.wait_async_event %done=1 event=%put session=%s"
invoke async_put_get.pto --zero-inputs --set so=0 --set do=0 --set stride=2
expect async_strided_src 1 "err~async_put_get.pto:19:12: error: 'pto.tput_async' op expects src to be a flat contiguous 1D GM view, but its strides leave gaps (the SDMA engine copies one contiguous run) [TPUT_ASYNC.view]"
invoke async_put_get.pto --set so=0 --set do=0 --set stride=1
expect async_src_no_input 1 "err~'pto.tput_async' op reads element 0 of %src, which has no input data and was not written before"
invoke async_overlap.pto --in buf=data/in16.bin --set o=8 --out buf=$T/async_o8.bin
expect async_same_buffer_disjoint 0 same=async_o8.bin:data/async_overlap_8.bin
invoke async_overlap.pto --in buf=data/in16.bin --set o=0 --out buf=$T/async_o0.bin
expect async_same_range 0 same=async_o0.bin:data/in16.bin
invoke async_overlap.pto --in buf=data/in16.bin --set o=4 --out buf=$T/async_o4.bin
expect async_overlap 1 "err~'pto.tput_async' op src (%buf elements 0..7) and dst (%buf elements 4..11) overlap: the order in which the DMA engine copies is not specified" absent=async_o4.bin
invoke async_block_offset.pto --in buf=data/in16.bin --set o=8 --out buf=$T/async_bo.bin
expect async_comm_block_offset_refused 1 "err~async_block_offset.pto:13:" "err~comm_block_offset = 64 is not modelled: pto-isa's SDMA transfers add it to both the src and dst address" absent=async_bo.bin
invoke trap.pto --set n=2 --zero-inputs --out out=$T/trap_ok.bin
expect trap_not_taken 0 size=trap_ok.bin:0
invoke trap.pto --set n=5 --zero-inputs --out out=$T/trap.bin
expect trap_taken 1 "err~trap.pto:9:7: error: 'pto.trap' op trapped: the kernel stops here" absent=trap.bin

invoke mrgsort_executed.pto --in a=data/mrg_a.bin --in b=data/mrg_b.bin --in c=data/mrg_c.bin --print ex@11 --print ex@12 \
    --print ex@13 --print o --print-format=%g
expect tmrgsort_executed_counts 0 "out~           1           -2       -15536           -1" \
    "out~           3            4            0            0" "out~           4            4            4            0" \
    "out~           9            0          8.5           20            8           10            7            1            6"
invoke mrgsort_results.pto --in a=data/mrg_a.bin --in b=data/mrg_b.bin --in c=data/mrg_c.bin --print ex@9 --print ex3@10 \
    --print o3 --print-format=%g
expect tmrgsort_result_form_counts 0 "out~%ex @9 in @k (step 5): 4 i16" "out~           3            4            0            0" \
    "out~%ex3 @10 in @k (step 6): 4 i16" "out~           4            4            4            0" \
    "out~           9            0          8.5           20            8           10            7            1            6"
# ---- mgather / mscatter / tprefetch (A5): bounding modes, GM outside the buffer, GM never written
invoke gm_gather.pto --entry gather --in g=data/in64.bin --in i=data/idx_oob16.bin --check-sync --check-init
expect mgather_clamp 0 "out~ 32.0000  35.0000  63.0000  63.0000  63.0000  39.0000  63.0000  63.0000" \
    "out~ 33.0000  34.0000  36.0000  37.0000  38.0000  40.0000  41.0000  42.0000"
invoke gm_gather.pto --entry gather_undef --in g=data/in64.bin --in i=data/i32_16.bin
expect mgather_undefined_in_buffer 0 "out~ 40.0000  41.0000  42.0000  43.0000  44.0000  45.0000  46.0000  47.0000"
invoke gm_gather.pto --entry gather_undef --in g=data/in64.bin --in i=data/idx_oob16.bin
expect mgather_undefined_outside_buffer 1 "err~gm_gather.pto:29:5: error: 'pto.mgather' op index 63 at idx (0, 2) addresses element 95 of %g (view from element 32), outside its 64 elements"
invoke gm_gather.pto --entry scatter_gather --in g=data/in64.bin --in i=data/i32_16.bin --set k=0 --check-init
expect mscatter_then_mgather_written 0 "out~ 40.0000  41.0000  42.0000  43.0000  44.0000  45.0000  46.0000  47.0000"
invoke gm_gather.pto --entry scatter_gather --in g=data/in64.bin --in i=data/i32_16.bin --set k=16
expect mgather_reads_unwritten_gm 1 "err~gm_gather.pto:49:5: error: 'pto.mgather' op reads element 16 of %o, which has no input data and was not written before"
invoke f8_mgather_zero.pto --zero-inputs
expect mgather_f8_zero_refused 1 "err~'pto.mgather' op gatherOob = zero on f8E4M3FN has no reference semantics: pto-isa's MGATHER does not compile that form for an 8-bit float"
invoke gm_gather.pto --entry prefetch --in g=data/in64.bin --set r=2
expect tprefetch_dst_row_stride 0 "out~ 48.0000  49.0000  50.0000  51.0000  52.0000  53.0000  54.0000  55.0000"
invoke gm_gather.pto --entry prefetch --in g=data/in64.bin --set r=3
expect tprefetch_outside_buffer 1 "err~'pto.tprefetch' op reads elements 32 to 71 of %g"

invoke --help
expect help_new_options 0 "out~--compare=MODE" "out~isa[:eps=E,frac=F,zeros=N]" "out~--show N" "out~--zero-inputs" \
    "out~--print SPEC" "out~--print-format=FMT" "out~--diff-trace A B" "out~-q " "out~--diagnostics=text|json"

# cube and vector kernels joined by FIFOs (interp/ops_pipe.c): cores run as coroutines
invoke fifo_c2v_ring.pto --in a=data/fifo_a_160x16.bin --in id=data/eye16.bin --expect out=data/fifo_a_160x16.bin --zero-inputs
expect fifo_c2v_ring_waits_for_free_slots 0 "out~%out: 2560 elements, 0 mismatches"
invoke fifo_v2c_split.pto --in src=data/fifo_src_16x16.bin --in id=data/eye16.bin --expect out=data/fifo_src_16x16.bin
expect fifo_v2c_split_halves 0 "out~%out: 256 elements, 0 mismatches"
invoke fifo_deadlock.pto
expect fifo_deadlock 1 "err~the cube and vector kernels it started deadlock" "err~@deadlock_cube at line 14 (pto.tpop_from_aiv)" \
    "err~@deadlock_vector sub-block 0 at line 25 (pto.tpop_from_aic)"
invoke fifo_deadlock.pto --entry deadlock_vector
expect fifo_outside_kernel_group 1 "err~runs outside a cube or vector kernel function started by the entry's func.call"
invoke fifo_v2c_split.pto --in src=data/fifo_src_16x16.bin --in id=data/eye16.bin --check-sync --check-init
expect fifo_checkers_see_cores 0 "err~PIPE_M -> PIPE_FIX (line 29 -> 32)" "err~PIPE_MTE2 -> PIPE_MTE3 (line 50 -> 51)" "noerr~unchecked"
invoke fifo_v2c_split.pto --in src=data/fifo_src_16x16.bin --in id=data/eye16.bin --trace
expect fifo_trace_names_cores 0 "out~-- core @v2c_vector sub-block 0" "out~-- core @v2c_vector sub-block 1" "out~-- core @v2c_cube"

# the lowered pipe forms (initialize_l2l_pipe / initialize_l2g2l_pipe, tpush / tpop / tfree on a
# !pto.pipe) and pto.declare_tile, on the same cores and FIFOs; l2g2l slots pass through GM as the
# simulator's TPush_gm / popTileFromGMFiFo write and read them
invoke lpipe_c2v_l2l.pto --in a=data/fifo_a_160x16.bin --in id=data/eye16.bin --expect out=data/fifo_a_160x16.bin --zero-inputs
expect lpipe_c2v_l2l_ring 0 "out~%out: 2560 elements, 0 mismatches"
invoke lpipe_c2v_l2g2l.pto --in a=data/fifo_a_160x16.bin --in id=data/eye16.bin --expect out=data/fifo_a_160x16.bin \
    --expect slots=data/lpipe_c2v_slots.bin
expect lpipe_c2v_l2g2l_gm_slots 0 "out~%out: 2560 elements, 0 mismatches" "out~%slots: 2048 elements, 0 mismatches"
invoke lpipe_v2c_l2g2l.pto --in src=data/fifo_src_16x16.bin --in id=data/eye16.bin --expect out=data/fifo_src_16x16.bin \
    --expect slots=data/fifo_src_16x16.bin
expect lpipe_v2c_l2g2l_gm_image 0 "out~%out: 256 elements, 0 mismatches" "out~%slots: 256 elements, 0 mismatches"
invoke lpipe_c2v_l2l.pto --entry lring_vector --zero-inputs
expect lpipe_outside_kernel_group 1 "err~'pto.initialize_l2l_pipe' op runs outside a cube or vector kernel function"
invoke lpipe_errors.pto --entry declared_unbound
expect lpipe_declared_tile_unbound 1 "err~'pto.tadds' op uses tile %t before it is defined"
invoke lpipe_errors.pto --entry gm_mismatch
expect lpipe_gm_on_one_side 1 "err~'pto.initialize_l2l_pipe' op sets up the cube-to-vector pipe without a GM slot buffer, but its peer set it up with one"
invoke lpipe_errors.pto --entry gm_small
expect lpipe_gm_slot_too_small 1 "err~'pto.tpush' op writes bytes [0, 1024) of its GM slot, more than slot_size 512 bytes"
# pto.print (ops_control.c): the format's text and one checked conversion, in program order with
# tprint, once per block; -q keeps it (program output); in JSON mode it goes to standard error
invoke print.pto --set s=2.5 --set n=42 --blocks 2
expect print_blocks 0 out=print_blocks.out
invoke print.pto --set s=2.5 --set n=42 --blocks 2 -q
expect print_quiet_keeps_output 0 out=print_blocks.out
invoke print.pto --set s=-0.125 --set n=-7
expect print_values 0 "out~s = -000.125|-1.250000e-01|-0.125|-0x1p-3" "out~-7    |100%" "noout~block 1"
invoke print.pto --set s=2.5 --set n=42 --trace
expect print_trace_records_start_lines 0 "out~s = +002.500|" "out~[3] L9 pto.print scalar=%s=2.5" \
    "out~4294967295 " "out~[8] L14 pto.print scalar=%m=-1" "noout~|[3] L9" "noout~4294967295 [8]"
invoke print.pto --set s=2.5 --set n=42 --diagnostics=json
expect print_json_on_stderr 0 json "err~s = +002.500|" "noout~s = +002.500|"
# pto.subset (ops_move.c): views that keep the parent's full rows alias its bytes at the window's
# offset (static or run time); a column split and pto.tpack are refused by name when they run
invoke subset_pingpong.pto --in a=data/subset_a_16x16.bin --out o=$T/subset_pp.bin
expect subset_pingpong_rows 0 same=subset_pp.bin:data/subset_pingpong_16x16.bin
invoke subset_pingpong.pto --in a=data/subset_a_16x16.bin --check-init --check-sync=strict
expect subset_views_seen_by_checkers 1 "err~race on tile %ws (UB), bytes 0..1023: 'pto.tadds' on PIPE_V (line 23) and 'pto.tstore' on PIPE_MTE3" "noerr~INIT."
invoke subset_loop.pto --in a=data/subset_a_16x16.bin --set start=0 --out o=$T/subset_loop.bin
expect subset_runtime_offset 0 same=subset_loop.bin:data/subset_loop_16x16.bin
invoke subset_loop.pto --in a=data/subset_a_16x16.bin --set start=4 --out o=$T/subset_oob.bin
expect subset_runtime_offset_out_of_range 1 "err~'pto.subset' op window at [12, 0] of 8x16 lies outside %ws's 16x16 shape"
invoke subset_init.pto --zero-inputs --check-init
expect subset_check_init_sees_alias 1 "err~'pto.tstore' reads tile %ws (UB) at element (8, 0), bytes 512..515, which no instruction wrote"
invoke subset_refused.pto --entry colsplit
expect subset_column_split_refused 1 "err~that splits its rows: PTOAS's IR gives such a view %ws's row stride (16 elements), the C++ PTOAS emits gives it its own (8)"
invoke subset_refused.pto --entry pack
expect tpack_refused 1 "err~'pto.tpack' op pto-isa implements TPACK nowhere: no CPU simulator semantics"
invoke subset_boxed.pto --in a=data/f16_48x32.bin --out b=$T/subset_boxed.bin
expect subset_boxed_box_rows 0 same=subset_boxed.bin:data/subset_boxed_rows16_32x32.bin
invoke subset_colmajor.pto --in a=data/subset_a_16x16.bin --out b=$T/subset_cm.bin
expect subset_colmajor_columns 0 same=subset_cm.bin:data/subset_colmajor_right_16x8.bin
# fp8 data (interp/numeric.c f8_value): compared and printed by value, NaN equal to NaN
invoke f8_values.pto --in src=data/f8_bytes_4x32.bin --expect src=data/f8_bytes_next_4x32.bin
expect f8_expect_compares_values 1 "out~128 elements, 128 mismatches" "out~mismatch at (0, 1): got 0.001953125, want 0.00390625"
invoke f8_values.pto --in src=data/f8_bytes_4x32.bin --expect src=data/f8_bytes_4x32.bin
expect f8_expect_same_bytes 0 "out~128 elements, 0 mismatches"
invoke f8_values.pto --in src=data/f8_bytes_4x32.bin --print "t[3:4, 28:32]" --print-format=%g
expect f8_print_values 0 "out~         384          416          448          nan"
