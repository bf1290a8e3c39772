# LLM Sandbox chart capture for Python: the patches sitecustomize applies to a library when
# the program imports it (kept out of sitecustomize, which every interpreter start compiles:
# this module is loaded only by programs that import one of the watched libraries).
#
# What ends up in $LLM_SANDBOX_OUTPUT_DIR (every file there goes back to the caller):
# - matplotlib (and seaborn, pandas .plot(), which draw through it): every open figure at
#   plt.show() / Figure.show(), every figure still open at exit, and a copy of every file
#   Figure.savefig writes outside the output folder;
# - plotly: fig.show() as an HTML page, write_html as the same page, a copy of write_image
#   files; without kaleido write_image cannot render, so the figure comes back as HTML and
#   stderr says so;
# - PIL: a copy of every image Image.save writes outside the output folder;
# - pandas: display(df), as in a notebook, shows the DataFrame (or Series) and writes it as table_N.csv, which
#   comes back as a table (its outline for the model, the whole file as a resource); so does a DataFrame
#   printed (its text made: print(df), f"{df}"). At most 20 tables a run.
#
# Beside each matplotlib chart and plotly page it writes the data the chart shows, for the model to read
# instead of pixels: .NAME.chart.json next to NAME (the host takes it off the artifacts and
# hands it on with NAME's); when a series is cut to its outline, every point of the chart in
# STEM.data.csv beside it (a file like any other: the client reads it as a resource).
import os
import sys

_OUTPUT_DIR = os.environ["LLM_SANDBOX_OUTPUT_DIR"]
# What the host returns as a chart; other files a library writes (eps, tiff) are not copied.
_CHART_EXTENSIONS = (".png", ".svg", ".jpg", ".jpeg", ".gif", ".pdf", ".webp")
_PIL_FORMAT_EXTENSIONS = {"PNG": ".png", "JPEG": ".jpg", "GIF": ".gif", "WEBP": ".webp", "PDF": ".pdf"}


class _State:
    figures = 0  # figure_N numbering, shared by matplotlib and plotly captures
    tables = 0  # table_N numbering of the frames shown (display(), print())
    tables_capped = False  # said that a run's tables beyond _MAX_TABLES are not kept
    displaying = 0  # >0 while display() prints a frame it has written already
    point_files = {}  # image path -> the file of its every point (a figure saved again writes the same one)
    # >0 while one of our wrappers runs: the libraries call each other (savefig writes PNGs
    # and JPEGs through PIL), and one chart must be copied once.
    busy = 0


def _output_root():
    return os.path.realpath(_OUTPUT_DIR)


def _is_inside_output(path):
    return os.path.realpath(path).startswith(_output_root() + os.sep)


def _keep_in_order(path):
    # The runner returns files in order of modification time, then name; tmpfs timestamps
    # are coarse, so two charts written in the same tick could swap (figure_10 < figure_9).
    # Make each file we write strictly newer than everything already there.
    try:
        newest = 0
        for entry in os.scandir(_OUTPUT_DIR):
            if entry.path != path:
                newest = max(newest, entry.stat(follow_symlinks=False).st_mtime_ns)
        own = os.stat(path)
        if own.st_mtime_ns <= newest:
            os.utime(path, ns=(own.st_atime_ns, newest + 1000))
    except OSError:
        pass


def _next_figure_path(extension):
    while True:
        _State.figures += 1
        path = os.path.join(_OUTPUT_DIR, "figure_%d.%s" % (_State.figures, extension))
        if not os.path.exists(path):
            return path


def _free_name(name):
    stem, extension = os.path.splitext(name)
    candidate, number = name, 1
    while os.path.exists(os.path.join(_OUTPUT_DIR, candidate)):
        number += 1
        candidate = "%s_%d%s" % (stem, number, extension)
    return os.path.join(_OUTPUT_DIR, candidate)


def _file_path(target):
    """The path a library wrote to, or None when it wrote to a file object."""
    if isinstance(target, (str, bytes, os.PathLike)):
        path = os.fsdecode(target)
        return path if path else None
    return None


