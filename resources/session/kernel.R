# LLM Sandbox session interpreter for R: keeps one global environment alive across calls, so
# a session's variables, loaded packages and functions survive from one execute_code to the
# next. Same protocol as kernel.py (see client.sh): requests "PID<TAB>FILE<TAB>REPLY<TAB>OUT<TAB>ERR"
# on a FIFO; the code's output goes to the client's own stdout/stderr; the status goes back
# through REPLY. Everything of the kernel lives in local() and an attached environment, so
# the user's workspace (ls()) holds only what the user's code made.
local({
    state <- "/tmp/.llm-sandbox-session"
    writeLines(as.character(Sys.getpid()), file.path(state, "pid"))
    options(warn = 1) # warnings as they happen: there is no top level to print them later

    # quit()/q() end the call with a status instead of the session's interpreter.
    session <- new.env()
    session$quit <- function(save = "default", status = 0, runLast = TRUE) {
        condition <- structure(class = c("llmSandboxQuit", "condition"),
                               list(message = "quit", call = NULL, status = as.integer(status)))
        signalCondition(condition)
        stop("quit() is not available here")
    }
    session$q <- session$quit
    attach(session, name = "llm-sandbox:session", warn.conflicts = FALSE)

    # Like Rscript: "Error in f(x) : ..." for a call of the user's, "Error: ..." at top level
    # (which source() runs as eval(ei, envir)).
    prefix <- function(kind, call) {
        text <- if (is.null(call)) "" else deparse(call, nlines = 1L)
        if (!nzchar(text) || identical(text, "eval(ei, envir)")) paste0(kind, ": ") else paste0(kind, " in ", text, " : ")
    }

    runOne <- function(path) {
        tryCatch({
            withCallingHandlers(
                source(path, local = globalenv(), echo = FALSE, print.eval = TRUE,
                       keep.source = TRUE),
                error = function(e) {
                    message(prefix("Error", conditionCall(e)), conditionMessage(e))
                },
                warning = function(w) {
                    message(prefix("Warning", conditionCall(w)), conditionMessage(w))
                    invokeRestart("muffleWarning")
                })
            0L
        },
        llmSandboxQuit = function(condition) condition$status,
        interrupt = function(condition) {
            message("Interrupted: the call was stopped; the session keeps its variables.")
            130L
        },
        error = function(e) 1L)
    }

    reply <- function(path, status) {
        connection <- tryCatch(suppressWarnings(fifo(path, open = "w", blocking = FALSE)),
                               error = function(e) NULL)
        if (!is.null(connection)) {
            tryCatch(writeLines(as.character(status), connection), error = function(e) NULL)
            close(connection)
        }
    }

    requests <- fifo(file.path(state, "requests"), open = "w+", blocking = TRUE)
    repeat {
        line <- tryCatch(readLines(requests, n = 1L), interrupt = function(e) character())
        if (length(line) == 0L) {
            next
        }
        fields <- strsplit(line, "\t", fixed = TRUE)[[1L]]
        if (length(fields) != 5L) {
            next
        }
        out <- tryCatch(file(fields[[4L]], open = "w", raw = TRUE), error = function(e) NULL)
        err <- tryCatch(file(fields[[5L]], open = "w", raw = TRUE), error = function(e) NULL)
        if (is.null(out) || is.null(err)) {
            next # the client is gone already
        }
        writeLines(fields[[1L]], file.path(state, "busy"))
        sink(out)
        sink(err, type = "message")
        status <- tryCatch({
            status <- runOne(fields[[2L]])
            # Charts: every open device is closed, which writes its last page (see profile.R).
            grDevices::graphics.off()
            status
        }, interrupt = function(e) 130L, error = function(e) 1L)
        tryCatch({
            sink(type = "message")
            sink()
        }, error = function(e) NULL)
        close(out)
        close(err)
        unlink(file.path(state, "busy"))
        reply(fields[[3L]], status)
    }
})
