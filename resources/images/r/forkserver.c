// The fork server of R's preloaded interpreter (resources/session/forkserver.R, runner/ForkServer.h), loaded into
// that interpreter with dyn.load() and called with .C(). It speaks the runner's fork-server protocol, the one
// resources/session/forkserver.py speaks: a request is one datagram on stdin (a unix socket) of NUL-separated fields
// CPU_SECONDS, WORKDIR, ARGC, ARGV..., ENV... with four descriptors (the run's stdout and stderr, a pipe to report the
// program's pid on, a pipe to wait on until the runner has taken note of it). The program's process is a grandchild
// whose parent exits at once, so it is reparented to the runner, which waits for it and counts it like any step.
//
// The grandchild returns from llm_sandbox_serve() into R, which goes on reading its --file: the call is the last line
// of forkserver.R, so what R reads next is the program, which this function has put in that file's place. R then runs
// it exactly as `Rscript FILE` does (top-level values printed, warnings, "Execution halted" and status 1 on an error,
// the exit hooks), because it is R's own file loop that runs it. Written against R's C interface only where R has one
// (R_set_command_line_arguments); built when the R image is built, so it matches that image's R and C library.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern void R_set_command_line_arguments(int argc, char **argv);

extern char **environ;

// The environment R started with (before any package was loaded): each run gets it back, as a fresh Rscript would
// have it. The runner starts the server with the run's environment and forks it only for runs with that environment.
static char **startEnvironment;

void llm_sandbox_keep_environment(void)
{
    size_t count = 0;
    while (environ[count]) {
        ++count;
    }
    startEnvironment = calloc(count + 1, sizeof(char *));
    for (size_t i = 0; startEnvironment && i < count; ++i) {
        startEnvironment[i] = strdup(environ[i]);
    }
}

// The descriptor R reads its --file from: the one open on that file.
static int codeDescriptor(const char *script)
{
    char wanted[PATH_MAX];
    if (!realpath(script, wanted)) {
        return -1;
    }
    DIR *fds = opendir("/proc/self/fd");
    if (!fds) {
        return -1;
    }
    int found = -1;
    for (struct dirent *entry; (entry = readdir(fds));) {
        char target[PATH_MAX];
        const ssize_t length = readlinkat(dirfd(fds), entry->d_name, target, sizeof target - 1);
        if (length > 0) {
            target[length] = '\0';
            if (strcmp(target, wanted) == 0 && atoi(entry->d_name) > 2) {
                found = atoi(entry->d_name);
            }
        }
    }
    closedir(fds);
    return found;
}

