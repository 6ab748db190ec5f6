"""The benchmark's plots, drawn as SVG here (no plotting library): seconds against placements for the
scale curve and the deck series, and bound and plan over CPU time for the deck suite."""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from typing import Any

def scale_svg(rows: list[dict[str, Any]], cap: float, grey_rows: list[dict[str, Any]] | None = None,
              deck_rows: list[dict[str, Any]] | None = None) -> str:
    """A log-scale plot of seconds against placements: CP-SAT, HiGHS, exhaustive, CP-SAT with
    one grey flask a round, and CP-SAT (2 workers) on the deck series (runs stopped at their cap
    drawn there with an open marker)."""
    deck = [dict(r, cpsat_seconds=r["seconds"], cpsat_status=r["status"]) for r in deck_rows or ()
            if r.get("engine") == "CP-SAT, 2 workers"]
    W, H, L, B, T, R = 640, 360, 60, 40, 30, 150
    xs: list[int] = [r["placements"] for r in rows + deck]
    longest = max([cap] + [r.get("exhaustive_cap_seconds", cap) for r in rows] + [r["seconds"] for r in deck])
    lo, hi = 1e-2, max(cap, longest * 1.2, 1.0)    # room above a longer exhaustive cap

    def px(p: float) -> float:
        return L + (p - min(xs)) / max(1, max(xs) - min(xs)) * (W - L - R)

    def py(sec: float) -> float:
        sec = min(max(sec, lo), hi)
        return T + (math.log10(hi) - math.log10(sec)) / (math.log10(hi) - math.log10(lo)) * (H - T - B)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="Solve time against placements" font-family="sans-serif" font-size="12">',
             f'<rect x="0" y="0" width="{W}" height="{H}" fill="white"/>']
    dec = math.floor(math.log10(lo))
    while 10 ** dec <= hi:
        y = py(10 ** dec)
        parts.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{10 ** dec:g} s</text>')
        dec += 1
    for p in sorted(set(xs)):
        parts.append(f'<text x="{px(p):.1f}" y="{H - B + 16}" text-anchor="middle">{p}</text>')
    parts.append(f'<text x="{(L + W - R) / 2:.1f}" y="{H - 6}" text-anchor="middle">placements</text>')
    parts.append(f'<line x1="{L}" y1="{py(cap):.1f}" x2="{W - R}" y2="{py(cap):.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    parts.append(f'<text x="{L + 4}" y="{py(cap) - 4:.1f}" fill="#555">cap {cap:g} s</text>')
    # (name, seconds field, colour, stopped?, rows, dash, field holding where a stopped run is drawn)
    series: list[tuple[str, str, str, Callable[[dict[str, Any]], bool], list[dict[str, Any]], str, str | None]]
    series = [("CP-SAT", "cpsat_seconds", "#1f77b4", lambda r: r["cpsat_status"] != "optimal", rows, "", None),
              ("HiGHS", "highs_seconds", "#2ca02c", lambda r: r["highs_seconds"] is None, rows, "", None),
              ("exhaustive", "exhaustive_seconds", "#d62728", lambda r: r["exhaustive_capped"], rows, "",
               "exhaustive_cap_seconds")]
    if grey_rows:
        series.append(("CP-SAT, grey", "cpsat_seconds", "#9467bd", lambda r: r["cpsat_status"] != "optimal",
                       grey_rows, ' stroke-dasharray="6 3"', None))
    if deck:    # a stopped deck run is drawn at its own time (the whole game has a longer cap)
        series.append(("CP-SAT, deck (2w)", "cpsat_seconds", "#ff7f0e", lambda r: r["cpsat_status"] != "optimal",
                       deck, ' stroke-dasharray="2 2"', "seconds"))
    for n, (name, key, colour, capped, rs, dash, stopped_at) in enumerate(series):
        # r.get(None, cap) is the cap: a series without a stopped-at field draws stopped runs there
        pts = [(px(r["placements"]), py(r.get(stopped_at, cap) if capped(r) else r[key]), capped(r)) for r in rs]  # type: ignore[arg-type]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="'
                     + " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in pts) + '"/>')
        for x, y, open_ in pts:
            fill = "white" if open_ else colour
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{fill}" stroke="{colour}" stroke-width="2"/>')
        ly = T + 30 + 20 * n
        parts.append(f'<line x1="{W - R + 10}" y1="{ly}" x2="{W - R + 30}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>')
        parts.append(f'<text x="{W - R + 36}" y="{ly + 4}">{name}</text>')
    note = T + 40 + 20 * len(series)      # under the legend, however many series it has
    parts.append(f'<text x="{W - R + 10}" y="{note}" fill="#555">open marker:</text>')
    parts.append(f'<text x="{W - R + 10}" y="{note + 16}" fill="#555">stopped at its cap</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def suite_svg(rows: list[dict[str, Any]]) -> str:
    """Per size, a panel of the bound and the best plan over CPU seconds for each method: the median
    over the suite's puzzles of each as a percentage of the best plan any method found for the puzzle
    (solid: bound, dashed: plan). The bound line coming down to 100 % is a proof."""
    # a colour of its own for each method up to 20 (the suite has 20), then repeated
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
               "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd",
               "#e6550d", "#31a354", "#756bb1", "#636363"]
    methods = list(dict.fromkeys(r["engine"] for r in rows))
    sizes = sorted({r["placements"] for r in rows})
    best = {r["id"]: max((q["objective"] or 0) for q in rows if q["id"] == r["id"]) for r in rows}
    horizon: float = max([float(r["cpu_seconds"]) for r in rows] + [1.0])
    PW, PH, L, T, B, GAP = 300, 220, 50, 30, 40, 30
    W = L + len(sizes) * (PW + GAP) + 170
    H = max(T + PH + B, T + 20 + 18 * len(methods) + 40)     # the legend and its notes fit however many methods
    lo_pct = 80.0
    hi_pct: float = max([100.0] + [100.0 * p[2] / best[r["id"]] for r in rows for p in r["trace"] if best[r["id"]]] + [101.0])
    hi_pct = min(hi_pct, 200.0)

    def series(rs: list[dict[str, Any]], which: int, t: float) -> float | None:
        vals = []
        for r in rs:
            if not best[r["id"]]:
                continue             # no method found a plan: no scale to measure it by
            seen = [p for p in r["trace"] if p[0] <= t and p[which] is not None]
            if not seen and which == 2:
                return None          # a bound not known yet: no median
            vals.append(100 * seen[-1][which] / best[r["id"]] if seen else 0.0)   # no plan yet: 0 %
        return float(statistics.median(vals)) if vals else None

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="Bound and plan over CPU time per method" font-family="sans-serif" font-size="11">',
             f'<rect x="0" y="0" width="{W}" height="{H}" fill="white"/>']
    steps = [horizon * k / 60 for k in range(61)]
    for n, size in enumerate(sizes):
        x0 = L + n * (PW + GAP)

        def px(t: float, x0: float = x0) -> float:
            return x0 + t / horizon * PW

        def py(pct: float) -> float:
            pct = min(max(pct, lo_pct), hi_pct)
            return T + (hi_pct - pct) / (hi_pct - lo_pct) * PH

        parts.append(f'<text x="{x0 + PW / 2:.1f}" y="{T - 10}" text-anchor="middle" font-weight="bold">'
                     f'{size} placements</text>')
        parts.append(f'<rect x="{x0}" y="{T}" width="{PW}" height="{PH}" fill="none" stroke="#999"/>')
        pct = lo_pct
        while pct <= hi_pct:
            parts.append(f'<line x1="{x0}" y1="{py(pct):.1f}" x2="{x0 + PW}" y2="{py(pct):.1f}" stroke="#eee"/>')
            if n == 0:
                parts.append(f'<text x="{x0 - 4}" y="{py(pct) + 4:.1f}" text-anchor="end">{pct:g} %</text>')
            pct += 10 if hi_pct - lo_pct <= 60 else 20
        parts.append(f'<line x1="{x0}" y1="{py(100):.1f}" x2="{x0 + PW}" y2="{py(100):.1f}" stroke="#555"/>')
        for k in range(5):
            t = horizon * k / 4
            parts.append(f'<text x="{px(t):.1f}" y="{T + PH + 14}" text-anchor="middle">{t:.0f}</text>')
        parts.append(f'<text x="{x0 + PW / 2:.1f}" y="{H - 8}" text-anchor="middle">CPU seconds</text>')
        for m, method in enumerate(methods):
            rs = [r for r in rows if r["engine"] == method and r["placements"] == size]
            if not rs:
                continue
            colour = colours[m % len(colours)]
            for which, dash in ((2, ""), (1, ' stroke-dasharray="5 3"')):
                pts = [(px(t), py(v)) for t in steps if (v := series(rs, which, t)) is not None]
                if pts:
                    parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="'
                                 + " ".join(f"{x:.1f},{y:.1f}" for x, y in pts) + '"/>')
    lx = L + len(sizes) * (PW + GAP)
    for m, method in enumerate(methods):
        y = T + 10 + 18 * m
        parts.append(f'<line x1="{lx}" y1="{y}" x2="{lx + 20}" y2="{y}" stroke="{colours[m % len(colours)]}" stroke-width="2"/>')
        parts.append(f'<text x="{lx + 26}" y="{y + 4}">{_xml(method)}</text>')
    y = T + 20 + 18 * len(methods)
    parts.append(f'<text x="{lx}" y="{y}" fill="#555">solid: bound, dashed: plan</text>')
    parts.append(f'<text x="{lx}" y="{y + 16}" fill="#555">median over the suite,</text>')
    parts.append(f'<text x="{lx}" y="{y + 32}" fill="#555">% of the best plan found</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
