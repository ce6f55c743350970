"""The report's figures: inline SVG charts (degradation by skill, heatmap, rate bars, stacked bars,
survival) and their colours, drawn from the report's data with presentation attributes (no style
attributes, no external fonts); every label passes through `esc`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from .format import esc, pct

if TYPE_CHECKING:
    from simulator.records.summary import Rate

    from .data import DegradationRow

FULL_COLOUR = "#4e79a7"
SHARDED_COLOUR = "#f28e2b"
LEAK_COLOUR = "#e15759"
REFUSAL_COLOUR = "#4e79a7"
OVER_REFUSAL_COLOUR = "#f28e2b"
UTILITY_COLOUR = "#59a14f"
CATEGORY_COLOURS = {  # (in the order of simulator.replies.categories.CATEGORIES)
    "answer_attempt": "#4e79a7",
    "clarification": "#59a14f",
    "interrogation": "#edc948",
    "discussion": "#b07aa1",
    "hedge": "#ff9da7",
    "refuse": "#e15759",
    "missing": "#bab0ac",
}
_SPARE_COLOURS = ("#76b7b2", "#9c755f", "#f28e2b", "#8cd17d", "#d37295", "#a0cbe8")
DODGE = 2.5  # pixels between the lines of a survival chart


def category_colour(category: str, seen: dict[str, str] | None = None) -> str:
    if category in CATEGORY_COLOURS:
        return CATEGORY_COLOURS[category]
    seen = seen if seen is not None else {}
    if category not in seen:
        seen[category] = _SPARE_COLOURS[len(seen) % len(_SPARE_COLOURS)]
    return seen[category]


def rate_colour(rate: float) -> str:
    """A red (0) - yellow (0.5) - green (1) scale, colour-blind safer than pure red/green."""
    stops = ((0.0, (215, 48, 39)), (0.5, (254, 224, 139)), (1.0, (26, 152, 80)))
    rate = min(max(rate, 0.0), 1.0)
    for (x0, c0), (x1, c1) in pairwise(stops):
        if rate <= x1:
            t = (rate - x0) / (x1 - x0)
            return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(c0, c1))
    return "#1a9850"


# --- SVG charts -----------------------------------------------------------------------------


def _svg(width: int, height: int, body: str, label: str) -> str:
    return (
        f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{esc(label)}">{body}</svg>'
    )


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 12,
    anchor: str = "start",
    fill: str = "#1f2328",
    weight: str = "normal",
    extra: str = "",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
        f'font-weight="{weight}"{extra}>{esc(text)}</text>'
    )


def _legend(items: Sequence[tuple[str, str]], x: float, y: float) -> str:
    out = []
    for label, colour in items:
        out.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="11" height="11" fill="{colour}"/>')
        out.append(_text(x + 15, y, label, size=12))
        x += 15 + 7.2 * len(label) + 16
    return "".join(out)


def _clamp(x: float) -> float:
    return min(max(x, 0.0), 1.0)


def degradation_chart(rows: Sequence[DegradationRow]) -> str:
    """Horizontal bars of full and sharded success per row (data.DegradationRow, rates in 0..1; lo/hi the 95% CI of sharded - full). The whisker on the sharded bar
    spans full + CI, the range the paired difference allows for the sharded rate."""
    label_w, bar_w, right_w, row_h = 190, 470, 260, 44
    width = label_w + bar_w + right_w
    top = 34
    height = top + row_h * max(len(rows), 1) + 26
    out = [_legend([("full", FULL_COLOUR), ("sharded", SHARDED_COLOUR), ("95% CI (paired)", "#1f2328")], label_w, 16)]
    x0 = label_w
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = x0 + tick * bar_w
        out.append(
            f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{height - 22}" stroke="#d1d9e0" stroke-width="1"/>'
        )
        out.append(_text(x, height - 8, pct(tick), size=11, anchor="middle", fill="#59636e"))
    for i, row in enumerate(rows):
        y = top + i * row_h
        bold = "bold" if row.emphasis else "normal"
        out.append(_text(label_w - 10, y + 20, row.label, size=12.5, anchor="end", weight=bold))
        full, sharded = row.full, row.sharded
        if full is None or sharded is None:
            out.append(_text(x0 + 6, y + 20, "no full/sharded pairs", size=12, fill="#59636e"))
            continue
        for j, (name, value, colour) in enumerate((("full", full, FULL_COLOUR), ("sharded", sharded, SHARDED_COLOUR))):
            yy = y + 5 + j * 15
            w = max(_clamp(value) * bar_w, 1)
            out.append(
                f'<rect x="{x0}" y="{yy}" width="{w:.1f}" height="13" fill="{colour}">'
                f"<title>{esc(row.label)} {name}: {pct(value, 1)} ({row.pairs or 0} pairs)</title>"
                f"</rect>"
            )
        lo, hi = row.lo, row.hi
        if lo is not None and hi is not None:
            a, b = x0 + _clamp(full + lo) * bar_w, x0 + _clamp(full + hi) * bar_w
            ym = y + 5 + 15 + 6.5
            out.append(
                f'<line x1="{a:.1f}" y1="{ym:.1f}" x2="{b:.1f}" y2="{ym:.1f}" stroke="#1f2328" stroke-width="1.5"/>'
            )
            for xx in (a, b):
                out.append(
                    f'<line x1="{xx:.1f}" y1="{ym - 5:.1f}" x2="{xx:.1f}" y2="{ym + 5:.1f}" stroke="#1f2328" '
                    f'stroke-width="1.5"/>'
                )
        delta = row.delta
        txt = f"Δ {delta * 100:+.1f} pp" if delta is not None else "Δ –"
        if lo is not None and hi is not None:
            txt += f"  [{lo * 100:+.1f}, {hi * 100:+.1f}]"
        out.append(_text(x0 + bar_w + 12, y + 17, txt, size=12.5, weight=bold))
        out.append(_text(x0 + bar_w + 12, y + 32, f"{row.pairs or 0} pairs", size=11, fill="#59636e"))
    return _svg(width, height, "".join(out), "success in full and sharded mode by skill")


def heatmap(
    rows: Sequence[str],
    cols: Sequence[str],
    cells: dict[tuple[str, str], Rate | None],
    *,
    row_title: str = "task",
    col_title: str = "persona",
) -> str:
    """Rows x columns of success rates (a summary's Rate cells, None for none); the rate printed in the
    cell, n in its tooltip."""
    cw, ch = 46, 22
    steps, step_h = 11, 12  # the colour scale: 100% at the top to 0% at the bottom
    label_w = min(max((len(r) for r in rows), default=4) * 7 + 16, 260)
    head_h = min(max((len(c) for c in cols), default=4) * 5.6 + 24, 170)
    width = int(label_w + cw * len(cols) + 90)
    height = int(head_h + max(ch * len(rows), 4 + steps * step_h) + 20)  # the scale may be taller than the rows
    out = []
    for j, col in enumerate(cols):
        x = label_w + j * cw + cw / 2
        out.append(_text(x, head_h - 8, col, size=11.5, extra=f' transform="rotate(-40 {x:.1f} {head_h - 8:.1f})"'))
    for i, row in enumerate(rows):
        y = head_h + i * ch
        out.append(_text(label_w - 8, y + ch / 2 + 4, row, size=12, anchor="end"))
        for j, col in enumerate(cols):
            x = label_w + j * cw
            cell = cells.get((row, col))
            if cell is None or not cell.n or cell.rate is None:
                tip = f"{col_title} {col} · {row_title} {row}: no scored episodes"
                out.append(
                    f'<rect x="{x + 1}" y="{y + 1}" width="{cw - 2}" height="{ch - 2}" fill="#f6f8fa" '
                    f'stroke="#d1d9e0"><title>{esc(tip)}</title></rect>'
                )
                continue
            rate = cell.rate
            tip = f"{col_title} {col} · {row_title} {row}: {pct(rate, 1)} success, n={cell.n}"
            fg = "#ffffff" if rate < 0.2 or rate > 0.8 else "#1f2328"
            out.append(
                f'<g><title>{esc(tip)}</title><rect x="{x + 1}" y="{y + 1}" width="{cw - 2}" height="{ch - 2}" '
                f'fill="{rate_colour(rate)}"/>'
                + _text(x + cw / 2, y + ch / 2 + 4, pct(rate), size=11, anchor="middle", fill=fg)
                + "</g>"
            )
    # colour scale
    sx = label_w + cw * len(cols) + 22
    for k in range(steps):
        out.append(
            f'<rect x="{sx}" y="{head_h + 4 + k * step_h}" width="16" height="{step_h}" '
            f'fill="{rate_colour(1 - k / (steps - 1))}"/>'
        )
    out.append(_text(sx + 22, head_h + 14, "100%", size=11, fill="#59636e"))
    out.append(_text(sx + 22, head_h + 4 + steps * step_h, "0%", size=11, fill="#59636e"))
    return _svg(width, height, "".join(out), f"success by {col_title} and {row_title}")


def rate_bars(groups: Sequence[dict[str, Any]], series: Sequence[tuple[str, str, str]]) -> str:
    """Vertical grouped bars: one group per {label, <key>: rate, <key>_n: episodes}, one bar per
    (key, label, colour); each bar shows its own n (the episodes its rate covers) below it."""
    bar_w, gap, group_gap, plot_h, left, top = 46, 8, 60, 180, 48, 44
    group_w = len(series) * (bar_w + gap) - gap
    width = left + len(groups) * (group_w + group_gap) + 20
    width = max(width, 360)
    height = top + plot_h + 48
    out = [_legend([(label, colour) for _, label, colour in series], left, 16)]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h * (1 - tick)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - 10}" y2="{y:.1f}" stroke="#d1d9e0" stroke-width="1"/>')
        out.append(_text(left - 6, y + 4, pct(tick), size=11, anchor="end", fill="#59636e"))
    for g, group in enumerate(groups):
        gx = left + 20 + g * (group_w + group_gap)
        for s, (key, label, colour) in enumerate(series):
            value = group.get(key)
            x = gx + s * (bar_w + gap)
            if value is None:
                out.append(_text(x + bar_w / 2, top + plot_h - 4, "–", size=12, anchor="middle", fill="#59636e"))
                continue
            h = _clamp(value) * plot_h
            n = group.get(key + "_n") or 0
            tip = f"{group['label']} · {label}: {pct(value, 1)} of {n} episodes"
            out.append(
                f'<rect x="{x}" y="{top + plot_h - h:.1f}" width="{bar_w}" height="{max(h, 1):.1f}" '
                f'fill="{colour}"><title>{esc(tip)}</title></rect>'
            )
            out.append(_text(x + bar_w / 2, top + plot_h - h - 4, pct(value, 1), size=11, anchor="middle"))
            out.append(_text(x + bar_w / 2, top + plot_h + 14, f"n={n}", size=10.5, anchor="middle", fill="#59636e"))
        out.append(
            _text(gx + group_w / 2, top + plot_h + 34, group["label"], size=12.5, anchor="middle", weight="bold")
        )
    return _svg(width, height, "".join(out), "rates by group")


def stacked_bars(rows: Sequence[tuple[str, dict[str, float]]], order: Sequence[str]) -> str:
    """Horizontal 100% stacked bars: one per (label, {category: share}); categories in `order`."""
    label_w, bar_w, row_h, top = 110, 760, 30, 10
    spare: dict[str, str] = {}
    colours = {c: category_colour(c, spare) for c in order}
    legend_rows = 1 + len(order) // 6
    height = top + row_h * max(len(rows), 1) + 22 * legend_rows + 8
    out = []
    for i, (label, mix) in enumerate(rows):
        y = top + i * row_h
        out.append(_text(label_w - 10, y + 17, label, size=12.5, anchor="end", weight="bold"))
        total = sum(v for v in mix.values() if isinstance(v, (int, float))) or 1.0
        x = float(label_w)
        for cat in order:
            share = mix.get(cat) or 0.0
            if share <= 0:
                continue
            w = share / total * bar_w
            out.append(
                f'<rect x="{x:.1f}" y="{y + 2}" width="{w:.1f}" height="22" fill="{colours[cat]}">'
                f"<title>{esc(label)} · {esc(cat)}: {pct(share / total, 1)}</title></rect>"
            )
            if w > 38:
                out.append(
                    _text(
                        x + w / 2,
                        y + 17,
                        pct(share / total),
                        size=11,
                        anchor="middle",
                        fill="#ffffff" if cat in ("answer_attempt", "refuse", "discussion") else "#1f2328",
                    )
                )
            x += w
    ly = top + row_h * max(len(rows), 1) + 14
    for k in range(0, len(order), 6):
        out.append(_legend([(c, colours[c]) for c in order[k : k + 6]], label_w, ly))
        ly += 22
    return _svg(label_w + bar_w + 20, height, "".join(out), "turn categories by mode")


def survival_chart(curves: Sequence[tuple[str, Sequence[float]]]) -> str:
    """A step line per (label, shares not yet leaked after turns 1..n), from 100% before turn 1,
    each drawn DODGE pixels below the one before so equal curves stay apart; each line carries
    class="survival" and its turns' shares in tooltips."""
    left, top, plot_w, plot_h = 48, 40, 520, 200
    turns = max((len(s) for _, s in curves), default=1) or 1
    width, height = left + plot_w + 30, top + plot_h + 40
    spare: dict[str, str] = {}
    colours = [category_colour(label, spare) for label, _ in curves]
    out = [_legend(list(zip((label for label, _ in curves), colours)), left, 16)]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h * (1 - tick)
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#d1d9e0" stroke-width="1"/>'
        )
        out.append(_text(left - 6, y + 4, pct(tick), size=11, anchor="end", fill="#59636e"))
    for turn in range(turns + 1):
        out.append(
            _text(left + plot_w * turn / turns, top + plot_h + 16, str(turn), size=11, anchor="middle", fill="#59636e")
        )
    out.append(_text(left + plot_w / 2, top + plot_h + 34, "turn", size=11.5, anchor="middle", fill="#59636e"))
    for k, ((label, shares), colour) in enumerate(zip(curves, colours)):
        y = top + k * DODGE
        points: list[tuple[float, float]] = [(left, y)]
        for turn, share in enumerate(shares, 1):
            x = left + plot_w * turn / turns
            points += [(x, y), (x, top + k * DODGE + plot_h * (1 - _clamp(share)))]
            y = points[-1][1]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        tip = f"{label}: " + ", ".join(f"turn {t} {pct(s)}" for t, s in enumerate(shares, 1))
        out.append(
            f'<polyline class="survival" points="{path}" fill="none" stroke="{colour}" stroke-width="2">'
            f"<title>{esc(tip)}</title></polyline>"
        )
    return _svg(width, height, "".join(out), "survival: share of episodes not yet leaked after each turn")
