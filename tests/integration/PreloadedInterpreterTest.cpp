// Python and R runs in a warm container are forks of its preloaded interpreter (resources/session/forkserver.py and
// forkserver.R, runner/ForkServer.h): what the user sees is what a plain `python3 -u main.py` or `Rscript main.R`
// gives, and nothing one run does reaches the next.
#include "BackendTestSupport.h"
#include "WaitUntil.h"
#include "engine/ExecutionEngine.h"

#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

class PreloadedInterpreterTest : public ::testing::TestWithParam<std::string>
{
protected:
    RunResult run(const QString &code, const QString &language = QStringLiteral("python"))
    {
        RunRequest request;
        request.language = language;
        request.code = code;
        request.timeout = 60s;
        auto result = m_engine->run(request);
        EXPECT_TRUE(result.ok()) << result.error().message.toStdString();
        return result ? *result : RunResult{};
    }

    /// Runs until a run is a fork of the preloaded interpreter with the data and chart modules (a program that imports
    /// numpy finds pandas imported too, which a plain interpreter never does); false when none is within 60 s. The
    /// runs of programs that import none of them are forks of the plain preloaded interpreter.
    bool waitForThePreloadedInterpreter()
    {
        return test::waitUntil(
            [&] { return run("import numpy, sys\nprint('pandas' in sys.modules)\n").stdoutData == "True\n"; }, 60s,
            250ms);
    }

    /// A program that never ends stops at its timeout, with the CPU time of its own process (a fork's own time would
    /// read 0 if it were not counted). The bound leaves room for a loaded machine: three engine lanes on two processors
    /// give the loop well under half of one in its 3 s.
    void expectTimeoutWithItsOwnCpuTime(const QString &code, const QString &language)
    {
        RunRequest request;
        request.language = language;
        request.code = code;
        request.timeout = 3s;
        const auto result = m_engine->run(request);
        ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
        EXPECT_EQ(result->reason, StopReason::TimedOut);
        EXPECT_GT(result->cpuMs, 200) << "its CPU time is its own";
    }

    /// Every R run is a fork once the interpreter is ready: ggplot2's namespace is loaded then, which a plain Rscript
    /// does only when asked.
    bool waitForThePreloadedRInterpreter()
    {
        return test::waitUntil([&] { return run("cat(isNamespaceLoaded('ggplot2'))", "r").stdoutData == "TRUE"; }, 60s,
                               250ms);
    }

    std::unique_ptr<ExecutionEngine> m_engine = test::engineFor(GetParam());
};

} // namespace

TEST_P(PreloadedInterpreterTest, aRunLeavesNothingForTheNextFork)
{
    ASSERT_TRUE(waitForThePreloadedInterpreter()) << "no run was a fork of the preloaded interpreter";
    const RunResult changed = run("import json, os, random, signal, subprocess, sys, threading, time\n"
                                  "import matplotlib.pyplot as plt\n"
                                  "json.MARK = 1\n"
                                  "plt.show = lambda *a, **k: None\n"
                                  "threading.Thread(target=time.sleep, args=(600,), daemon=True).start()\n"
                                  "subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
                                  "open('/tmp/mark', 'w').write('1')\n"
                                  "os.chdir('/tmp')\n"
                                  "os.environ['MARK'] = '1'\n"
                                  "signal.signal(signal.SIGUSR1, lambda *a: None)\n"
                                  "sys.path.append('/marked')\n"
                                  "print(random.random())\n");
    ASSERT_EQ(changed.exitCode, 0) << changed.stderrData.toStdString();
    const RunResult next = run(QString::fromLatin1(test::kCommandLinesPython) +
                               "import json, os, random, signal, sys, threading\n"
                               "import matplotlib.pyplot as plt\n"
                               "others = [c for c in command_lines() if b'sleep' in c]\n"
                               "print('numpy' in sys.modules, hasattr(json, 'MARK'), plt.show.__name__ != '<lambda>',\n"
                               "      threading.active_count(), others, os.path.exists('/tmp/mark'), os.getcwd(),\n"
                               "      'MARK' in os.environ, signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL,\n"
                               "      '/marked' in sys.path)\n"
                               "print(random.random())\n");
    ASSERT_EQ(next.exitCode, 0) << next.stderrData.toStdString();
    const QList<QByteArray> lines = next.stdoutData.split('\n');
    EXPECT_EQ(lines.value(0), "True False True 1 [] False /sandbox False True False") << next.stdoutData.toStdString();
    EXPECT_NE(lines.value(1), changed.stdoutData.trimmed()) << "each fork draws its own random numbers";
}

