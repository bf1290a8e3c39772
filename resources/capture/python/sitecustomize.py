# LLM Sandbox chart capture for Python, loaded by the interpreter's own start-up hook
# (this folder is on PYTHONPATH), so the user's code is untouched: no banner, no shifted
# line numbers. matplotlib is patched only when the program imports pyplot, so a program
# that draws nothing pays nothing.
import atexit
import os
import sys

_OUTPUT_DIR = os.environ.get("LLM_SANDBOX_OUTPUT_DIR")
_saved = [0]


def _next_path(extension):
    while True:
        _saved[0] += 1
        path = os.path.join(_OUTPUT_DIR, "figure_%d.%s" % (_saved[0], extension))
        if not os.path.exists(path):
            return path


def _save_open_figures(pyplot):
    for number in pyplot.get_fignums():
        figure = pyplot.figure(number)
        figure.savefig(_next_path("png"), format="png", dpi=100, bbox_inches="tight")
    pyplot.close("all")


def _patch_pyplot(pyplot):
    def show(*args, **kwargs):
        _save_open_figures(pyplot)

    pyplot.show = show
    # Figures still open when the program ends are charts too.
    atexit.register(_save_open_figures, pyplot)


def _prepare_matplotlib_config():
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


class _PyplotWatcher:
    """Prepares matplotlib's config before it loads and patches pyplot right after."""

    def find_spec(self, name, path=None, target=None):
        if name == "matplotlib":
            _prepare_matplotlib_config()
            return None
        if name != "matplotlib.pyplot":
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            _patch_pyplot(module)

        spec.loader.exec_module = exec_module
        sys.meta_path.remove(self)
        return spec


if _OUTPUT_DIR and os.path.isdir(_OUTPUT_DIR):
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.meta_path.insert(0, _PyplotWatcher())
