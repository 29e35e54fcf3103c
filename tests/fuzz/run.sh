#!/bin/sh
# Runs libFuzzer harnesses: sh tests/fuzz/run.sh FUZZ_BUILD SECONDS JOBS HARNESS...
#   SECONDS > 0: fuzz each harness that long, starting from its committed seeds
#                (tests/fuzz/corpus/H) plus what earlier runs found (FUZZ_BUILD/corpus/H);
#   SECONDS = 0: regression mode: execute every committed seed once, no fuzzing.
# Prints "PASS fuzz/H ..." (executions, coverage, corpus size, duration) or "FAIL fuzz/H" with the
# tail of the log and the artifact (crash / leak / timeout / oom input) to turn into a test.
# Logs: FUZZ_BUILD/logs/H.log. Exit status 1 if any harness failed.
fb=$1 seconds=$2 jobs=$3
shift 3
dir=$(dirname "$0")
status=0
for h in "$@"; do
    bin="$fb/fuzz_$h" seeds="$dir/corpus/$h" work="$fb/corpus/$h" art="$fb/artifacts/$h/" log="$fb/logs/$h.log"
    mkdir -p "$work" "$art" "$fb/logs"
    case $h in
        datafile) maxlen=65536 ;;
        *) maxlen=16384 ;;
    esac
    set -- -timeout=30 -rss_limit_mb=2560 -malloc_limit_mb=2048 -max_len=$maxlen -artifact_prefix="$art" \
        -print_final_stats=1
    case $h in datafile) dict=npy.dict ;; *) dict=pto.dict ;; esac
    set -- "$@" -dict="$dir/$dict"
    start=$(date +%s)
    if [ "$seconds" -eq 0 ]; then
        "$bin" "$@" -runs=0 "$seeds" > "$log" 2>&1
    elif [ "$jobs" -gt 1 ]; then
        (cd "$fb/logs" && "$bin" "$@" -max_total_time="$seconds" -jobs="$jobs" -workers="$jobs" \
            "$work" "$seeds") > "$log" 2>&1
    else
        "$bin" "$@" -max_total_time="$seconds" "$work" "$seeds" > "$log" 2>&1
    fi
    rc=$?
    end=$(date +%s)
    [ "$jobs" -gt 1 ] && [ "$seconds" -ne 0 ] && cat "$fb"/logs/fuzz-*.log >> "$log" 2>/dev/null
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s += $1} END {print s + 0}')
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(printf '%s\n' "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(printf '%s\n' "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p')
    summary="$execs execs in $((end - start)) s, cov: ${cov:-?} ft: ${ft:-?} corpus: ${corp:-?}"
    if [ "$rc" -eq 0 ] && ! grep -qE '^(==[0-9]+==ERROR|SUMMARY: |fuzz: property violated)' "$log"; then
        echo "PASS fuzz/$h ($summary)"
    else
        echo "FAIL fuzz/$h (exit $rc; $summary; log $log)"
        grep -E 'ERROR|SUMMARY|property violated|Test unit written|artifact' "$log" | head -n 12 | sed 's/^/    /'
        status=1
    fi
done
exit $status
