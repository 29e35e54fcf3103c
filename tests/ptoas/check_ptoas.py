#!/usr/bin/python3
"""check_ptoas.py - pto-as against the real PTOAS `ptoas` (make check-ptoas; docs/ptoas-compat.md).

Usage: check_ptoas.py BUILD_DIR [--list] [--only SUBSTRING] [--suggest]
  --list     also print the files that agree and the documented deviations
  --only S   only the files whose name contains S
  --suggest  print deviations.txt lines (with a guessed reason) for the undocumented ones

1. Finds or builds `ptoas`:
     $PTOAS_BIN                  an existing ptoas binary, else
     $PTOAS_CACHE/tools/ptoas/ptoas (default cache ~/.cache/pto-as/ptoas-build), built there with
     CMake/Ninja from $PTOAS_SRC (a PTOAS source tree) or, without it, from the local mirror
     ($PTOAS_MIRROR, a bare git repository), exported to $PTOAS_CACHE-src. A cached build is reused.
2. Runs both tools, per target (pto-as --target=a2a3|a5, ptoas --pto-arch=a3|a5), over
     samples/*.pto, tests/**/*.pto (without tests/fuzz: fuzzer inputs, not programs) and the
     .pto files under PTOAS's test/ directory,
   and compares the verdicts (accepted or rejected); a file whose module names its target
   (pto.target_arch) is compared for that target only. A file ptoas rejects only because it is
   written for --pto-level=level3 (manual addresses) is run again at level3.
3. For every file pto-as accepts, checks that ptoas accepts `pto-as --emit=dps` of it (at level3
   when the output carries manual addresses).

A disagreement is one of
   emit      ptoas rejects pto-as's --emit=dps output
   stricter  pto-as rejects a file ptoas accepts
   looser    pto-as accepts a file ptoas rejects, and ptoas rejects its --emit=dps output too
             (when ptoas accepts the emitted text, the difference is only pto-as's wider surface
             syntax: SSA form, bare statements, @tile addresses; counted as `superset`, not a
             disagreement)
Each disagreement is printed. tests/ptoas/deviations.txt lists the documented ones
(`KIND TARGET GLOB REASON`, see that file); the exit status is 1 when a disagreement is not
listed there, 0 otherwise. Listed deviations that no longer occur are reported as stale.
"""
import concurrent.futures
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TARGETS = [("a2a3", "a3"), ("a5", "a5")]
LEVEL3_HINTS = ("only supported when --pto-level=level3", "is only supported when --pto-level=level3",
                "requires 'addr' operand", "use --pto-level=level3")


def log(msg):
    print(msg, flush=True)


def ptoas_source():
    src = os.environ.get("PTOAS_SRC")
    if src and os.path.isfile(os.path.join(src, "CMakeLists.txt")):
        return src
    mirror = os.environ.get("PTOAS_MIRROR", "/work/.mirror/hw-native-sys+PTOAS/repo")
    cache = cache_dir()
    out = cache + "-src"
    if os.path.isfile(os.path.join(out, "CMakeLists.txt")):
        return out
    if not os.path.isdir(mirror):
        sys.exit("check-ptoas: no PTOAS source: set PTOAS_SRC to a PTOAS source tree, or PTOAS_MIRROR to a bare "
                 "git repository of it")
    os.makedirs(out, exist_ok=True)
    archive = subprocess.run(["git", "--git-dir=" + mirror, "archive", "HEAD"], stdout=subprocess.PIPE, check=True)
    subprocess.run(["tar", "-x", "-C", out], input=archive.stdout, check=True)
    return out


