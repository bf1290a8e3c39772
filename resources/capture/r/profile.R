# LLM Sandbox chart capture for R, loaded by R's own start-up hook (R_PROFILE_USER points
# here), so the user's script is untouched: no banner, no shifted line numbers.
#
# - The default graphics device is png() writing Rplot001.png, Rplot002.png, ... into
#   $LLM_SANDBOX_OUTPUT_DIR, one file per page: base graphics, printed ggplot2 and lattice
#   plots all come back without the script opening a device (Rscript's own default would
#   write every page into one Rplots.pdf in the working folder).
# - A file device the script opens elsewhere (png("plot.png"), pdf(), svg(), jpeg(), also
#   the ones ggsave() opens) is copied into the output folder when it is closed.
# - At exit every device is closed, so the last page is written even when the script
#   never calls dev.off() or stops with an error.
#
# Everything lives in one local() environment: the script's workspace stays empty.
local({
    output <- Sys.getenv("LLM_SANDBOX_OUTPUT_DIR")
    if (!nzchar(output) || !dir.exists(output)) {
        return(invisible())
    }
    output <- normalizePath(output)
    state <- new.env()
    state$defaultDevices <- 0L
    state$files <- list() # device number (as text) -> the file name (or %d pattern) it writes

    isInsideOutput <- function(path) {
        startsWith(paste0(normalizePath(dirname(path), mustWork = FALSE), "/"), paste0(output, "/"))
    }

    freeName <- function(name) {
        stem <- tools::file_path_sans_ext(name)
        extension <- tools::file_ext(name)
        candidate <- name
        number <- 1L
        while (file.exists(file.path(output, candidate))) {
            number <- number + 1L
            candidate <- sprintf("%s_%d.%s", stem, number, extension)
        }
        file.path(output, candidate)
    }

    # The files a device wrote: its file name, or every page of a pattern such as Rplot%03d.png.
    writtenFiles <- function(file) {
        if (!grepl("%", basename(file), fixed = TRUE)) {
            return(if (file.exists(file)) file else character())
        }
        literal <- strsplit(basename(file), "%[0-9]*d")[[1L]]
        quoted <- gsub("([][{}()+*^$|\\\\?.])", "\\\\\\1", literal)
        pattern <- paste0("^", paste(quoted, collapse = "[0-9]+"),
                          if (grepl("%[0-9]*d$", basename(file))) "[0-9]+", "$")
        sort(list.files(dirname(file), pattern = pattern, full.names = TRUE))
    }

    deviceOpened <- function(before, file) {
        file <- tryCatch(file, error = function(e) NULL)
        current <- grDevices::dev.cur()
        if (current == before || !is.character(file) || length(file) != 1L || !nzchar(file)) {
            return(invisible())
        }
        file <- path.expand(file)
        if (!startsWith(file, "/")) {
            file <- file.path(getwd(), file)
        }
        if (!isInsideOutput(file) && grepl("\\.(png|jpe?g|svg|pdf)$", file, ignore.case = TRUE)) {
            state$files[[as.character(current)]] <- file
        }
        invisible()
    }

    deviceClosed <- function(which) {
        key <- as.character(which)
        file <- state$files[[key]]
        if (is.null(file)) {
            return(invisible())
        }
        state$files[[key]] <- NULL
        for (written in writtenFiles(file)) {
            file.copy(written, freeName(basename(written)))
        }
        invisible()
    }

    # A copy of the device function that reports the device it opened (same formals and
    # environment, so it behaves exactly like the original).
    reportingDevice <- function(original, fileArgument) {
        wrapped <- original
        body(wrapped) <- bquote({
            .llm_sandbox_before <- grDevices::dev.cur()
            on.exit(.(deviceOpened)(.llm_sandbox_before, .(as.name(fileArgument))), add = TRUE)
            .(body(original))
        })
        wrapped
    }

    reportingDevOff <- function(original) {
        wrapped <- original
        body(wrapped) <- bquote({
            .llm_sandbox_which <- which
            on.exit(.(deviceClosed)(.llm_sandbox_which), add = TRUE)
            .(body(original))
        })
        wrapped
    }

    replace <- function(name, value, namespace) {
        for (env in list(namespace, if ("package:grDevices" %in% search()) as.environment("package:grDevices"))) {
            if (!is.null(env) && exists(name, envir = env, inherits = FALSE)) {
                locked <- bindingIsLocked(name, env)
                if (locked) unlockBinding(name, env)
                assign(name, value, envir = env)
                if (locked) lockBinding(name, env)
            }
        }
    }

    patchDevices <- function(...) {
        namespace <- asNamespace("grDevices")
        devices <- c(png = "filename", jpeg = "filename", svg = "filename", cairo_pdf = "filename", pdf = "file")
        for (name in names(devices)) {
            replace(name, reportingDevice(get(name, envir = namespace), devices[[name]]), namespace)
        }
        replace("dev.off", reportingDevOff(get("dev.off", envir = namespace)), namespace)
    }

    # Each default device gets its own file names: a script that calls dev.off() and plots
    # again must not overwrite the first pages.
    defaultDevice <- function(width = 7, height = 5, ...) {
        state$defaultDevices <- state$defaultDevices + 1L
        pattern <- "Rplot%03d.png"
        if (state$defaultDevices > 1L) {
            pattern <- sprintf("Rplot%d_%%03d.png", state$defaultDevices)
        }
        grDevices::png(file.path(output, pattern), width = width, height = height, units = "in", res = 100)
    }

    options(device = defaultDevice)
    if (isNamespaceLoaded("grDevices")) {
        patchDevices()
    } else {
        setHook(packageEvent("grDevices", "onLoad"), patchDevices)
    }
    # The global environment lives until the end, so this runs exactly once, at exit, also
    # after an error (R runs exit finalizers before it closes the devices itself).
    reg.finalizer(globalenv(), function(e) {
        if (isNamespaceLoaded("grDevices")) {
            grDevices::graphics.off()
        }
    }, onexit = TRUE)
    invisible()
})