def _copy_into_output(path, extensions=_CHART_EXTENSIONS, extension=None):
    """Copies a file the program wrote elsewhere into the output folder; where it is there now,
    or None."""
    if _is_inside_output(path):
        return path
    if not os.path.isfile(path):
        return None
    name = os.path.basename(path)
    if extension and not name.lower().endswith(extensions):
        name += extension
    if not name.lower().endswith(extensions):
        return None
    import shutil

    try:
        target = _free_name(name)
        shutil.copyfile(path, target)
        _keep_in_order(target)
    except OSError:
        return None
    return target


def _note(message):
    sys.stderr.write("llm-sandbox: %s\n" % message)
    sys.stderr.flush()


# --- matplotlib -----------------------------------------------------------------------


def _mark_captured(figure):
    # matplotlib leaves a figure "stale" after savefig; clearing the flag lets any later change
    # to the figure (which sets it again) tell a saved chart from one drawn on afterwards.
    figure._llm_sandbox_captured = True
    figure.stale = False


def _needs_capture(figure):
    return not (getattr(figure, "_llm_sandbox_captured", False) and not figure.stale)


def _save_figure(figure):
    path = _next_figure_path("png")
    _State.busy += 1  # our own save: its data is written once, here, after the image's place in the order is set
    try:
        figure.savefig(path, format="png", bbox_inches="tight")
    finally:
        _State.busy -= 1
    _mark_captured(figure)
    _keep_in_order(path)
    _write_chart(figure, path)


# The points a series keeps in a chart's data (evenly spread, the last one included); its
# exact count, minimum and maximum are kept whatever it is cut to.
_CHART_POINTS = 200


def _plain(value):
    """A number as JSON takes it (None for NaN and infinities), else the value as text."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return number if number == number and abs(number) != float("inf") else None


def _series(name, kind, x, y):
    x = [_plain(value) for value in x]
    y = [_plain(value) for value in y]
    count = min(len(x), len(y))
    x, y = x[:count], y[:count]
    series = {"name": name if name and not name.startswith("_") else "", "kind": kind, "points": count}
    numbers = [value for value in y if isinstance(value, float)]
    if numbers:
        series["y_min"], series["y_max"] = min(numbers), max(numbers)
    if kind == "scatter":
        r = _correlation(x, y)
        if r is not None:
            series["r"] = r
    series["truncated"] = count > _CHART_POINTS
    if series["truncated"]:
        series["_all"] = (x, y)  # for the file of every point (_write_all_points); not in the chart data
        kept = sorted({int(i * count / _CHART_POINTS) for i in range(_CHART_POINTS)} | {count - 1})
        x, y = [x[i] for i in kept], [y[i] for i in kept]
    series["x"], series["y"] = x, y
    return series


def _correlation(x, y):
    """Pearson's r of the pairs of numbers, None for fewer than three or a constant side."""
    pairs = [(a, b) for a, b in zip(x, y) if isinstance(a, float) and isinstance(b, float)]
    if len(pairs) < 3:
        return None
    mean_x = sum(a for a, _ in pairs) / len(pairs)
    mean_y = sum(b for _, b in pairs) / len(pairs)
    xy = sum((a - mean_x) * (b - mean_y) for a, b in pairs)
    xx = sum((a - mean_x) ** 2 for a, _ in pairs)
    yy = sum((b - mean_y) ** 2 for _, b in pairs)
    if xx <= 0 or yy <= 0:
        return None
    return max(-1.0, min(1.0, xy / (xx * yy) ** 0.5))