def cache_dir():
    return os.environ.get("PTOAS_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "pto-as", "ptoas-build"))


def ptoas_binary():
    b = os.environ.get("PTOAS_BIN")
    if b:
        if not os.access(b, os.X_OK):
            sys.exit("check-ptoas: PTOAS_BIN=%s is not executable" % b)
        return b
    cache = cache_dir()
    b = os.path.join(cache, "tools", "ptoas", "ptoas")
    src = ptoas_source()
    if not os.path.isfile(os.path.join(cache, "build.ninja")):
        llvm = os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-19")
        log("check-ptoas: configuring PTOAS (%s) in %s" % (src, cache))
        subprocess.run(["cmake", "-G", "Ninja", "-S", src, "-B", cache, "-DCMAKE_BUILD_TYPE=Release",
                        "-DLLVM_DIR=%s/lib/cmake/llvm" % llvm, "-DMLIR_DIR=%s/lib/cmake/mlir" % llvm,
                        "-DPTO_ENABLE_PYTHON_BINDING=OFF", "-DBUILD_TESTING=OFF"], check=True)
    if not os.access(b, os.X_OK):
        log("check-ptoas: building ptoas in %s (about 6 min with -j2, 50 min with -j1)" % cache)
    jobs = os.environ.get("PTOAS_JOBS", "2")
    subprocess.run(["nice", "-n", "19", "ninja", "-C", cache, "-j", jobs, "ptoas"], check=True,
                   stdout=subprocess.DEVNULL if os.access(b, os.X_OK) else None)
    return b


def corpus(src):
    files = []
    for d in ("samples", "tests"):
        for dirpath, dirnames, names in os.walk(os.path.join(ROOT, d)):
            dirnames[:] = sorted(n for n in dirnames if not (d == "tests" and dirpath.endswith("tests") and n == "fuzz"))
            files += [(os.path.relpath(os.path.join(dirpath, n), ROOT), os.path.join(dirpath, n))
                      for n in sorted(names) if n.endswith(".pto")]
    for dirpath, dirnames, names in os.walk(os.path.join(src, "test")):
        dirnames.sort()
        files += [("ptoas:" + os.path.relpath(os.path.join(dirpath, n), src), os.path.join(dirpath, n))
                  for n in sorted(names) if n.endswith(".pto")]
    return files


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()[:300]
    return text.strip().splitlines()[0][:300] if text.strip() else ""


def run_ptoas(ptoas, path, arch):
    """(accepted, level, first error line)"""
    res = None
    for level in ("level2", "level3"):
        try:
            p = subprocess.run(["taskset", "-c", "0", ptoas, "--pto-arch=" + arch, "--pto-level=" + level, path,
                                "-o", "/dev/null"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
            err = p.stderr.decode("utf-8", "replace")
            res = (p.returncode == 0, level, first_error(err) if p.returncode else "")
        except subprocess.TimeoutExpired:
            res = (False, level, "timeout")
        if res[0] or not any(h in res[2] for h in LEVEL3_HINTS):
            return res
    return res


def run_ptoas_as(ptoas_as, args):
    p = subprocess.run([ptoas_as] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def targets_of(path):
    """Both targets, or only the one a file's pto.target_arch names: ptoas verifies such a file
    with that target's rules whatever --pto-arch says (ptoas-build.md, section 4)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            m = re.search(r'"?pto\.target_arch"?\s*=\s*"(\w+)"', f.read())
    except OSError:
        return TARGETS
    if not m:
        return TARGETS
    return [TARGETS[1]] if m.group(1).lower() == "a5" else [TARGETS[0]]


def check_file(ptoas_as, ptoas, tmpdir, name, path):
    rows = []
    for ours, theirs in targets_of(path):
        rc, _, err = run_ptoas_as(ptoas_as, ["-q", "--target=" + ours, path])
        as_ok = rc == 0
        ref_ok, level, ref_err = run_ptoas(ptoas, path, theirs)
        emit_ok, emit_err = None, ""
        if as_ok:
            rc, text, err2 = run_ptoas_as(ptoas_as, ["--emit=dps", "--target=" + ours, path])
            if rc != 0:
                emit_ok, emit_err = False, "pto-as --emit=dps failed: " + first_error(err2)
            else:
                fd, out = tempfile.mkstemp(suffix=".pto", dir=tmpdir)
                with os.fdopen(fd, "wb") as f:
                    f.write(text)
                emit_ok, _, emit_err = run_ptoas(ptoas, out, theirs)
                os.unlink(out)
        kind = None
        if emit_ok is False:
            kind = "emit"
        elif not as_ok and ref_ok:
            kind = "stricter"
        elif as_ok and not ref_ok and emit_ok is False:
            kind = "looser"
        superset = as_ok and not ref_ok and emit_ok is True
        rows.append(dict(name=name, target=ours, as_ok=as_ok, ref_ok=ref_ok, level=level, kind=kind,
                         superset=superset, as_err=first_error(err) if not as_ok else "",
                         ref_err=ref_err, emit_err=emit_err))
    return rows


def suggest_reason(detail):
    """A first guess at a reason id from a diagnostic (for --suggest)."""
    m = re.search(r"unsupported operation '([\w.]+)'", detail)
    if m:
        return "not-implemented:" + m.group(1)
    if "memref" in detail:
        return "memref-ir"
    m = re.search(r"unknown dtype '(\w+)'", detail)
    if m:
        return "dtype:" + m.group(1)
    m = re.search(r"\[([A-Z0-9_]+\.[\w-]+)\]", detail)
    if m:
        return "rule:" + m.group(1)
    m = re.search(r"'(pto\.\w+|func\.\w+|arith\.\w+)' op ([^,;(]*)", detail)
    if m:
        return "ptoas:%s:%s" % (m.group(1), re.sub(r"[^\w]+", "-", m.group(2)).strip("-")[:40])
    return "other"


def load_deviations():
    devs = []
    with open(os.path.join(HERE, "deviations.txt")) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 3)
            if len(parts) < 4 or parts[0] not in ("emit", "stricter", "looser") or parts[1] not in ("a2a3", "a5", "*"):
                sys.exit("deviations.txt:%d: expected `emit|stricter|looser a2a3|a5|* GLOB REASON`" % n)
            devs.append(dict(kind=parts[0], target=parts[1], glob=parts[2], reason=parts[3], used=0))
    return devs


def documented(devs, row):
    for d in devs:
        if d["kind"] == row["kind"] and d["target"] in ("*", row["target"]) and fnmatch.fnmatchcase(row["name"], d["glob"]):
            d["used"] += 1
            return d
    return None


def main():
    args = sys.argv[1:]
    build = args[0] if args and not args[0].startswith("-") else "build"
    only = args[args.index("--only") + 1] if "--only" in args else None
    ptoas_as = os.path.join(build, "pto-as")
    if not os.access(ptoas_as, os.X_OK):
        sys.exit("check-ptoas: %s not built (make)" % ptoas_as)
    ptoas = ptoas_binary()
    src = os.environ.get("PTOAS_SRC") or ptoas_source()
    files = [f for f in corpus(src) if not only or only in f[0]]
    devs = load_deviations()
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir, concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for r in pool.map(lambda f: check_file(ptoas_as, ptoas, tmpdir, f[0], f[1]), files):
            rows += r
    undocumented = 0
    counts = {}
    suggestions = []
    for r in rows:
        key = (r["target"], "ours" if not r["name"].startswith("ptoas:") else "ptoas")
        c = counts.setdefault(key, dict(files=0, agree=0, superset=0, emit_ok=0, emit_checked=0,
                                        emit=0, stricter=0, looser=0, documented=0))
        c["files"] += 1
        if r["as_ok"] == r["ref_ok"]:
            c["agree"] += 1
        if r["superset"]:
            c["superset"] += 1
        if r["as_ok"]:
            c["emit_checked"] += 1
            if r["kind"] != "emit":
                c["emit_ok"] += 1
        if not r["kind"]:
            if "--list" in args:
                log("ok       %-5s %s (pto-as %s, ptoas %s%s)" % (r["target"], r["name"], "accepts" if r["as_ok"] else "rejects",
                                                                  "accepts" if r["ref_ok"] else "rejects",
                                                                  " at level3" if r["level"] == "level3" else ""))
            continue
        c[r["kind"]] += 1
        d = documented(devs, r)
        detail = {"emit": r["emit_err"], "stricter": r["as_err"], "looser": r["ref_err"]}[r["kind"]]
        if d:
            c["documented"] += 1
            if "--list" in args:
                log("known    %-8s %-5s %s [%s]" % (r["kind"], r["target"], r["name"], d["reason"]))
        else:
            undocumented += 1
            log("DISAGREE %-8s %-5s %s: %s" % (r["kind"], r["target"], r["name"], detail))
            if "--suggest" in args:
                suggestions.append("%s %s %s %s" % (r["kind"], r["target"], r["name"], suggest_reason(detail)))
    log("")
    log("%-5s %-6s %6s %6s %9s %11s %6s %9s %7s %11s" % ("target", "corpus", "files", "agree", "superset", "emit-ok",
                                                         "emit", "stricter", "looser", "documented"))
    for (target, which), c in sorted(counts.items()):
        log("%-6s %-6s %6d %6d %9d %5d/%-5d %6d %9d %7d %11d" % (
            target, which, c["files"], c["agree"], c["superset"], c["emit_ok"], c["emit_checked"], c["emit"],
            c["stricter"], c["looser"], c["documented"]))
    if not only:
        for d in devs:
            if not d["used"]:
                log("stale deviation (no longer occurs): %s %s %s" % (d["kind"], d["target"], d["glob"]))
    if suggestions:
        log("")
        log("# deviations.txt lines for the undocumented ones (--suggest; review the reasons):")
        for line in suggestions:
            log(line)
    log("check-ptoas: %d undocumented disagreement(s)" % undocumented)
    return 1 if undocumented else 0


if __name__ == "__main__":
    sys.exit(main())
