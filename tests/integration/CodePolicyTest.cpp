// The code policy in front of the sandbox, end to end: with `default`, code that starts
// other programs is refused with the rule and the line and never reaches a container; the
// same code runs with `permissive`.
#include "BackendTestSupport.h"
#include "backend/BackendFactory.h"

#include <gtest/gtest.h>

using namespace sandbox;

namespace {

struct Case
{
    const char *language;
    const char *code;
    const char *rule;
    int line;
};

const Case kCases[] = {
    {"python", "x = 1\nimport subprocess\nprint(subprocess.run(['true']).returncode)\n", "python.subprocess", 2},
    {"javascript", "const x = 1;\nconst cp = require('child_process');\nconsole.log(typeof cp.execSync);\n",
     "javascript.child_process", 2},
    {"java",
     "public class Main {\n  public static void main(String[] a) throws Exception {\n"
     "    Runtime.getRuntime().exec(new String[] {\"true\"}).waitFor();\n  }\n}\n",
     "java.", 3},
    {"cpp", "#include <cstdlib>\nint main() {\n  return std::system(\"true\");\n}\n", "cpp.", 3},
    {"go", "package main\n\nimport (\n\t\"os/exec\"\n)\n\nfunc main() { _ = exec.Command(\"true\").Run() }\n", "go.",
     4},
    {"r", "x <- 1\nsystem('true')\n", "r.", 2},
    {"ruby", "x = 1\nputs `true`\n", "ruby.", 2},
};

class CodePolicyTest : public ::testing::TestWithParam<std::tuple<std::string, Case>>
{
protected:
    std::unique_ptr<ExecutionEngine> engine(const QString &policy)
    {
        auto backend = test::backendFor(std::get<0>(GetParam()));
        SandboxSettings settings;
        settings.policy = policy;
        return std::make_unique<ExecutionEngine>(backend, settings);
    }
    RunRequest request() const
    {
        RunRequest request;
        request.language = QString::fromUtf8(std::get<1>(GetParam()).language);
        request.code = QString::fromUtf8(std::get<1>(GetParam()).code);
        request.timeout = std::chrono::seconds(60);
        return request;
    }
};

} // namespace

TEST_P(CodePolicyTest, defaultPolicyRefusesWithRuleAndLineAndPermissiveRunsIt)
{
    const Case &c = std::get<1>(GetParam());
    struct Observer final : RunObserver
    {
        int progress = 0;
        void runProgress(const QString &, const RunProgress &) override { ++progress; }
    } observer;
    auto refused = engine("default")->run(request(), {}, &observer);
    ASSERT_FALSE(refused.ok()) << "the default policy let it through";
    const std::string message = refused.error().message.toStdString();
    EXPECT_NE(message.find(QStringLiteral("line %1:").arg(c.line).toStdString()), std::string::npos) << message;
    EXPECT_NE(message.find(c.rule), std::string::npos) << message;
    EXPECT_EQ(observer.progress, 0) << "a refused run must not start a sandbox";

    auto allowed = engine("permissive")->run(request());
    ASSERT_TRUE(allowed.ok()) << allowed.error().message.toStdString();
    EXPECT_EQ(allowed->reason, StopReason::Exited) << allowed->stderrData.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Policies, CodePolicyTest,
                         ::testing::Combine(::testing::ValuesIn(test::backendNames()), ::testing::ValuesIn(kCases)),
                         [](const ::testing::TestParamInfo<std::tuple<std::string, Case>> &info) {
                             return std::string(std::get<1>(info.param).language) + "_" + std::get<0>(info.param);
                         });
