"""HTML and SVG building blocks for the run reports: escaping, the page shell, tables, charts.

Everything here returns strings of HTML. Every value that comes from a transcript, a config or
a summary passes through `esc` (html.escape with quote=True), in text and in attribute values
alike; numbers are formatted by us. The page shell carries a Content-Security-Policy that forbids
every network load (default-src 'none'); the only script a page may run is the one it ships
inline, allowed by its SHA-256 hash, so markup that slipped through escaping could still not run.
Charts are inline SVG with presentation attributes (no style attributes, no external fonts).
"""

from __future__ import annotations

import base64
import hashlib
import html
from typing import Any, Iterable, Sequence

FULL_COLOUR = "#4e79a7"
SHARDED_COLOUR = "#f28e2b"
LEAK_COLOUR = "#e15759"
REFUSAL_COLOUR = "#4e79a7"
OVER_REFUSAL_COLOUR = "#f28e2b"
UTILITY_COLOUR = "#59a14f"
CATEGORY_COLOURS = {
    "answer_attempt": "#4e79a7", "clarification": "#59a14f", "interrogation": "#edc948",
    "discussion": "#b07aa1", "hedge": "#ff9da7", "refuse": "#e15759", "missing": "#bab0ac",
}
_SPARE_COLOURS = ("#76b7b2", "#9c755f", "#f28e2b", "#8cd17d", "#d37295", "#a0cbe8")
DODGE = 2.5  # pixels between the lines of a survival chart
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"


def esc(value: Any) -> str:
    """Text (or an attribute value) made inert: html.escape with quote=True; None -> ''."""
    return "" if value is None else html.escape(str(value), quote=True)


def pct(rate: Any, digits: int = 0) -> str:
    """0.873 -> '87%'; None or not a number -> '–'."""
    if not isinstance(rate, (int, float)) or isinstance(rate, bool):
        return "–"
    return f"{rate * 100:.{digits}f}%"


def num(value: Any, digits: int = 0) -> str:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return "–" if value is None else esc(value)
    return f"{value:,.{digits}f}"


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
    for (x0, c0), (x1, c1) in zip(stops, stops[1:]):
        if rate <= x1:
            t = (rate - x0) / (x1 - x0)
            return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(c0, c1))
    return "#1a9850"


# --- the page -------------------------------------------------------------------------------

CSS = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg2: #f6f8fa; --pass: #1a7f37; --fail: #cf222e;
        --warn: #9a6700; }
