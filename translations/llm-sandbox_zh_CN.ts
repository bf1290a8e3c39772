<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AppContext</name>
    <message>
        <location filename="../app/AppContext.cpp" line="+115"/>
        <source>journal retention: %1</source>
        <translation>日志库保留清理：%1</translation>
    </message>
</context>
<context>
    <name>BuildProgressView</name>
    <message>
        <location filename="../app/cli/BuildProgressView.cpp" line="+53"/>
        <source>copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>up to date</source>
        <translation>已是最新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: up to date</source>
        <translation>%1：已是最新</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>building</source>
        <translation>正在构建</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: building</source>
        <translation>%1：正在构建</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>built in %1 s</source>
        <translation>构建完成，用时 %1 s</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: built in %2 s</source>
        <translation>%1：构建完成，用时 %2 s</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: failed: %2</source>
        <translation>%1：失败：%2</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <location filename="../app/main.cpp" line="+51"/>
        <source>this build has no desktop app; see `llm-sandbox --help` for the commands.</source>
        <translation>此构建不含桌面应用；命令列表见 `llm-sandbox --help`。</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>unknown command &quot;%1&quot;; see `llm-sandbox --help`.</source>
        <translation>未知命令 &quot;%1&quot;；见 `llm-sandbox --help`。</translation>
    </message>
    <message>
        <location filename="../app/cli/CliContext.cpp" line="+81"/>
        <source>docker, podman or kubernetes (default: $BACKEND, then docker).</source>
        <translation>docker、podman 或 kubernetes
（默认：$BACKEND，其次为 docker）。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>Usage:</source>
        <translation>用法：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>open the desktop app</source>
        <translation>打开桌面应用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>open another desktop app window even when one runs with these settings
(else the running one comes forward)</source>
        <translation>即使已有使用相同设置的桌面应用在运行，也再打开一个窗口
（否则会把正在运行的窗口调到前面）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>open the desktop app&apos;s window and quit at once: checks that the app starts</source>
        <translation>打开桌面应用的窗口并立即退出：检查应用能否启动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>serve the Model Context Protocol over stdio (for Claude Desktop etc.)</source>
        <translation>通过 stdio 提供 Model Context Protocol 服务（供 Claude Desktop 等使用）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>run code in a sandbox; output passes through, the exit status is the program&apos;s</source>
        <translation>在沙箱中运行代码；输出原样传递，退出状态即程序自身的退出状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>docker, podman or kubernetes (default: $BACKEND, then the app&apos;s setting,
then docker)</source>
        <translation>docker、podman 或 kubernetes（默认：$BACKEND，其次为应用的设置，
再次为 docker）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>python, javascript, java, cpp, go, r, ruby (default: from FILE, else python)</source>
        <translation>python、javascript、java、cpp、go、r、ruby（默认：由 FILE 推断，否则为 python）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>wall-clock limit (default 30, or the app&apos;s setting); the whole process tree
is killed</source>
        <translation>实际耗时上限（默认 30，或应用的设置）；超时后整个进程树
都会被终止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>print one JSON object: exit_code, stdout, stderr, duration_ms, timed_out,
stop_reason, resource_usage, artifacts [{name, mime_type, size, path}], ...</source>
        <translation>输出一个 JSON 对象：exit_code、stdout、stderr、duration_ms、timed_out、
stop_reason、resource_usage、artifacts [{name, mime_type, size, path}] 等</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>code policy checked first: permissive, default (refuses starting other
programs), strict (also network, eval, paths outside the sandbox)</source>
        <translation>先检查的代码策略：permissive、default（拒绝启动其他程序）、
strict（还拒绝网络、eval 和沙箱外的路径）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>install a library first (repeatable; the install step may use the network,
the code never does): pip, npm, group:artifact:version, go module, R, gem</source>
        <translation>先安装一个库（可重复；安装步骤可以使用网络，代码本身永远不能）：
pip、npm、group:artifact:version、go module、R、gem</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>save charts and other artifacts there (default: a folder per run
under ~/.local/share/llm-sandbox/artifacts)</source>
        <translation>将图表和其他产物保存到该处（默认：每次运行一个文件夹，
位于 ~/.local/share/llm-sandbox/artifacts 下）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>build the sandbox images (all languages by default; unchanged ones are kept)</source>
        <translation>构建沙箱镜像（默认构建所有语言；未变化的镜像保留不动）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>copy the images engine NAME already has (e.g. docker) instead of building
them again; images it lacks are built</source>
        <translation>从引擎 NAME（例如 docker）复制其已有的镜像，而不是重新构建；
它没有的镜像照常构建</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>show the images and whether they are built</source>
        <translation>显示各镜像及其是否已构建</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>build what is missing, then push the images (all languages by default) to the
registry as HOST[:PORT]/llm-sandbox/LANG:TAG, where the kubernetes backend
pulls them from (default registry: $LLM_SANDBOX_REGISTRY)</source>
        <translation>构建缺少的镜像，然后将镜像（默认所有语言）推送到镜像仓库，
名为 HOST[:PORT]/llm-sandbox/LANG:TAG，kubernetes 后端从那里拉取它们
（默认镜像仓库：$LLM_SANDBOX_REGISTRY）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>check a login with the registry, then keep it in the system keychain for
images push; the password (or token) is read from stdin, never from argv</source>
        <translation>向镜像仓库验证登录信息，然后将其保存在系统钥匙串中，供 images push
使用；密码（或令牌）从 stdin 读取，绝不从 argv 读取</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>remove that login from the keychain</source>
        <translation>从钥匙串中删除该登录信息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>check each backend and image; non-zero when the selected backend is unusable</source>
        <translation>检查每个后端和镜像；所选后端不可用时返回非零值</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>serve MCP over Streamable HTTP at http://HOST:PORT/mcp; clients send
&quot;Authorization: Bearer TOKEN&quot; (token made on first use, kept in the keychain)</source>
        <translation>在 http://HOST:PORT/mcp 通过 Streamable HTTP 提供 MCP 服务；客户端发送
&quot;Authorization: Bearer TOKEN&quot;（令牌在首次使用时生成，保存在钥匙串中）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>print that token</source>
        <translation>打印该令牌</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>list the recorded runs of every face (GUI, CLI, MCP, HTTP), newest first</source>
        <translation>列出所有入口（GUI、CLI、MCP、HTTP）记录的运行，最新的在前</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>everything recorded about one run: code, output, artifacts (with their paths),
settings, resource usage and, for MCP runs, the tool call and its reply;
exit status 2 for an unknown RUN_ID</source>
        <translation>一次运行的全部记录：代码、输出、产物（含路径）、设置、资源用量，
以及 MCP 运行的工具调用及其回复；
未知的 RUN_ID 返回退出状态 2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the sandboxes llm-sandbox runs on the backend (of every llm-sandbox process):
language, owner process, session, age, CPU, memory and limit, processes;
kubernetes needs metrics-server for CPU and memory</source>
        <translation>llm-sandbox 在该后端上运行的沙箱（来自所有 llm-sandbox 进程）：
语言、所有者进程、会话、存在时间、CPU、内存及其限制、进程数；
kubernetes 需要 metrics-server 才能显示 CPU 和内存</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>add llm-sandbox to the assistant&apos;s MCP configuration file (other servers and
settings are kept byte for byte; the previous file is kept as FILE.bak)</source>
        <translation>将 llm-sandbox 添加到助手的 MCP 配置文件（其他服务器和设置逐字节保留；
原文件保存为 FILE.bak）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>remove it again, and nothing else</source>
        <translation>再将其删除，不改动其他任何内容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>keep a secret in the system keychain (its value typed, or read from stdin); a run
allowed to reach HOST sees only a placeholder in $NAME, which its egress proxy
replaces in that header of its HTTPS requests to HOST</source>
        <translation>将一个机密保存在系统钥匙串中（其值可键入，或从标准输入读取）；允许访问 HOST
的运行在 $NAME 中只能看到一个占位符，出站代理会在发往 HOST 的 HTTPS 请求的
该请求头中将其替换为真实值</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>show the secrets (never their values), or forget one</source>
        <translation>列出机密（从不显示其值），或删除其中一个</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the library sets installed once and kept for later calls (in
~/.cache/llm-sandbox/libraries), or remove them</source>
        <translation>安装过一次并为之后的调用保留的库集合（在
~/.cache/llm-sandbox/libraries 中），或删除它们</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Exit status of `run`: the program&apos;s own, 124 when it timed out, 125 when the sandbox could not run it
(engine unreachable, image missing, install failed), 126 when the code policy refused the code, 130 when
cancelled, 2 for a usage error or a bad request.</source>
        <translation>`run` 的退出状态：程序自身的退出状态；超时为 124；沙箱无法运行程序时为 125（引擎无法访问、
