#!/bin/sh
# pto-as command-line tests (issue 13): sh tests/as-cli/suite.sh BUILD_DIR
# Usage messages, --diagnostics=json (the document on standard output is parsed with Python's
# json module and checked field by field), -q, -Werror, long-line excerpts, the entry choice with
# private helpers. Each case runs a tool from this directory and checks its exit status and, as
# listed,
#   out~TEXT / err~TEXT   stdout / stderr contains TEXT     err1=TEXT  first stderr line is TEXT
#   out=TEXT  stdout is TEXT exactly (one line)            err=       stderr is empty
#   err2=TEXT second stderr line is TEXT                   json=CHECK stdout is one JSON document
#                                                          and the Python expression CHECK (over d,
#                                                          the parsed document) holds
# Prints "PASS as-cli/NAME" or "FAIL as-cli/NAME" (with details) per case.
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || build="$root/${1:-build}"
python=${PYTHON:-/usr/bin/python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$here" || exit 1

# invoke TOOL ARGS...: runs build/TOOL, keeping status, stdout and stderr
invoke() {
    tool=$1
    shift
    rm -f "$T/out" "$T/err"
    "$build/$tool" "$@" >"$T/out" 2>"$T/err"
    status=$?
    cmdline="$tool $*"
}

# expect NAME STATUS CHECKS...
expect() {
    name=$1 want=$2
    shift 2
    problems=""
    [ "$status" -eq "$want" ] || problems="$problems|exit status $status, expected $want"
    for c in "$@"; do
        case $c in
        out~*) grep -qF -- "${c#out~}" "$T/out" || problems="$problems|stdout lacks: ${c#out~}" ;;
        err~*) grep -qF -- "${c#err~}" "$T/err" || problems="$problems|stderr lacks: ${c#err~}" ;;
        out=*) [ "$(cat "$T/out")" = "${c#out=}" ] || problems="$problems|stdout is not: ${c#out=}" ;;
        err=) [ ! -s "$T/err" ] || problems="$problems|stderr is not empty" ;;
        err1=*) [ "$(sed -n 1p "$T/err")" = "${c#err1=}" ] || problems="$problems|first stderr line is not: ${c#err1=}" ;;
        err2=*) [ "$(sed -n 2p "$T/err")" = "${c#err2=}" ] || problems="$problems|second stderr line is not: ${c#err2=}" ;;
        json=*)
            why=$("$python" -c '
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
try:
    d = json.loads(text)
except ValueError as e:
    print("stdout is not one JSON document: %s" % e); sys.exit(1)
if not eval(sys.argv[2], {"d": d}):
    print("check failed: " + sys.argv[2]); sys.exit(1)
' "$T/out" "${c#json=}" 2>&1) || problems="$problems|$why" ;;
        esac
    done
    if [ -z "$problems" ]; then
        echo "PASS as-cli/$name"
    else
        echo "FAIL as-cli/$name"
        echo "    $cmdline"
        printf '%s\n' "$problems" | tr '|' '\n' | sed -e '/^$/d' -e 's/^/    /'
        sed -e 's/^/    out: /' "$T/out" | head -n 12
        sed -e 's/^/    err: /' "$T/err" | head -n 12
    fi
}

# ---- usage: one style with pto-run ("Usage: ...", "TOOL: error: ...", "Try 'TOOL --help'.") ---
invoke pto-as --help
expect help 0 "out~Usage: pto-as [OPTIONS] FILE..." "out~--diagnostics=text|json" "out~-q " "out~-Werror" err=
invoke pto-as --frobnicate warning.pto
expect unknown_option 2 "err1=pto-as: error: unknown option '--frobnicate'" "err2=Try 'pto-as --help'."
invoke pto-as --frobnicate --diagnostics=json warning.pto
expect unknown_option_json 2 "err1=pto-as: error: unknown option '--frobnicate'" \
    'json=d["errors"] == 1 and [(x["rule"], x["file"], x["message"]) for x in d["diagnostics"]] == [("USAGE", "", "unknown option '"'"'--frobnicate'"'"'")]'
invoke pto-as --diagnostics json
expect no_files_json 2 'json=[x["message"] for x in d["diagnostics"]] == ["no input files"]'
invoke pto-as
expect no_input 2 "err1=pto-as: error: no input files" "err2=Try 'pto-as --help'."
invoke pto-as --diagnostics=yaml warning.pto
expect bad_format 2 "err1=pto-as: error: unknown --diagnostics format 'yaml' (expected text or json)" \
    "err2=Try 'pto-as --help'."