def _write_all_points(chart, image_path):
    """When a series was cut, every point of every series in a CSV beside the image (series, kind, x, y; axes first
    when several have series), named in the chart's data_file; the cut series lose their copy of the points."""
    import csv

    cut = [series for each in chart["axes"] for series in each["series"] if "_all" in series]
    if not cut:
        return
    with_axes = sum(1 for each in chart["axes"] if each["series"]) > 1
    path = _State.point_files.get(image_path)
    if path is None:
        directory, name = os.path.split(image_path)
        stem = os.path.splitext(name)[0]
        path, number = os.path.join(directory, stem + ".data.csv"), 1
        while os.path.exists(path):
            number += 1
            path = os.path.join(directory, "%s.data_%d.csv" % (stem, number))
        _State.point_files[image_path] = path
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow((["axes"] if with_axes else []) + ["series", "kind", "x", "y"])
        for index, each in enumerate(chart["axes"]):
            axes_name = [each["title"] or str(index + 1)] if with_axes else []
            for position, series in enumerate(each["series"]):
                x, y = series.pop("_all", None) or (series.get("x") or [], series.get("y") or [])
                if series["kind"] == "box":
                    continue
                label = series["name"] or str(position + 1)
                writer.writerows(axes_name + [label, series["kind"], a, b] for a, b in zip(x, y))
    chart["data_file"] = os.path.relpath(path, _OUTPUT_DIR)


def _axis(axes, which):
    get = (lambda name: getattr(axes, "get_%s%s" % (which, name))())
    low, high = get("lim")
    return {"label": get("label"), "scale": get("scale"), "range": [_plain(low), _plain(high)]}


def _bars(axes, container):
    patches = list(container.patches)
    horizontal = getattr(container, "orientation", None) == "horizontal"
    label = container.get_label() or ""
    starts = [p.get_y() if horizontal else p.get_x() for p in patches]
    widths = [p.get_height() if horizontal else p.get_width() for p in patches]
    values = [p.get_width() if horizontal else p.get_height() for p in patches]
    touching = len(patches) > 1 and all(
        abs(starts[i] + widths[i] - starts[i + 1]) <= 1e-9 * max(1.0, abs(starts[i + 1]))
        for i in range(len(patches) - 1))
    if touching and not horizontal:
        series = _series(label, "histogram", starts, values)
        series["bin_edges"] = [_plain(edge) for edge in starts + [starts[-1] + widths[-1]]][: _CHART_POINTS + 1]
        return series
    # Categories by their tick labels where the bars sit on ticks.
    ticks = (axes.get_yticks() if horizontal else axes.get_xticks())
    names = [text.get_text() for text in (axes.get_yticklabels() if horizontal else axes.get_xticklabels())]
    by_tick = {round(float(tick), 6): name for tick, name in zip(ticks, names) if name}
    centres = [start + width / 2 for start, width in zip(starts, widths)]
    categories = [by_tick.get(round(centre, 6), centre) for centre in centres]
    return _series(label, "bar", categories, values)


def _box_series(axes):
    """The box plots drawn on `axes` (recorded by the bxp wrapper) as one series: a box per
    group with its quartiles, whiskers and outliers; the ids of the lines that draw them."""
    boxes, drawn = [], set()
    horizontal = False
    for stats, artists, positions, vertical in getattr(axes, "_llm_sandbox_boxes", []):
        drawn |= artists
        horizontal = horizontal or not vertical
        ticks = axes.get_xticks() if vertical else axes.get_yticks()
        names = [t.get_text() for t in (axes.get_xticklabels() if vertical else axes.get_yticklabels())]
        by_tick = {round(float(tick), 6): name for tick, name in zip(ticks, names) if name}
        for stat, position in zip(stats, positions):
            outliers = [_plain(value) for value in list(stat.get("fliers", []))]
            box = {"label": str(stat.get("label") or by_tick.get(round(float(position), 6), _plain(position))),
                   "median": _plain(stat.get("med")), "q1": _plain(stat.get("q1")), "q3": _plain(stat.get("q3")),
                   "whisker_low": _plain(stat.get("whislo")), "whisker_high": _plain(stat.get("whishi")),
                   "outliers": outliers[:50], "outlier_count": len(outliers)}
            if stat.get("mean") is not None:
                box["mean"] = _plain(stat["mean"])
            boxes.append(box)
    if not boxes:
        return None, drawn
    series = _series("", "box", [box["label"] for box in boxes], [box["median"] for box in boxes])
    series["boxes"] = boxes[:_CHART_POINTS]
    if horizontal:
        series["orientation"] = "horizontal"
    return series, drawn