// In the program's process: everything `Rscript FILE ARGS...` would have set up, then the program in place of the
// rest of forkserver.R. Returns to R, or exits when the program cannot run.
static void becomeProgram(char **fields, size_t count, int fds[4], int code, const char *rBinary)
{
    const long cpuSeconds = strtol(fields[0], NULL, 10);
    const char *workdir = fields[1];
    const size_t argc = count > 2 ? strtoul(fields[2], NULL, 10) : 0;
    if (argc < 2 || 3 + argc > count) {
        _exit(1);
    }
    char **argv = fields + 3; // Rscript FILE ARGS...
    setsid();
    const int null = open("/dev/null", O_RDONLY);
    dup2(null, 0);
    dup2(fds[0], 1);
    dup2(fds[1], 2);
    char pid[32];
    const int length = snprintf(pid, sizeof pid, "%d", (int)getpid());
    if (write(fds[2], pid, (size_t)length) != length) {
        _exit(1);
    }
    close(fds[2]);
    char go = 0;
    if (read(fds[3], &go, 1) != 1 || go != 'g') { // the runner knows the pid now, or gave up on it
        _exit(1);
    }
    if (chdir(workdir) != 0) {
        fprintf(stderr, "cannot change to '%s': %s\n", workdir, strerror(errno));
        _exit(2);
    }
    const int program = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (program < 0) {
        fprintf(stderr, "Fatal error: cannot open file '%s': %s\n", argv[1], strerror(errno));
        _exit(2);
    }
    // R's buffer of forkserver.R is used up: its next read of that descriptor reads the program.
    if (dup3(program, code, 0) < 0) {
        _exit(1);
    }
    close(program);
    // Every other descriptor goes, the request socket too.
    if (code > 3) {
        close_range(3, (unsigned)code - 1, 0);
    }
    close_range((unsigned)code + 1, ~0U, 0);
    if (cpuSeconds > 0) {
        const struct rlimit limit = {(rlim_t)cpuSeconds, (rlim_t)cpuSeconds + 1};
        setrlimit(RLIMIT_CPU, &limit);
    }
    if (startEnvironment) {
        clearenv();
        for (char **entry = startEnvironment; *entry; ++entry) {
            putenv(*entry);
        }
    }
    // commandArgs() as Rscript passes them to R.
    static char *rArgs[4096];
    size_t n = 0;
    rArgs[n++] = (char *)rBinary;
    rArgs[n++] = "--no-echo";
    rArgs[n++] = "--no-restore";
    char *file = NULL;
    if (asprintf(&file, "--file=%s", argv[1]) < 0) {
        _exit(1);
    }
    rArgs[n++] = file;
    if (argc > 2) {
        rArgs[n++] = "--args";
        for (size_t i = 2; i < argc && n + 1 < sizeof rArgs / sizeof *rArgs; ++i) {
            rArgs[n++] = argv[i];
        }
    }
    R_set_command_line_arguments((int)n, rArgs);
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0); // a process like any other
}

// Serves requests until the socket closes, then exits; returns only in a program's process. `script` is
// forkserver.R, `rBinary` this R's commandArgs()[1].
void llm_sandbox_serve(char **script, char **rBinary)
{
    const int code = codeDescriptor(*script);
    if (code < 0) {
        fprintf(stderr, "forkserver: cannot find the descriptor of %s\n", *script);
        exit(1);
    }
    // User code runs as the same user: non-dumpable, this process cannot be ptraced by it, nor its memory opened
    // through /proc, so no run can change what the next one is forked from. If it cannot be made so, it does not
    // serve: the runner starts every run the usual way.
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        perror("forkserver: PR_SET_DUMPABLE");
        exit(1);
    }
    if (send(0, "ready", 5, MSG_NOSIGNAL) != 5) {
        exit(1);
    }
    static char message[1 << 20];
    for (;;) {
        int fds[4];
        union {
            char bytes[CMSG_SPACE(sizeof fds)];
            struct cmsghdr aligned;
        } control;
        struct iovec data = {message, sizeof message - 1};
        struct msghdr header = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control.bytes,
                                .msg_controllen = sizeof control.bytes};
        const ssize_t got = recvmsg(0, &header, MSG_CMSG_CLOEXEC);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            exit(0);
        }
        const struct cmsghdr *rights = CMSG_FIRSTHDR(&header);
        if (!rights || rights->cmsg_type != SCM_RIGHTS || rights->cmsg_len != CMSG_LEN(sizeof fds)) {
            continue; // descriptors beyond four are cut off (MSG_CTRUNC) and closed
        }
        memcpy(fds, CMSG_DATA(rights), sizeof fds);
        message[got] = '\0';
        static char *fields[8192];
        size_t count = 0;
        for (char *field = message; field <= message + got && count < sizeof fields / sizeof *fields;) {
            fields[count++] = field;
            field += strlen(field) + 1;
        }
        const pid_t middle = fork();
        if (middle == 0) {
            // The middle process: fork the program's process and leave, so the runner becomes its parent.
            const pid_t program = fork();
            if (program != 0) {
                _exit(program < 0);
            }
            becomeProgram(fields, count, fds, code, *rBinary);
            return;
        }
        for (int i = 0; i < 4; ++i) {
            close(fds[i]);
        }
        if (middle > 0) {
            while (waitpid(middle, NULL, 0) < 0 && errno == EINTR) {
            }
        }
    }
}