invoke pto-as --diagnostics=json --emit=dps warning.pto
expect json_emit_needs_o 2 "err~pto-as: error: --diagnostics=json writes its document to standard output" \
    "err2=Try 'pto-as --help'."

# ---- --diagnostics=json: one document on stdout --------------------------------------------------
KEYS='["file","line","column","end_line","end_column","severity","rule","message","notes","fixits"]'
invoke pto-as --diagnostics=json private_helper.pto
expect json_clean 0 err= 'json=d == {"version": 1, "diagnostics": [], "errors": 0, "warnings": 0, "errors_not_shown": 0}'
invoke pto-as --diagnostics=json ../verify/diag_partial_parse.pto
expect json_document 1 err= \
    "json=d['version'] == 1 and d['errors'] == 3 and d['warnings'] == 0 and len(d['diagnostics']) == 3" \
    "json=all(list(x) == $KEYS for x in d['diagnostics'])" \
    "json=all(x['file'] == '../verify/diag_partial_parse.pto' and x['severity'] == 'error' for x in d['diagnostics'])" \
    "json=[x['rule'] for x in d['diagnostics']] == ['PARSE.op', 'TILE.alignment', 'TILE.alignment']" \
    "json=[(x['line'], x['column'], x['end_line'], x['end_column']) for x in d['diagnostics']][1:] == [(14, 27, 14, 55), (15, 102, 15, 130)]" \
    "json=all(len(x['notes']) == 1 and 'col_major' in x['notes'][0]['message'] and x['notes'][0]['line'] == x['line'] for x in d['diagnostics'][1:])" \
    "json=[(f['line'], f['column'], f['end_column'], f['replacement']) for f in d['diagnostics'][1]['fixits']] == [(14, 54, 54, ', blayout=col_major')]"
invoke pto-as --diagnostics=json ../verify/diag_structure_hints.pto
expect json_notes_fixits 1 err= \
    "json=[x['rule'] for x in d['diagnostics']] == ['PARSE.token', 'PARSE.op', 'PARSE.func']" \
    "json=d['diagnostics'][0]['fixits'] == [{'file': '../verify/diag_structure_hints.pto', 'line': 7, 'column': 1, 'end_line': 7, 'end_column': 2, 'replacement': '//'}]" \
    "json=d['diagnostics'][1]['notes'][0]['message'] == 'the inputs come first: write ins(...) outs(...)'" \
    "json=d['diagnostics'][1]['fixits'][0]['replacement'].startswith('ins(%a, %a : ') and d['diagnostics'][1]['fixits'][0]['replacement'].endswith(') outs(%d : !pto.tile_buf<vec, 16x16xf32>)')" \
    "json=(d['diagnostics'][2]['notes'][0]['line'], d['diagnostics'][2]['fixits'][0]['replacement']) == (17, '    return\n')"
invoke pto-as --diagnostics=json ../verify/diag_one_error_per_bad_type.pto
expect json_one_error_per_bad_type 1 err= "json=d['errors'] == 2 and [x['rule'] for x in d['diagnostics']] == ['PARSE.token', 'PARSE.type']" \
    "json=(d['diagnostics'][0]['column'], d['diagnostics'][0]['end_column']) == (37, 40)" \
    "json=d['diagnostics'][1]['notes'][0]['line'] == 0 and 'f64' in d['diagnostics'][1]['notes'][0]['message']"
invoke pto-as --diagnostics=json no_such_file.pto warning.pto
expect json_io_error 2 "err1=pto-as: error: no_such_file.pto: cannot open: No such file or directory" \
    "json=[(x['file'], x['line'], x['rule']) for x in d['diagnostics']] == [('no_such_file.pto', 0, 'IO.read'), ('warning.pto', 2, 'PARSE.func')]" \
    "json=d['errors'] == 1 and d['warnings'] == 1"

awk 'BEGIN { for (i = 0; i < 1500; i++) printf "\001"; print "" }' >"$T/ctl.pto"
invoke pto-as --diagnostics=json "$T/ctl.pto"
expect json_error_cap 1 "json=len(d['diagnostics']) == 1000 and d['errors'] == 1500 and d['errors_not_shown'] == 500"