TEST_P(PreloadedInterpreterTest, aForkedRunLooksLikeAPlainInterpretersRun)
{
    ASSERT_TRUE(waitForThePreloadedInterpreter());
    const RunResult failed = run("import numpy, sys\nprint(sys.argv, __name__, __file__, sys.path[0])\n"
                                 "print('to stderr', file=sys.stderr)\n"
                                 "def inner():\n    raise ValueError('bad value')\n"
                                 "inner()\n");
    EXPECT_EQ(failed.exitCode, 1);
    EXPECT_EQ(failed.stdoutData, "['main.py'] __main__ /sandbox/main.py /sandbox\n");
    EXPECT_TRUE(failed.stderrData.startsWith("to stderr\nTraceback (most recent call last):\n"))
        << failed.stderrData.toStdString();
    EXPECT_TRUE(failed.stderrData.contains("File \"/sandbox/main.py\", line 6, in <module>"))
        << failed.stderrData.toStdString();
    EXPECT_TRUE(failed.stderrData.contains("line 5, in inner"));
    EXPECT_TRUE(failed.stderrData.endsWith("ValueError: bad value\n"));
    EXPECT_FALSE(failed.stderrData.contains("runpy")) << failed.stderrData.toStdString();

    EXPECT_EQ(run("import numpy, sys\nsys.exit(3)\n").exitCode, 3);
    const RunResult message = run("import numpy, sys\nsys.exit('gave up')\n");
    EXPECT_EQ(message.exitCode, 1);
    EXPECT_EQ(message.stderrData, "gave up\n");
    const RunResult thread = run("import numpy, threading, time\n"
                                 "threading.Thread(target=lambda: (time.sleep(0.5), print('thread done'))).start()\n"
                                 "print('main done')\n");
    EXPECT_EQ(thread.stdoutData, "main done\nthread done\n") << "the interpreter waits for its threads";

    const RunResult chart = run("import matplotlib.pyplot as plt\nplt.scatter([1, 2, 3], [3, 1, 2])\nplt.show()\n");
    ASSERT_EQ(chart.exitCode, 0) << chart.stderrData.toStdString();
    ASSERT_EQ(chart.artifacts.size(), 1);
    EXPECT_TRUE(chart.artifacts.first().data.startsWith("\x89PNG"));

    expectTimeoutWithItsOwnCpuTime("import numpy\nwhile True:\n    pass\n", "python");
}

/// What a Python program says about its process: whether it is a fork of the plain preloaded interpreter (what `ps`
/// shows is that interpreter's command line, `python3 -u forkserver.py` with no modules), and whether numpy is there.
const QString kWhoAmI = QStringLiteral(
    "import sys\n"
    "print(open('/proc/self/cmdline', 'rb').read().endswith(b'/forkserver.py\\0'), 'numpy' in sys.modules)\n");

