<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ImagesCommand</name>
    <message numerus="yes">
        <location filename="../app/cli/ImagesCommand.cpp" line="+107"/>
        <source>%n days</source>
        <translation>
            <numerusform>%n day</numerusform>
            <numerusform>%n days</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+67"/>
        <source>Removed %n superseded image(s) (%1)</source>
        <translation>
            <numerusform>Removed %n superseded image (%1)</numerusform>
            <numerusform>Removed %n superseded images (%1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%1; kept %n that containers still use</source>
        <translation>
            <numerusform>%1; kept %n that a container still uses</numerusform>
            <numerusform>%1; kept %n that containers still use</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+105"/>
        <source>Pushed %n image(s) to %1; for the kubernetes backend set LLM_SANDBOX_REGISTRY=%1</source>
        <translation>
            <numerusform>Pushed %n image to %1; for the kubernetes backend set LLM_SANDBOX_REGISTRY=%1</numerusform>
            <numerusform>Pushed %n images to %1; for the kubernetes backend set LLM_SANDBOX_REGISTRY=%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunCommand</name>
    <message numerus="yes">
        <location filename="../app/cli/RunCommand.cpp" line="+258"/>
        <source>artifact %1 (%2, %n bytes): %3</source>
        <translation>
            <numerusform>artifact %1 (%2, %n byte): %3</numerusform>
            <numerusform>artifact %1 (%2, %n bytes): %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n artifact(s) over the limits were dropped</source>
        <translation>
            <numerusform>%n artifact over the limits was dropped</numerusform>
            <numerusform>%n artifacts over the limits were dropped</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunText</name>
    <message numerus="yes">
        <location filename="../app/gui/RunText.cpp" line="+230"/>
        <source>%1 (%2, %n file(s), %3)</source>
        <translation>
            <numerusform>%1 (%2, %n file, %3)</numerusform>
            <numerusform>%1 (%2, %n files, %3)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+64"/>
        <source>%n connection(s)</source>
        <translation>
            <numerusform>%n connection</numerusform>
            <numerusform>%n connections</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n connection(s), %1 refused</source>
        <translation>
            <numerusform>%n connection, %1 refused</numerusform>
            <numerusform>%n connections, %1 refused</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>%n with secret %1</source>
        <translation>
            <numerusform>%n with secret %1</numerusform>
            <numerusform>%n with secret %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ShowCommand</name>
    <message numerus="yes">
        <location filename="../app/cli/ShowCommand.cpp" line="+86"/>
        <source>%1 (%2, %n bytes%3)</source>
        <translation>
            <numerusform>%1 (%2, %n byte%3)</numerusform>
            <numerusform>%1 (%2, %n bytes%3)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrayStatus</name>
    <message numerus="yes">
        <location filename="../app/gui/tray/TrayStatus.cpp" line="+40"/>
        <source>%n running</source>
        <translation>
            <numerusform>%n running</numerusform>
            <numerusform>%n running</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n client(s), %1</source>
        <translation>
            <numerusform>%n client, %1</numerusform>
            <numerusform>%n clients, %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ArtifactPreviewDialog</name>
    <message numerus="yes">
        <location filename="../app/gui/widgets/ArtifactPreviewDialog.cpp" line="+77"/>
        <source> … (%n character(s) of this line not shown: save the file to see all of it)</source>
        <translation>
            <numerusform> … (%n character of this line not shown: save the file to see all of it)</numerusform>
            <numerusform> … (%n characters of this line not shown: save the file to see all of it)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+484"/>
        <source>the first %n row(s) shown: save the file to see all of it</source>
        <translation>
            <numerusform>the first row shown: save the file to see all of it</numerusform>
            <numerusform>the first %n rows shown: save the file to see all of it</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ArtifactStrip</name>
    <message numerus="yes">
        <location filename="../app/gui/widgets/ArtifactStrip.cpp" line="+173"/>
        <source>%n chart(s)</source>
        <translation>
            <numerusform>%n chart</numerusform>
            <numerusform>%n charts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n table(s)</source>
        <translation>
            <numerusform>%n table</numerusform>
            <numerusform>%n tables</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n web page(s)</source>
        <translation>
            <numerusform>%n web page</numerusform>
            <numerusform>%n web pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n other file(s)</source>
        <translation>
            <numerusform>%n other file</numerusform>
            <numerusform>%n other files</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ConnectAssistantDialog</name>
    <message numerus="yes">
        <location filename="../app/gui/connect/ConnectAssistantDialog.cpp" line="+83"/>
        <source>&amp;Share my folders (%n) with this assistant&apos;s sandboxes</source>
        <translation>
            <numerusform>&amp;Share my folder (%n) with this assistant&apos;s sandboxes</numerusform>
            <numerusform>&amp;Share my folders (%n) with this assistant&apos;s sandboxes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+392"/>
        <source>The clipboard now holds the server&apos;s token with the configuration: paste it only into the assistant&apos;s settings. It is cleared from the clipboard in %n second(s).</source>
        <translation>
            <numerusform>The clipboard now holds the server&apos;s token with the configuration: paste it only into the assistant&apos;s settings. It is cleared from the clipboard in %n second.</numerusform>
            <numerusform>The clipboard now holds the server&apos;s token with the configuration: paste it only into the assistant&apos;s settings. It is cleared from the clipboard in %n seconds.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ConsolePage</name>
    <message numerus="yes">
        <location filename="../app/gui/console/ConsolePage.cpp" line="+410"/>
        <source>%1 (%n line(s))</source>
        <translation>
            <numerusform>%1 (%n line)</numerusform>
            <numerusform>%1 (%n lines)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::GalleryPage</name>
    <message numerus="yes">
        <location filename="../app/gui/gallery/GalleryPage.cpp" line="+253"/>
        <source>%n artifact(s)</source>
        <translation>
            <numerusform>%n artifact</numerusform>
            <numerusform>%n artifacts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ImageTableModel</name>
    <message numerus="yes">
        <location filename="../app/gui/backends/ImageTableModel.cpp" line="+76"/>
        <source>%n min</source>
        <translation>
            <numerusform>%n min</numerusform>
            <numerusform>%n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n h</source>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n days</source>
        <translation>
            <numerusform>%n day</numerusform>
            <numerusform>%n days</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ImagesTab</name>
    <message numerus="yes">
        <location filename="../app/gui/backends/ImagesTab.cpp" line="+242"/>
        <source>Done: pushed %n image(s) to %1; Kubernetes pods pull them from there.</source>
        <translation>
            <numerusform>Done: pushed %n image to %1; Kubernetes pods pull them from there.</numerusform>
            <numerusform>Done: pushed %n images to %1; Kubernetes pods pull them from there.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>Removed %n old image(s), %1.</source>
        <translation>
            <numerusform>Removed %n old image, %1.</numerusform>
            <numerusform>Removed %n old images, %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Kept %n that containers still use.</source>
        <translation>
            <numerusform>Kept %n that a container still uses.</numerusform>
            <numerusform>Kept %n that containers still use.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+77"/>
        <source>%n image(s) of older definitions (%1) can be removed.</source>
        <translation>
            <numerusform>%n image of an older definition (%1) can be removed.</numerusform>
            <numerusform>%n images of older definitions (%1) can be removed.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::LibraryCacheTab</name>
    <message numerus="yes">
        <location filename="../app/gui/backends/LibraryCacheTab.cpp" line="+115"/>
        <source>Removed %n library set(s), %1 freed.</source>
        <translation>
            <numerusform>Removed %n library set, %1 freed.</numerusform>
            <numerusform>Removed %n library sets, %1 freed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+45"/>
        <source>%n set(s), %1 of %2 in %3</source>
        <translation>
            <numerusform>%n set, %1 of %2 in %3</numerusform>
            <numerusform>%n sets, %1 of %2 in %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+58"/>
        <source>Remove %n library set(s) from the library cache?</source>
        <translation>
            <numerusform>Remove %n library set from the library cache?</numerusform>
            <numerusform>Remove %n library sets from the library cache?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+21"/>
        <source>Remove all %n library set(s) from the cache?</source>
        <translation>
            <numerusform>Remove the %n library set from the cache?</numerusform>
            <numerusform>Remove all %n library sets from the cache?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::LiveLogPage</name>
    <message numerus="yes">
        <location filename="../app/gui/livelog/LiveLogPage.cpp" line="+244"/>
        <source>&amp;Follow newest (%n new)</source>
        <translation>
            <numerusform>&amp;Follow newest (%n new)</numerusform>
            <numerusform>&amp;Follow newest (%n new)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::LiveLogThumbnailDelegate</name>
    <message numerus="yes">
        <location filename="../app/gui/livelog/LiveLogThumbnailDelegate.cpp" line="+101"/>
        <source>+%n</source>
        <comment>more charts than the row shows</comment>
        <translation>
            <numerusform>+%n</numerusform>
            <numerusform>+%n</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::MainWindow</name>
    <message numerus="yes">
        <location filename="../app/gui/MainWindow.cpp" line="+440"/>
        <source>%n run(s) in progress</source>
        <translation>
            <numerusform>%n run in progress</numerusform>
            <numerusform>%n runs in progress</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+172"/>
        <source>%n run(s) still in progress.</source>
        <translation>
            <numerusform>%n run still in progress.</numerusform>
            <numerusform>%n runs still in progress.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>The MCP server is running with %n client(s) connected; their calls are cancelled and their sessions end.</source>
        <translation>
            <numerusform>The MCP server is running with %n client connected; its calls are cancelled and its session ends.</numerusform>
            <numerusform>The MCP server is running with %n clients connected; their calls are cancelled and their sessions end.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+61"/>
        <source>Stop %n run(s)?</source>
        <translation>
            <numerusform>Stop %n run?</numerusform>
            <numerusform>Stop %n runs?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::NetworkView</name>
    <message numerus="yes">
        <location filename="../app/gui/widgets/NetworkView.cpp" line="+56"/>
        <source>%n connection(s), all allowed.</source>
        <translation>
            <numerusform>%n connection, allowed.</numerusform>
            <numerusform>%n connections, all allowed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n connection(s), %1 refused.</source>
        <translation>
            <numerusform>%n connection, %1 refused.</numerusform>
            <numerusform>%n connections, %1 refused.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::RunningRuns</name>
    <message numerus="yes">
        <location filename="../app/gui/activity/RunningRuns.cpp" line="+116"/>
        <source>%n running: %1</source>
        <translation>
            <numerusform>%n running: %1</numerusform>
            <numerusform>%n running: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::SandboxesTab</name>
    <message numerus="yes">
        <location filename="../app/gui/backends/SandboxesTab.cpp" line="+157"/>
        <source>%n sandbox(es) running, of every llm-sandbox process.</source>
        <translation>
            <numerusform>%n sandbox running, of every llm-sandbox process.</numerusform>
            <numerusform>%n sandboxes running, of every llm-sandbox process.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n leftover(s) of ended processes.</source>
        <translation>
            <numerusform>%n leftover of ended processes.</numerusform>
            <numerusform>%n leftovers of ended processes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+72"/>
        <source>Removed %n leftover container(s).</source>
        <translation>
            <numerusform>Removed %n leftover container.</numerusform>
            <numerusform>Removed %n leftover containers.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ServerClientsModel</name>
    <message numerus="yes">
        <location filename="../app/gui/server/ServerClientsModel.cpp" line="+165"/>
        <source>Idle for %n min</source>
        <translation>
            <numerusform>Idle for %n min</numerusform>
            <numerusform>Idle for %n min</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::StatisticsPage</name>
    <message numerus="yes">
        <location filename="../app/gui/statistics/StatisticsPage.cpp" line="+187"/>
        <source>%1: %n run(s)</source>
        <translation>
            <numerusform>%1: %n run</numerusform>
            <numerusform>%1: %n runs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+285"/>
        <source>%1 · %2: %n run(s)</source>
        <translation>
            <numerusform>%1 · %2: %n run</numerusform>
            <numerusform>%1 · %2: %n runs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+50"/>
        <source>%n run(s), %1 succeeded</source>
        <translation>
            <numerusform>%n run, %1 succeeded</numerusform>
            <numerusform>%n runs, %1 succeeded</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+70"/>
        <source>%1, cold starts (a container was started): %n run(s)</source>
        <translation>
            <numerusform>%1, cold starts (a container was started): %n run</numerusform>
            <numerusform>%1, cold starts (a container was started): %n runs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1, warm container: %n run(s)</source>
        <translation>
            <numerusform>%1, warm container: %n run</numerusform>
            <numerusform>%1, warm container: %n runs</numerusform>
        </translation>
    </message>
</context>
</TS>