* { box-sizing: border-box; }
body { font-family: FONT_STACK; color: var(--fg); margin: 0; background: #fff; font-size: 14px; line-height: 1.45; }
main { max-width: 1200px; margin: 0 auto; padding: 20px 28px 60px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); } h3 { font-size: 14px; margin: 14px 0 6px; }
.sub { color: var(--muted); margin: 0 0 12px; }
nav.top { display: flex; gap: 14px; flex-wrap: wrap; align-items: center; margin: 6px 0 14px; }
a { color: #0969da; text-decoration: none; } a:hover { text-decoration: underline; }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg2); font-weight: 600; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 4px 24px; }
.cards { display: flex; gap: 10px; flex-wrap: wrap; margin: 10px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 130px; background: var(--bg2); }
.card b { display: block; font-size: 20px; } .card span { color: var(--muted); font-size: 12px; }
.card.warn { border-color: #d4a72c; background: #fff8c5; }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0; }
dl.kv.wide { grid-template-columns: max-content 1fr max-content 1fr; }
dl.kv dt { color: var(--muted); } dl.kv dd { margin: 0; word-break: break-word; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 11.5px; font-weight: 600;
  line-height: 18px; border: 1px solid transparent; white-space: nowrap; }
.b-pass { background: #dafbe1; color: var(--pass); border-color: #aceebb; }
.b-fail { background: #ffebe9; color: var(--fail); border-color: #ffcecb; }
.b-infra { background: #fff8c5; color: var(--warn); border-color: #eed888; }
.b-mode { background: #ddf4ff; color: #0550ae; border-color: #b6e3ff; }
.chip { display: inline-block; border-radius: 4px; padding: 0 6px; font-size: 11.5px; background: var(--bg2);
  border: 1px solid var(--line); color: var(--muted); margin-left: 4px; }
.note { color: var(--muted); font-size: 12.5px; }
.row { display: flex; flex-wrap: wrap; gap: 0 32px; align-items: flex-start; } .row > section { min-width: 0; max-width: 100%; } .row figcaption { max-width: 460px; }
figure { margin: 8px 0 4px; } figcaption { color: var(--muted); font-size: 12.5px; }
svg text { font-family: FONT_STACK; }
details.ep { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; background: #fff; }
details.ep > summary { cursor: pointer; padding: 6px 10px; list-style-position: inside; }
details.ep[open] > summary { border-bottom: 1px solid var(--line); background: var(--bg2); }
details.ep > div.body { padding: 8px 14px 12px; }
.msgs { list-style: none; padding: 0; margin: 8px 0; }
.msg { border-left: 3px solid var(--line); padding: 3px 10px; margin: 6px 0; }
.msg.user { border-color: #8250df; } .msg.reply { border-color: #1a7f37; } .msg.tool { border-color: #d1d9e0; }
.msg.event { border-color: #d4a72c; }
.who { font-size: 12px; color: var(--muted); font-weight: 600; }
.text { white-space: pre-wrap; word-break: break-word; margin: 2px 0; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
pre { white-space: pre-wrap; word-break: break-all; background: var(--bg2); padding: 6px 8px; margin: 4px 0;
  border-radius: 4px; max-height: 320px; overflow: auto; }
.call { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
.err { color: var(--fail); }
.controls { display: flex; gap: 10px; flex-wrap: wrap; align-items: center; position: sticky; top: 0;
  background: #fff; padding: 8px 0; border-bottom: 1px solid var(--line); z-index: 1; }
.controls input[type=search] { width: 320px; padding: 4px 8px; font: inherit; }
.controls select, .controls button { font: inherit; padding: 3px 6px; }
.score { border-top: 1px dashed var(--line); margin-top: 8px; padding-top: 6px; }
""".replace("FONT_STACK", FONT)


def script_hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode() + "'"


def page(title: str, body: str, *, script: str | None = None) -> str:
    """A whole self-contained page. Network loads are forbidden by CSP; `script`, when given, is
    the page's only script (allowed by its hash; inline handlers and injected scripts are not)."""
    policy = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
    if script is not None:
        policy += "; script-src " + script_hash(script)
    tail = f"<script>{script}</script>\n" if script is not None else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n"
        "<meta name=\"referrer\" content=\"no-referrer\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n{body}\n</main>\n{tail}"
        "</body>\n</html>\n")


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], *, numeric: Sequence[int] = (),
          raw: Sequence[int] = ()) -> str:
    """A table; cells are escaped unless their column index is in `raw` (HTML we built)."""
    out = ["<table><thead><tr>", "".join(f"<th>{esc(h)}</th>" for h in headers), "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>")
        for i, cell in enumerate(row):
            cls = ' class="n"' if i in numeric else ""
            out.append(f"<td{cls}>{cell if i in raw else esc(cell)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def badge(text: str, kind: str) -> str:
    return f'<span class="badge b-{esc(kind)}">{esc(text)}</span>'


# --- SVG charts -----------------------------------------------------------------------------

def _svg(width: int, height: int, body: str, label: str) -> str:
    return (f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{esc(label)}">{body}</svg>')


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "start", fill: str = "#1f2328",
          weight: str = "normal", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}"{extra}>{esc(text)}</text>')


def _legend(items: Sequence[tuple[str, str]], x: float, y: float) -> str:
    out = []
    for label, colour in items:
        out.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="11" height="11" fill="{colour}"/>')
        out.append(_text(x + 15, y, label, size=12))
        x += 15 + 7.2 * len(label) + 16
    return "".join(out)


def _clamp(x: float) -> float:
    return min(max(x, 0.0), 1.0)


def degradation_chart(rows: Sequence[dict[str, Any]]) -> str:
    """Horizontal bars of full and sharded success per row ({label, full, sharded, lo, hi, delta,
    pairs}, rates in 0..1; lo/hi the 95% CI of sharded - full). The whisker on the sharded bar
    spans full + CI, the range the paired difference allows for the sharded rate."""
    label_w, bar_w, right_w, row_h = 190, 470, 260, 44
    width = label_w + bar_w + right_w
    top = 34
    height = top + row_h * max(len(rows), 1) + 26
    out = [_legend([("full", FULL_COLOUR), ("sharded", SHARDED_COLOUR),
                    ("95% CI (paired)", "#1f2328")], label_w, 16)]
    x0 = label_w
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = x0 + tick * bar_w
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{height - 22}" stroke="#d1d9e0" '
                   f'stroke-width="1"/>')
        out.append(_text(x, height - 8, pct(tick), size=11, anchor="middle", fill="#59636e"))
    for i, row in enumerate(rows):
        y = top + i * row_h
        bold = "bold" if row.get("emphasis") else "normal"
        out.append(_text(label_w - 10, y + 20, row["label"], size=12.5, anchor="end", weight=bold))
        full, sharded = row.get("full"), row.get("sharded")
        if full is None or sharded is None:
            out.append(_text(x0 + 6, y + 20, "no full/sharded pairs", size=12, fill="#59636e"))
            continue
        for j, (name, value, colour) in enumerate((("full", full, FULL_COLOUR), ("sharded", sharded, SHARDED_COLOUR))):
            yy = y + 5 + j * 15
            w = max(_clamp(value) * bar_w, 1)
            out.append(f'<rect x="{x0}" y="{yy}" width="{w:.1f}" height="13" fill="{colour}">'
                       f'<title>{esc(row["label"])} {name}: {pct(value, 1)} ({row.get("pairs") or 0} pairs)</title>'
                       f'</rect>')
        lo, hi = row.get("lo"), row.get("hi")
        if lo is not None and hi is not None:
            a, b = x0 + _clamp(full + lo) * bar_w, x0 + _clamp(full + hi) * bar_w
            ym = y + 5 + 15 + 6.5
            out.append(f'<line x1="{a:.1f}" y1="{ym:.1f}" x2="{b:.1f}" y2="{ym:.1f}" stroke="#1f2328" stroke-width="1.5"/>')
            for xx in (a, b):
                out.append(f'<line x1="{xx:.1f}" y1="{ym - 5:.1f}" x2="{xx:.1f}" y2="{ym + 5:.1f}" stroke="#1f2328" '
                           f'stroke-width="1.5"/>')
        delta = row.get("delta")
        txt = f"Δ {delta * 100:+.1f} pp" if delta is not None else "Δ –"
        if lo is not None and hi is not None:
            txt += f"  [{lo * 100:+.1f}, {hi * 100:+.1f}]"
        out.append(_text(x0 + bar_w + 12, y + 17, txt, size=12.5, weight=bold))
        out.append(_text(x0 + bar_w + 12, y + 32, f"{row.get('pairs') or 0} pairs", size=11, fill="#59636e"))
    return _svg(width, height, "".join(out), "success in full and sharded mode by skill")


def heatmap(rows: Sequence[str], cols: Sequence[str], cells: dict[tuple[str, str], dict[str, Any]],
            *, row_title: str = "task", col_title: str = "persona") -> str:
    """Rows x columns of success rates ({n, rate}); the rate printed in the cell, n in its tooltip."""
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
            if not cell or not cell.get("n") or cell.get("rate") is None:
                tip = f"{col_title} {col} · {row_title} {row}: no scored episodes"
                out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cw - 2}" height="{ch - 2}" fill="#f6f8fa" '
                           f'stroke="#d1d9e0"><title>{esc(tip)}</title></rect>')
                continue
            rate = cell["rate"]
            tip = f"{col_title} {col} · {row_title} {row}: {pct(rate, 1)} success, n={cell['n']}"
            fg = "#ffffff" if rate < 0.2 or rate > 0.8 else "#1f2328"
            out.append(f'<g><title>{esc(tip)}</title><rect x="{x + 1}" y="{y + 1}" width="{cw - 2}" height="{ch - 2}" '
                       f'fill="{rate_colour(rate)}"/>'
                       + _text(x + cw / 2, y + ch / 2 + 4, pct(rate), size=11, anchor="middle", fill=fg) + "</g>")
    # colour scale
    sx = label_w + cw * len(cols) + 22
    for k in range(steps):
        out.append(f'<rect x="{sx}" y="{head_h + 4 + k * step_h}" width="16" height="{step_h}" '
                   f'fill="{rate_colour(1 - k / (steps - 1))}"/>')
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
            out.append(f'<rect x="{x}" y="{top + plot_h - h:.1f}" width="{bar_w}" height="{max(h, 1):.1f}" '
                       f'fill="{colour}"><title>{esc(tip)}</title></rect>')
            out.append(_text(x + bar_w / 2, top + plot_h - h - 4, pct(value, 1), size=11, anchor="middle"))
            out.append(_text(x + bar_w / 2, top + plot_h + 14, f"n={n}", size=10.5, anchor="middle",
                             fill="#59636e"))
        out.append(_text(gx + group_w / 2, top + plot_h + 34, group["label"], size=12.5, anchor="middle",
                         weight="bold"))
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
            out.append(f'<rect x="{x:.1f}" y="{y + 2}" width="{w:.1f}" height="22" fill="{colours[cat]}">'
                       f'<title>{esc(label)} · {esc(cat)}: {pct(share / total, 1)}</title></rect>')
            if w > 38:
                out.append(_text(x + w / 2, y + 17, pct(share / total), size=11, anchor="middle", fill="#ffffff"
                                 if cat in ("answer_attempt", "refuse", "discussion") else "#1f2328"))
            x += w
    ly = top + row_h * max(len(rows), 1) + 14
    for k in range(0, len(order), 6):
        out.append(_legend([(c, colours[c]) for c in order[k:k + 6]], label_w, ly))
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
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#d1d9e0" '
                   'stroke-width="1"/>')
        out.append(_text(left - 6, y + 4, pct(tick), size=11, anchor="end", fill="#59636e"))
    for turn in range(turns + 1):
        out.append(_text(left + plot_w * turn / turns, top + plot_h + 16, str(turn), size=11, anchor="middle",
                         fill="#59636e"))
    out.append(_text(left + plot_w / 2, top + plot_h + 34, "turn", size=11.5, anchor="middle", fill="#59636e"))
    for k, ((label, shares), colour) in enumerate(zip(curves, colours)):
        points, y = [(left, top + k * DODGE)], top + k * DODGE
        for turn, share in enumerate(shares, 1):
            x = left + plot_w * turn / turns
            points += [(x, y), (x, top + k * DODGE + plot_h * (1 - _clamp(share)))]
            y = points[-1][1]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        tip = f"{label}: " + ", ".join(f"turn {t} {pct(s)}" for t, s in enumerate(shares, 1))
        out.append(f'<polyline class="survival" points="{path}" fill="none" stroke="{colour}" stroke-width="2">'
                   f'<title>{esc(tip)}</title></polyline>')
    return _svg(width, height, "".join(out), "survival: share of episodes not yet leaked after each turn")
