/**
 * The Python module `data_analysis` writes next to its scripts
 * (`tandem_data.py`): loading CSV and JSON with the standard library,
 * describing the data, charts without third-party packages (SVG; PNG through
 * matplotlib when installed) and the results line the skill reads back.
 * @module
 */

/** The line prefix of the results a script reports with `result(...)`. */
export const RESULT_PREFIX = 'RESULT_JSON: ';

/** The environment variable naming the directory charts go to. */
export const CHART_DIR_ENV = 'TANDEM_CHART_DIR';

/** Source of `tandem_data.py`. */
export const DATA_HELPER_PY = String.raw`"""Helpers for data_analysis scripts: load CSV or JSON rows, describe them,
save charts (PNG through matplotlib when installed, else SVG with the standard
library), and report results the skill reads back."""
import csv
import json
import math
import os
from xml.sax.saxutils import escape

CHART_DIR = os.environ.get("TANDEM_CHART_DIR", "charts")
RESULT_PREFIX = "RESULT_JSON: "


def _number(value):
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text == "":
        return None
    try:
        number = float(text)
    except ValueError:
        return value
    if math.isfinite(number) and number.is_integer() and "." not in text and "e" not in text.lower():
        return int(number)
    return number


def _rows_of(data):
    if isinstance(data, dict):
        lists = [v for v in data.values() if isinstance(v, list)]
        if len(lists) == 1 and all(isinstance(r, dict) for r in lists[0]):
            data = lists[0]
        elif data and all(isinstance(v, list) for v in data.values()):
            size = max(len(v) for v in data.values())
            data = [{k: (v[i] if i < len(v) else None) for k, v in data.items()} for i in range(size)]
        else:
            data = [data]
    return [row if isinstance(row, dict) else {"value": row} for row in data]


def load(path):
    """Rows of a CSV or JSON file as a list of dicts; numeric text becomes numbers."""
    if path.lower().endswith((".json", ".jsonl", ".ndjson")):
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        return _rows_of(data)
    with open(path, newline="", encoding="utf-8-sig") as handle:
        sample = handle.read(8192)
        handle.seek(0)
        try:
            dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
        except csv.Error:
            dialect = csv.excel
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(handle, dialect=dialect)]


def numbers(rows, column):
    """The numeric values of a column, skipping blanks and text."""
    return [r[column] for r in rows if isinstance(r.get(column), (int, float)) and not isinstance(r.get(column), bool)]


def describe(path, head=5):
    """Prints the row count, each column's type with an example, and the first rows."""
    rows = load(path)
    columns = list(rows[0].keys()) if rows else []
    print(f"rows: {len(rows)}")
    for column in columns:
        values = [r.get(column) for r in rows if r.get(column) is not None]
        numeric = numbers(rows, column)
        kind = "number" if values and len(numeric) == len(values) else "text"
        extra = f" min={min(numeric)} max={max(numeric)}" if kind == "number" and numeric else ""
        distinct = f" distinct={len(set(map(str, values)))}" if kind == "text" else ""
        print(f"column {column!r}: {kind}{extra}{distinct} example={values[0] if values else None!r}")
    for row in rows[:head]:
        print(json.dumps(row, default=str))


def _clean(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item"):
        return _clean(value.item())
    return value


def result(**values):
    """Reports the key numbers of the analysis (call once, at the end)."""
    print(RESULT_PREFIX + json.dumps(_clean(values), default=str))


def _svg(kind, labels, values, title):
    width, height, left, bottom, top = 640, 400, 60, 60, 40
    peak = max([abs(v) for v in values] + [1e-12])
    plot_w, plot_h = width - left - 20, height - top - bottom
    step = plot_w / max(len(values), 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="16">{escape(str(title))}</text>',
             f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>']
    points = []
    for i, (label, value) in enumerate(zip(labels, values)):
        x = left + i * step
        h = plot_h * abs(value) / peak
        y = top + plot_h - h
        if kind == "line":
            points.append(f"{x + step / 2:.1f},{y:.1f}")
        else:
            parts.append(f'<rect x="{x + step * 0.1:.1f}" y="{y:.1f}" width="{step * 0.8:.1f}" height="{h:.1f}" fill="#4472c4"/>')
        parts.append(f'<text x="{x + step / 2:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{escape(str(label))}</text>')
        parts.append(f'<text x="{x + step / 2:.1f}" y="{y - 4:.1f}" text-anchor="middle">{escape(f"{value:g}")}</text>')
    if points:
        parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="#4472c4" stroke-width="2"/>')
    parts.append("</svg>")
    return "\n".join(parts)


def save_chart(name, labels, values, title="", kind="bar"):
    """Saves a bar or line chart under CHART_DIR: PNG through matplotlib when installed, else SVG. Returns its path."""
    os.makedirs(CHART_DIR, exist_ok=True)
    labels, values = [str(l) for l in labels], [float(v) for v in values]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        path = os.path.join(CHART_DIR, f"{name}.svg")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(_svg(kind, labels, values, title))
        return path
    path = os.path.join(CHART_DIR, f"{name}.png")
    figure, axes = plt.subplots(figsize=(8, 5))
    (axes.plot if kind == "line" else axes.bar)(labels, values)
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
`;
