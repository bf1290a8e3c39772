// llm-sandbox-runner: the program the engine copies into every sandbox container and starts as its main process.
// It speaks the line-based JSON protocol described in PROTOCOL.md on stdin/stdout.
#include "EgressForwarder.h"
#include "Protocol.h"
#include "Runner.h"
#include "StepProcess.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <string>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

void printUsage()
{
    std::fputs("usage: llm-sandbox-runner [--max-line-bytes N] [--egress-relay SOCKET|tcp:ADDRESS:PORT PORT]\n"
               "       llm-sandbox-runner --egress-proxy SOCKET|tcp:ADDRESS:PORT PORT -- COMMAND [ARG...]\n"
               "       llm-sandbox-runner --egress-listen SOCKET|tcp:ADDRESS:PORT tcp:ADDRESS:PORT\n"
               "                          [tcp:ADDRESS:PORT HOST...]\n"
               "Speaks the llm-sandbox runner protocol on stdin/stdout (see runner/PROTOCOL.md); with\n"
               "--egress-proxy, runs COMMAND with 127.0.0.1:PORT relayed to the egress proxy: its unix SOCKET,\n"
               "or a proxy pod's address (runner/EgressForwarder.h); with --egress-relay, relays 127.0.0.1:PORT\n"
               "there for as long as it runs (a run's sandbox with network); with --egress-listen SOCKET\n"
               "tcp:ADDRESS:PORT (the egress proxy's container), relays that unix socket (or address) to the\n"
               "proxy, and\n"
               "tunnels to HOST... to the second proxy (the one that adds the user's secrets).\n",
               stderr);
}

// A container may start us with a standard descriptor closed; the first pipe would then become fd 0-2 and be
// clobbered by the step's dup2() calls.
void ensureStandardDescriptors()
{
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) < 0) {
            const int opened = ::open("/dev/null", O_RDWR);
            if (opened >= 0 && opened != fd) {
                ::dup2(opened, fd);
                ::close(opened);
            }
        }
    }
}

// The OOM killer should pick user code, not the runner: losing the runner loses the whole container. Lowering the
// score needs CAP_SYS_RESOURCE, so this is best effort; steps get the original value back.
void protectFromOomKiller()
{
    std::FILE *file = std::fopen("/proc/self/oom_score_adj", "r+");
    if (!file) {
        return;
    }
    char original[32] = {};
    if (std::fgets(original, sizeof original, file)) {
        original[std::strcspn(original, "\n")] = '\0';
        std::rewind(file);
        if (std::fputs("-1000", file) >= 0 && std::fflush(file) == 0) {
            runner::StepProcess::setChildOomScoreAdj(original);
        }
    }
    std::fclose(file);
}

} // namespace

int main(int argc, char **argv)
{
    if ((argc == 4 || argc >= 6) && std::string(argv[1]) == "--egress-listen") {
        std::signal(SIGPIPE, SIG_IGN);
        runner::Interception interception;
        if (argc >= 6) {
            interception.upstream = argv[4];
            interception.hosts.assign(argv + 5, argv + argc);
        }
        return runner::EgressForwarder(argv[3], 0).serveSocket(argv[2], interception);
    }
    if (argc >= 6 && std::string(argv[1]) == "--egress-proxy" && std::string(argv[4]) == "--") {
        std::signal(SIGPIPE, SIG_IGN);
        int port = 0;
        try {
            port = std::stoi(argv[3]);
        } catch (const std::exception &) {
        }
        if (port <= 0 || port > 65535) {
            printUsage();
            return 2;
        }
        return runner::EgressForwarder(argv[2], port).run(std::vector<std::string>(argv + 5, argv + argc));
    }
    runner::RunnerOptions options;
    std::string relayUpstream;
    int relayPort = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--max-line-bytes" && i + 1 < argc) {
            try {
                options.maxLineBytes = std::stoull(argv[++i]);
            } catch (const std::exception &) {
                printUsage();
                return 2;
            }
        } else if (argument == "--egress-relay" && i + 2 < argc) {
            relayUpstream = argv[++i];
            try {
                relayPort = std::stoi(argv[++i]);
            } catch (const std::exception &) {
            }
            if (relayPort <= 0 || relayPort > 65535) {
                printUsage();
                return 2;
            }
        } else if (argument == "--version") {
            std::printf("llm-sandbox-runner protocol %d\n", runner::protocolVersion);
            return 0;
        } else {
            printUsage();
            return argument == "--help" ? 0 : 2;
        }
    }

    ensureStandardDescriptors();
    // A run's sandbox with network has none but this relay to its egress proxy: listening before the runner says it
    // is ready, so the code's first connection finds it.
    if (!relayUpstream.empty() && !runner::EgressForwarder(relayUpstream, relayPort).startInBackground()) {
        return 125;
    }
    // User code closing its end of a pipe, or the host going away, must surface as EPIPE, never kill the runner.
    std::signal(SIGPIPE, SIG_IGN);
    options.isInit = ::getpid() == 1;
    if (!options.isInit) {
        // Outside a container (tests, debugging) orphans of a step get reparented to us instead of the real init,
        // so the runner can reap killed background processes before it reports a run as done.
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    }
    protectFromOomKiller();
    // Code in the container runs with our uid; as a non-dumpable process the runner cannot be ptraced by it, nor can
    // it open /proc/<runner>/fd/1 to forge protocol messages. Stepping through execve() makes steps dumpable again.
    ::prctl(PR_SET_DUMPABLE, 0);
    // gVisor's /proc does not look at that flag for /proc/<pid>/fd: reopening a descriptor there is checked against the
    // file's own mode, so the protocol stream's pipes get none (the runner keeps the descriptors it has open). Where
    // the runner does not own them, the host's kernel (non-dumpable) already refuses.
    if (options.isInit) {
        for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
            (void)::fchmod(fd, 0);
        }
    }

    try {
        runner::Runner runner(options);
        return runner.exec();
    } catch (const std::exception &error) {
        std::fprintf(stderr, "llm-sandbox-runner: fatal: %s\n", error.what());
        return 1;
    }
}
