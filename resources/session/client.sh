#!/bin/bash
# LLM Sandbox session client: runs one file in the session's persistent interpreter, so
# variables survive from one call to the next. It is the run's step; the runner streams its
# stdout/stderr, which the interpreter writes to directly (it opens this process's own
# /proc/PID/fd/5 and 6, copies of them that no redirection of this script ever touches: bash
# points fd 1 or 2 elsewhere for a moment while a builtin such as `kill ... 2>/dev/null` runs). The interpreter is started on first use
# in a session of its own, which the runner leaves alive between runs (keep_processes).
#
# usage: client.sh FILE INTERPRETER-ARGV...
# Exit status: the code's (0, sys.exit/quit status, 1 for an uncaught error, 130 when
# interrupted); 137 when the interpreter itself died (e.g. killed for memory).
set -u
exec 5>&1 6>&2
file=$1
shift
state=/tmp/.llm-sandbox-session
mkdir -p "$state"
requests=$state/requests
[ -p "$requests" ] || mkfifo -m 600 "$requests"

kernel_alive() {
    [ -s "$state/pid" ] && kill -0 "$(cat "$state/pid")" 2>/dev/null
}

# A previous run that was killed while its code still ran: the runner sent SIGINT, which
# normally ends that code within moments. Code that ignores SIGINT keeps the interpreter
# busy forever, so after a grace period it is replaced (its variables are lost).
if [ -e "$state/busy" ] && ! kill -0 "$(cat "$state/busy" 2>/dev/null)" 2>/dev/null; then
    for _ in $(seq 20); do
        [ -e "$state/busy" ] || break
        sleep 0.1
    done
    if [ -e "$state/busy" ] && kernel_alive; then
        kill -KILL "$(cat "$state/pid")" 2>/dev/null
        rm -f "$state/busy"
        echo "llm-sandbox: the session's interpreter was still busy with the code of an earlier call that ignored the interrupt; it was restarted and the session's variables are lost." >&2
        rm -f "$state/pid"
    fi
fi

if ! kernel_alive; then
    if [ -e "$state/pid" ]; then
        echo "llm-sandbox: the session's interpreter had ended (killed, probably for using too much memory); a new one was started and the session's variables are lost." >&2
    fi
    rm -f "$state/busy"
    # Started from an asynchronous list SIGINT would be ignored; the interpreter installs its own handler.
    setsid "$@" </dev/null >/dev/null 2>>"$state/log" &
    echo $! >"$state/pid"
fi

reply=$state/reply.$$
rm -f "$reply"
mkfifo -m 600 "$reply"
# Read-write opens of a FIFO never block: neither side waits for the other to appear. The
# request FIFO stays open here until the reply: a FIFO that nobody holds open drops its data,
# and a new interpreter may not have opened it yet.
exec 3<>"$reply"
exec 4<>"$requests"
printf '%s\t%s\t%s\t%s\t%s\n' "$$" "$PWD/$file" "$reply" "/proc/$$/fd/5" "/proc/$$/fd/6" >&4
# A read that times out keeps what it had already taken of the line (bash saves partial input):
# the status may arrive across two reads, and the first part must not be lost.
taken=
while :; do
    if IFS= read -r -t 0.2 part <&3; then
        rm -f "$reply"
        status=$taken$part
        case $status in
        '' | *[!0-9]*)
            echo "llm-sandbox: the session's interpreter replied \"$status\" instead of an exit status." >&2
            exit 1
            ;;
        esac
        exit "$status"
    fi
    taken=$taken$part
    if ! kernel_alive; then
        rm -f "$reply"
        echo "llm-sandbox: the session's interpreter ended during this call (killed, probably for using too much memory); the session's variables are lost." >&2
        # What the interpreter itself said last, in case it could not start at all.
        tail -n 5 "$state/log" >&2 2>/dev/null
        exit 137
    fi
done