def _axes_data(axes):
    from matplotlib.collections import PathCollection
    from matplotlib.container import BarContainer
    from matplotlib.patches import Wedge

    box, box_lines = _box_series(axes)
    series = [box] if box else []
    bars = any(isinstance(each, BarContainer) and len(each.patches) for each in axes.containers)
    for line in axes.get_lines():
        if id(line) in box_lines:
            continue
        drawn = _series(line.get_label(), "line", line.get_xdata(), line.get_ydata())
        x, y = drawn["x"], drawn["y"]
        # Nothing drawn (every y NaN, as seaborn's error bar of a one-value group), or an error bar beside bars (a
        # vertical or horizontal two-point line, as seaborn's barplot draws its intervals): no series of its own.
        if all(value is None for value in y) or (bars and len(x) == 2 and (x[0] == x[1] or y[0] == y[1])):
            continue
        series.append(drawn)
    for collection in axes.collections:
        if isinstance(collection, PathCollection) and len(collection.get_offsets()):
            offsets = collection.get_offsets()
            series.append(_series(collection.get_label(), "scatter", offsets[:, 0], offsets[:, 1]))
    for container in axes.containers:
        if isinstance(container, BarContainer) and len(container.patches):
            series.append(_bars(axes, container))
    wedges = [patch for patch in axes.patches if isinstance(patch, Wedge)]
    if wedges:
        sizes = [(wedge.theta2 - wedge.theta1) / 360.0 for wedge in wedges]
        series.append(_series("", "pie", [wedge.get_label() for wedge in wedges], sizes))
    for image in axes.get_images():
        array = image.get_array()
        if array is not None:
            series.append({"name": "", "kind": "image", "shape": list(array.shape),
                           "range": [_plain(array.min()), _plain(array.max())], "points": int(array.size)})
    legend = axes.get_legend()
    return {
        "title": axes.get_title(),
        "x": _axis(axes, "x"),
        "y": _axis(axes, "y"),
        "series": series,
        "legend": [text.get_text() for text in legend.get_texts()] if legend else [],
        "annotations": [text.get_text() for text in axes.texts if text.get_text()][:20],
    }


def _chart_of(figure):
    axes = [_axes_data(each) for each in figure.get_axes() if each.get_visible()]
    kinds = [series["kind"] for each in axes for series in each["series"]]
    suptitle = getattr(figure, "_suptitle", None)
    title = suptitle.get_text() if suptitle is not None else next((a["title"] for a in axes if a["title"]), "")
    return {"library": "matplotlib", "kind": kinds[0] if kinds else "empty", "title": title, "axes": axes}


def _plotly_chart_of(figure):
    """A plotly figure's data as a chart: its traces as series, its layout's titles and axes."""
    layout = figure.layout

    def axis(settings):
        axis_range = settings.range
        return {"label": settings.title.text or "", "scale": settings.type or "linear",
                "range": [_plain(value) for value in axis_range] if axis_range else None}

    def values(data):
        return [] if data is None else list(data)

    series = []
    for trace in figure.data:
        kind = trace.type
        name = getattr(trace, "name", None) or ""
        if kind == "pie":
            series.append(_series(name, "pie", values(trace.labels), values(trace.values)))
            continue
        if kind in ("scatter", "scattergl"):
            kind = "line" if "lines" in (trace.mode or "markers") else "scatter"
        x, y = values(getattr(trace, "x", None)), values(getattr(trace, "y", None))
        if kind == "histogram":
            series.append(_series(name, "histogram", x, [1] * len(x)))
            continue
        series.append(_series(name, kind, x or list(range(len(y))), y))
    kinds = [each["kind"] for each in series]
    return {"library": "plotly", "kind": kinds[0] if kinds else "empty", "title": layout.title.text or "",
            "axes": [{"title": "", "x": axis(layout.xaxis), "y": axis(layout.yaxis), "series": series,
                      "legend": [], "annotations": [each.text or "" for each in layout.annotations][:20]}]}


