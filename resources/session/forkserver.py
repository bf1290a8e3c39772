# The preloaded Python interpreter of a warm container (runner/ForkServer.h), started as `python3 -u forkserver.py
# [MODULE...]`. It imports the modules its arguments name once (the engine names numpy, pandas, matplotlib.pyplot
# with the capture hooks of sitecustomize, and seaborn, for the programs that import them; a plain one, naming none,
# serves the others, as a small process forks faster) and never runs user code itself: for each run the runner sends a request on stdin (a unix socket), and a fresh fork of this process runs
# the program as `python3 -u FILE` would. So nothing a run does (globals, patched modules, threads, open files,
# signal handlers, its working directory or environment) reaches the next one, which is another fork of this
# untouched parent.
#
# A request is one datagram: NUL-separated fields CPU_SECONDS, WORKDIR, ARGC, ARGV..., ENV... with four descriptors:
# the run's stdout and stderr, a pipe to report the program's pid on, and a pipe to wait on until the runner has
# taken note of that pid. The program's process is a grandchild: its parent exits at once, so it is reparented to
# the runner, which waits for it, counts its CPU time and kills its process group like any step's.
import os
import socket
import sys
import warnings

# The request socket moves off stdin, which becomes /dev/null (as every step's stdin is).
_SERVER = socket.socket(fileno=os.dup(0))
os.dup2(os.open(os.devnull, os.O_RDONLY), 0)

_WARNING_FILTERS = warnings.filters[:]
warnings.simplefilter("ignore", DeprecationWarning)  # "this process is multi-threaded, use of fork()..."

for _module in sys.argv[1:]:
    try:
        __import__(_module)
    except Exception:  # an image without it still serves runs
        pass


def _warm_up_matplotlib():
    # What a program's first chart would otherwise do in every fork: load the font, the Agg renderer and the PNG
    # writer. Drawn into memory (no file, so nothing is captured) and closed again: a fork's pyplot has no figure.
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return
    import io

    try:
        figure = pyplot.figure()
        figure.add_subplot().scatter([1, 2, 3], [3, 1, 2])
        figure.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    except Exception:
        pass
    finally:
        pyplot.close("all")


_warm_up_matplotlib()

import atexit  # noqa: E402
import builtins  # noqa: E402
import importlib.machinery  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import threading  # noqa: E402
import traceback  # noqa: E402
import types  # noqa: E402


def _no_ptrace():
    # User code runs as the same user: as a non-dumpable process this parent cannot be ptraced by it, nor its
    # memory opened through /proc, so no run can change what the next one is forked from. A parent that cannot be
    # made so does not serve at all: it exits, and the runner starts every run the usual way.
    import ctypes

    if ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE, 0
        sys.exit("forkserver: PR_SET_DUMPABLE failed: errno %d" % ctypes.get_errno())


def _run_program(argv, workdir, environment):
    """Runs argv (python3 -u FILE ARGS...) in this process, as the interpreter would; returns the exit status."""
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update(environment)
    warnings.filters[:] = _WARNING_FILTERS
    # Seeded from the system's entropy, as a fresh interpreter's are: forks would otherwise all draw the parent's
    # sequence.
    random.seed()
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()
    # As the interpreter has it since 3.9: sys.argv[0] as given, __file__ and the traceback's file names absolute.
    path = os.path.abspath(argv[2])
    sys.argv = argv[2:]
    sys.path[0] = os.path.dirname(path)
    # sys.stdin, sys.stdout and sys.stderr stay this interpreter's own (started as `python3 -u`, with the run's
    # environment, so they are what the program's interpreter would have made): their descriptors are the run's now.
    # The program's own __main__, as the interpreter makes it for a script.
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    try:
        with open(path, "rb") as source:
            code = compile(source.read(), path, "exec", dont_inherit=True)
        exec(code, main.__dict__)
        status = 0
    except SystemExit as exit:
        status = _exit_status(exit.code)
    except BaseException as error:  # noqa: B036 - what the interpreter reports for an uncaught exception
        tb = error.__traceback__
        # Skip the frame of this function: the traceback starts in the program, as it would.
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next
        sys.excepthook(type(error), error.with_traceback(tb), tb)
        status = 130 if isinstance(error, KeyboardInterrupt) else 1
    # What interpreter shutdown does before exiting: wait for non-daemon threads, then the atexit handlers (the
    # capture hook saves the figures still open).
    try:
        threading._shutdown()
    except Exception:
        pass
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    return status


def _exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _serve_one(fields, fds):
    cpu_seconds = int(fields[0])
    workdir = fields[1]
    argc = int(fields[2])
    argv = fields[3 : 3 + argc]
    environment = dict(entry.split("=", 1) for entry in fields[3 + argc :] if "=" in entry)
    stdout_fd, stderr_fd, report_fd, go_fd = fds
    middle = os.fork()
    if middle:
        for fd in fds:
            os.close(fd)
        os.waitpid(middle, 0)
        return
    # The middle process: fork the program's process and leave, so the runner becomes its parent.
    if os.fork():
        os._exit(0)
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(stdout_fd, 1)
        os.dup2(stderr_fd, 2)
        os.write(report_fd, str(os.getpid()).encode())
        os.close(report_fd)
        if os.read(go_fd, 1) != b"g":  # the runner knows the pid now, or gave up on it
            os._exit(1)
        for fd in (null, stdout_fd, stderr_fd, go_fd):
            os.close(fd)
        os.closerange(3, 65536)  # the request socket too
        if cpu_seconds > 0:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        try:
            import ctypes

            ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE, 1: a process like any other
        except Exception:
            pass
        status = _run_program(argv, workdir, environment)
    except BaseException:
        traceback.print_exc()
        status = 1
    os._exit(status)


_no_ptrace()
_SERVER.send(b"ready")
while True:
    try:
        message, fds, _flags, _address = socket.recv_fds(_SERVER, 1 << 20, 4)
    except InterruptedError:
        continue
    if not message:
        break
    if len(fds) != 4:
        for fd in fds:
            os.close(fd)
        continue
    _serve_one(message.decode("utf-8", "surrogateescape").split("\0"), fds)
