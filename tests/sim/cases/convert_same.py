# TCVT between identical float types: the simulator's convert_value<D, S> with D == S is
# `static_cast<float>(val)`, the identity: the bits are kept, a signalling NaN is not quietened, and
# the round mode does not apply (it rounds float -> integer only). With saturation the value goes
# through double and clamp_value first (std::max(lo, std::min(hi, v))): NaN becomes the type's max,
# infinities its bounds. "snan" data: NaN payloads, +-inf, +-0, subnormals and signalling NaNs.
# (f16 -> f16 and bf16 -> bf16 are not TCVT pairs of docs/isa/TCVT.md: the verifier refuses them.)


def cases(T, case, G=None):
    out = []
    for target in ("a2a3", "a5"):
        sfx = "" if target == "a2a3" else "_a5"
        for m, sat in (("RINT", False), ("FLOOR", False), ("ODD", False), ("RINT", True)):
            call = "TCVT(d, a, RoundMode::CAST_%s%s);" % (m, ", SaturationMode::ON" if sat else "")
            attrs = "{rmode = #pto<round_mode %s>%s}" % (m, ", sat_mode = #pto<saturation_mode ON>" if sat else "")
            out.append(case("tcvt_f32_f32_%s%s_snan%s" % (m.lower(), "_sat" if sat else "", sfx), "tcvt",
                            dict(a=T("f32", 16, 64, (13, 60), data="snan"), d=T("f32", 16, 64, (13, 60))), ["a"], ["d"], call,
                            target, attrs=attrs,
                            desc="TCVT f32 -> f32 rmode %s%s: %s" % (m, " sat ON" if sat else "",
                                                                    "through double, NaN -> max" if sat else
                                                                    "the identity, signalling NaNs kept")))
    return out