TEST_P(PreloadedInterpreterTest, aPrewarmedPythonContainerForksAProgramThatImportsNothingFromThePlainInterpreter)
{
    m_engine->prewarm(QStringLiteral("python"));
    ASSERT_TRUE(test::waitUntil([&] { return m_engine->warmContainers(QStringLiteral("python")) == 1; }, 120s, 100ms));
    // The plain interpreter starts in a moment: the container's first runs are forks of it.
    ASSERT_TRUE(test::waitUntil([&] { return run(kWhoAmI).stdoutData == "True False\n"; }, 30s, 100ms));

    const RunResult changed = run("import json, os, signal\n"
                                  "json.MARK = 1\n"
                                  "open('/tmp/mark', 'w').write('1')\n"
                                  "os.chdir('/tmp')\n"
                                  "os.environ['MARK'] = '1'\n"
                                  "signal.signal(signal.SIGUSR1, lambda *a: None)\n");
    ASSERT_EQ(changed.exitCode, 0) << changed.stderrData.toStdString();
    const RunResult next = run(kWhoAmI + QStringLiteral("import json, os, signal\n"
                                                        "print(hasattr(json, 'MARK'), os.path.exists('/tmp/mark'),\n"
                                                        "      os.getcwd(), 'MARK' in os.environ,\n"
                                                        "      signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL)\n"));
    EXPECT_EQ(next.stdoutData, "True False\nFalse False /sandbox False True\n") << next.stderrData.toStdString();

    const RunResult failed = run("import sys\nprint(sys.argv, __name__, __file__)\nraise SystemExit(4)\n");
    EXPECT_EQ(failed.stdoutData, "['main.py'] __main__ /sandbox/main.py\n");
    EXPECT_EQ(failed.exitCode, 4);

    // The interpreter every run is forked from is the same user's, yet no run can read or change its memory: it is
    // non-dumpable, or it does not serve.
    const RunResult memory = run(QStringLiteral("import os\n"
                                                "for pid in filter(str.isdigit, os.listdir('/proc')):\n"
                                                "    try:\n"
                                                "        cmdline = open(f'/proc/{pid}/cmdline', 'rb').read()\n"
                                                "    except OSError:\n"
                                                "        continue\n"
                                                "    if int(pid) == os.getpid() or b'forkserver.py' not in cmdline:\n"
                                                "        continue\n"
                                                "    try:\n"
                                                "        open(f'/proc/{pid}/mem', 'rb').close()\n"
                                                "        print('opened')\n"
                                                "    except OSError as error:\n"
                                                "        print('refused')\n"));
    EXPECT_TRUE(memory.stdoutData.startsWith("refused\n")) << memory.stdoutData.toStdString();
    EXPECT_FALSE(memory.stdoutData.contains("opened")) << memory.stdoutData.toStdString();
    expectTimeoutWithItsOwnCpuTime("while True:\n    pass\n", "python");
}

TEST_P(PreloadedInterpreterTest, aProgramThatImportsAPreloadedModuleIsAForkOfTheInterpreterThatImportedIt)
{
    ASSERT_TRUE(waitForThePreloadedInterpreter());
    // `import seaborn.objects` names the seaborn package: the interpreter with the modules, which is not the plain one.
    const RunResult heavy = run(QStringLiteral("import seaborn.objects\n") + kWhoAmI);
    EXPECT_EQ(heavy.stdoutData, "False True\n") << heavy.stderrData.toStdString();
    // And a program that imports none of them is not slowed by them.
    ASSERT_TRUE(test::waitUntil([&] { return run(kWhoAmI).stdoutData == "True False\n"; }, 30s, 100ms));
}

TEST_P(PreloadedInterpreterTest, anRRunLeavesNothingForTheNextFork)
{
    ASSERT_TRUE(waitForThePreloadedRInterpreter()) << "no run was a fork of the preloaded interpreter";
    const RunResult changed = run("MARK <- 1\n"
                                  "options(llm.mark = 1)\n"
                                  "suppressPackageStartupMessages(library(dplyr))\n"
                                  "Sys.setenv(MARK = '1')\n"
                                  "writeLines('1', '/tmp/mark')\n"
                                  "setwd('/tmp')\n"
                                  "png('/tmp/open.png')\n"
                                  "connection <- file('/tmp/connection', 'w')\n"
                                  "cat(runif(1), '\\n')\n",
                                  "r");
    ASSERT_EQ(changed.exitCode, 0) << changed.stderrData.toStdString();
    const RunResult next = run("cat(exists('MARK'), is.null(getOption('llm.mark')), 'package:dplyr' %in% search(),\n"
                               "    Sys.getenv('MARK') == '', getwd(), file.exists('/tmp/mark'), length(dev.list()),\n"
                               "    nrow(showConnections()), dir.exists(tempdir()), '\\n')\n"
                               "cat(runif(1), '\\n')\n",
                               "r");
    ASSERT_EQ(next.exitCode, 0) << next.stderrData.toStdString();
    const QList<QByteArray> lines = next.stdoutData.split('\n');
    EXPECT_EQ(lines.value(0), "FALSE TRUE FALSE TRUE /sandbox FALSE 0 0 TRUE ") << next.stdoutData.toStdString();
    EXPECT_NE(lines.value(1), changed.stdoutData.trimmed() + " ") << "each fork draws its own random numbers";
}