# Fix-its do what they say: applying every fix-it of the document gives a file without those
# errors (structure hints: none left; partial parse: only the parse error without a fix-it).
apply_fixits() { # SOURCE JSON OUTPUT
    "$python" - "$1" "$2" "$3" <<'PY'
import json, sys
src = open(sys.argv[1], "rb").read()
starts = [0] + [i + 1 for i, b in enumerate(src) if b == 10]
def offset(line, col): return starts[line - 1] + col - 1
edits = [(offset(f["line"], f["column"]), offset(f["end_line"], f["end_column"]), f["replacement"].encode())
         for x in json.load(open(sys.argv[2]))["diagnostics"] for f in x["fixits"]]
for a, b, text in sorted(edits, reverse=True):
    src = src[:a] + text + src[b:]
open(sys.argv[3], "wb").write(src)
PY
}
invoke pto-as --diagnostics=json ../verify/diag_structure_hints.pto
apply_fixits ../verify/diag_structure_hints.pto "$T/out" "$T/fixed1.pto"
invoke pto-as --diagnostics=json "$T/fixed1.pto"
expect fixits_fix_structure_hints 0 "json=d['errors'] == 0 and d['diagnostics'] == []"
invoke pto-as --diagnostics=json ../verify/diag_partial_parse.pto
apply_fixits ../verify/diag_partial_parse.pto "$T/out" "$T/fixed2.pto"
invoke pto-as --diagnostics=json "$T/fixed2.pto"
expect fixits_fix_col_major 1 "json=[x['rule'] for x in d['diagnostics']] == ['PARSE.op']"

# ---- -q and -Werror ---------------------------------------------------------------------------
invoke pto-as warning.pto
expect warning_shown 0 "err1=warning.pto:2:20: warning: pto.target_arch value a5 is not one of \"a2a3\", \"a2\", \"a3\", \"a5\" (a quoted string): the A2A3 rules apply"
invoke pto-as -q warning.pto
expect quiet_drops_warnings 0 err=
invoke pto-as -q --diagnostics=json warning.pto
expect quiet_json 0 "json=d['diagnostics'] == [] and d['warnings'] == 0"
invoke pto-as -q ../verify/diag_partial_parse.pto
expect quiet_keeps_errors 1 "err~diag_partial_parse.pto:7:" "err~note: a 16x1 tile is a column vector"
invoke pto-as -Werror warning.pto
expect werror 1 "err1=warning.pto:2:20: error: pto.target_arch value a5 is not one of \"a2a3\", \"a2\", \"a3\", \"a5\" (a quoted string): the A2A3 rules apply"
invoke pto-as -Werror --diagnostics=json warning.pto
expect werror_json 1 "json=d['errors'] == 1 and d['warnings'] == 0 and d['diagnostics'][0]['severity'] == 'error'"

# ---- long lines: an excerpt windowed around the column, caret under it --------------------------
"$python" - "$T/long.pto" <<'PY'
import sys
# a valid statement, then 600 bytes of spaces and words around one bad character
words = " ".join("w%d" % i for i in range(60))
open(sys.argv[1], "w").write("%c = arith.constant 1 : index // " + words + "\n%d = arith.constant 2 : index " + words.replace(" ", "  ") + " ; " + words + "\n")
PY
invoke pto-as "$T/long.pto"
why=$("$python" - "$T/err" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if "unexpected character ';'" in l)
excerpt, caret = lines[i + 1], lines[i + 2]
col = caret.index("^")
if not (excerpt.startswith("  ...") and excerpt.endswith("...")): print("not windowed at both ends: " + excerpt[:40]); sys.exit(1)
if excerpt[col] != ";": print("caret under %r, not ';'" % excerpt[col]); sys.exit(1)
if len(excerpt) > 2 + 3 + 160 + 3: print("window too wide: %d" % len(excerpt)); sys.exit(1)
PY
)
if [ -z "$why" ]; then expect long_line_excerpt 1 "err~  ..."; else echo "FAIL as-cli/long_line_excerpt"; echo "    $why"; fi

# ---- entry: a private helper does not make it ambiguous (ir/ops.c module_entry) ---------------
invoke pto-run private_helper.pto
expect private_helper_entry 0 err=
invoke pto-run two_public.pto
expect two_public_ambiguous 1 "err~cannot choose the function to run"
invoke pto-as --emit=dps private_helper.pto
expect private_helper_emits 0 "out~func.func private @twice" err=
