#pragma once

// One engine per backend, shared by the tests of a suite so that the containers one test leaves
// warm serve the next (ctest runs each test in its own process; a run of the whole binary gets
// the speed-up). A suite keeps one as a static member and clears it in TearDownTestSuite, while
// the engines' backends can still remove their containers.
#include "BackendTestSupport.h"

#include <map>
#include <memory>
#include <string>

namespace sandbox::test {

class SharedEngines final
{
public:
    /// The engine for `backend`, made with engineFor() on first use; null when the backend could
    /// not be made (the test has failed already).
    ExecutionEngine *get(const std::string &backend)
    {
        std::unique_ptr<ExecutionEngine> &engine = m_engines[backend];
        if (!engine) {
            engine = engineFor(backend);
        }
        return engine.get();
    }

    void clear() { m_engines.clear(); }

private:
    std::map<std::string, std::unique_ptr<ExecutionEngine>> m_engines;
};

} // namespace sandbox::test