def _write_chart(figure, image_path, reader=None):
    """The data of `figure`, drawn into `image_path` in the output folder, beside it (`reader`:
    how to read it; matplotlib's by default)."""
    try:
        import json

        chart = (reader or _chart_of)(figure)
        _write_all_points(chart, image_path)
        text = json.dumps(chart, allow_nan=False, default=str)
        if len(text) > 512 * 1024:  # the outline only: the series' points are too many to travel
            for each in chart["axes"]:
                for series in each["series"]:
                    series.pop("x", None)
                    series.pop("y", None)
            text = json.dumps(chart, allow_nan=False, default=str)
        directory, name = os.path.split(image_path)
        with open(os.path.join(directory, "." + name + ".chart.json"), "w") as out:
            out.write(text)
    except Exception as error:  # the chart itself is there; its data is a bonus
        _note("could not read the data of %s: %r" % (os.path.basename(image_path), error))


def _save_open_figures(pyplot, close):
    for number in pyplot.get_fignums():
        figure = pyplot.figure(number)
        if _needs_capture(figure):
            _save_figure(figure)
    if close:
        pyplot.close("all")


def _patch_pyplot(pyplot):
    def show(*args, **kwargs):
        _save_open_figures(pyplot, close=True)

    show.__doc__ = pyplot.show.__doc__
    pyplot.show = show
    # Figures still open when the program ends are charts too (atexit runs this before
    # matplotlib's own handler, registered earlier, destroys them).
    import atexit

    def save_at_exit():
        try:
            _save_open_figures(pyplot, close=False)
        except Exception as error:  # the program has ended: report, never raise
            _note("could not save the figures still open at exit: %r" % (error,))

    atexit.register(save_at_exit)


def _patch_figure(figure_module):
    import functools

    figure_class = figure_module.Figure
    original_savefig = figure_class.savefig

    @functools.wraps(original_savefig)
    def savefig(self, fname, *args, **kwargs):
        _State.busy += 1
        try:
            result = original_savefig(self, fname, *args, **kwargs)
        finally:
            _State.busy -= 1
        path = _file_path(fname)
        if _State.busy == 0 and path is not None:
            if not os.path.exists(path) and kwargs.get("format") is None:
                # Without an extension or format matplotlib appends its default one.
                import matplotlib

                path = path.rstrip(".") + "." + matplotlib.rcParams["savefig.format"]
            copied = _copy_into_output(path)
            if copied:
                _mark_captured(self)
                _write_chart(self, copied)
        return result

    @functools.wraps(figure_class.show)
    def show(self, warn=True):
        # A non-interactive backend cannot show a window: the figure becomes a chart instead.
        if _needs_capture(self):
            _save_figure(self)

    figure_class.savefig = savefig
    figure_class.show = show
    _patch_boxes(sys.modules["matplotlib.axes"].Axes)


def _patch_boxes(axes_class):
    """Axes.bxp, which draws every box plot (Axes.boxplot, pandas and seaborn's), records each
    box's statistics on the axes: a chart's data gives quartiles, not the lines drawn."""
    import functools

    original_bxp = axes_class.bxp

    @functools.wraps(original_bxp)
    def bxp(self, bxpstats, positions=None, *args, **kwargs):
        bxpstats = list(bxpstats)
        artists = original_bxp(self, bxpstats, positions, *args, **kwargs)
        try:
            drawn = {id(artist) for group in artists.values() for artist in group}
            vertical = kwargs.get("vert", True) is not False and kwargs.get("orientation", "vertical") == "vertical"
            where = list(positions) if positions is not None else list(range(1, len(bxpstats) + 1))
            recorded = self.__dict__.setdefault("_llm_sandbox_boxes", [])
            recorded.append((bxpstats, drawn, where, vertical))
        except Exception as error:  # the chart itself is there; its data is a bonus
            _note("could not read a box plot's statistics: %r" % (error,))
        return artists

    axes_class.bxp = bxp


