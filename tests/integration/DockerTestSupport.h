#pragma once

// For test files not yet parameterized over the backend: they run on Docker only. New tests
// use BackendTestSupport.h directly; remove this header once nothing includes it.
#include "BackendTestSupport.h"

namespace sandbox::test {

inline std::shared_ptr<ContainerBackend> dockerBackend()
{
    return backendFor("docker");
}

inline std::unique_ptr<ExecutionEngine> dockerEngine()
{
    return engineFor("docker");
}

} // namespace sandbox::test
