# LLM Sandbox session interpreter for Python: keeps one namespace alive across calls, so a
# session's variables, imports and functions survive from one execute_code to the next.
# client.sh (the run's step) starts it on first use and sends requests through a FIFO:
#   CLIENT-PID <TAB> FILE <TAB> REPLY-FIFO <TAB> STDOUT-PATH <TAB> STDERR-PATH
# The code's output goes straight to the client's own stdout/stderr (the /proc/PID/fd paths),
# so the runner streams it as usual; the exit status goes back through REPLY-FIFO.
import ast
import os
import signal
import sys
import traceback
import types

STATE = "/tmp/.llm-sandbox-session"


class _Running:
    active = False


def _interrupt(signum, frame):
    # The runner sends SIGINT when a call ends before its code did (timeout, cancel, output
    # limit): abandon that code, keep the namespace. Outside of user code there is nothing to stop.
    if _Running.active:
        raise KeyboardInterrupt


def _alive(pid):
    try:
        os.kill(int(pid), 0)
        return True
    except (OSError, ValueError):
        return False


def _exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _print_error(error):
    # The traceback starts at the user's code: this file's frame is not theirs.
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb)


def _capture_charts():
    if "llm_sandbox_capture" in sys.modules:
        try:
            sys.modules["llm_sandbox_capture"].save_open_figures()
        except Exception as error:
            print("llm-sandbox: could not save the open figures: %r" % (error,), file=sys.stderr)


def _show_table(value):
    """A cell whose last expression is a pandas DataFrame or Series shows it as a notebook would: its text, and the
    table itself (display(), which the capture hook gives pandas, writes it as table_N.csv)."""
    pandas = sys.modules.get("pandas")
    if pandas is None or not isinstance(value, (pandas.DataFrame, pandas.Series)):
        return
    import builtins

    getattr(builtins, "display", print)(value)


def _execute(path, namespace):
    with open(path, "rb") as source_file:
        source = source_file.read()
    namespace["__file__"] = path
    name = os.path.basename(path)
    tree = compile(source, name, "exec", ast.PyCF_ONLY_AST)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    code = compile(tree, name, "exec")
    _Running.active = True
    try:
        exec(code, namespace)
        if last is not None:
            _show_table(eval(compile(ast.Expression(last.value), name, "eval"), namespace))
    finally:
        _Running.active = False


def _run(client_pid, path, stdout_path, stderr_path, namespace):
    try:
        out = os.open(stdout_path, os.O_WRONLY)
        err = os.open(stderr_path, os.O_WRONLY)
    except OSError:
        return None  # the client is gone already: nobody waits for this run
    saved = os.dup(1), os.dup(2)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.close(out)
    os.close(err)
    with open(os.path.join(STATE, "busy"), "w") as busy:
        busy.write(str(client_pid))
    status = 0
    try:
        try:
            _execute(path, namespace)
        except SystemExit as exit_request:
            status = _exit_status(exit_request.code)
        except KeyboardInterrupt:
            print("KeyboardInterrupt: the call was stopped; the session keeps its variables.", file=sys.stderr)
            status = 130
        except BaseException as error:
            _print_error(error)
            status = 1
        _capture_charts()
    except BaseException:
        status = 1  # output to a client that was killed meanwhile, or a second interrupt
    finally:
        if not _alive(client_pid):
            # The call was stopped and its client is gone: what the code still had buffered goes nowhere,
            # never into the next call's output.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os.close(devnull)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
        try:
            os.unlink(os.path.join(STATE, "busy"))
        except OSError:
            pass
    return status


def _reply(path, status):
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return  # the client was killed: nobody reads the status
    try:
        os.write(fd, b"%d\n" % status)
    except OSError:
        pass
    finally:
        os.close(fd)


def main():
    signal.signal(signal.SIGINT, _interrupt)
    with open(os.path.join(STATE, "pid"), "w") as pid_file:
        pid_file.write(str(os.getpid()))
    # The user's code gets a __main__ module of its own (pickle, multiprocessing and `import __main__`
    # find its classes and functions there); this file's functions keep their own globals.
    main_module = types.ModuleType("__main__")
    main_module.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main_module
    namespace = main_module.__dict__
    requests = os.fdopen(os.open(os.path.join(STATE, "requests"), os.O_RDWR), "r", encoding="utf-8")
    while True:
        try:
            line = requests.readline()
            if not line:
                return
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 5:
                continue
            client_pid, path, reply, stdout_path, stderr_path = fields
            status = _run(client_pid, path, stdout_path, stderr_path, namespace)
            if status is not None:
                _reply(reply, status)
        except KeyboardInterrupt:
            continue


if __name__ == "__main__":
    main()
