# Every library the build needs, found in one place. A missing one stops the configure step with one sentence that
# names the Debian package providing it (scripts/lib/setup.sh installs them all: BUILD_PACKAGES lists the same
# packages, and scripts/check-clean-root proves in a clean Debian 12 root that the list is complete).

function(llm_sandbox_missing what debian_package)
    message(FATAL_ERROR "${what} is missing: install the Debian package ${debian_package} "
                        "(scripts/lib/setup.sh installs every package the build needs).")
endfunction()

# llm_sandbox_require_qt(DEBIAN_PACKAGE COMPONENT...): Qt 6.4 or later with those modules.
macro(llm_sandbox_require_qt debian_package)
    find_package(Qt6 6.4 QUIET COMPONENTS ${ARGN})
    foreach(_component IN ITEMS ${ARGN})
        if(NOT Qt6${_component}_FOUND)
            llm_sandbox_missing("Qt 6's ${_component} module (6.4 or later)" ${debian_package})
        endif()
    endforeach()
endmacro()

# llm_sandbox_require_pkgconfig(PREFIX MODULE DEBIAN_PACKAGE): an imported target PkgConfig::PREFIX.
function(llm_sandbox_require_pkgconfig prefix module debian_package)
    pkg_check_modules(${prefix} QUIET IMPORTED_TARGET GLOBAL ${module})
    if(NOT ${prefix}_FOUND)
        llm_sandbox_missing("The library ${module} (found through pkg-config)" ${debian_package})
    endif()
endfunction()

# llm_sandbox_require_package(NAME DEBIAN_PACKAGE [VERSION]): a CMake package of that name.
macro(llm_sandbox_require_package name debian_package)
    find_package(${name} ${ARGN} QUIET)
    if(NOT ${name}_FOUND)
        llm_sandbox_missing("The CMake package ${name}" ${debian_package})
    endif()
endmacro()

find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
    llm_sandbox_missing("pkg-config" pkg-config)
endif()
llm_sandbox_require_qt(qt6-base-dev Core Network Concurrent Sql)
llm_sandbox_require_qt(qt6-websockets-dev WebSockets)
llm_sandbox_require_qt(qt6-httpserver-dev HttpServer)
llm_sandbox_require_qt(qt6-tools-dev LinguistTools)
llm_sandbox_require_package(Qt6Keychain qtkeychain-qt6-dev)
llm_sandbox_require_pkgconfig(CURL libcurl libcurl4-openssl-dev)
llm_sandbox_require_pkgconfig(ARCHIVE libarchive libarchive-dev)
llm_sandbox_require_pkgconfig(YAML_CPP yaml-cpp libyaml-cpp-dev)
llm_sandbox_require_pkgconfig(TOMLPLUSPLUS tomlplusplus libtomlplusplus-dev)
llm_sandbox_require_package(nlohmann_json nlohmann-json3-dev 3)
llm_sandbox_require_package(OpenSSL libssl-dev 3)
if(LLM_SANDBOX_GUI)
    # Qt Gui's own package needs OpenGL's headers (WrapOpenGL) and says only that Gui was not found without them.
    find_package(OpenGL QUIET)
    if(NOT OPENGL_FOUND)
        llm_sandbox_missing("OpenGL's headers (Qt Gui needs them)" libgl-dev)
    endif()
    llm_sandbox_require_qt(qt6-base-dev Gui Widgets)
    llm_sandbox_require_qt(qt6-svg-dev Svg)
    llm_sandbox_require_qt(qt6-charts-dev Charts)
endif()
if(LLM_SANDBOX_TESTS)
    llm_sandbox_require_package(GTest "libgtest-dev and libgmock-dev")
    llm_sandbox_require_qt(qt6-base-dev Test)
endif()