def _prepare_matplotlib_config(_module=None):
    # The image ships a font cache in a read-only folder; matplotlib wants a writable one,
    # so it gets a copy on the sandbox's /tmp instead of rebuilding the cache (about a second).
    config = os.environ.get("MPLCONFIGDIR")
    prebuilt = "/opt/llm-sandbox/matplotlib"
    if not config or os.path.isdir(config) or not os.path.isdir(prebuilt):
        return
    import shutil

    try:
        shutil.copytree(prebuilt, config)
    except OSError:
        pass


# --- plotly ---------------------------------------------------------------------------


def _original(module, name):
    """A function of plotly.io as it was, resolved on first use: plotly.io imports its
    submodules lazily (some take a few hundred ms), and a wrapper must not load them early."""
    eager = vars(module).get(name)
    if eager is not None:
        return lambda: eager
    lazy = vars(module).get("__getattr__")
    return lambda: lazy(name)


def _patch_plotly(pio):
    write_html = _original(pio, "write_html")
    write_image = _original(pio, "write_image")

    def save_html(fig, validate=True, path=None):
        # plotly.js from its CDN keeps the page small (inline, the library makes it megabytes);
        # the page needs network only where it is viewed, never in the sandbox.
        path = path or _next_figure_path("html")
        _State.busy += 1
        try:
            write_html()(fig, path, include_plotlyjs="cdn", full_html=True, auto_open=False, validate=validate)
        finally:
            _State.busy -= 1
        _keep_in_order(path)
        _write_chart(fig, path, _plotly_chart_of)
        return path

    def show_as_html(fig, renderer=None, validate=True, **kwargs):
        save_html(fig, validate)

    def write_html_and_capture(fig, file, *args, **kwargs):
        _State.busy += 1
        try:
            result = write_html()(fig, file, *args, **kwargs)
        finally:
            _State.busy -= 1
        path = _file_path(file)
        if _State.busy == 0 and path is not None and not _is_inside_output(path):
            # The capture is the same figure as a small page rather than a copy of the file.
            name = os.path.basename(path)
            if not name.lower().endswith((".html", ".htm")):
                name += ".html"
            save_html(fig, kwargs.get("validate", True), _free_name(name))
        return result

    def write_image_and_capture(fig, file, *args, **kwargs):
        _State.busy += 1
        try:
            result = write_image()(fig, file, *args, **kwargs)
        except ValueError as error:
            if "kaleido" not in str(error) or _has_module("kaleido"):
                raise
            # No static image export in this sandbox: the chart still comes back, as HTML.
            html = save_html(fig)
            target = _file_path(file) or "an image"
            _note(
                "plotly cannot write %s: static image export needs the kaleido package, which is not "
                "installed; the figure was captured as %s instead" % (target, os.path.basename(html))
            )
            return None
        finally:
            _State.busy -= 1
        path = _file_path(file)
        if _State.busy == 0 and path is not None:
            _copy_into_output(path)
        return result

    pio.show = show_as_html
    pio.write_html = write_html_and_capture
    pio.write_image = write_image_and_capture


def _has_module(name):
    import importlib.util

    return importlib.util.find_spec(name) is not None


# --- PIL ------------------------------------------------------------------------------


def _patch_pil(image_module):
    import functools

    image_class = image_module.Image
    original_save = image_class.save

    @functools.wraps(original_save)
    def save(self, fp, format=None, **params):
        result = original_save(self, fp, format, **params)
        path = _file_path(fp)
        if _State.busy == 0 and path is not None:
            _copy_into_output(path, extension=_PIL_FORMAT_EXTENSIONS.get(str(format).upper()))
        return result

    image_class.save = save


# --- pandas -----------------------------------------------------------------------------

