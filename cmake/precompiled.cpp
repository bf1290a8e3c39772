// The one file of the targets llm_sandbox_shared_precompiled makes (cmake/Precompiled.cmake): they exist for their
// precompiled header.
