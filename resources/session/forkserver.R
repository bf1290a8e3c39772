# The preloaded R interpreter of a warm container (runner/ForkServer.h): started as `Rscript forkserver.R` with the
# run's environment (so the capture hooks of R_PROFILE_USER are in place), it loads the namespaces of the
# preinstalled tidyverse once and never runs user code itself. Its fork server (resources/images/r/forkserver.c)
# answers each run with a fresh fork, which goes on reading this file where the program now is, so R's own file loop
# runs the program as `Rscript main.R` would. Nothing a run does (globals, options, attached packages, open devices
# and connections, its working directory or environment) reaches the next one, which is another fork of this
# untouched parent.
#
# Loaded, not attached: the search path is a plain Rscript's, and library(ggplot2) only attaches what is loaded.
# Everything here stays in local() and the globals a fork starts with are a plain Rscript's (none).
local({
    .C("llm_sandbox_keep_environment", PACKAGE = {
        dyn.load("/opt/llm-sandbox/r/forkserver.so")
        "forkserver"
    })
    for (package in c("ggplot2", "dplyr", "tidyr", "readr", "purrr", "stringr", "tibble", "forcats", "lubridate")) {
        try(suppressPackageStartupMessages(loadNamespace(package)), silent = TRUE)
    }
    # What the first chart would otherwise do in every fork: load ggplot2's lazily loaded code. Drawn on the pdf
    # device, which needs no drawing library: cairo's text rendering starts a fontconfig thread in pango, and a fork
    # made while that thread works would wait for it forever. ggplot2's last plot is forgotten again (ggsave()
    # without a plot must not find this one).
    try(local({
        grDevices::pdf(NULL)
        on.exit({
            grDevices::dev.off()
            ggplot2::set_last_plot(NULL)
        })
        print(ggplot2::ggplot(data.frame(x = 1:3, y = c(3, 1, 2)), ggplot2::aes(x, y)) + ggplot2::geom_point())
    }), silent = TRUE)
})
# The last line, and nothing after it: in a fork, R reads the program next. A fork also gets its own session
# folder again (the runner empties /tmp between runs) and its own random numbers (no parent's seed).
invisible(.C("llm_sandbox_serve", "/opt/llm-sandbox/session/forkserver.R", commandArgs()[1L], PACKAGE = "forkserver")); invisible(tempdir(check = TRUE)); if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) rm(".Random.seed", envir = globalenv())
