# Precompiled headers: the library headers nearly every translation unit parses (Qt Core's containers and JSON, the
# standard library, nlohmann/json in the runner, Qt Widgets in the app, GoogleTest in the tests) are parsed once per
# target instead of once per file. scripts/build-cost measures what a cold build costs with and without them.
#
# The compiler cache keeps working with them (scripts/lib/setup.sh's build_project): it needs the sloppiness
# pch_defines,time_macros (setup.sh sets CCACHE_SLOPPINESS) and GCC's -fpch-preprocess, so that it can tell which
# precompiled header a file used. It hashes the .gch, which holds the compile's include folders: one made in a target
# with automoc's include folder, which lies in the build folder, differs between two build folders (build,
# build-headless), and so do the cache entries of every file compiled with it. The shared ones below
# (llm_sandbox_shared_precompiled) have no such folder: build and build-headless make byte-identical .gch files and
# share their objects through the cache (checked 2026-12-04: the headless build after the full one, 196 s and 384
# CPU-seconds, most of it cache hits, where it had compiled everything again).
option(LLM_SANDBOX_PRECOMPILED_HEADERS "Precompile the common library headers of each target" ON)

set(LLM_SANDBOX_PCH_STD <algorithm> <chrono> <functional> <memory> <optional> <string> <utility> <vector>)
set(LLM_SANDBOX_PCH_QT_CORE
    <QByteArray> <QDateTime> <QDir> <QFile> <QFileInfo> <QHash> <QJsonArray> <QJsonDocument> <QJsonObject> <QJsonValue>
    <QList> <QLoggingCategory> <QObject> <QRegularExpression> <QSet> <QString> <QStringList> <QTimer> <QUrl> <QVariant>)
set(LLM_SANDBOX_PCH_QT_WIDGETS
    <QAbstractItemModel> <QAction> <QApplication> <QComboBox> <QFormLayout> <QHBoxLayout> <QHeaderView> <QLabel>
    <QLineEdit> <QPainter> <QPlainTextEdit> <QPushButton> <QSplitter> <QStyle> <QTableView> <QVBoxLayout> <QWidget>)
set(LLM_SANDBOX_PCH_GTEST <gmock/gmock.h> <gtest/gtest.h>)
set(LLM_SANDBOX_PCH_NLOHMANN <nlohmann/json.hpp>)

if(LLM_SANDBOX_PRECOMPILED_HEADERS AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # Marks in the preprocessed output which precompiled header was used: ccache needs it to cache such files.
    add_compile_options(-fpch-preprocess)
endif()

# llm_sandbox_precompile(TARGET [QT_CORE] [QT_WIDGETS] [GTEST] [NLOHMANN]): TARGET precompiles the standard library
# headers and the groups named.
function(llm_sandbox_precompile target)
    if(NOT LLM_SANDBOX_PRECOMPILED_HEADERS)
        return()
    endif()
    set(headers ${LLM_SANDBOX_PCH_STD})
    foreach(group IN ITEMS ${ARGN})
        list(APPEND headers ${LLM_SANDBOX_PCH_${group}})
    endforeach()
    target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# llm_sandbox_shared_precompiled(NAME GROUPS GROUP... LINK LIBRARY...): a target that only precompiles the groups, for
# others to reuse (llm_sandbox_reuse_precompiled) instead of precompiling the same headers again, about 12 s each on two
# cores. It links only what the headers need: GCC refuses a precompiled header in a file compiled without a macro it
# was made with (Qt's module macros, QT_DBUS_LIB and the like, come with each library linked), and accepts one made
# with fewer; -Winvalid-pch, which CMake passes, names a header it refuses.
function(llm_sandbox_shared_precompiled name)
    if(NOT LLM_SANDBOX_PRECOMPILED_HEADERS)
        return()
    endif()
    cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "GROUPS;LINK")
    add_library(${name} OBJECT ${CMAKE_SOURCE_DIR}/cmake/precompiled.cpp)
    target_link_libraries(${name} PRIVATE ${ARG_LINK})
    llm_sandbox_precompile(${name} ${ARG_GROUPS})
endfunction()

# llm_sandbox_reuse_precompiled(TARGET FROM): TARGET's files use the headers FROM precompiled (FROM compiled with the
# same optimization level, the same directory's options).
function(llm_sandbox_reuse_precompiled target from)
    if(NOT LLM_SANDBOX_PRECOMPILED_HEADERS)
        return()
    endif()
    target_precompile_headers(${target} REUSE_FROM ${from})
endfunction()
