# LLM Sandbox chart capture for Python, loaded by the interpreter's own start-up hook (this
# folder is on PYTHONPATH), so the user's code is untouched: no banner, no shifted line
# numbers. It only watches imports: when the program imports matplotlib, plotly, PIL or pandas, the
# capture module (llm_sandbox_capture.py, beside this file) patches that library. A program
# that draws nothing pays a few set lookups; this file stays small because every start
# compiles it (the image folder is read-only, so there is no cached bytecode).
import os
import sys


class _ImportWatcher:
    _names = frozenset({"matplotlib", "matplotlib.figure", "matplotlib.pyplot", "plotly.io", "PIL.Image", "pandas"})

    def __init__(self):
        self._pending = set(self._names)

    def find_spec(self, name, path=None, target=None):
        if name not in self._pending:
            return None
        # The watcher stays on sys.meta_path: removing it while the import system iterates
        # that list would skip the next finder.
        self._pending.discard(name)
        try:
            import llm_sandbox_capture
        except Exception:  # without capture the program still runs
            return None
        return llm_sandbox_capture.spec_for(name, path, target, self)


if os.path.isdir(os.environ.get("LLM_SANDBOX_OUTPUT_DIR", "")):
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.meta_path.insert(0, _ImportWatcher())