镜像缺失、安装失败）；代码策略拒绝代码时为 126；被取消时为 130；用法错误或请求无效时
为 2。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Environment:</source>
        <translation>环境变量：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>docker (default), podman or kubernetes</source>
        <translation>docker（默认）、podman 或 kubernetes</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>seconds a run may take when it names no timeout (default 30)</source>
        <translation>运行未指定超时时允许的秒数（默认 30）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the Docker engine, as the docker CLI reads them</source>
        <translation>Docker 引擎，与 docker CLI 的读取方式相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Podman&apos;s API service (default unix:///run/podman/podman.sock)</source>
        <translation>Podman 的 API 服务（默认 unix:///run/podman/podman.sock）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>sandbox limits (see README)</source>
        <translation>沙箱限制（见 README）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>run LANG in this image instead of the built one (e.g. LLM_SANDBOX_IMAGE_PYTHON)</source>
        <translation>用此镜像代替构建出的镜像运行 LANG（例如 LLM_SANDBOX_IMAGE_PYTHON）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a Debian 13 image to build on instead of running debootstrap</source>
        <translation>作为构建基础的 Debian 13 镜像，代替运行 debootstrap</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the token `serve` requires, instead of the one in the system keychain</source>
        <translation>`serve` 要求的令牌，代替系统钥匙串中的令牌</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the secrets&apos; names, hosts and headers (default ~/.config/llm-sandbox/secrets.json)</source>
        <translation>机密的名称、主机和请求头所在的文件（默认 ~/.config/llm-sandbox/secrets.json）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a PEM file of certificates the egress proxy trusts besides the system&apos;s when it
adds a secret</source>
        <translation>一个 PEM 证书文件：出站代理添加机密时，除系统证书外还信任其中的证书</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the library cache&apos;s folder (&quot;off&quot;: none) and size (default 2g)</source>
        <translation>库缓存的文件夹（“off”：不使用）和大小（默认 2g）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a library install&apos;s scratch space (default 2g)</source>
        <translation>库安装的临时空间（默认 2g）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the run journal&apos;s file (default ~/.local/share/llm-sandbox/journal.sqlite),
or &quot;off&quot; to record nothing</source>
        <translation>运行日志库的文件（默认 ~/.local/share/llm-sandbox/journal.sqlite），
设为 &quot;off&quot; 则不记录任何内容</translation>
    </message>
    <message>
        <location filename="../app/cli/McpCommand.cpp" line="+13"/>
        <source>--mcp takes no other arguments.</source>
        <translation>--mcp 不接受其他参数。</translation>
    </message>
</context>
<context>
    <name>DiagnosisText</name>
    <message>
        <location filename="../app/DiagnosisText.cpp" line="+13"/>
        <source>unavailable: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unreachable: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>reachable: version %1, API %2, %3 at %4, rootless</source>
        <translation>可连接：版本 %1，API %2，%3，位于 %4，rootless（非 root）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reachable: version %1, API %2, %3 at %4, rootful</source>
        <translation>可连接：版本 %1，API %2，%3，位于 %4，rootful（root）</translation>
    </message>
</context>
<context>
    <name>DoctorCommand</name>
    <message>
        <location filename="../app/cli/DoctorCommand.cpp" line="+34"/>
        <source>limits: not checked (%1)</source>
        <translation>限制：未检查（%1）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>limits: %1, cgroup v%2</source>
        <translation>限制：%1，cgroup v%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rootless</source>
        <translation>rootless 模式</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>rootful</source>
        <translation>rootful 模式</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>limits: every requested limit is in force</source>
        <translation>限制：所有要求的限制均已生效</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>limits: every other requested limit is in force</source>
        <translation>限制：其余所有要求的限制均已生效</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>NOT ENFORCED: %1 (asked for %2, found %3) - accepted by SANDBOX_ALLOW_UNENFORCED_LIMITS</source>
        <translation>未生效：%1（要求 %2，实际 %3）- SANDBOX_ALLOW_UNENFORCED_LIMITS 已允许</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NOT ENFORCED: %1 (asked for %2, found %3)</source>
        <translation>未生效：%1（要求 %2，实际 %3）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>why: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>namespace: %1 (%2)</source>
        <translation>命名空间：%1（%2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>permissions: not checked: %1</source>
        <translation>权限：未检查：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>permission %1 %2: %3</source>
        <translation>权限 %1 %2：%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>granted</source>
        <translation>已授予</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>denied%1 (only `ps` statistics need it; installer/kubernetes/role.yaml grants it)</source>
        <translation>被拒绝%1（仅 `ps` 的统计需要；installer/kubernetes/role.yaml 会授予）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>DENIED%1 (installer/kubernetes/role.yaml grants it)</source>
        <translation>被拒绝%1（必需；installer/kubernetes/role.yaml 会授予）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the container backends and the sandbox images.</source>
        <translation>检查容器后端和沙箱镜像。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The backend that must be usable (default: $BACKEND, then docker).</source>
        <translation>必须可用的后端（默认：$BACKEND，其次为 docker）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>settings: %1</source>
        <translation>设置：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>unknown backend &quot;%1&quot;; choose one of: %2.</source>
        <translation>未知后端 &quot;%1&quot;；请从以下选择：%2。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Backends:</source>
        <translation>后端：</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>runtimes: %1</source>
        <translation>运行时：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sandboxes run under: %1</source>
        <translation>沙箱使用的运行时：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Runner: %1 (present)</source>
        <translation>运行器：%1（存在）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runner: %1 (MISSING)</source>
        <translation>运行器：%1（缺失）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the selected backend &quot;%1&quot; is not usable.</source>
        <translation>所选后端 &quot;%1&quot; 不可用。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Images in %1:</source>
        <translation>%1 中的镜像：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 %2 pulled by the cluster</source>
        <translation>%1 %2 由集群拉取</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>present</source>
        <translation>已存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>missing (llm-sandbox images build %1)</source>
        <translation>缺失（llm-sandbox images build %1）</translation>
    </message>
</context>
<context>
    <name>ErrorText</name>
    <message>
        <location filename="../app/ErrorText.cpp" line="+41"/>
        <source>Something went wrong inside LLM Sandbox.</source>
        <translation>LLM Sandbox 内部出错。</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>The request is not valid.</source>
        <translation>请求无效。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>It does not exist (any more).</source>
        <translation>它不存在（或已不存在）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The container engine does not answer. Is it running?</source>
        <translation>容器引擎没有响应。它是否正在运行？</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The container engine refused.</source>
        <translation>容器引擎拒绝了请求。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The sandbox image is missing and could not be built.</source>
        <translation>沙箱镜像缺失，且无法构建。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The code policy refused this code before it ran.</source>
        <translation>代码策略在运行前拒绝了这段代码。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The container engine did not enforce a sandbox limit.</source>
        <translation>容器引擎未实施某项沙箱限制。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A configured limit was reached.</source>
        <translation>已达到配置的限制。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The libraries could not be installed.</source>
        <translation>无法安装库。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The sandbox stopped unexpectedly.</source>
        <translation>沙箱意外停止。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This is not available in this build or configuration.</source>
        <translation>此功能在当前构建或配置中不可用。</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>The installer said: %1</source>
        <translation>安装程序提示：%1</translation>
    </message>
</context>
<context>
    <name>HistoryCommand</name>
    <message>
        <location filename="../app/cli/HistoryCommand.cpp" line="+26"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>exit %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>STARTED</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SOURCE</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>LANGUAGE</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>STATUS</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DURATION</source>
        <translation>耗时</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>List the runs in the run journal, newest first.</source>
        <translation>列出运行日志库中的运行记录，最新的在前。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How many runs to show (default 20).</source>
        <translation>显示多少条运行记录（默认 20）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Print a JSON array of run summaries.</source>
        <translation>输出运行摘要的 JSON 数组。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only runs of this language.</source>
        <translation>只显示该语言的运行记录。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only runs from gui, cli, mcp, http or replay.</source>
        <translation>只显示来自 gui、cli、mcp、http 或 replay 的运行记录。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Only runs that are running, finished, failed or interrupted.</source>
        <translation>只显示状态为 running、finished、failed 或
interrupted 的运行记录。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>history takes no arguments; see `llm-sandbox history --help`.</source>
        <translation>history 不接受参数；见 `llm-sandbox history --help`。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--limit needs a positive number, not &quot;%1&quot;.</source>
        <translation>--limit 需要一个正数，而不是 &quot;%1&quot;。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>unknown source &quot;%1&quot;; use gui, cli, mcp, http or replay.</source>
        <translation>未知来源 &quot;%1&quot;；请使用 gui、cli、mcp、http 或 replay。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>unknown status &quot;%1&quot;; use running, finished, failed or interrupted.</source>
        <translation>未知状态 &quot;%1&quot;；请使用 running、finished、failed 或 interrupted。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>the run journal is off (LLM_SANDBOX_JOURNAL=off).</source>
        <translation>运行日志库已关闭（LLM_SANDBOX_JOURNAL=off）。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>No runs in the journal (%1).</source>
        <translation>日志库中没有运行记录（%1）。</translation>
    </message>
</context>
<context>
    <name>ImagesCommand</name>
    <message>
        <location filename="../app/cli/ImagesCommand.cpp" line="+91"/>
        <source>All images ready in %1 s</source>
        <translation>所有镜像已就绪，用时 %1 s</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n days</source>
        <translation>
            <numerusform>%n 天</numerusform>
        </translation>
    </message>
    <message>
        <location line="+23"/>
        <source>LANGUAGE</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>VERSION</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>IMAGE</source>
        <translation>镜像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SIZE</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>AGE</source>
        <translation>存在时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>STATUS</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>present</source>
        <translation>已存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>missing (llm-sandbox images build %1)</source>
        <translation>缺失（llm-sandbox images build %1）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>All images built by llm-sandbox in the %1 engine (sizes include the layers they share):</source>
        <translation>%1 引擎中由 llm-sandbox 构建的所有镜像（大小包含它们共享的层）：</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>Removed %n superseded image(s) (%1)</source>
        <translation>
            <numerusform>已删除 %n 个被取代的镜像（%1）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%1; kept %n that containers still use</source>
        <translation>
            <numerusform>%1；保留了 %n 个仍被容器使用的镜像</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Password for %1 at %2: </source>
        <translation>%2 上 %1 的密码: </translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Username for %1: </source>
        <translation>%1 的用户名: </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>images login needs a username: --username NAME (the password comes from stdin).</source>
        <translation>images login 需要用户名：--username NAME（密码从 stdin 读取）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>images login read no password: pipe it to stdin (`llm-sandbox images login %1 --username %2 &lt; file`) or type it when asked.</source>
        <translation>images login 没有读到密码：请通过管道传给 stdin（`llm-sandbox images login %1 --username %2 &lt; file`），或在提示时输入。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 Nothing was stored.</source>
        <translation>%1 未保存任何内容。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The registry %1 accepted the login, but it could not be kept: %2.</source>
        <translation>镜像仓库 %1 接受了登录，但无法保存该登录信息：%2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Login Succeeded: %1 at %2, kept in the system keychain as %3; images push sends it to %2</source>
        <translation>登录成功：%2 上的 %1，已保存在系统钥匙串中，条目为 %3；images push 会将其发送给 %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Could not remove the login of %1: %2.</source>
        <translation>无法删除 %1 的登录信息：%2。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Removed the login of %1 from the system keychain (if there was one).</source>
        <translation>已从系统钥匙串中删除 %1 的登录信息（如果有的话）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>images push: no login from the system keychain (%1); pushing without one</source>
        <translation>images push：未能从系统钥匙串获取登录信息（%1）；将不带登录信息推送</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Using the login of %1 for %2 from the system keychain</source>
        <translation>使用系统钥匙串中 %1 在 %2 的登录信息</translation>
    </message>
    <message numerus="yes">
        <location line="+18"/>
        <source>Pushed %n image(s) to %1; for the kubernetes backend set LLM_SANDBOX_REGISTRY=%1</source>
        <translation>
            <numerusform>已将 %n 个镜像推送到 %1；使用 kubernetes 后端时请设置 LLM_SANDBOX_REGISTRY=%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Build and list the sandbox images.</source>
        <translation>构建并列出沙箱镜像。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>build: copy the images the NAME engine already has (e.g. docker) instead of building them.</source>
        <translation>build：从引擎 NAME（例如 docker）复制其已有的镜像，
而不是构建它们。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>build: how many languages to build at once (default 3; builds mostly wait for downloads).</source>
        <translation>build：同时构建多少种语言（默认 3；
构建大多在等待下载）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>build: only the images code runs in, not the builder and egress proxy of library installs (the first install builds them).</source>
        <translation>build：只构建运行代码所用的镜像，不构建安装库所用的构建镜像和出站代理（第一次安装库时再构建）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>push: the registry to push to (default: $LLM_SANDBOX_REGISTRY, else the one saved on the desktop app&apos;s Backends page).</source>
        <translation>push：要推送到的镜像仓库（默认：$LLM_SANDBOX_REGISTRY，否则为桌面应用“后端”页面上保存的镜像仓库）。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>--run-images-only goes with `images build` only.</source>
        <translation>--run-images-only 只能与 `images build` 一起使用。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>images %1 needs a registry: name it with %2 or LLM_SANDBOX_REGISTRY (the same variable the kubernetes backend pulls from), or save it on the desktop app&apos;s Backends page.</source>
        <translation>images %1 需要一个镜像仓库：用 %2 或 LLM_SANDBOX_REGISTRY（kubernetes 后端拉取镜像时用的同一个变量）指定，或在桌面应用的“后端”页面上保存。</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>login: the registry account (asked on a terminal when not given); the password or token is read from stdin.</source>
        <translation>login：镜像仓库账号（未给出时在终端上询问）；
密码或令牌从 stdin 读取。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>build: build the images of LANG (all languages when none is given); images whose definition did not change are kept. list: show them. prune: remove the images of older definitions (not those containers use). push: build what is missing, then push the images of LANG to the registry as REGISTRY/llm-sandbox/LANG:TAG, with the login kept for it. login: check a login with REGISTRY and keep it in the system keychain. logout: forget it.</source>
        <translation>build：构建 LANG 的镜像（未指定时构建所有语言）；
定义未变化的镜像保留不动。
list：显示这些镜像。
prune：删除旧定义的镜像（容器正在使用的除外）。
push：构建缺少的镜像，然后使用为该镜像仓库保存的
登录信息，将 LANG 的镜像以
REGISTRY/llm-sandbox/LANG:TAG 推送到镜像仓库。
login：向 REGISTRY 验证登录信息，并保存在系统
钥匙串中。
logout：删除该登录信息。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>use `llm-sandbox images build [LANG...]`, `llm-sandbox images list`, `llm-sandbox images prune`, `llm-sandbox images push [--registry HOST[:PORT]] [LANG...]` or `llm-sandbox images login|logout REGISTRY`.</source>
        <translation>请使用 `llm-sandbox images build [LANG...]`、`llm-sandbox images list`、`llm-sandbox images prune`、`llm-sandbox images push [--registry HOST[:PORT]] [LANG...]` 或 `llm-sandbox images login|logout REGISTRY`。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>images %1 takes one registry, and the password only from stdin.</source>
        <translation>images %1 只接受一个镜像仓库，密码只能从 stdin 读取。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>images %1 works through the engine that has the images: use --backend docker or --backend podman (the kubernetes backend then pulls them from the registry).</source>
        <translation>images %1 通过拥有这些镜像的引擎工作：请使用 --backend docker 或 --backend podman（kubernetes 后端随后从镜像仓库拉取它们）。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>images %1: the kubernetes backend has no images of its own; using docker (--backend podman for Podman)</source>
        <translation>images %1：kubernetes 后端没有自己的镜像；改用 docker（Podman 请用 --backend podman）</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>--jobs takes a number of at least 1.</source>
        <translation>--jobs 需要一个不小于 1 的数字。</translation>
    </message>
</context>
<context>
    <name>InstallMcpCommand</name>
    <message>
        <location filename="../app/cli/InstallMcpCommand.cpp" line="+54"/>
        <source>Print what would change in the file (a diff), and write nothing.</source>
        <translation>打印文件将发生的变化（差异），不写入任何内容。</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Whose configuration file: %1 (default claude-desktop).</source>
        <translation>要修改谁的配置文件：%1（默认 claude-desktop）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>For claude-code: the project folder whose .mcp.json (shared with everyone who works on it) holds the entry, instead of your own ~/.claude.json.</source>
        <translation>用于 claude-code：把条目写入该项目文件夹的 .mcp.json（与参与该项目的所有人共享），而不是你自己的 ~/.claude.json。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>unknown client &quot;%1&quot;; use one of %2.</source>
        <translation>未知的客户端“%1”；请使用以下之一：%2。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>--project is for claude-code; %1 keeps one file per user.</source>
        <translation>--project 仅用于 claude-code；%1 每个用户只有一个配置文件。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--project %1 is not a folder.</source>
        <translation>--project %1 不是文件夹。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>no answer from the keychain</source>
        <translation>钥匙串没有响应</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Dry run: %1 would not change.</source>
        <translation>试运行：%1 不会改变。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Dry run: nothing was written.</source>
        <translation>试运行：未写入任何内容。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Restart %1 to use it.</source>
        <translation>重启 %1 即可使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Created %1 with the llm-sandbox server.</source>
        <translation>已创建 %1，其中包含 llm-sandbox 服务器。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Added the llm-sandbox server to %1 (the previous file is kept as %2).</source>
        <translation>已将 llm-sandbox 服务器添加到 %1（原文件保存为 %2）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Added the llm-sandbox server to %1.</source>
        <translation>已将 llm-sandbox 服务器添加到 %1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Updated the llm-sandbox server in %1 (the previous file is kept as %2).</source>
        <translation>已更新 %1 中的 llm-sandbox 服务器（原文件保存为 %2）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated the llm-sandbox server in %1.</source>
        <translation>已更新 %1 中的 llm-sandbox 服务器。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 has the llm-sandbox server already, as it would be written: nothing changed.</source>
        <translation>%1 中已有与将要写入的内容相同的 llm-sandbox 服务器：未做任何更改。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Removed the llm-sandbox server from %1 (the previous file is kept as %2).</source>
        <translation>已从 %1 中删除 llm-sandbox 服务器（原文件保存为 %2）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Removed the llm-sandbox server from %1.</source>
        <translation>已从 %1 中删除 llm-sandbox 服务器。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 has no llm-sandbox server: nothing changed.</source>
        <translation>%1 中没有 llm-sandbox 服务器：未做任何更改。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Add llm-sandbox to an assistant&apos;s MCP configuration file, keeping everything else in it.</source>
        <translation>将 llm-sandbox 添加到助手的 MCP 配置文件中，文件中的其他内容保持不变。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>stdio (default: the assistant starts `llm-sandbox --mcp`) or http (it connects to `llm-sandbox serve --http` with the token).</source>
        <translation>stdio（默认：助手启动 `llm-sandbox --mcp`）
或 http（助手使用令牌连接
`llm-sandbox serve --http`）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>docker, podman or kubernetes, for stdio (default: $BACKEND, then the app&apos;s setting, then docker).</source>
        <translation>docker、podman 或 kubernetes，用于 stdio
（默认：$BACKEND，其次为应用的设置，
再次为 docker）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server&apos;s URL, for http (default %1: the app&apos;s MCP server).</source>
        <translation>服务器的 URL，用于 http
（默认 %1：应用的 MCP 服务器）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A folder the server&apos;s sandboxes may read at /data/NAME, for stdio (LLM_SANDBOX_SHARE in its entry); :rw lets results be saved there. Repeat it for more folders; none is shared without it.</source>
        <translation>服务器的沙箱可在 /data/NAME 读取的文件夹，用于 stdio（写入其条目的 LLM_SANDBOX_SHARE）；:rw 允许将结果保存到那里。可重复使用以共享多个文件夹；不使用此选项则不共享任何文件夹。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hosts the server&apos;s runs may ask to reach, for stdio (LLM_SANDBOX_NETWORK_ALLOW in its entry): api.example.org, *.example.org:8443 or registries, comma-separated. Nothing is allowed without it.</source>
        <translation>该服务器的运行可请求访问的主机，用于 stdio（写入其配置项的 LLM_SANDBOX_NETWORK_ALLOW）：api.example.org、*.example.org:8443 或 registries，以逗号分隔。不指定则不允许任何访问。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>install-mcp takes no arguments besides its options; see `llm-sandbox install-mcp --help`.</source>
        <translation>install-mcp 除选项外不接受参数；见 `llm-sandbox install-mcp --help`。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>unknown transport &quot;%1&quot;; use stdio or http.</source>
        <translation>未知传输方式 &quot;%1&quot;；请使用 stdio 或 http。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Claude Desktop&apos;s configuration file only starts local (stdio) servers; use --transport stdio, or add http://…/mcp as a custom connector in Claude Desktop&apos;s settings.</source>
        <translation>Claude Desktop 的配置文件只能启动本地（stdio）服务器；请使用 --transport stdio，或在 Claude Desktop 的设置中将 http://…/mcp 添加为自定义连接器。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--backend is for --transport stdio; the HTTP server uses its own backend.</source>
        <translation>--backend 用于 --transport stdio；HTTP 服务器使用它自己的后端。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--share is for --transport stdio; the HTTP server shares the folders of its own settings.</source>
        <translation>--share 仅用于 --transport stdio；HTTP 服务器共享其自身设置中的文件夹。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>--network-allow is for --transport stdio; the HTTP server allows what its own settings do.</source>
        <translation>--network-allow 仅用于 --transport stdio；HTTP 服务器按其自身设置允许访问。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>%1 keeps its servers in its own settings, which llm-sandbox does not edit. In Cherry Studio open Settings → MCP Servers → Add Server → Import from JSON, paste the JSON above and confirm.</source>
        <translation>%1 把服务器保存在它自己的设置里，llm-sandbox 不会修改它。请在 Cherry Studio 中打开 设置 → MCP 服务器 → 添加服务器 → 从 JSON 导入，粘贴上面的 JSON 并确认。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Remove llm-sandbox from an assistant&apos;s MCP configuration file, and nothing else.</source>
        <translation>从助手的 MCP 配置文件中删除 llm-sandbox，不改动其他任何内容。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>uninstall-mcp takes no arguments besides its options; see `llm-sandbox uninstall-mcp --help`.</source>
        <translation>uninstall-mcp 除选项外不接受参数；见 `llm-sandbox uninstall-mcp --help`。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 keeps its servers in its own settings, which llm-sandbox does not edit: remove llm-sandbox there (Settings → MCP Servers).</source>
        <translation>%1 把服务器保存在它自己的设置里，llm-sandbox 不会修改它：请在那里移除 llm-sandbox（设置 → MCP 服务器）。</translation>
    </message>
</context>
<context>
    <name>LibrariesCommand</name>
    <message>
        <location filename="../app/cli/LibrariesCommand.cpp" line="+53"/>
        <source>The library cache is off (LLM_SANDBOX_LIBRARY_CACHE=off).</source>
        <translation>库缓存已关闭（LLM_SANDBOX_LIBRARY_CACHE=off）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No library sets in the cache (%1): a run with libraries keeps its own there.</source>
        <translation>缓存（%1）中没有库集合：带库的运行会把它的库保存在那里。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>LANGUAGE</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>LIBRARIES</source>
        <translation>库</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PACKED</source>
        <translation>压缩后</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>UNPACKED</source>
        <translation>解压后</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>LAST USED</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 of %2 in %3</source>
        <translation>%1 / %2，位于 %3</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The library sets installed once and kept for later calls with the same libraries.</source>
        <translation>安装过一次并为之后使用相同库的调用保留的库集合。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>list: as JSON.</source>
        <translation>list：以 JSON 输出。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>list: show them. prune: remove them all, or those of LANG.</source>
        <translation>list：显示它们。prune：全部删除，或只删除 LANG 的。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Removed %1 of cached libraries; the next call with them installs them again.</source>
        <translation>已删除 %1 的缓存库；下次使用它们的调用会重新安装。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>use `llm-sandbox libraries list [--json]` or `llm-sandbox libraries prune [LANG...]`.</source>
        <translation>请使用 `llm-sandbox libraries list [--json]` 或 `llm-sandbox libraries prune [LANG...]`。</translation>
    </message>
</context>
<context>
    <name>PsCommand</name>
    <message>
        <location filename="../app/cli/PsCommand.cpp" line="+88"/>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>LANGUAGE</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>OWNER</source>
        <translation>所有者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SESSION</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>AGE</source>
        <translation>存在时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MEMORY / LIMIT</source>
        <translation>内存 / 限制</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PIDS</source>
        <translation>进程数</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Resource use unknown (-): %1</source>
        <translation>资源用量未知（-）：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>List the sandboxes llm-sandbox runs on a backend, with their resource use.</source>
        <translation>列出 llm-sandbox 在某个后端上运行的沙箱及其资源用量。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Print one JSON object.</source>
        <translation>输出一个 JSON 对象。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>ps takes no arguments; see `llm-sandbox ps --help`.</source>
        <translation>ps 不接受参数；见 `llm-sandbox ps --help`。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>No sandboxes running on %1.</source>
        <translation>%1 上没有正在运行的沙箱。</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/gui/GuiApplication.cpp" line="+28"/>
        <location line="+15"/>
        <location line="+14"/>
        <source>LLM Sandbox</source>
        <translation>LLM Sandbox</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>LLM Sandbox is already running; its window was brought forward.</source>
        <translation>LLM Sandbox 已在运行；已将其窗口调到前面。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>LLM Sandbox is already running with these settings but does not answer. To open another window anyway, start `llm-sandbox --new-instance`.</source>
        <translation>使用这些设置的 LLM Sandbox 已在运行但没有响应。若仍要打开另一个窗口，请运行 `llm-sandbox --new-instance`。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The settings are invalid:
%1</source>
        <translation>设置无效：
%1</translation>
    </message>
</context>
<context>
    <name>RunCommand</name>
    <message>
        <location filename="../app/cli/RunCommand.cpp" line="+72"/>
        <source>Cannot tell the language of %1 from its name; give --lang.</source>
        <translation>无法从文件名判断 %1 的语言；请指定 --lang。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Could not create the artifacts folder %1.</source>
        <translation>无法创建产物文件夹 %1。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Could not save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Run code in a sandbox.</source>
        <translation>在沙箱中运行代码。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Language (default: from FILE&apos;s extension, else python).</source>
        <translation>语言（默认：由 FILE 的扩展名推断，否则为 python）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Wall-clock limit in seconds (default 30, or the app&apos;s setting).</source>
        <translation>实际耗时上限，单位为秒（默认 30，或应用的设置）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Print one JSON object with the result instead of passing output through.</source>
        <translation>输出一个包含结果的 JSON 对象，而不是原样传递输出。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Where to save charts and other artifacts (default: a folder per run under the app&apos;s data folder).</source>
        <translation>图表和其他产物的保存位置
（默认：应用数据文件夹下每次运行一个文件夹）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Code policy checked before anything runs: permissive, default or strict (default: $SANDBOX_POLICY, then default).</source>
        <translation>运行前检查的代码策略：permissive、default 或 strict
（默认：$SANDBOX_POLICY，其次为 default）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A library to install before the code runs (repeatable): pip, npm, group:artifact:version, go module, R package, gem.</source>
        <translation>代码运行前要安装的库（可重复）：
pip、npm、group:artifact:version、
go module、R 软件包、gem。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The code to run.</source>
        <translation>要运行的代码。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A folder the code may read at /data/NAME (repeatable); :rw lets results be saved there.</source>
        <translation>代码可在 /data/NAME 读取的文件夹（可重复）；:rw 允许将结果保存到那里。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A host the code may reach over HTTP(S) (repeatable), within what you allow in LLM_SANDBOX_NETWORK_ALLOW or the app&apos;s Network settings.</source>
        <translation>代码可通过 HTTP(S) 访问的主机（可重复），须在 LLM_SANDBOX_NETWORK_ALLOW 或应用的“网络”设置所允许的范围内。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A source file to run, or - to read the code from stdin.</source>
        <translation>要运行的源文件，或用 - 从 stdin 读取代码。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>give exactly one of FILE, -c CODE or - (stdin); see `llm-sandbox run --help`.</source>
        <translation>请在 FILE、-c CODE 和 -（stdin）中只给出一个；见 `llm-sandbox run --help`。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>could not read the code from stdin.</source>
        <translation>无法从 stdin 读取代码。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>--timeout must be a number of seconds between 0 and 86400.</source>
        <translation>--timeout 必须是 0 到 86400 之间的秒数。</translation>
    </message>
    <message numerus="yes">
        <location line="+34"/>
        <source>artifact %1 (%2, %n bytes): %3</source>
        <translation>
            <numerusform>产物 %1（%2，%n 字节）：%3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n artifact(s) over the limits were dropped</source>
        <translation>
            <numerusform>%n 个超出限制的产物已被丢弃</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>output beyond the limit was dropped</source>
        <translation>超出限制的输出已被丢弃</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>timed out after %1 s; the program was killed</source>
        <translation>%1 s 后超时；程序已被终止</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the program ran out of memory and was killed</source>
        <translation>程序内存耗尽，已被终止</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the program used up its CPU-time limit and was killed</source>
        <translation>程序用完了 CPU 时间限制，已被终止</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the program exceeded the output limit and was killed</source>
        <translation>程序超出了输出限制，已被终止</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>compilation failed</source>
        <translation>编译失败</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>stopped from the LLM Sandbox app</source>
        <translation>已从 LLM Sandbox 应用停止</translation>
    </message>
</context>
<context>
    <name>RunText</name>
    <message>
        <location filename="../app/gui/RunText.cpp" line="+18"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Any MCP client (stdio or HTTP)</source>
        <translation>任意 MCP 客户端（stdio 或 HTTP）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Could not run</source>
        <translation>无法运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Compile error</source>
        <translation>编译错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Failed (exit %1)</source>
        <translation>失败（退出码 %1）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Timed out after %1</source>
        <translation>%1 后超时</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Engine unreachable</source>
        <translation>无法连接引擎</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Engine error</source>
        <translation>引擎出错</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Image missing</source>
        <translation>缺少镜像</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refused by the code policy</source>
        <translation>被代码策略拒绝</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Limits not enforced</source>
        <translation>限制未生效</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Limit reached</source>
        <translation>已达上限</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Libraries not installed</source>
        <translation>库未能安装</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sandbox failed</source>
        <translation>沙箱出错</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancelled before it ran</source>
        <translation>运行前已取消</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Out of memory after %1</source>
        <translation>%1 后内存不足</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CPU-time limit reached after %1</source>
        <translation>%1 后达到 CPU 时间限制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Output limit reached after %1</source>
        <translation>%1 后达到输出限制</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancelled after %1</source>
        <translation>%1 后已取消</translation>
    </message>
    <message numerus="yes">
        <location line="+66"/>
        <source>%1 (%2, %n file(s), %3)</source>
        <translation>
            <numerusform>%1（%2，%n 个文件，%3）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>results may be saved</source>
        <translation>可保存结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>read only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 (from the cache)</source>
        <translation>%1（来自缓存）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>not an allowed host</source>
        <translation>不是允许的主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an IP address that is not allowed (only listed addresses are)</source>
        <translation>不允许的 IP 地址（只允许列出的地址）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a private, loopback, link-local or this computer&apos;s address</source>
        <translation>私有、回环、链路本地或本机地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its name resolves to a private, loopback, link-local or this computer&apos;s address</source>
        <translation>其名称解析为私有、回环、链路本地或本机地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the name does not resolve</source>
        <translation>名称无法解析</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host refused the connection or cannot be reached</source>
        <translation>主机拒绝连接或无法访问</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the host did not answer in time</source>
        <translation>主机未及时响应</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the sandbox closed the connection before the answer</source>
        <translation>沙箱在收到响应前关闭了连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a request the proxy understands</source>
        <translation>代理无法理解该请求</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the tunnel carried something else than TLS (only port 80 may carry plain HTTP)</source>
        <translation>隧道中传输的不是 TLS（只有 80 端口可以传输明文 HTTP）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>port %1 is not allowed for this host</source>
        <translation>该主机不允许端口 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>its TLS handshake names another server: %1</source>
        <translation>其 TLS 握手指向另一台服务器：%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no connection</source>
        <translation>没有连接</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n connection(s)</source>
        <translation>
            <numerusform>%n 个连接</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n connection(s), %1 refused</source>
        <translation>
            <numerusform>%n 个连接，%1 个被拒绝</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>%n with secret %1</source>
        <translation>
            <numerusform>%n 个带有机密 %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="-154"/>
        <location line="+5"/>
        <source>Stopped by you after %1</source>
        <translation>%1 后由你停止</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>exited</source>
        <translation>已退出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CPU-time limit</source>
        <translation>CPU 时间限制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>output limit</source>
        <translation>输出限制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>compile error</source>
        <translation>编译错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stopped by you</source>
        <translation>已由你停止</translation>
    </message>
    <message>
        <location line="+21"/>
        <location filename="../app/gui/statistics/StatisticsPage.cpp" line="+143"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location line="-91"/>
        <location line="+94"/>
        <location filename="../app/gui/statistics/StatisticsPage.cpp" line="-1"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="-12"/>
        <location filename="../app/gui/widgets/RunTableModel.cpp" line="+88"/>
        <source>output truncated</source>
        <translation>输出已截断</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
</context>
<context>
    <name>RunView</name>
    <message>
        <location filename="../mcp/tools/apps/RunViewResource.cpp" line="+16"/>
        <source>Waiting for the result…</source>
        <translation>正在等待结果…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run again</source>
        <translation>再次运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run with a change</source>
        <translation>修改后运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit the code, then run it in a new sandbox.</source>
        <translation>编辑代码，然后在新的沙箱中运行。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Standard output</source>
        <translation>标准输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Standard error</source>
        <translation>标准错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No output.</source>
        <translation>没有输出。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Output was cut at the limit.</source>
        <translation>输出已在上限处截断。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your folders</source>
        <translation>你的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not saved %1</source>
        <translation>未保存 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read %1</source>
        <translation>已读取 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>results may be saved</source>
        <translation>可保存结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>read only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allowed: %1</source>
        <translation>允许：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 in</source>
        <translation>接收 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 out</source>
        <translation>发送 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>secret: %1</source>
        <translation>机密：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No connection was made.</source>
        <translation>没有建立任何连接。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 run</source>
        <translation>%1 运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timed out after %1</source>
        <translation>%1 后超时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped: out of memory</source>
        <translation>已停止：内存不足</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped: CPU time limit</source>
        <translation>已停止：CPU 时间用尽</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped: output limit</source>
        <translation>已停止：输出达到上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped by the user</source>
        <translation>已由用户停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compile error</source>
        <translation>编译错误</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The call failed: %1</source>
        <translation>调用失败：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The call was cancelled: %1</source>
        <translation>调用已取消：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished in %1</source>
        <translation>用时 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU %1</source>
        <translation>CPU %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak memory %1</source>
        <translation>内存峰值 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session %1</source>
        <translation>会话 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Could not load %1: %2</source>
        <translation>无法加载 %1：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>interactive chart</source>
        <translation>交互式图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This chart is a web page the code wrote. Its scripts would run in your browser and could send what the code read over the network. Run it only if you trust the code.</source>
        <translation>此图表是代码写出的网页。其中的脚本会在你的浏览器中运行，并可能把代码读到的内容经网络发送出去。仅在你信任这段代码时运行它。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run this chart</source>
        <translation>运行此图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interactive</source>
        <translation>交互式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Picture</source>
        <translation>图片</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the picture the code drew</source>
        <translation>显示代码绘制的图片</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draw the chart from its data: values on hover, series on and off</source>
        <translation>根据数据绘制图表：悬停查看数值，可开关各数据系列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Series %1</source>
        <translation>系列 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Long series are shown at %1 evenly spread points.</source>
        <translation>较长的系列以 %1 个均匀分布的点显示。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: median %2, quartiles %3–%4, whiskers %5–%6</source>
        <translation>%1：中位数 %2，四分位数 %3–%4，须 %5–%6</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show table</source>
        <translation>显示表格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hide table</source>
        <translation>隐藏表格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rows %1–%2 of %3</source>
        <translation>第 %1–%2 行，共 %3 行</translation>
    </message>
</context>
<context>
    <name>SafeImage</name>
    <message>
        <location filename="../app/gui/widgets/SafeImage.cpp" line="+101"/>
        <source>The SVG file is too large to show.</source>
        <translation>SVG 文件太大，无法显示。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The SVG is nested too deeply or refers to itself too often to be shown safely.</source>
        <translation>该 SVG 嵌套过深或自引用过多，无法安全显示。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The SVG embeds or links another image (&lt;%1&gt;), which is not shown.</source>
        <translation>该 SVG 嵌入或链接了另一张图片（&lt;%1&gt;），不予显示。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The SVG refers to something outside itself (%1), which is not shown.</source>
        <translation>该 SVG 引用了自身以外的内容（%1），不予显示。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>The SVG refers to something outside itself (@import), which is not shown.</source>
        <translation>该 SVG 引用了自身以外的内容（@import），不予显示。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The SVG declares a document type (entities), which is not shown.</source>
        <translation>该 SVG 声明了文档类型（实体），因此不予显示。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The SVG is not well-formed: %1</source>
        <translation>SVG 格式不正确：%1</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+14"/>
        <source>The image cannot be read (%1).</source>
        <translation>无法读取图片（%1）。</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>The image is %1 × %2 pixels, too large to show.</source>
        <translation>图片为 %1 × %2 像素，太大，无法显示。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The SVG cannot be read.</source>
        <translation>无法读取该 SVG。</translation>
    </message>
    <message>
        <location line="+40"/>
        <location line="+17"/>
        <source>Not an image.</source>
        <translation>不是图片。</translation>
    </message>
    <message>
        <location filename="../app/gui/widgets/ImageDecoderProcess.cpp" line="+193"/>
        <source>The file is too large for a preview.</source>
        <translation>文件过大，无法预览。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The image cannot be read.</source>
        <translation>无法读取该图片。</translation>
    </message>
    <message>
        <location line="+44"/>
        <location line="+31"/>
        <source>Not decoded: the app is quitting.</source>
        <translation>未解码：应用正在退出。</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>The image decoder (llm-sandbox) was not found.</source>
        <translation>未找到图片解码器（llm-sandbox）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The image decoder could not start: %1</source>
        <translation>图片解码器无法启动：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Decoding the image took longer than %1 s; it is not shown.</source>
        <translation>解码该图片超过了 %1 秒，不予显示。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Decoding the image needed more memory or processor time than allowed; it is not shown.</source>
        <translation>解码该图片所需的内存或处理器时间超出限制，不予显示。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The image decoder answered something unreadable.</source>
        <translation>图片解码器返回了无法读取的内容。</translation>
    </message>
</context>
<context>
    <name>SecretsCommand</name>
    <message>
        <location filename="../app/cli/SecretsCommand.cpp" line="+41"/>
        <source>Value of %1 (sent to %2 only): </source>
        <translation>%1 的值（只发送给 %2）：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 Nothing was stored.</source>
        <translation>%1 未保存任何内容。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The secret %1 could not be kept in the system keychain: %2. Nothing was stored.</source>
        <translation>无法将机密 %1 保存在系统钥匙串中：%2。未保存任何内容。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Stored %1 in the system keychain as %2. A run allowed to reach %3 sees only a placeholder in $%1; its egress proxy sends &quot;%4&quot; to %3 in its place.</source>
        <translation>已将 %1 保存在系统钥匙串中，条目为 %2。允许访问 %3 的运行在 $%1 中只能看到一个占位符；其出站代理会改为向 %3 发送“%4”。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Could not remove %1 from the system keychain: %2.</source>
        <translation>无法从系统钥匙串中删除 %1：%2。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Removed the secret %1 (if there was one).</source>
        <translation>已删除机密 %1（如果有的话）。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>No secrets: `llm-sandbox secrets set NAME --host HOST` stores one.</source>
        <translation>没有机密：`llm-sandbox secrets set NAME --host HOST` 可保存一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>HOSTS</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>HEADER</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STORED</source>
        <translation>保存时间</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Keep secrets that a run&apos;s egress proxy adds to its requests to the hosts they are bound to; the sandbox sees only a placeholder.</source>
        <translation>保存机密：运行的出站代理会把它们加入发往其绑定主机的请求中；沙箱只能看到占位符。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>set: a host the secret is sent to (repeat for more).</source>
        <translation>set：机密发送到的主机（可重复指定多个）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>set: the header that carries it, {} where the value goes (default: &apos;Authorization: Bearer {}&apos;).</source>
        <translation>set：携带机密的请求头，{} 为值所在的位置（默认：&apos;Authorization: Bearer {}&apos;）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>list: as JSON.</source>
        <translation>list：以 JSON 格式输出。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>set: store a secret (its value typed, or read from stdin) in the system keychain, bound to --host. list: show the secrets (never their values). remove: forget one.</source>
        <translation>set：将一个机密（其值可键入，或从标准输入读取）保存在系统钥匙串中，并绑定到 --host。list：列出机密（从不显示其值）。remove：删除一个机密。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>use `llm-sandbox secrets set NAME --host HOST [--header &apos;Authorization: Bearer {}&apos;]`, `llm-sandbox secrets list [--json]` or `llm-sandbox secrets remove NAME`.</source>
        <translation>请使用 `llm-sandbox secrets set NAME --host HOST [--header &apos;Authorization: Bearer {}&apos;]`、`llm-sandbox secrets list [--json]` 或 `llm-sandbox secrets remove NAME`。</translation>
    </message>
</context>
<context>
    <name>ServeCommand</name>
    <message>
        <location filename="../app/cli/ServeCommand.cpp" line="+42"/>
        <source>--http wants HOST:PORT such as 127.0.0.1:8080, not &quot;%1&quot;.</source>
        <translation>--http 需要 HOST:PORT，例如 127.0.0.1:8080，而不是 &quot;%1&quot;。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>--http wants an IP address (or localhost), not &quot;%1&quot;.</source>
        <translation>--http 需要 IP 地址（或 localhost），而不是 &quot;%1&quot;。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>no token yet: `llm-sandbox serve --http 127.0.0.1:PORT` creates one.</source>
        <translation>还没有令牌：`llm-sandbox serve --http 127.0.0.1:PORT` 会创建一个。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>cannot keep the HTTP token in the system keychain: %1. Set %2 to a secret of at least %3 characters instead, e.g. `export %2=$(head -c 32 /dev/urandom | base64)`, and give clients the same value.</source>
        <translation>无法将 HTTP 令牌保存在系统钥匙串中：%1。请改为将 %2 设为至少 %3 个字符的密钥，例如 `export %2=$(head -c 32 /dev/urandom | base64)`，并将相同的值提供给客户端。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Serve the Model Context Protocol over Streamable HTTP at http://HOST:PORT/mcp.</source>
        <translation>在 http://HOST:PORT/mcp 通过 Streamable HTTP 提供 Model Context Protocol 服务。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Listen on HOST:PORT (an IP address or localhost; port 0 picks a free one).</source>
        <translation>监听 HOST:PORT（IP 地址或 localhost；
端口 0 表示自动选择空闲端口）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow a non-loopback HOST: anyone who reaches it with the token can run code.</source>
        <translation>允许非回环的 HOST：任何能访问到它并持有令牌的人
都可以运行代码。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Also accept requests from web pages of ORIGIN (scheme://host:port); repeatable.</source>
        <translation>同时接受来自 ORIGIN（scheme://host:port）
网页的请求；可重复。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Print the token clients must send, and exit.</source>
        <translation>打印客户端必须发送的令牌，然后退出。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replace the token in the keychain with a new one before serving (old clients get 401).</source>
        <translation>提供服务前用新令牌替换钥匙串中的令牌
（旧客户端将收到 401）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>serve takes no arguments besides its options; see `llm-sandbox serve --help`.</source>
        <translation>serve 除选项外不接受参数；见 `llm-sandbox serve --help`。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>serve needs --http HOST:PORT, e.g. --http 127.0.0.1:8080.</source>
        <translation>serve 需要 --http HOST:PORT，例如 --http 127.0.0.1:8080。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 is not a loopback address: anyone who can reach it could run code in the sandbox. Pass --allow-remote if that is what you want.</source>
        <translation>%1 不是回环地址：任何能访问到它的人都可能在沙箱中运行代码。如果这正是你想要的，请加上 --allow-remote。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>warning: serving on %1 without TLS; the token travels in clear text. Prefer 127.0.0.1 behind an HTTPS reverse proxy.</source>
        <translation>警告：在 %1 上提供服务但没有 TLS；令牌以明文传输。建议使用 127.0.0.1 并置于 HTTPS 反向代理之后。</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>token: from %1.</source>
        <translation>令牌：来自 %1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>token: in the system keychain under %1; show it with `llm-sandbox serve --show-token`.</source>
        <translation>令牌：在系统钥匙串中，条目为 %1；用 `llm-sandbox serve --show-token` 显示。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>token: created and stored in the system keychain under %1; show it with `llm-sandbox serve --show-token`.</source>
        <translation>令牌：已创建并保存在系统钥匙串中，条目为 %1；用 `llm-sandbox serve --show-token` 显示。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>stopping: cancelling running calls.</source>
        <translation>正在停止：取消正在进行的调用。</translation>
    </message>
</context>
<context>
    <name>ShowCommand</name>
    <message>
        <location filename="../app/cli/ShowCommand.cpp" line="+45"/>
        <source>Run:</source>
        <translation>运行 ID：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exit code:</source>
        <translation>退出码：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop reason:</source>
        <translation>停止原因：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client:</source>
        <translation>客户端：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Libraries:</source>
        <translation>库：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (from the library cache)</source>
        <translation>%1（来自库缓存）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Backend:</source>
        <translation>后端：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Image:</source>
        <translation>镜像：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session:</source>
        <translation>会话：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replay of:</source>
        <translation>重放自：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started:</source>
        <translation>开始时间：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished:</source>
        <translation>结束时间：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration:</source>
        <translation>耗时：</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+2"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Timeout:</source>
        <translation>超时：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Usage:</source>
        <translation>资源用量：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>wall %1 ms, cpu %2 ms, peak memory %3 KiB</source>
        <translation>实际 %1 ms，CPU %2 ms，内存峰值 %3 KiB</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Output cap:</source>
        <translation>输出上限：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 bytes per stream (output was truncated)</source>
        <translation>每个流 %1 字节（输出已被截断）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 bytes per stream</source>
        <translation>每个流 %1 字节</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stdout</source>
        <translation>标准输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stderr</source>
        <translation>标准错误</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%1 (%2, %n bytes%3)</source>
        <translation>
            <numerusform>%1（%2，%n 字节%3）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>artifacts</source>
        <translation>产物</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>MCP request (protocol %1)</source>
        <translation>MCP 请求（协议 %1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MCP response</source>
        <translation>MCP 响应</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Show everything the run journal holds about one run.</source>
        <translation>显示运行日志库中关于一次运行的全部内容。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Print the run as one JSON object.</source>
        <translation>以一个 JSON 对象输出该运行记录。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The run&apos;s id, as `llm-sandbox history` lists it.</source>
        <translation>运行记录的 ID，即 `llm-sandbox history` 列出的 ID。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>give exactly one RUN_ID; see `llm-sandbox history` for the ids.</source>
        <translation>请只给出一个 RUN_ID；ID 见 `llm-sandbox history`。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the run journal is off (LLM_SANDBOX_JOURNAL=off).</source>
        <translation>运行日志库已关闭（LLM_SANDBOX_JOURNAL=off）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>no run &quot;%1&quot; in the journal; see `llm-sandbox history` for the ids.</source>
        <translation>日志库中没有运行记录 &quot;%1&quot;；ID 见 `llm-sandbox history`。</translation>
    </message>
</context>
<context>
    <name>ThumbnailProvider</name>
    <message>
        <location filename="../app/gui/widgets/ThumbnailProvider.cpp" line="+32"/>
        <source>The file is too large for a preview.</source>
        <translation>文件太大，无法预览。</translation>
    </message>
</context>
<context>
    <name>TrayStatus</name>
    <message numerus="yes">
        <location filename="../app/gui/tray/TrayStatus.cpp" line="+40"/>
        <source>%n running</source>
        <translation>
            <numerusform>%n 个运行中</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MCP server stopped · %1</source>
        <translation>MCP 服务器已停止 · %1</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n client(s), %1</source>
        <translation>
            <numerusform>%n 个客户端，%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>MCP server at %1</source>
        <translation>MCP 服务器：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>LLM Sandbox</source>
        <translation>LLM Sandbox</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Run failed after %1</source>
        <translation>运行 %1 后失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run finished after %1</source>
        <translation>运行完成，用时 %1</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ArtifactPreviewDialog</name>
    <message numerus="yes">
        <location filename="../app/gui/widgets/ArtifactPreviewDialog.cpp" line="+77"/>
        <source> … (%n character(s) of this line not shown: save the file to see all of it)</source>
        <translation>
            <numerusform> …（此行还有 %n 个字符未显示：保存文件即可查看全部）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+43"/>
        <location line="+273"/>
        <source>Picture</source>
        <translation>图片</translation>
    </message>
    <message>
        <location line="-272"/>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The numbers behind the chart, as the model reads them (Ctrl+D)</source>
        <translation>图表背后的数字，即模型读取到的数据（Ctrl+D）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Drag to another program to give it a copy</source>
        <translation>拖到其他程序中即可交给它一份副本</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>◀ Previous</source>
        <translation>◀ 上一个</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next ▶</source>
        <translation>下一个 ▶</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fit the image to the window, larger or smaller (Ctrl+0)</source>
        <translation>使图像适合窗口（放大或缩小）(Ctrl+0)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>100%</source>
        <translation>100%</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the image at its own size (Ctrl+1)</source>
        <translation>按图像原始大小显示 (Ctrl+1)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Zoom out (Ctrl+minus, or Ctrl and the mouse wheel)</source>
        <translation>缩小（Ctrl+减号，或按住 Ctrl 滚动鼠标滚轮）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Zoom in (Ctrl+plus, or Ctrl and the mouse wheel)</source>
        <translation>放大（Ctrl+加号，或按住 Ctrl 滚动鼠标滚轮）</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+297"/>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location line="-295"/>
        <source>Copy Image</source>
        <translation>复制图片</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Files from a sandbox are saved (readable only by you), never opened with other programs.</source>
        <translation>沙箱中的文件只会被保存（仅你可读），绝不会用其他程序打开。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show Run</source>
        <translation>显示运行记录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy as CSV</source>
        <translation>复制为 CSV</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save as CSV…</source>
        <translation>另存为 CSV…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Saves the chart&apos;s data as a CSV file readable only by you</source>
        <translation>将图表数据保存为只有你能读取的 CSV 文件</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>
… (cut: save the file to see all of it)</source>
        <translation>
…（已截断：保存文件以查看全部内容）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This web page is shown as its source, not rendered: a page a sandbox wrote is never opened in your browser or shown here as a page, where its scripts and links would run outside the sandbox. Use Save As… to keep it.</source>
        <translation>此网页以源代码显示，不会被渲染：沙箱写出的网页绝不会在您的浏览器中打开，也不会在此以网页形式显示，否则其中的脚本和链接会在沙箱之外运行。如需保留，请使用“另存为…”。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is not shown inside the app. Files from a sandbox are never opened with other programs; use Save As… to keep it.</source>
        <translation>%1 不在应用内显示。来自沙箱的文件从不使用其他程序打开；请使用“另存为…”保存它。</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>This image is not shown: %1</source>
        <translation>此图片未显示：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 — %2 × %3 px, %4</source>
        <translation>%1 — %2 × %3 像素，%4</translation>
    </message>
    <message numerus="yes">
        <location line="+119"/>
        <source>the first %n row(s) shown: save the file to see all of it</source>
        <translation>
            <numerusform>只显示了前 %n 行：保存文件可查看全部</numerusform>
        </translation>
    </message>
    <message>
        <location line="-137"/>
        <location line="+155"/>
        <source>Saved to %1</source>
        <translation>已保存到 %1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save %1</source>
        <translation>保存 %1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Not Saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Could not save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ArtifactStrip</name>
    <message>
        <location filename="../app/gui/widgets/ArtifactStrip.cpp" line="+66"/>
        <source>Double-click a chart to open it, or drag it to another program</source>
        <translation>双击图表将其打开，或将其拖到其他程序中</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>Charts (%1)</source>
        <translation>图表（%1）</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>%n chart(s)</source>
        <translation>
            <numerusform>%n 张图表</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n table(s)</source>
        <translation>
            <numerusform>%n 个表格</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n web page(s)</source>
        <translation>
            <numerusform>%n 个网页</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n other file(s)</source>
        <translation>
            <numerusform>%n 个其他文件</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Files (%1): %2</source>
        <translation>文件（%1）：%2</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::BackendPanel</name>
    <message>
        <location filename="../app/gui/backends/BackendPanel.cpp" line="+31"/>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Images</source>
        <translation>镜像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sandboxes now</source>
        <translation>当前沙箱</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::BackendsPage</name>
    <message>
        <location filename="../app/gui/backends/BackendsPage.cpp" line="+52"/>
        <source>Library cache</source>
        <translation>库缓存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The library sets installed once and kept for later runs of every backend</source>
        <translation>安装过一次、为所有后端之后的运行保留的库集合</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Backends</source>
        <translation>后端</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::CodeEditor</name>
    <message>
        <location filename="../app/gui/widgets/CodeEditor.cpp" line="+34"/>
        <source>Tab indents; Ctrl+Tab moves on to the next control, Ctrl+Shift+Tab back.</source>
        <translation>Tab 键缩进；Ctrl+Tab 移到下一个控件，Ctrl+Shift+Tab 移回上一个。</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::CommandPalette</name>
    <message>
        <location filename="../app/gui/widgets/CommandPalette.cpp" line="+73"/>
        <source>Command Palette</source>
        <translation>命令面板</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Command Palette…</source>
        <translation>命令面板(&amp;C)…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Type a command…</source>
        <translation>输入命令…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>No command matches.</source>
        <translation>没有匹配的命令。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>%1: %2</source>
        <comment>command palette: a submenu&apos;s title, the command</comment>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::CompareWithDialog</name>
    <message>
        <location filename="../app/gui/history/CompareWithDialog.cpp" line="+18"/>
        <source>Compare with…</source>
        <translation>比较对象…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pick the run to compare run %1 with:</source>
        <translation>选择要与运行 %1 比较的运行：</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ConnectAssistantDialog</name>
    <message>
        <location filename="../app/gui/connect/ConnectAssistantDialog.cpp" line="+55"/>
        <source>Connect an Assistant</source>
        <translation>连接助手</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>stdio: the assistant starts llm-sandbox --mcp</source>
        <translation>stdio：由助手启动 llm-sandbox --mcp</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP: the assistant connects to llm-sandbox serve --http</source>
        <translation>HTTP：助手连接到 llm-sandbox serve --http</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>&amp;Share my folders (%n) with this assistant&apos;s sandboxes</source>
        <translation>
            <numerusform>与此助手的沙箱共享我的文件夹（%n 个）(&amp;S)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&amp;Assistant:</source>
        <translation>助手(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Transport:</source>
        <translation>传输方式(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Backend:</source>
        <translation>后端(&amp;B)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Server &amp;URL:</source>
        <translation>服务器 URL(&amp;U)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Install</source>
        <translation>安装(&amp;I)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Copy Configuration</source>
        <translation>复制配置(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copies the entry shown, with the server&apos;s token (or, for a client that cannot take it, the common form other MCP clients read)</source>
        <translation>复制所显示的条目（含服务器令牌）；若该客户端无法使用，则复制其他 MCP 客户端通用的格式</translation>
    </message>
    <message>
        <location line="+262"/>
        <source>Entry written to the file:</source>
        <translation>写入文件的条目：</translation>
    </message>
    <message>
        <location line="-249"/>
        <source>Everything else in the file stays as it is; the previous file is kept as a .bak next to it. Restart the assistant afterwards.</source>
        <translation>文件中的其他内容保持不变；原文件会以 .bak 备份保存在同一位置。之后请重启助手。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>%1 — connected</source>
        <translation>%1 — 已连接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 — connected to another llm-sandbox (%2)</source>
        <translation>%1 — 已连接到另一个 llm-sandbox（%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 — found, not connected</source>
        <translation>%1 — 已找到，未连接</translation>
    </message>
    <message>
        <location line="-15"/>
        <location line="+16"/>
        <source>%1 — not found on this computer</source>
        <translation>%1 — 本机未找到</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>%1 — found: paste the configuration</source>
        <translation>%1 — 已找到：粘贴配置</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Claude Desktop&apos;s configuration file only starts local (stdio) servers. Choose stdio, or add the URL as a custom connector in Claude Desktop&apos;s settings.</source>
        <translation>Claude Desktop 的配置文件只能启动本地（stdio）服务器。请选择 stdio，或在 Claude Desktop 的设置中将该 URL 添加为自定义连接器。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server&apos;s token cannot be read from the system keychain: %1</source>
        <translation>无法从系统钥匙串读取服务器的令牌：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading the server&apos;s token from the system keychain…</source>
        <translation>正在从系统钥匙串读取服务器的令牌…</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>it is not valid JSON (at line %1, column %2): this assistant reads strict JSON, without comments</source>
        <translation>它不是有效的 JSON（第 %1 行，第 %2 列）：此助手只读取严格的 JSON，不允许注释</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it is not valid JSON (at line %1, column %2)</source>
        <translation>它不是有效的 JSON（第 %1 行，第 %2 列）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>its top level is not a JSON object</source>
        <translation>它的顶层不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its “%1” is not a JSON object</source>
        <translation>它的“%1”不是 JSON 对象</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the key “%1” appears twice in one object</source>
        <translation>键“%1”在同一个对象中出现了两次</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it is not valid TOML (at line %1, column %2)</source>
        <translation>它不是有效的 TOML（第 %1 行，第 %2 列）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its “%1” is not a TOML table</source>
        <translation>其中的“%1”不是 TOML 表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its “%1” is not written as a table [%1] of its own: change it by hand</source>
        <translation>其中的“%1”没有写成独立的表 [%1]：请手动修改</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it is not valid YAML (at line %1, column %2)</source>
        <translation>它不是有效的 YAML（第 %1 行，第 %2 列）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its top level is not a YAML mapping</source>
        <translation>它的顶层不是 YAML 映射</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its “%1” is not a YAML mapping</source>
        <translation>它的“%1”不是 YAML 映射</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its “%1” is not a YAML list</source>
        <translation>它的“%1”不是 YAML 列表</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>it holds several YAML documents: change it by hand</source>
        <translation>它包含多个 YAML 文档：请手动修改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its “%1” is written in a way that cannot be changed safely (in flow style with other entries, or an alias): change it by hand</source>
        <translation>它的“%1”的写法无法被安全地修改（带有其他条目的流式写法，或别名）：请手动修改</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The file cannot be changed: %1. It is left as it is: fix it (or move it away), then try again.</source>
        <translation>无法修改该文件：%1。文件保持原样：请修正它（或将其移走），然后重试。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The app&apos;s MCP server is not running now: the assistant can connect once it runs (it starts with LLM Sandbox, or use Start on the MCP server page).</source>
        <translation>本应用的 MCP 服务器现在没有运行：它运行后助手才能连接（它会随 LLM Sandbox 启动，也可在“MCP 服务器”页面点击“启动”）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The app&apos;s MCP server is not running, and it does not start with LLM Sandbox: the assistant cannot connect until you start it on the MCP server page. Tick “Start the server when LLM Sandbox starts” there to have it whenever the app runs.</source>
        <translation>本应用的 MCP 服务器没有运行，也不会随 LLM Sandbox 启动：在“MCP 服务器”页面启动它之前，助手无法连接。在该页面勾选“LLM Sandbox 启动时启动服务器”，即可让它在应用运行时始终可用。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The app&apos;s MCP server is running now, but it does not start with LLM Sandbox: after a restart the assistant cannot connect until you start it again. Tick “Start the server when LLM Sandbox starts” on the MCP server page to have it whenever the app runs.</source>
        <translation>本应用的 MCP 服务器正在运行，但不会随 LLM Sandbox 启动：重启应用后，在你再次启动它之前助手无法连接。在“MCP 服务器”页面勾选“LLM Sandbox 启动时启动服务器”，即可让它在应用运行时始终可用。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This entry reaches the app&apos;s MCP server: it is running, and starts whenever LLM Sandbox does.</source>
        <translation>此条目连接本应用的 MCP 服务器：它正在运行，并会随 LLM Sandbox 一起启动。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>A server reached over HTTP shares the folders of its own settings: the app&apos;s server, those of Settings → Folders.</source>
        <translation>通过 HTTP 连接的服务器共享其自身设置中的文件夹：本应用的服务器共享“设置 → 文件夹”中的文件夹。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No folder is shared: add some in Settings → Folders first.</source>
        <translation>尚未共享任何文件夹：请先在“设置 → 文件夹”中添加。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server this assistant starts lets its sandboxes read %1 (LLM_SANDBOX_SHARE in its entry).</source>
        <translation>此助手启动的服务器允许其沙箱读取 %1（其条目中的 LLM_SANDBOX_SHARE）。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Configuration to paste:</source>
        <translation>要粘贴的配置：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>None: %1 keeps its servers in its own settings</source>
        <translation>无：%1 把服务器保存在它自己的设置里</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy Configuration, then in Cherry Studio open Settings → MCP Servers → Add Server → Import from JSON, paste it and confirm.</source>
        <translation>点击“复制配置”，然后在 Cherry Studio 中打开 设置 → MCP 服务器 → 添加服务器 → 从 JSON 导入，粘贴并确认。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The file cannot be changed: %1</source>
        <translation>无法修改该文件：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 does not use llm-sandbox yet.</source>
        <translation>%1 尚未使用 llm-sandbox。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Installed, as shown below.</source>
        <translation>已安装，如下所示。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Installed with other settings; Install replaces them with the ones below.</source>
        <translation>已使用其他设置安装；点击“安装”将其替换为下方的设置。</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+15"/>
        <source>Nothing was changed: %1</source>
        <translation>未做任何更改：%1</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Installed. Restart %1 to use it.</source>
        <translation>已安装。请重启 %1 以使用它。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Removed. Restart %1 for it to stop using llm-sandbox.</source>
        <translation>已删除。请重启 %1，使其停止使用 llm-sandbox。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The entry shown is on the clipboard.</source>
        <translation>所显示的条目已复制到剪贴板。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A configuration for any MCP client is on the clipboard.</source>
        <translation>适用于任意 MCP 客户端的配置已复制到剪贴板。</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>The clipboard now holds the server&apos;s token with the configuration: paste it only into the assistant&apos;s settings. It is cleared from the clipboard in %n second(s).</source>
        <translation>
            <numerusform>剪贴板中现在有含服务器令牌的配置：请只将其粘贴到助手的设置中。它将在 %n 秒后从剪贴板清除。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ConnectionTab</name>
    <message>
        <location filename="../app/gui/backends/ConnectionTab.cpp" line="+51"/>
        <source>Engine (DOCKER_HOST):</source>
        <translation>引擎 (DOCKER_HOST)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unix:///path/to/docker.sock or tcp://host:2376, as the docker command reads DOCKER_HOST.</source>
        <translation>unix:///path/to/docker.sock 或 tcp://host:2376，格式与 docker 命令读取的 DOCKER_HOST 相同。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none: no TLS</source>
        <translation>留空：不使用 TLS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The folder with ca.pem, cert.pem and key.pem (DOCKER_CERT_PATH); set, the engine&apos;s certificate is verified.</source>
        <translation>包含 ca.pem、cert.pem 和 key.pem 的文件夹 (DOCKER_CERT_PATH)；设置后将验证引擎的证书。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Choose the folder</source>
        <translation>选择文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TLS folder</source>
        <translation>TLS 文件夹</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>TLS folder (DOCKER_CERT_PATH):</source>
        <translation>TLS 文件夹 (DOCKER_CERT_PATH)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Service (CONTAINER_HOST):</source>
        <translation>服务 (CONTAINER_HOST)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The socket of Podman&apos;s API service (podman system service), as podman-remote reads CONTAINER_HOST.</source>
        <translation>Podman API 服务（podman system service）的套接字，格式与 podman-remote 读取的 CONTAINER_HOST 相同。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Kubeconfig (KUBECONFIG):</source>
        <translation>Kubeconfig (KUBECONFIG)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The kubeconfig file, as kubectl reads KUBECONFIG.</source>
        <translation>kubeconfig 文件，与 kubectl 读取的 KUBECONFIG 相同。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the file&apos;s current-context</source>
        <translation>文件中的 current-context</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A context of the kubeconfig (LLM_SANDBOX_KUBE_CONTEXT).</source>
        <translation>kubeconfig 中的一个上下文 (LLM_SANDBOX_KUBE_CONTEXT)。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Namespace (NAMESPACE):</source>
        <translation>命名空间 (NAMESPACE)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the context&apos;s, else default</source>
        <translation>上下文中的命名空间，否则为 default</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Where sandbox pods run.</source>
        <translation>沙箱 Pod 运行所在的命名空间。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Set in the environment, and used instead of the fields: %1</source>
        <translation>已在环境中设置，将代替上述字段使用：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Default backend (runs that name none use it: the app, and the MCP servers assistants start)</source>
        <translation>默认后端（未指定后端的运行都使用它：本应用以及助手启动的 MCP 服务器）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep these settings in llm-sandbox.ini and use them for this window&apos;s next runs; the MCP servers assistants start read them when they start.</source>
        <translation>将这些设置保存在 llm-sandbox.ini 中，并用于本窗口之后的运行；助手启动的 MCP 服务器会在启动时读取它们。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reach the engine with the fields as typed, and start a sandbox to see which limits are in force (as llm-sandbox doctor).</source>
        <translation>按当前输入的字段连接引擎，并启动一个沙箱以查看哪些限制已生效（与 llm-sandbox doctor 相同）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Not tested yet.</source>
        <translation>尚未测试。</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Saved and applied: new runs use it; runs in progress finish on the previous connection. Assistants&apos; MCP servers use it from their next start.</source>
        <translation>已保存并应用：新的运行使用它；进行中的运行在先前的连接上完成。助手的 MCP 服务器从下次启动起使用它。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Testing %1…</source>
        <translation>正在测试 %1…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1 %2 answers at %3 (API %4). Test Connection also starts a sandbox and shows the limits in force.</source>
        <translation>%1 %2 在 %3 响应（API %4）。“测试连接”还会启动一个沙箱并显示生效的限制。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 does not answer: %2</source>
        <translation>%1 无响应：%2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Not usable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Not reachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API version</source>
        <translation>API 版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>rootless</source>
        <translation>rootless（非 root）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>rootful</source>
        <translation>rootful（root）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cgroup version</source>
        <translation>cgroup 版本</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Runtimes</source>
        <translation>运行时</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sandboxes run under</source>
        <translation>沙箱所用运行时</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Permissions</source>
        <translation>权限</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>all granted</source>
        <translation>全部已授予</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>denied: %1 (installer/kubernetes/role.yaml grants them)</source>
        <translation>被拒绝：%1（installer/kubernetes/role.yaml 可授予这些权限）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not checked (%1)</source>
        <translation>未检查（%1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>every requested limit is in force</source>
        <translation>所有请求的限制均已生效</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every other requested limit is in force</source>
        <translation>其他所有请求的限制均已生效</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (asked for %2, found %3)</source>
        <translation>%1（请求 %2，实际 %3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cannot enforce: %1</source>
        <translation>无法实施：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Limits</source>
        <translation>限制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reachable</source>
        <translation>可连接</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ConsolePage</name>
    <message>
        <location filename="../app/gui/console/ConsolePage.cpp" line="+111"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wall-clock limit: the whole process tree is killed when it is reached</source>
        <translation>挂钟时间限制：达到时将终止整个进程树</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Installed into the sandbox before the code runs (pip, npm, Maven, Go modules, CRAN, gems)</source>
        <translation>在代码运行前安装到沙箱中（pip、npm、Maven、Go 模块、CRAN、gems）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run the code in a sandbox (Ctrl+Return)</source>
        <translation>在沙箱中运行代码 (Ctrl+Return)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop the run (Ctrl+.)</source>
        <translation>停止运行 (Ctrl+.)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Backend:</source>
        <translation>后端(&amp;B)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Timeout:</source>
        <translation>超时(&amp;T)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Li&amp;braries:</source>
        <translation>库(&amp;B)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Write code here and press Ctrl+Return to run it in a sandbox.</source>
        <translation>在此编写代码，按 Ctrl+Return 在沙箱中运行。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Output appears here as the program writes it; errors in red.</source>
        <translation>程序的输出会实时显示在这里；错误以红色显示。</translation>
    </message>
    <message>
        <location line="-86"/>
        <source>Re&amp;cent</source>
        <translation>最近(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code you ran lately in this language</source>
        <translation>最近用这种语言运行过的代码</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The hosts the run may reach, comma separated (api.example.org, *.example.org:8443), within Settings → Network. Without any the run has no network.</source>
        <translation>本次运行可访问的主机，以逗号分隔（api.example.org, *.example.org:8443），须在“设置 → 网络”允许的范围内。不填则运行没有网络。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Net&amp;work:</source>
        <translation>网络(&amp;W)：</translation>
    </message>
    <message>
        <location line="+40"/>
        <location line="+12"/>
        <source>Show Details</source>
        <translation>显示详情</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Hide Details</source>
        <translation>隐藏详情</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>e.g. %1</source>
        <translation>例如：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+67"/>
        <source>%1 (%n line(s))</source>
        <translation>
            <numerusform>%1（%n 行）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+27"/>
        <source>%1 — double-click to enlarge</source>
        <translation>%1 — 双击放大</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 — double-click to view</source>
        <translation>%1 — 双击查看</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Starting a sandbox…</source>
        <translation>正在启动沙箱…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Installing %1…</source>
        <translation>正在安装 %1…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Running (run %1)…</source>
        <translation>正在运行（运行 %1）…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Building the sandbox image: %1</source>
        <translation>正在构建沙箱镜像：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Installing libraries: %1</source>
        <translation>正在安装库：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Starting a sandbox: %1</source>
        <translation>正在启动沙箱：%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 in total</source>
        <translation>总计 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>program: %1 wall, %2 CPU, %3 peak memory</source>
        <translation>程序：挂钟时间 %1，CPU 时间 %2，峰值内存 %3</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>output truncated</source>
        <translation>输出已截断</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Nothing is allowed: Settings → Network</source>
        <translation>不允许任何主机：设置 → 网络</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Hosts for this run, within the package registries</source>
        <translation>本次运行的主机，限于软件包仓库</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hosts for this run, within %1</source>
        <translation>本次运行的主机，限于 %1</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>Shared for the next run: %1 (read only)</source>
        <translation>已为下一次运行共享：%1（只读）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Do not share %1 with the next run</source>
        <translation>不再为下一次运行共享 %1</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::CopyFeedback</name>
    <message>
        <location filename="../app/gui/widgets/CopyFeedback.cpp" line="+24"/>
        <source>Copied ✓</source>
        <translation>已复制 ✓</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::DiffView</name>
    <message>
        <location filename="../app/gui/history/DiffView.cpp" line="+40"/>
        <source>&lt;b&gt;%1&lt;/b&gt; only in the replay (%2, %3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 仅存在于重放中（%2，%3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;%1&lt;/b&gt; only in run B (%2, %3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 仅在运行 B 中（%2，%3）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;%1&lt;/b&gt; only in the original (%2, %3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 仅存在于原始运行中（%2，%3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;%1&lt;/b&gt; only in run A (%2, %3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 仅在运行 A 中（%2，%3）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>type %1 → %2</source>
        <translation>类型 %1 → %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>size %1 → %2</source>
        <translation>大小 %1 → %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 × %2 → %3 × %4 pixels</source>
        <translation>%1 × %2 → %3 × %4 像素</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>pixels equal</source>
        <translation>像素相同</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>pixels differ</source>
        <translation>像素不同</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>contents differ</source>
        <translation>内容不同</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1&lt;/b&gt; changed: %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 已更改：%2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>1 line differs</source>
        <translation>1 行不同</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 lines differ</source>
        <translation>%1 行不同</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Language: %1</source>
        <translation>语言：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Code: %1</source>
        <translation>代码：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Libraries: %1</source>
        <translation>库：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Network: %1</source>
        <translation>网络：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Backend: %1</source>
        <translation>后端：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Image: %1</source>
        <translation>镜像：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No difference</source>
        <translation>无差异</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The replay differs</source>
        <translation>重放结果不同</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The runs differ</source>
        <translation>两次运行结果不同</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Original: run %1 on %2 · Replay: run %3 on %4</source>
        <translation>原始：在 %2 上的运行 %1 · 重放：在 %4 上的运行 %3</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Same language (%1), code and libraries; same exit code (%2), stop reason (%3), standard output and error, and artifacts (%4).</source>
        <translation>语言（%1）、代码和库相同；退出码（%2）、停止原因（%3）、标准输出和标准错误以及产物（%4）均相同。</translation>
    </message>
    <message>
        <location line="-34"/>
        <location line="+1"/>
        <source>unknown backend</source>
        <translation>未知后端</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run A: %1 on %2, %3
Run B: %4 on %5, %6</source>
        <translation>运行 A：%1，在 %2 上，%3
运行 B：%4，在 %5 上，%6</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Exit code: &lt;b&gt;%1 → %2&lt;/b&gt;</source>
        <translation>退出码：&lt;b&gt;%1 → %2&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Stop reason: &lt;b&gt;%1 → %2&lt;/b&gt;</source>
        <translation>停止原因：&lt;b&gt;%1 → %2&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Standard output: %1</source>
        <translation>标准输出：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Standard error: %1</source>
        <translation>标准错误：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Artifact %1</source>
        <translation>产物 %1</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Original</source>
        <translation>原始运行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Run A</source>
        <translation>运行 A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Run B</source>
        <translation>运行 B</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>standard output</source>
        <translation>标准输出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>standard error</source>
        <translation>标准错误</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::DocumentationDialog</name>
    <message>
        <location filename="../app/gui/help/DocumentationDialog.cpp" line="+61"/>
        <source>LLM Sandbox Documentation</source>
        <translation>LLM Sandbox 文档</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back (Alt+Left)</source>
        <translation>后退 (Alt+Left)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forward (Alt+Right)</source>
        <translation>前进 (Alt+Right)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Contents</source>
        <translation>目录</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::FoldersPage</name>
    <message>
        <location filename="../app/gui/settings/FoldersPage.cpp" line="+24"/>
        <source>Sandboxes read these folders at /data/NAME. Nothing is shared unless you add it here.</source>
        <translation>沙箱在 /data/NAME 读取这些文件夹。除非在此添加，否则不会共享任何内容。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a folder to share with the sandboxes</source>
        <translation>选择要与沙箱共享的文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop sharing the selected folder (its files stay where they are)</source>
        <translation>停止共享所选文件夹（其中的文件保持原样）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Results may be &amp;saved here</source>
        <translation>结果可保存到此处(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>An assistant may save a run&apos;s files here (save_to_folder): LLM Sandbox writes them itself, plain files only, never replacing one of yours. Sandboxes still read the folder read only.</source>
        <translation>助手可以把运行产生的文件保存到这里（save_to_folder）：由 LLM Sandbox 自己写入，仅限普通文件，绝不替换您已有的文件。沙箱仍以只读方式读取此文件夹。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Changes apply to runs and sessions that start after you press OK; open sessions keep the folders they had. The command line and assistants share these folders only when told to (run --share, or “Share my folders” when you connect an assistant).</source>
        <translation>更改对按下“确定”之后开始的运行和会话生效；已打开的会话保留原有的文件夹。命令行和助手只有在明确要求时才共享这些文件夹（run --share，或连接助手时勾选“共享我的文件夹”）。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>%1 is not a folder.</source>
        <translation>%1 不是文件夹。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>LLM Sandbox cannot read %1.</source>
        <translation>LLM Sandbox 无法读取 %1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 cannot be shared: its name holds a “;” or a line break. Rename it, or share a folder inside it.</source>
        <translation>%1 无法共享：其名称包含“;”或换行符。请重命名，或共享其中的某个文件夹。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is already shared as %2.</source>
        <translation>%1 已作为 %2 共享。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1 cannot be shared with sandboxes: share a folder of your data inside it instead.</source>
        <translation>%1 不能与沙箱共享：请改为共享其中存放您数据的文件夹。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Share a Folder</source>
        <translation>共享文件夹</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::GalleryModel</name>
    <message>
        <location filename="../app/gui/gallery/GalleryModel.cpp" line="+103"/>
        <source>%1 · run %2
%3 · %4</source>
        <translation>%1 · 运行 %2
%3 · %4</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1
%2, %3
%4 run of %5 (%6)</source>
        <translation>%1
%2，%3
%5 的 %4 运行（%6）</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::GalleryPage</name>
    <message>
        <location filename="../app/gui/gallery/GalleryPage.cpp" line="+80"/>
        <source>All languages</source>
        <translation>所有语言</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All sources</source>
        <translation>所有来源</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All types</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG</source>
        <translation>PNG</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SVG</source>
        <translation>SVG</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTML</source>
        <translation>HTML</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by name, client, run id…</source>
        <translation>按名称、客户端、运行 ID 筛选…</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Copy Image</source>
        <translation>复制图片</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>The journal cannot be read: %1</source>
        <translation>无法读取日志库：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Gallery</source>
        <translation>图库</translation>
    </message>
    <message numerus="yes">
        <location line="+69"/>
        <source>%n artifact(s)</source>
        <translation>
            <numerusform>%n 个产物</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No chart or file matches these filters. Clear them to see every one.</source>
        <translation>没有符合这些筛选条件的图表或文件。清除筛选条件即可查看全部。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No charts or files yet.

Charts and files that runs write appear here. Run code that draws a chart on the Console page, or have an assistant run some (File ▸ Connect an Assistant…).</source>
        <translation>还没有图表或文件。

运行写出的图表和文件会显示在这里。在“控制台”页面运行绘制图表的代码，或让助手运行一些代码（文件 ▸ 连接助手…）。</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Saved to %1</source>
        <translation>已保存到 %1</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy Image</source>
        <translation>复制图片(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save As…</source>
        <translation>另存为(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show &amp;Run</source>
        <translation>显示运行记录(&amp;R)</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::HistoryFilterBar</name>
    <message>
        <location filename="../app/gui/history/HistoryFilterBar.cpp" line="+31"/>
        <source>All languages</source>
        <translation>所有语言</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>All sources</source>
        <translation>所有来源</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Any time</source>
        <translation>任意时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Date range…</source>
        <translation>日期范围…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Search code, output and chart titles…</source>
        <translation>搜索代码、输出和图表标题…</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::HistoryModel</name>
    <message>
        <location filename="../app/gui/history/HistoryModel.cpp" line="+16"/>
        <source>the run journal is off (LLM_SANDBOX_JOURNAL=off)</source>
        <translation>运行日志库已关闭 (LLM_SANDBOX_JOURNAL=off)</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::HistoryPage</name>
    <message>
        <location filename="../app/gui/history/HistoryPage.cpp" line="+82"/>
        <source>Differences</source>
        <translation>差异</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run the same code, language, libraries and timeout again; the replay is a new run, compared with this one when it ends.</source>
        <translation>以相同的代码、语言、库和超时再次运行；重放是一次新的运行，结束后会与本次运行进行比较。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare with…</source>
        <translation>与其他运行比较…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pick another run to compare the run shown with: output, exit code and charts.</source>
        <translation>选择另一次运行，与当前显示的运行比较输出、退出码和图表。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Compare the Two Selected Runs</source>
        <translation>比较选中的两次运行(&amp;C)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compare the two selected runs (%1); Ctrl+click selects a second run.</source>
        <translation>比较选中的两次运行（%1）；按住 Ctrl 单击可选中第二次运行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replay on:</source>
        <translation>重放后端：</translation>
    </message>
    <message>
        <location line="+164"/>
        <source>Cannot read run %1: %2</source>
        <translation>无法读取运行 %1：%2</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+262"/>
        <source>%1 (same)</source>
        <translation>%1（相同）</translation>
    </message>
    <message>
        <location line="-226"/>
        <source>Replay of run %1 on %2 finished.</source>
        <translation>运行 %1 在 %2 上的重放已完成。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Cannot compare runs %1 and %2: %3</source>
        <translation>无法比较运行 %1 和 %2：%3</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Cannot replay run %1: %2</source>
        <translation>无法重放运行 %1：%2</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Replaying run %1 on %2…</source>
        <translation>正在 %2 上重放运行 %1…</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+7"/>
        <source>The replay of run %1 on %2 failed: %3</source>
        <translation>运行 %1 在 %2 上的重放失败：%3</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>The run journal cannot be read: %1</source>
        <translation>无法读取运行日志：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No run matches these filters. Clear them to see every run.</source>
        <translation>没有符合这些筛选条件的运行。清除筛选条件即可查看所有运行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No runs yet.

Run code on the Console page, or connect an assistant (File ▸ Connect an Assistant…): every run, with its output and charts, is listed here.</source>
        <translation>还没有运行。

在“控制台”页面运行代码，或连接一个助手（文件 ▸ 连接助手…）：每次运行及其输出和图表都会列在这里。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cannot read the journal: %1</source>
        <translation>无法读取日志库：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Counting runs…</source>
        <translation>正在统计运行记录…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>1 run</source>
        <translation>1 条运行记录</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%L1 runs</source>
        <translation>%L1 条运行记录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> · %1 loaded, more as you scroll</source>
        <translation> · 已加载 %1 条，滚动时加载更多</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Replay on</source>
        <translation>重放于</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Compare &amp;With…</source>
        <translation>与其他运行比较(&amp;W)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Stop Run</source>
        <translation>停止运行(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy run ID</source>
        <translation>复制运行 ID</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ImageComparisonView</name>
    <message>
        <location filename="../app/gui/history/ImageComparisonView.cpp" line="+86"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: every pixel is the same</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：所有像素都相同</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 of %3 pixels differ (%4 %), shown in red</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%3 个像素中有 %2 个不同（%4%），以红色显示</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Side by side</source>
        <translation>并排</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Overlaid</source>
        <translation>叠加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Difference</source>
        <translation>差异</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 on the left, %2 on the right</source>
        <translation>左侧为%1，右侧为%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pixels that differ in red, the others faded</source>
        <translation>不同的像素显示为红色，其余淡化显示</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>How much of %1 shows over %2</source>
        <translation>%1 叠加在 %2 上的不透明度</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ImageTableModel</name>
    <message numerus="yes">
        <location filename="../app/gui/backends/ImageTableModel.cpp" line="+76"/>
        <source>%n min</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n h</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n days</source>
        <translation>
            <numerusform>%n 天</numerusform>
        </translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Pushed as %1</source>
        <translation>已推送为 %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Present</source>
        <translation>已存在</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>pushed %1</source>
        <translation>已于 %1 推送</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Age</source>
        <translation>存在时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Registry</source>
        <translation>镜像仓库</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Image</source>
        <translation>镜像</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ImagesTab</name>
    <message>
        <location filename="../app/gui/backends/ImagesTab.cpp" line="+51"/>
        <source>The system keychain gave no answer; pushing without a login.</source>
        <translation>系统钥匙串没有应答；将不带登录信息推送。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No login from the system keychain (%1); pushing without one.</source>
        <translation>未能从系统钥匙串获取登录信息（%1）；将不带登录信息推送。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No login kept for %1; pushing without one.</source>
        <translation>没有为 %1 保存登录信息；将不带登录信息推送。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Using the login of %1 for %2 from the system keychain.</source>
        <translation>使用系统钥匙串中 %1 在 %2 的登录信息。</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Build</source>
        <translation>构建</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Build the images the selected language needs that this engine lacks.</source>
        <translation>构建所选语言需要而此引擎缺少的镜像。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rebuild</source>
        <translation>重新构建</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Build the selected language&apos;s own images again without the engine&apos;s cache (fresh packages), even when they are there. Each name moves to its new image once that is complete; Cancel gives the names back.</source>
        <translation>不使用引擎缓存（重新获取软件包）再次构建所选语言自己的镜像，即使它们已存在。每个名称在新镜像完成后才指向它；取消会把名称还给原来的镜像。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Copy from</source>
        <translation>复制自</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the selected language&apos;s images from the other engine (faster than building); what it lacks is built.</source>
        <translation>从另一个引擎复制所选语言的镜像（比构建更快）；那里缺少的镜像将被构建。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove old images</source>
        <translation>删除旧镜像</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove the images of older definitions (llm-sandbox images prune); images a container uses stay.</source>
        <translation>删除旧版定义的镜像（llm-sandbox images prune）；容器正在使用的镜像会保留。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The registry the cluster&apos;s nodes pull the sandbox images from (LLM_SANDBOX_REGISTRY, which wins when set). Saved when you push; pods then ask for REGISTRY/llm-sandbox/NAME:TAG. A login kept with “llm-sandbox images login” is used.</source>
        <translation>集群节点拉取沙箱镜像的镜像仓库（设置了 LLM_SANDBOX_REGISTRY 时以它为准）。推送时保存；之后 Pod 请求 REGISTRY/llm-sandbox/NAME:TAG。会使用通过“llm-sandbox images login”保存的登录信息。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The engine whose images are pushed (and listed above).</source>
        <translation>推送（并在上方列出）其镜像的引擎。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Push</source>
        <translation>推送</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Push the selected languages&apos; images to the registry, layer by layer. The registry gets a tag only once an image is complete there; Cancel leaves no registry name behind.</source>
        <translation>将所选语言的镜像逐层推送到镜像仓库。镜像在仓库中完整后才会打上标签；取消不会留下任何仓库名称。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Registry:</source>
        <translation>镜像仓库：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Not pushed: the image is not there.</source>
        <translation>未推送：镜像不存在。</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Done: pushed %n image(s) to %1; Kubernetes pods pull them from there.</source>
        <translation>
            <numerusform>完成：已将 %n 个镜像推送到 %1；Kubernetes Pod 从那里拉取它们。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Done: the images are built again.</source>
        <translation>完成：镜像已重新构建。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done: every image is there.</source>
        <translation>完成：所有镜像均已就绪。</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>Removed %n old image(s), %1.</source>
        <translation>
            <numerusform>已删除 %n 个旧镜像，%1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Kept %n that containers still use.</source>
        <translation>
            <numerusform>保留了 %n 个仍被容器使用的镜像。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+66"/>
        <source>On %1, where pushes come from: %2 of %3 languages have their image.</source>
        <translation>在推送来源 %1 上：%3 种语言中有 %2 种有镜像。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 of %2 languages have their image.</source>
        <translation>%2 种语言中有 %1 种已有镜像。</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n image(s) of older definitions (%1) can be removed.</source>
        <translation>
            <numerusform>可删除 %n 个旧版定义的镜像（%1）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Building the %1 image</source>
        <translation>构建 %1 镜像</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%v of %m images</source>
        <translation>%v / %m 个镜像</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copying from %1…</source>
        <translation>正在从 %1 复制…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rebuilding the %1 images…</source>
        <translation>正在重新构建 %1 镜像…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Checking the images…</source>
        <translation>正在检查镜像…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Name the registry to push to (host:port), the one the cluster pulls from.</source>
        <translation>请指定要推送到的镜像仓库（host:port），即集群从中拉取镜像的仓库。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%v of %m layers</source>
        <translation>%v / %m 层</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Looking up the login for %1 in the system keychain…</source>
        <translation>正在系统钥匙串中查找 %1 的登录信息…</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>%1: built in %2 s</source>
        <translation>%1：构建用时 %2 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: up to date</source>
        <translation>%1：已是最新</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: building…</source>
        <translation>%1：正在构建…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Removing old images…</source>
        <translation>正在删除旧镜像…</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::LibraryCacheModel</name>
    <message>
        <location filename="../app/gui/backends/LibraryCacheModel.cpp" line="+119"/>
        <source>%1
Installed for %2</source>
        <translation>%1
为 %2 安装</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Libraries</source>
        <translation>库</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Packed size</source>
        <translation>压缩后大小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unpacked size</source>
        <translation>解压后大小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::LibraryCacheTab</name>
    <message>
        <location filename="../app/gui/backends/LibraryCacheTab.cpp" line="+44"/>
        <source>Library sets installed once and kept for later runs on every backend: a run that asks for the same libraries, in this app or an assistant&apos;s server, unpacks its set instead of installing again.</source>
        <translation>安装过一次、为所有后端之后的运行保留的库集合：请求相同库的运行（无论在本应用中还是在助手的服务器中）会直接解压该集合，而不再重新安装。</translation>
    </message>
    <message>
        <location line="+17"/>
        <location line="+21"/>
        <location line="+141"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="-139"/>
        <source>Remove the selected library sets from the cache (Delete); the next run with them installs them again.</source>
        <translation>从缓存中删除选中的库集合（Delete 键）；之后使用它们的运行会重新安装。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+157"/>
        <source>Clear Cache</source>
        <translation>清空缓存</translation>
    </message>
    <message>
        <location line="-155"/>
        <source>Remove every library set from the cache (llm-sandbox libraries prune).</source>
        <translation>从缓存中删除所有库集合（llm-sandbox libraries prune）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>Removed %n library set(s), %1 freed.</source>
        <translation>
            <numerusform>已删除 %n 个库集合，释放了 %1。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The library cache is off: this app was started with LLM_SANDBOX_LIBRARY_CACHE=off, so every run with libraries installs them.

To keep installed library sets for later runs, start the app without that variable, or with it set to a folder.</source>
        <translation>库缓存已关闭：本应用启动时设置了 LLM_SANDBOX_LIBRARY_CACHE=off，因此每次带库的运行都会重新安装它们。

要为之后的运行保留已安装的库集合，请在启动应用时不设置该变量，或将其设为一个文件夹。</translation>
    </message>
    <message numerus="yes">
        <location line="+33"/>
        <source>%n set(s), %1 of %2 in %3</source>
        <translation>
            <numerusform>%n 个集合，%1 / %2，位于 %3</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No library sets are kept yet.

A run with libraries keeps the set it installed here, and the next run with the same libraries unpacks it instead of installing again.</source>
        <translation>尚未保留任何库集合。

带库的运行会把它安装的集合保存在这里，之后使用相同库的运行会直接解压它，而不再重新安装。</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Remove Library Sets</source>
        <translation>删除库集合</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove the %1 libraries %2 from the library cache?</source>
        <translation>要从库缓存中删除 %1 的库 %2 吗？</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Remove %n library set(s) from the library cache?</source>
        <translation>
            <numerusform>要从库缓存中删除 %n 个库集合吗？</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This frees %1; the next run with these libraries installs them again.</source>
        <translation>这会释放 %1；之后使用这些库的运行会重新安装它们。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Clear Library Cache</source>
        <translation>清空库缓存</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Remove all %n library set(s) from the cache?</source>
        <translation>
            <numerusform>要从缓存中删除全部 %n 个库集合吗？</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This frees %1; the next run with any of these libraries installs them again.</source>
        <translation>这会释放 %1；之后使用其中任何库的运行都会重新安装它们。</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::LiveLogPage</name>
    <message>
        <location filename="../app/gui/livelog/LiveLogPage.cpp" line="+59"/>
        <source>All sources</source>
        <translation>所有来源</translation>
    </message>
    <message>
        <location line="+185"/>
        <source>&amp;Follow newest</source>
        <translation>跟随最新(&amp;F)</translation>
    </message>
    <message>
        <location line="-177"/>
        <source>Show each run as it starts. Picking another run stops following; press this to follow again.</source>
        <translation>每个运行一开始就显示它。选择其他运行会停止跟随；按此按钮可重新跟随。</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Filter runs…</source>
        <translation>筛选运行…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Shows only the runs whose language, status, source, client or run ID contains this text.</source>
        <translation>只显示语言、状态、来源、客户端或运行 ID 包含此文字的运行。</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>The run journal is off (LLM_SANDBOX_JOURNAL=off), so there is no live log.
Unset that variable and restart to see every run here.</source>
        <translation>运行日志库已关闭 (LLM_SANDBOX_JOURNAL=off)，因此没有实时日志。
取消设置该变量并重启，即可在此查看所有运行。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Reading the journal…</source>
        <translation>正在读取日志库…</translation>
    </message>
    <message numerus="yes">
        <location line="+80"/>
        <source>&amp;Follow newest (%n new)</source>
        <translation>
            <numerusform>跟随最新（新增 %n）(&amp;F)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+83"/>
        <source>No runs yet.

Runs appear here the moment they start: from the Console, from “llm-sandbox run” and from assistants using “llm-sandbox --mcp”.</source>
        <translation>暂无运行。

运行一开始就会显示在这里：无论来自控制台、“llm-sandbox run”，还是通过“llm-sandbox --mcp”使用沙箱的助手。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No runs match the filter.</source>
        <translation>没有符合筛选条件的运行。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Live log</source>
        <translation>实时日志</translation>
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
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::MainWindow</name>
    <message>
        <location filename="../app/gui/MainWindow.cpp" line="+82"/>
        <source>LLM Sandbox</source>
        <translation>LLM Sandbox</translation>
    </message>
    <message>
        <location line="+118"/>
        <source>%1 %2 %3 · ready</source>
        <translation>%1 %2 %3 · 就绪</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 at %2
API %3, %4%5</source>
        <translation>%1 位于 %2
API %3，%4%5</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, rootless</source>
        <translation>，rootless 模式</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 %2 · unavailable</source>
        <translation>%1 %2 · 不可用</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>&amp;%1 %2</source>
        <translation>%2(&amp;%1)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Go to %1</source>
        <translation>转到%1</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Connect an &amp;Assistant…</source>
        <translation>连接助手(&amp;A)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find in Page</source>
        <translation>在页面中查找(&amp;F)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;About LLM Sandbox</source>
        <translation>关于 LLM Sandbox(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Stop &amp;All Runs</source>
        <translation>停止所有运行(&amp;A)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Stop every run in progress: the Console&apos;s, assistants&apos; and other programs&apos;</source>
        <translation>停止所有正在进行的运行：控制台的、助手的以及其他程序的</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The run could not be asked to stop: %1</source>
        <translation>无法请求停止该运行：%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1 %2 · connecting…</source>
        <translation>%1 %2 · 正在连接…</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 Journal not written</source>
        <translation>%1 日志库未写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The run journal cannot be written: %1
Runs go on; what they record waits until it can be written again.</source>
        <translation>运行日志库无法写入：%1
运行照常进行；它们要记录的内容会等到日志库可以再次写入时写入。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The run journal is written again, with the runs it missed meanwhile.</source>
        <translation>运行日志库已恢复写入，期间遗漏的运行也已补记。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Runs now use %1 unless they name a backend; runs in progress finish where they started.</source>
        <translation>现在，未指定后端的运行使用 %1；进行中的运行在其开始的地方完成。</translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%n run(s) in progress</source>
        <translation>
            <numerusform>%n 个运行正在进行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+46"/>
        <source>About LLM Sandbox</source>
        <translation>关于 LLM Sandbox</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;LLM Sandbox %1&lt;/h3&gt;&lt;p&gt;Runs code that a language model wrote, safely, in isolated containers, and shows its output and charts.&lt;/p&gt;&lt;p&gt;The same engine serves assistants through &lt;code&gt;llm-sandbox --mcp&lt;/code&gt;; every run appears in the live log.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;LLM Sandbox %1&lt;/h3&gt;&lt;p&gt;在隔离的容器中安全地运行语言模型编写的代码，并显示其输出和图表。&lt;/p&gt;&lt;p&gt;同一引擎还通过 &lt;code&gt;llm-sandbox --mcp&lt;/code&gt; 为助手提供服务；每次运行都会显示在实时日志中。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Documentation</source>
        <translation>文档</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The user guide is not installed: it is docs/user of LLM Sandbox&apos;s sources, installed as %1.</source>
        <translation>未安装用户指南：它是 LLM Sandbox 源代码中的 docs/user，安装位置为 %1。</translation>
    </message>
    <message numerus="yes">
        <location line="+112"/>
        <source>%n run(s) still in progress.</source>
        <translation>
            <numerusform>仍有 %n 个运行正在进行。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>The MCP server is running with %n client(s) connected; their calls are cancelled and their sessions end.</source>
        <translation>
            <numerusform>MCP 服务器正在运行，已连接 %n 个客户端；它们的调用将被取消，会话也将结束。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The MCP server is running; assistants will no longer reach it.</source>
        <translation>MCP 服务器正在运行；退出后助手将无法再访问它。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quit LLM Sandbox</source>
        <translation>退出 LLM Sandbox</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop and quit?</source>
        <translation>停止并退出？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop and Quit</source>
        <translation>停止并退出</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>%1 started this run and waits for its result. It will be told that you stopped the run.</source>
        <translation>%1 启动了此运行并在等待其结果。它将被告知你停止了该运行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Some of these runs were started elsewhere (%1), which wait for their results. They will be told that you stopped the runs.</source>
        <translation>其中一些运行由其他地方启动（%1），它们在等待结果。它们将被告知你停止了这些运行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop Runs</source>
        <translation>停止运行</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Stop %n run(s)?</source>
        <translation>
            <numerusform>停止 %n 个运行？</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <comment>runs</comment>
        <translation>停止</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::McpExchangeView</name>
    <message>
        <location filename="../app/gui/widgets/McpExchangeView.cpp" line="+57"/>
        <source>%1… (%2 characters)</source>
        <translation>%1…（%2 个字符）</translation>
    </message>
    <message>
        <location line="+105"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Tool call, as the client sent it</source>
        <translation>工具调用（客户端发送的原样）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result, as it was returned</source>
        <translation>结果（返回时的原样）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy as Command</source>
        <translation>复制为命令</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>llm-sandbox run …</source>
        <translation>llm-sandbox run …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The same code, language, libraries and timeout from a shell</source>
        <translation>在命令行中以相同的代码、语言、库和超时运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>MCP Inspector CLI …</source>
        <translation>MCP Inspector CLI …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The same tool call through the MCP Inspector against llm-sandbox --mcp</source>
        <translation>通过 MCP Inspector 对 llm-sandbox --mcp 发出相同的工具调用</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>The call is running: its arguments as the run recorded them. The result and both messages as they were sent follow when it ends.</source>
        <translation>调用正在进行：以下是运行记录的参数。结束后将显示结果以及两条消息的原样。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The journal has no record of this call&apos;s messages.</source>
        <translation>运行日志中没有这次调用的消息记录。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The call was answered with an error.</source>
        <translation>调用返回了错误。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The call was answered.</source>
        <translation>调用已应答。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Client:</source>
        <translation>客户端：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tool:</source>
        <translation>工具：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Protocol version:</source>
        <translation>协议版本：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>(not answered yet)</source>
        <translation>（尚未应答）</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Resource: %1 (%2)</source>
        <translation>资源：%1（%2）</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Image item, %1</source>
        <translation>图像项，%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Loading the image…</source>
        <translation>正在加载图像…</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::NetworkConnectionModel</name>
    <message>
        <location filename="../app/gui/widgets/NetworkConnectionModel.cpp" line="+52"/>
        <source>%1, reached at %2</source>
        <translation>%1，连接到 %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allowed</source>
        <translation>已允许</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The egress proxy put the value of the secret %1 into this request; the sandbox saw only a placeholder.</source>
        <translation>出站代理将机密 %1 的值放入了此请求；沙箱只看到了占位符。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Secret</source>
        <translation>机密</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sent</source>
        <translation>发送</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Received</source>
        <translation>接收</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::NetworkHostModel</name>
    <message>
        <location filename="../app/gui/settings/NetworkHostModel.cpp" line="+21"/>
        <source>Write a host, such as api.example.org.</source>
        <translation>请填写主机，例如 api.example.org。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>“%1” is not a host: write a name such as api.example.org, *.example.org for a domain and every host under it, or an IP address, and :PORT (1 to 65535) for a port other than 80 and 443.</source>
        <translation>“%1”不是主机：请填写名称（如 api.example.org）、*.example.org（该域名及其下所有主机）或 IP 地址；端口不是 80 和 443 时加上 :端口（1 到 65535）。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is already in the list.</source>
        <translation>%1 已在列表中。</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::NetworkPage</name>
    <message>
        <location filename="../app/gui/settings/NetworkPage.cpp" line="+48"/>
        <source>Sandboxes have no network. A run gets some only when it asks for hosts (the Console&apos;s Network field, an assistant&apos;s “network” argument, run --network), and only within what you allow here.</source>
        <translation>沙箱没有网络。只有运行请求主机时（控制台的“网络”字段、助手的“network”参数、run --network）才会获得网络，且仅限于您在此允许的范围。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Nothing (default)</source>
        <translation>不允许任何主机（默认）(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Package registries</source>
        <translation>软件包仓库(&amp;P)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The public &amp;web, read-only</source>
        <translation>公共网络，只读(&amp;W)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;These hosts:</source>
        <translation>以下主机(&amp;T)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>PyPI, npm, Go modules, RubyGems, CRAN and Maven Central, over HTTPS.</source>
        <translation>PyPI、npm、Go 模块、RubyGems、CRAN 和 Maven Central，通过 HTTPS。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Any public host, GET and HEAD requests only: code may read the web but not send to it. To see the method inside HTTPS, the egress proxy opens each connection (it needs the system keychain).</source>
        <translation>任何公共主机，仅限 GET 和 HEAD 请求：代码可以读取网络，但不能向其发送数据。为了看到 HTTPS 中的请求方法，出站代理会打开每个连接（这需要系统钥匙串）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Read &amp;only from them (GET and HEAD)</source>
        <translation>只从这些主机读取(&amp;O)（GET 和 HEAD）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>api.example.org</source>
        <translation>api.example.org</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add the host written beside it to the list</source>
        <translation>将旁边填写的主机添加到列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Take the selected host off the list</source>
        <translation>从列表中移除所选主机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>api.example.org: that host, over HTTPS and HTTP (ports 443 and 80). *.example.org: example.org and every host under it. Add :PORT for another port, as in api.example.org:8443.</source>
        <translation>api.example.org：该主机，通过 HTTPS 和 HTTP（端口 443 和 80）。*.example.org：example.org 及其下所有主机。其他端口请加 :端口，例如 api.example.org:8443。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Whatever a name resolves to, private and loopback addresses and this computer&apos;s are never reachable. Every connection a run makes, allowed or refused, is shown with the run in the Live Log and History. Changes apply to the app&apos;s runs and its MCP server from the next run after you press OK; a server an assistant starts itself allows what LLM_SANDBOX_NETWORK_ALLOW in its entry says.</source>
        <translation>无论名称解析到什么地址，私有地址、回环地址和本机地址始终无法访问。运行发起的每个连接（无论允许还是拒绝）都会随运行显示在实时日志和历史记录中。更改在按“确定”之后，从下一次运行起对本应用的运行及其 MCP 服务器生效；助手自行启动的服务器允许其配置项中 LLM_SANDBOX_NETWORK_ALLOW 所列的内容。</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>LLM_SANDBOX_NETWORK_ALLOW is set where LLM Sandbox started, and it wins over this page: runs may reach %1. Unset it to choose here.</source>
        <translation>启动 LLM Sandbox 的环境中设置了 LLM_SANDBOX_NETWORK_ALLOW，它优先于本页：运行可访问 %1。取消该变量后才能在此选择。</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::NetworkSecretDialog</name>
    <message>
        <location filename="../app/gui/settings/NetworkSecretDialog.cpp" line="+41"/>
        <source>Edit Secret</source>
        <translation>编辑机密</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+46"/>
        <source>Add Secret</source>
        <translation>添加机密</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>GITHUB_TOKEN</source>
        <translation>GITHUB_TOKEN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The environment variable a run finds the placeholder in</source>
        <translation>运行在其中看到占位符的环境变量</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>api.github.com, uploads.github.com</source>
        <translation>api.github.com, uploads.github.com</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The hosts the value is sent to, separated by commas: names as they are, without a port or a wildcard</source>
        <translation>值会发送到的主机，以逗号分隔：按原样书写的主机名，不带端口或通配符</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The header of each request to those hosts that carries the value, {} where it goes: “Authorization: Bearer {}”, “X-Api-Key: {}”</source>
        <translation>发往这些主机的每个请求中携带该值的请求头，{} 为值所在的位置：“Authorization: Bearer {}”、“X-Api-Key: {}”</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>leave empty to keep the stored value</source>
        <translation>留空则保留已保存的值</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the token or key</source>
        <translation>令牌或密钥</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Waiting for the system keychain… It may ask you to unlock it.</source>
        <translation>正在等待系统钥匙串… 它可能会要求你解锁。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Hosts:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>H&amp;eader:</source>
        <translation>请求头(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Value:</source>
        <translation>值(&amp;V)：</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>“%1” cannot be a secret&apos;s name: it is the variable a run finds the placeholder in, written in capital letters, digits and _, not starting with a digit, at most 64 characters, and not one the sandbox sets itself (PATH, HOME, HTTPS_PROXY, LLM_SANDBOX_…).</source>
        <translation>“%1”不能作为机密的名称：名称是运行在其中看到占位符的环境变量，由大写字母、数字和 _ 组成，不以数字开头，最多 64 个字符，且不能是沙箱自己设置的变量（PATH、HOME、HTTPS_PROXY、LLM_SANDBOX_…）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>There is a secret %1 already: select it and choose Edit… to change it.</source>
        <translation>已有名为 %1 的机密：请选中它并选择“编辑…”来修改。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>“%1” is not a host name: a secret is sent to host names as they are, without a port, a wildcard or an address, such as api.github.com.</source>
        <translation>“%1”不是主机名：机密只发送到按原样书写的主机名，不带端口、通配符或地址，例如 api.github.com。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The header is “Name: value” with {} once where the value goes, in printable ASCII without quotes or backslashes, such as “Authorization: Bearer {}”.</source>
        <translation>请求头的格式为“名称: 值”，其中只出现一次 {} 表示值所在的位置，只能使用不含引号和反斜杠的可打印 ASCII 字符，例如“Authorization: Bearer {}”。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The value is longer than 8 KiB.</source>
        <translation>值超过了 8 KiB。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The value can go into a header only as printable ASCII, without quotes or backslashes.</source>
        <translation>值只有是不含引号和反斜杠的可打印 ASCII 字符时才能放入请求头。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>A run that may reach one of the hosts sees only a placeholder in $%1. The egress proxy puts the value into this header of the HTTPS requests to those hosts that carry the placeholder there, and nowhere else. The value is kept in the system keychain, never in a file.</source>
        <translation>可以访问其中某个主机的运行在 $%1 中只能看到一个占位符。出站代理只在发往这些主机、且该请求头中带有占位符的 HTTPS 请求里，将其替换为真实值，别处一概不放。值保存在系统钥匙串中，从不写入文件。</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>The system keychain could not keep the value: %1. Nothing was stored; start a keychain (such as GNOME Keyring or KWallet) and try again.</source>
        <translation>系统钥匙串无法保存该值：%1。未保存任何内容；请启动一个钥匙串服务（例如 GNOME Keyring 或 KWallet）后重试。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The secrets file could not be written: %1</source>
        <translation>无法写入机密文件：%1</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::NetworkSecretModel</name>
    <message>
        <location filename="../app/gui/settings/NetworkSecretModel.cpp" line="+61"/>
        <source>A run that may reach %1 sees a placeholder in $%2, never the value.</source>
        <translation>可以访问 %1 的运行在 $%2 中只能看到占位符，永远看不到值。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The egress proxy sends this header with the value in place of {}.</source>
        <translation>出站代理发送此请求头时，会用值替换 {}。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stored</source>
        <translation>保存日期</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::NetworkSecretsPanel</name>
    <message>
        <location filename="../app/gui/settings/NetworkSecretsPanel.cpp" line="+21"/>
        <source>Secrets</source>
        <translation>机密</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Tokens and keys that runs use without ever seeing them. A run that may reach one of a secret&apos;s hosts sees only a placeholder in $NAME; the egress proxy puts the value into the secret&apos;s header of the HTTPS requests to those hosts. Values stay in the system keychain. A secret is kept or removed at once, not on OK.</source>
        <translation>运行可以使用、却永远看不到的令牌和密钥。可以访问某个机密的主机的运行，在 $NAME 中只能看到一个占位符；出站代理会在发往这些主机的 HTTPS 请求中，把值放入该机密的请求头。值保存在系统钥匙串中。机密在添加或删除时立即保存，不等到按“确定”。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Add &amp;Secret…</source>
        <translation>添加机密(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep a token or key for runs to use with the hosts you name</source>
        <translation>保存一个令牌或密钥，供运行在访问你指定的主机时使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change the selected secret&apos;s hosts, header or value</source>
        <translation>修改所选机密的主机、请求头或值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;move Secret</source>
        <translation>删除机密(&amp;M)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the selected secret&apos;s value from the system keychain and forget it</source>
        <translation>从系统钥匙串中删除所选机密的值，并不再保留该机密</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Waiting for the system keychain…</source>
        <translation>正在等待系统钥匙串…</translation>
    </message>
    <message>
        <location line="+94"/>
        <location line="+6"/>
        <source>Remove Secret</source>
        <translation>删除机密</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Remove the secret %1? Its value is deleted from the system keychain, and runs no longer get it for %2.</source>
        <translation>要删除机密 %1 吗？其值将从系统钥匙串中删除，运行访问 %2 时将不再获得它。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>The system keychain could not delete the value of %1: %2. The secret stays.</source>
        <translation>系统钥匙串无法删除 %1 的值：%2。该机密仍然保留。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The value of %1 is deleted, but the secrets file could not be written: %2</source>
        <translation>%1 的值已删除，但无法写入机密文件：%2</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::NetworkView</name>
    <message>
        <location filename="../app/gui/widgets/NetworkView.cpp" line="+49"/>
        <source>Allowed: %1</source>
        <translation>允许：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The run made no connection.</source>
        <translation>本次运行没有发起连接。</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n connection(s), all allowed.</source>
        <translation>
            <numerusform>%n 个连接，全部允许。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n connection(s), %1 refused.</source>
        <translation>
            <numerusform>%n 个连接，%1 个被拒绝。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::RunTableModel</name>
    <message>
        <location filename="../app/gui/widgets/RunTableModel.cpp" line="-16"/>
        <source>%1 %2 via %3</source>
        <translation>%1 %2，通过 %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Network: %1</source>
        <translation>网络：%1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::RunView</name>
    <message>
        <location filename="../app/gui/widgets/RunView.cpp" line="+94"/>
        <source>Open in &amp;Console</source>
        <translation>在控制台中打开(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put this run&apos;s code, language and libraries into the Console</source>
        <translation>把这次运行的代码、语言和库放入控制台</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+222"/>
        <source>&amp;Stop Run</source>
        <translation>停止运行(&amp;S)</translation>
    </message>
    <message>
        <location line="-220"/>
        <source>Stop this run, whoever started it: it ends as stopped by you</source>
        <translation>停止此运行（无论由谁启动）：它将以“已由你停止”结束</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Sandbox settings</source>
        <translation>沙箱设置</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MCP exchange</source>
        <translation>MCP 交互</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Select a run to see its output, charts and code.</source>
        <translation>选择一个运行以查看其输出、图表和代码。</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>[output truncated: the sandbox&apos;s output limit was reached]</source>
        <translation>[输出已截断：已达到沙箱的输出限制]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[the journal keeps the first %1 of output]</source>
        <translation>[日志库只保留输出的前 %1]</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Saved to your folders: %1</source>
        <translation>已保存到你的文件夹：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Click a file to show the folder it was saved in</source>
        <translation>点击文件可打开其所在的文件夹</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 run · %2</source>
        <translation>%1 运行 · %2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>replay of %1</source>
        <translation>%1 的重放</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Run id:</source>
        <translation>运行 ID：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exit code:</source>
        <translation>退出码：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stopped because:</source>
        <translation>停止原因：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration:</source>
        <translation>时长：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wall time:</source>
        <translation>挂钟时间：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CPU time:</source>
        <translation>CPU 时间：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak memory:</source>
        <translation>峰值内存：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client:</source>
        <translation>客户端：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backend:</source>
        <translation>后端：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Image:</source>
        <translation>镜像：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Libraries:</source>
        <translation>库：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timeout:</source>
        <translation>超时：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session:</source>
        <translation>会话：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replay of:</source>
        <translation>重放自：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started:</source>
        <translation>开始时间：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished:</source>
        <translation>结束时间：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Artifacts:</source>
        <translation>产物：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared folders:</source>
        <translation>共享文件夹：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Network:</source>
        <translation>网络：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved files:</source>
        <translation>已保存的文件：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(not recorded)</source>
        <translation>（未记录）</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::RunningRuns</name>
    <message>
        <location filename="../app/gui/activity/RunningRuns.cpp" line="+95"/>
        <source>No runs in progress</source>
        <translation>没有正在进行的运行</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 %2</source>
        <comment>a number of runs and where they come from: 1 Console</comment>
        <translation>%2 %1 个</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n running: %1</source>
        <translation>
            <numerusform>%n 个运行中：%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>, </source>
        <comment>between the groups of runs</comment>
        <translation>，</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 · %2 · since %3</source>
        <translation>%1 · %2 · 始于 %3</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>and %n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::SandboxTableModel</name>
    <message>
        <location filename="../app/gui/backends/SandboxTableModel.cpp" line="+80"/>
        <source>Run %1 (%2), started %3. Double-click or Show Run to open it.</source>
        <translation>运行 %1（%2），开始于 %3。双击或点击“显示运行”即可打开。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Started and waiting in the pool: the next run of its language takes it at once.</source>
        <translation>已启动，在池中等待：该语言的下一次运行会立即使用它。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept for its session between the session&apos;s runs.</source>
        <translation>在会话的各次运行之间为该会话保留。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Running a run · %1</source>
        <translation>正在运行 · %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warm, idle</source>
        <translation>预热，空闲</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Session, idle</source>
        <translation>会话，空闲</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>pid %1 (ended)</source>
        <translation>pid %1（已结束）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pid %1</source>
        <translation>pid %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (pid %2)</source>
        <translation>%1（pid %2）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Owner</source>
        <translation>所有者</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Memory / limit</source>
        <translation>内存 / 限制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Age</source>
        <translation>存在时间</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::SandboxesTab</name>
    <message>
        <location filename="../app/gui/backends/SandboxesTab.cpp" line="+53"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove the selected sandbox container (a run in it ends as stopped).</source>
        <translation>删除所选沙箱容器（其中的运行将以“已停止”结束）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show &amp;Run</source>
        <translation>显示运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the run the selected sandbox runs now in the live log.</source>
        <translation>在实时日志中打开所选沙箱正在执行的运行。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Remove leftovers</source>
        <translation>删除残留</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Remove the containers of llm-sandbox processes of this computer that ended without removing them (crashed or killed).</source>
        <translation>删除本机上已结束（崩溃或被终止）但未清除自身容器的 llm-sandbox 进程所留下的容器。</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>Warm pool: empty</source>
        <translation>预热池：空</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warm pool (idle sandboxes without a session): %1</source>
        <translation>预热池（无会话的空闲沙箱）：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n sandbox(es) running, of every llm-sandbox process.</source>
        <translation>
            <numerusform>所有 llm-sandbox 进程共有 %n 个沙箱正在运行。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No leftovers of ended processes.</source>
        <translation>已结束的进程没有残留。</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n leftover(s) of ended processes.</source>
        <translation>
            <numerusform>已结束的进程留下 %n 个残留。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Stopped %1.</source>
        <translation>已停止 %1。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Stop a Sandbox of Another Process</source>
        <translation>停止另一进程的沙箱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 owns this sandbox, and a run is in it now: stopping the sandbox ends that run.</source>
        <translation>此沙箱属于 %1，其中正有一次运行：停止沙箱将结束该运行。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 owns this sandbox: it starts another when it needs one.</source>
        <translation>此沙箱属于 %1：它需要时会另启动一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop sandbox %1?</source>
        <translation>停止沙箱 %1？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop Sandbox</source>
        <translation>停止沙箱</translation>
    </message>
    <message numerus="yes">
        <location line="+19"/>
        <source>Removed %n leftover container(s).</source>
        <translation>
            <numerusform>已删除 %n 个残留容器。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ServerClientsModel</name>
    <message>
        <location filename="../app/gui/server/ServerClientsModel.cpp" line="+85"/>
        <source>MCP session %1</source>
        <translation>MCP 会话 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The client closed its event stream: it has most likely exited. Its session ends after 30 idle minutes, or now with End Session.</source>
        <translation>客户端关闭了它的事件流，很可能已经退出。其会话在空闲 30 分钟后结束，也可以用“结束会话”立即结束。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No request since %1. Its session ends after 30 idle minutes, or now with End Session.</source>
        <translation>自 %1 起没有请求。其会话在空闲 30 分钟后结束，也可以用“结束会话”立即结束。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>(no name given)</source>
        <translation>（未提供名称）</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last activity</source>
        <translation>最近活动</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Running calls</source>
        <translation>进行中的调用</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Working</source>
        <translation>工作中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Idle for %n min</source>
        <translation>
            <numerusform>已空闲 %n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Disconnected</source>
        <translation>已断开</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::ServerPage</name>
    <message>
        <location filename="../app/gui/server/ServerPage.cpp" line="+64"/>
        <source>Copy URL</source>
        <translation>复制 URL</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server listens on this port of 127.0.0.1 only: other machines cannot reach it.</source>
        <translation>服务器仅在 127.0.0.1 的此端口上监听：其他计算机无法访问。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start the server when LLM Sandbox starts</source>
        <translation>LLM Sandbox 启动时启动服务器</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep the server running in the system tray when the window is closed</source>
        <translation>关闭窗口时让服务器在系统托盘中继续运行</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This desktop has no system tray: closing the window ends the server.</source>
        <translation>此桌面没有系统托盘：关闭窗口会停止服务器。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>URL:</source>
        <translation>URL：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Read from the keychain when the server starts</source>
        <translation>服务器启动时从钥匙串读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+94"/>
        <source>Reveal</source>
        <translation>显示</translation>
    </message>
    <message>
        <location line="-91"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Rotate</source>
        <translation>轮换</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Replace the token with a new one. Clients that use the old one are disconnected and must be given the new one.</source>
        <translation>用新令牌替换当前令牌。使用旧令牌的客户端将被断开，必须为其提供新令牌。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Access token</source>
        <translation>访问令牌</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Connected clients</source>
        <translation>已连接的客户端</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Their runs appear in the live log under the client&apos;s name.</source>
        <translation>它们的运行会以客户端名称显示在实时日志中。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;End Session</source>
        <translation>结束会话(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>End the selected client&apos;s session now: its running calls are cancelled, and it must connect again.</source>
        <translation>立即结束所选客户端的会话：其正在运行的调用会被取消，客户端必须重新连接。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>MCP server</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The server did not start: %1</source>
        <translation>服务器未能启动：%1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The new token could not be saved in the keychain, so the old one stays: %1</source>
        <translation>无法将新令牌保存到钥匙串，因此保留旧令牌：%1</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>The token could not be read from the system keychain: %1
Start a keychain (such as GNOME Keyring or KWallet), or set %2 to a secret of at least %3 characters.</source>
        <translation>无法从系统钥匙串读取令牌：%1
请启动钥匙串服务（例如 GNOME Keyring 或 KWallet），或将 %2 设置为至少 %3 个字符的密钥。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 Running</source>
        <translation>%1 运行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+5"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>%1 Stopping: cancelling the clients&apos; calls…</source>
        <translation>%1 正在停止：正在取消客户端的调用…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 Starting…</source>
        <translation>%1 正在启动…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 Stopped</source>
        <translation>%1 已停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>No client is connected. Point an MCP client at the URL above and have it send the token as “Authorization: Bearer &lt;token&gt;”.</source>
        <translation>没有已连接的客户端。请将 MCP 客户端指向上方的 URL，并让它以 “Authorization: Bearer &lt;token&gt;” 的形式发送令牌。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server is stopped.</source>
        <translation>服务器已停止。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>From the environment variable %1; change it there to rotate it.</source>
        <translation>来自环境变量 %1；如需轮换，请在该变量中修改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kept in the system keychain (%1/%2). Clients send it as “Authorization: Bearer &lt;token&gt;”; the same token serves “llm-sandbox serve --http”.</source>
        <translation>保存在系统钥匙串中（%1/%2）。客户端以 “Authorization: Bearer &lt;token&gt;” 的形式发送它；“llm-sandbox serve --http”也使用同一令牌。</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::SettingsDialog</name>
    <message>
        <location filename="../app/gui/settings/SettingsDialog.cpp" line="+25"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>the engine&apos;s default; runsc for gVisor</source>
        <translation>引擎默认值；gVisor 请用 runsc</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The OCI runtime the sandboxes run under (SANDBOX_RUNTIME): one the engine has registered; on Kubernetes a RuntimeClass. “llm-sandbox doctor” lists them.</source>
        <translation>沙箱所用的 OCI 运行时 (SANDBOX_RUNTIME)：须为引擎已注册的运行时；在 Kubernetes 上为 RuntimeClass。“llm-sandbox doctor”会列出它们。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Takes effect when LLM Sandbox starts again.</source>
        <translation>重新启动 LLM Sandbox 后生效。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Execution</source>
        <translation>执行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Default backend:</source>
        <translation>默认后端：</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>&amp;General</source>
        <translation>常规(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Folders</source>
        <translation>文件夹(&amp;F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Network</source>
        <translation>网络(&amp;N)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 — chosen on the &lt;a href=&quot;#backends&quot;&gt;Backends page&lt;/a&gt;</source>
        <translation>%1 — 在&lt;a href=&quot;#backends&quot;&gt;后端页面&lt;/a&gt;中选择</translation>
    </message>
    <message>
        <location line="-50"/>
        <source>OCI &amp;runtime:</source>
        <translation>OCI 运行时(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default &amp;timeout:</source>
        <translation>默认超时(&amp;T)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run journal</source>
        <translation>运行日志库</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep runs for &amp;at most:</source>
        <translation>运行记录最长保留(&amp;A)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Limit its &amp;size to:</source>
        <translation>大小上限(&amp;S)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The command line and the MCP server (llm-sandbox --mcp) read these settings when they start. Environment variables such as BACKEND still take precedence.</source>
        <translation>命令行和 MCP 服务器（llm-sandbox --mcp）在启动时读取这些设置。BACKEND 等环境变量仍然优先。</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::SharedFolderModel</name>
    <message>
        <location filename="../app/gui/settings/SharedFolderModel.cpp" line="+70"/>
        <source>“%1” cannot name a folder in the sandbox: use up to 64 letters, digits, “.”, “_” or “-”, not starting with “.” or “-”.</source>
        <translation>“%1”不能用作沙箱中的文件夹名：请使用最多 64 个字母、数字、“.”、“_”或“-”，且不以“.”或“-”开头。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Another folder is already named “%1”.</source>
        <translation>已有另一个文件夹名为“%1”。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Missing: not shared</source>
        <translation>已不存在：未共享</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Results may be saved here</source>
        <translation>结果可保存到此处</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Read only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This folder is not there any more: sandboxes do not see it until it is back.</source>
        <translation>此文件夹已不存在：在它恢复之前，沙箱看不到它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The folder&apos;s name in the sandbox: double-click to change it</source>
        <translation>文件夹在沙箱中的名称：双击可修改</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>In the sandbox</source>
        <translation>沙箱中</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Access</source>
        <translation>访问权限</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::StatisticsPage</name>
    <message numerus="yes">
        <location filename="../app/gui/statistics/StatisticsPage.cpp" line="+45"/>
        <source>%1: %n run(s)</source>
        <translation>
            <numerusform>%1：%n 次运行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last 90 days</source>
        <translation>最近 90 天</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The run whose container&apos;s CPU and memory the chart below shows</source>
        <translation>下方图表显示其容器 CPU 和内存用量的运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The engine samples a run&apos;s container every second or two while it runs: only runs that lasted longer than that have samples, and only they are offered here.</source>
        <translation>引擎在运行期间每一两秒对容器采样一次：只有持续更久的运行才有样本，这里也只列出这些运行。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Resource use of &amp;run:</source>
        <translation>运行的资源使用(&amp;R)：</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>Runs per day</source>
        <translation>每日运行次数</translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <source>%1 · %2: %n run(s)</source>
        <translation>
            <numerusform>%1 · %2：%n 次运行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+29"/>
        <source>MCP runs by client (stdio and HTTP)</source>
        <translation>按客户端统计的 MCP 运行（stdio 和 HTTP）</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Duration per language</source>
        <translation>各语言的时长</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Cold start</source>
        <translation>冷启动</translation>
    </message>
    <message numerus="yes">
        <location line="+35"/>
        <source>%1, cold starts (a container was started): %n run(s)</source>
        <translation>
            <numerusform>%1，冷启动（启动了容器）：%n 次运行</numerusform>
        </translation>
    </message>
    <message>
        <location line="-95"/>
        <source>Runs by source</source>
        <translation>按来源统计的运行</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>(not named)</source>
        <translation>（未命名）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Runs by host reached</source>
        <translation>按访问主机统计的运行</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The journal cannot be read: %1</source>
        <translation>无法读取日志库：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The journal is off (LLM_SANDBOX_JOURNAL=off): no runs are recorded.</source>
        <translation>日志库已关闭 (LLM_SANDBOX_JOURNAL=off)：不记录任何运行。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n run(s), %1 succeeded</source>
        <translation>
            <numerusform>%n 次运行，%1 成功</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The journal is off, so there is nothing to count. Unset LLM_SANDBOX_JOURNAL to record runs.</source>
        <translation>日志库已关闭，没有可统计的内容。取消设置 LLM_SANDBOX_JOURNAL 即可记录运行。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No runs in this period yet. Run code in the Console, or connect an assistant: the charts fill in as runs start and end.</source>
        <translation>此期间还没有运行。在控制台中运行代码，或连接一个助手：图表会随着运行的开始和结束而填充。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Warm container</source>
        <translation>预热容器</translation>
    </message>
    <message numerus="yes">
        <location line="+36"/>
        <source>%1, warm container: %n run(s)</source>
        <translation>
            <numerusform>%1，预热容器：%n 次运行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>median %1, half of them between %2 and %3, all between %4 and %5</source>
        <translation>中位数 %1，一半在 %2 到 %3 之间，全部在 %4 到 %5 之间</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 · %2 · %3 · %4</source>
        <translation>%1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>CPU and memory of the run&apos;s container</source>
        <translation>运行容器的 CPU 和内存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No run has resource samples yet</source>
        <translation>还没有带资源采样的运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This run has no samples (yet)</source>
        <translation>此运行（还）没有采样</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CPU (cores)</source>
        <translation>CPU（核）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Memory (MiB)</source>
        <translation>内存（MiB）</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Seconds since the run started</source>
        <translation>自运行开始以来的秒数</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cores</source>
        <translation>核数</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
</context>
<context>
    <name>sandbox::gui::TrayIcon</name>
    <message>
        <location filename="../app/gui/tray/TrayIcon.cpp" line="+12"/>
        <source>&amp;Show LLM Sandbox</source>
        <translation>显示 LLM Sandbox(&amp;S)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>LLM Sandbox is still serving</source>
        <translation>LLM Sandbox 仍在提供服务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The MCP server goes on running for your assistants. Open the window or quit from this icon&apos;s menu.</source>
        <translation>MCP 服务器继续为你的助手运行。可从此图标的菜单打开窗口或退出。</translation>
    </message>
</context>
</TS>