TEST_P(PreloadedInterpreterTest, aPrewarmedRContainerHasItsPreloadedInterpreterBeforeItsFirstRun)
{
    m_engine->prewarm(QStringLiteral("r"));
    ASSERT_TRUE(test::waitUntil([&] { return m_engine->warmContainers(QStringLiteral("r")) == 1; }, 120s, 100ms));
    // The first run of the container, a fork or not (the interpreter may still be loading), finds it started.
    const RunResult first =
        run("for (p in list.files('/proc', pattern = '^[0-9]+$')) {\n"
            "  cmdline <- tryCatch(readBin(file.path('/proc', p, 'cmdline'), 'raw', 4096),\n"
            "                      error = function(e) raw())\n"
            "  if (grepl('forkserver.R', rawToChar(cmdline[cmdline != 0]), fixed = TRUE)) cat('found')\n"
            "}\n",
            "r");
    ASSERT_EQ(first.exitCode, 0) << first.stderrData.toStdString();
    EXPECT_TRUE(first.stdoutData.startsWith("found")) << first.stdoutData.toStdString();
}

TEST_P(PreloadedInterpreterTest, aForkedRRunLooksLikeAPlainRscriptRun)
{
    ASSERT_TRUE(waitForThePreloadedRInterpreter());
    // Top-level values printed, messages and warnings on stderr, an error ends it with "Execution halted" and 1.
    const RunResult failed = run("x <- 1:3\n"
                                 "x\n"
                                 "cat(commandArgs()[-1], interactive(), '\\n')\n"
                                 "message('to stderr')\n"
                                 "warning('careful')\n"
                                 "f <- function() stop('boom')\n"
                                 "f()\n"
                                 "cat('not reached\\n')\n",
                                 "r");
    EXPECT_EQ(failed.exitCode, 1);
    EXPECT_EQ(failed.stdoutData, "[1] 1 2 3\n--no-echo --no-restore --file=main.R FALSE \n");
    EXPECT_EQ(failed.stderrData, "to stderr\nWarning message:\ncareful \nError in f() : boom\nExecution halted\n");
    // A thread of the parent holding a lock when it forks would leave every fork waiting for it: pango's fontconfig
    // thread, for one, which drawing text on a png device starts. The parent has drawn nothing that starts it.
    const RunResult threads =
        run("for (p in list.files('/proc', pattern = '^[0-9]+$')) {\n"
            "  cmdline <- tryCatch(readBin(file.path('/proc', p, 'cmdline'), 'raw', 4096),\n"
            "                      error = function(e) raw())\n"
            "  if (p != Sys.getpid() && grepl('forkserver.R', rawToChar(cmdline[cmdline != 0])))\n"
            "    for (t in list.files(file.path('/proc', p, 'task')))\n"
            "      cat(readLines(file.path('/proc', p, 'task', t, 'comm')), '\\n')\n"
            "}\n",
            "r");
    EXPECT_FALSE(threads.stdoutData.isEmpty()) << "the preloaded interpreter was not found";
    EXPECT_FALSE(threads.stdoutData.contains("pango")) << threads.stdoutData.toStdString();
    EXPECT_EQ(run("quit(status = 3)", "r").exitCode, 3);
    EXPECT_EQ(run("x <- ", "r").exitCode, 1) << "a parse error";

    const RunResult chart =
        run("library(ggplot2)\nprint(ggplot(data.frame(x = 1:3, y = c(3, 1, 2)), aes(x, y)) + geom_point())\n", "r");
    ASSERT_EQ(chart.exitCode, 0) << chart.stderrData.toStdString();
    ASSERT_EQ(chart.artifacts.size(), 1);
    EXPECT_TRUE(chart.artifacts.first().data.startsWith("\x89PNG"));

    expectTimeoutWithItsOwnCpuTime("while (TRUE) {}\n", "r");
}

INSTANTIATE_TEST_SUITE_P(Backends, PreloadedInterpreterTest, ::testing::ValuesIn(test::backendNames()),
                         test::backendTestName);