# The rows a table keeps at most: a larger one comes back cut, saying so, not dropped over the artifact limits.
_TABLE_ROWS = 100000
# The tables a run writes at most (as R's print hook): a loop that prints a frame each time is not a thousand files.
_MAX_TABLES = 20


def _write_table(pandas, value):
    """Writes a DataFrame (or Series) as table_N.csv in the output folder: it comes back as a table."""
    # Counted in the output folder, which the host empties after each run (a session's cells included).
    if sum(1 for name in os.listdir(_OUTPUT_DIR) if name.startswith("table_")) >= _MAX_TABLES:
        if not _State.tables_capped:
            _State.tables_capped = True
            _note("only the first %d tables a run shows come back as tables" % _MAX_TABLES)
        return
    frame = value.to_frame() if isinstance(value, pandas.Series) else value
    try:
        _State.tables += 1
        path = _free_name("table_%d.csv" % _State.tables)
        kept = frame.head(_TABLE_ROWS)
        kept.to_csv(path, index=not isinstance(frame.index, pandas.RangeIndex))
        if len(frame) > _TABLE_ROWS:
            _note("%s holds the first %d of %d rows" % (os.path.basename(path), _TABLE_ROWS, len(frame)))
    except Exception as error:  # the table is a bonus; its text is shown anyway
        _note("could not write the table: %r" % (error,))


def _patch_pandas(pandas):
    import builtins

    # print(df), print("Sales:", df.describe()), f"{df}": a DataFrame turned into its text comes back as a table too,
    # as display() does. Through the frame's own __repr__, which costs milliseconds anyway, rather than a wrapper of
    # print(), which would cost every print of the program 40% more. A Series (print(df.dtypes)) is left alone.
    frame_text = pandas.DataFrame.__repr__

    def text_and_table(self):
        text = frame_text(self)
        if not _State.displaying:
            _write_table(pandas, self)
        return text

    pandas.DataFrame.__repr__ = text_and_table
    if hasattr(builtins, "display"):  # the program's own, or IPython's
        return

    def display(*objects, **kwargs):
        """Shows each object as a notebook would (its text here); a DataFrame or Series also
        comes back as a table: table_N.csv in the output folder."""
        for value in objects:
            if isinstance(value, (pandas.DataFrame, pandas.Series)):
                _write_table(pandas, value)
            _State.displaying += 1
            try:
                print(value)
            finally:
                _State.displaying -= 1

    builtins.display = display


# --- hooking into an import --------------------------------------------------------

_BEFORE = {"matplotlib": _prepare_matplotlib_config}
_AFTER = {
    "matplotlib.figure": _patch_figure,
    "matplotlib.pyplot": _patch_pyplot,
    "plotly.io": _patch_plotly,
    "PIL.Image": _patch_pil,
    "pandas": _patch_pandas,
}
WATCHED = frozenset(_BEFORE) | frozenset(_AFTER)


def spec_for(name, path, target, watcher):
    """The module spec for `name` from the other finders, set up to patch the module once it
    has executed (or, for "matplotlib", with the preparation done before it executes)."""
    before = _BEFORE.get(name)
    if before is not None:
        before()
        return None
    spec = _find_elsewhere(name, path, target, watcher)
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return spec
    execute = spec.loader.exec_module
    after = _AFTER[name]

    def exec_module(module):
        execute(module)
        try:
            after(module)
        except Exception as error:  # a capture problem must never break the program
            _note("chart capture for %s is off: %r" % (name, error))

    spec.loader.exec_module = exec_module
    return spec


def _find_elsewhere(name, path, target, watcher):
    for finder in sys.meta_path:
        if finder is watcher:
            continue
        find_spec = getattr(finder, "find_spec", None)
        if find_spec is None:
            continue
        spec = find_spec(name, path, target)
        if spec is not None:
            return spec
    return None


def save_open_figures():
    """Saves and closes the matplotlib figures still open: a session's interpreter calls this
    after each call, where a script would save them at exit."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        _save_open_figures(pyplot, close=True)
