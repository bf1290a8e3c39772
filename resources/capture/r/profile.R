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
# - Beside each page of the default device it writes the data the page shows, for the model to
#   read instead of pixels (issue 50): .Rplot001.png.chart.json next to Rplot001.png, in the
#   form the Python capture writes (core/artifacts/ChartData.h). Base graphics (plot, lines,
#   points, hist, barplot, boxplot and title), ggplot2 (each layer of the built plot) and
#   lattice (the panels of a printed trellis object); when a series is cut to its outline, every
#   point of the page in Rplot001.data.csv beside it.
# - A data frame or tibble the script shows (a top-level value, print(df)) comes back as a table:
#   table_N.csv in the output folder, as Python's display(df) writes it.
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
        attached <- paste0("package:", getNamespaceName(namespace))
        for (env in list(namespace, if (attached %in% search()) as.environment(attached))) {
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
        state$charts[[as.character(grDevices::dev.cur())]] <- list(pattern = pattern, pages = list())
    }

    # --- The data of each page (issue 50) ------------------------------------------------------
    state$charts <- list() # default device number (as text) -> its file pattern and its pages' data
    maxPoints <- 200L

    # The default device on show, or NULL when the page is drawn elsewhere (a file the script opened).
    current <- function() {
        state$charts[[as.character(grDevices::dev.cur())]]
    }

    jsonText <- function(value) {
        if (is.null(value)) {
            return("null")
        }
        if (is.list(value)) {
            if (!is.null(names(value)) && all(nzchar(names(value)))) {
                parts <- vapply(names(value), function(key) paste0(jsonText(key), ":", jsonText(value[[key]])), "")
                return(paste0("{", paste(parts, collapse = ","), "}"))
            }
            return(paste0("[", paste(vapply(value, jsonText, ""), collapse = ","), "]"))
        }
        one <- function(item) {
            if (is.na(item)) {
                "null"
            } else if (is.logical(item)) {
                if (item) "true" else "false"
            } else if (is.numeric(item)) {
                if (is.finite(item)) format(item, digits = 15, trim = TRUE) else "null"
            } else {
                text <- enc2utf8(as.character(item))
                text <- gsub("\\", "\\\\", text, fixed = TRUE)
                text <- gsub("\"", "\\\"", text, fixed = TRUE)
                text <- gsub("\n", "\\n", text, fixed = TRUE)
                text <- gsub("[[:cntrl:]]", " ", text)
                paste0("\"", text, "\"")
            }
        }
        if (inherits(value, "AsIs") || length(value) != 1L) {
            return(paste0("[", paste(vapply(as.list(value), one, ""), collapse = ","), "]"))
        }
        one(value)
    }

    # A series as the chart data has it: at most maxPoints points, evenly spread with the last one.
    series <- function(name, kind, x, y) {
        count <- min(length(x), length(y))
        x <- x[seq_len(count)]
        y <- as.numeric(y[seq_len(count)])
        if (is.factor(x)) x <- as.character(x)
        out <- list(name = if (is.null(name)) "" else as.character(name)[1L], kind = kind, points = count,
                    truncated = count > maxPoints)
        finite <- y[is.finite(y)]
        if (length(finite)) {
            out$y_min <- min(finite)
            out$y_max <- max(finite)
        }
        if (kind == "scatter" && is.numeric(x)) {
            both <- is.finite(x) & is.finite(y)
            if (sum(both) >= 3L && stats::sd(x[both]) > 0 && stats::sd(y[both]) > 0) {
                out$r <- stats::cor(x[both], y[both])
            }
        }
        if (count > maxPoints) {
            out$all <- list(x = x, y = y) # for the file of every point (writeAllPoints); not in the chart data
            kept <- unique(c(floor((seq_len(maxPoints) - 1L) * count / maxPoints) + 1L, count))
            x <- x[kept]
            y <- y[kept]
        }
        out$x <- I(x)
        out$y <- I(y)
        out
    }

    label <- function(value) {
        if (is.null(value) || is.language(value) || length(value) == 0L) "" else paste(as.character(value), collapse = " ")
    }

    # When a series of a page was cut, every point of the page's series beside its picture: STEM.data.csv (series,
    # kind, x, y), its name kept for the page (`key`) and written again only when the page gets another series.
    state$pointFiles <- list()
    writeAllPoints <- function(seriesList, image, key) {
        known <- state$pointFiles[[key]]
        if (!any(vapply(seriesList, function(each) !is.null(each$all), NA))) {
            return(NULL)
        }
        if (!is.null(known) && known$count == length(seriesList)) {
            return(known$name)
        }
        name <- if (is.null(known)) basename(freeName(paste0(tools::file_path_sans_ext(image), ".data.csv")))
                else known$name
        rows <- lapply(seq_along(seriesList), function(i) {
            each <- seriesList[[i]]
            if (identical(each$kind, "box")) return(NULL)
            points <- if (is.null(each$all)) list(x = each$x, y = each$y) else each$all
            data.frame(series = if (nzchar(each$name)) each$name else as.character(i), kind = each$kind,
                       x = as.vector(points$x), y = as.vector(points$y))
        })
        utils::write.csv(do.call(rbind, rows), file.path(output, name), row.names = FALSE)
        state$pointFiles[[key]] <- list(name = name, count = length(seriesList))
        name
    }

    # Writes the data of page `number` of the default device `device` beside its picture.
    writePage <- function(device, number) {
        chart <- state$charts[[device]]
        page <- chart$pages[[number]]
        if (is.null(page) || !length(page$series)) {
            return(invisible())
        }
        kinds <- vapply(page$series, function(each) each$kind, "")
        axis <- function(labelText) list(label = labelText, scale = "linear", range = NULL)
        image <- sprintf(chart$pattern, number)
        dataFile <- writeAllPoints(page$series, image, paste(device, number))
        outline <- lapply(page$series, function(each) {
            each$all <- NULL
            each
        })
        data <- list(library = page$library, kind = kinds[[1L]], title = page$title,
                     axes = list(list(title = "", x = axis(page$xlab), y = axis(page$ylab), series = outline,
                                      legend = I(character()), annotations = I(character()))))
        if (!is.null(dataFile)) data$data_file <- dataFile
        writeLines(jsonText(data), file.path(output, paste0(".", image, ".chart.json")), useBytes = TRUE)
        invisible()
    }

    # Changes the data of the page on show of the default device (`change` gets and returns it), then writes it.
    updatePage <- function(change) {
        device <- as.character(grDevices::dev.cur())
        chart <- state$charts[[device]]
        if (is.null(chart) || !length(chart$pages)) {
            return(invisible())
        }
        number <- length(chart$pages)
        chart$pages[[number]] <- change(chart$pages[[number]])
        state$charts[[device]] <- chart
        writePage(device, number)
    }

    newPage <- function(library) {
        device <- as.character(grDevices::dev.cur())
        chart <- state$charts[[device]]
        if (!is.null(chart)) {
            chart$pages[[length(chart$pages) + 1L]] <- list(library = library, title = "", xlab = "", ylab = "",
                                                            series = list())
            state$charts[[device]] <- chart
        }
    }

    addSeries <- function(each, library = NULL) {
        updatePage(function(page) {
            if (!is.null(library)) page$library <- library
            page$series[[length(page$series) + 1L]] <- each
            page
        })
    }

    # Runs `record` after `original`, which it never disturbs: its value and its visibility are kept, and a record that
    # fails is dropped. A plot drawn by another one (the outliers' points of a box plot) is that one's: recorded only
    # `always` (title(), which every plot calls with its labels).
    state$depth <- 0L
    recording <- function(original, record, always = FALSE) {
        force(original)
        function(...) {
            state$depth <- state$depth + 1L
            result <- tryCatch(withVisible(original(...)), finally = state$depth <- state$depth - 1L)
            if (always || state$depth == 0L) try(suppressWarnings(record(result$value, ...)), silent = TRUE)
            if (result$visible) result$value else invisible(result$value)
        }
    }

    # The S3 method generic.class of `namespace` recorded: where a call finds it by name (the namespace, the attached
    # package) and in the registry where dispatch looks next.
    wrapMethod <- function(namespace, generic, class, record) {
        name <- paste(generic, class, sep = ".")
        wrapped <- recording(get(name, envir = namespace), record)
        replace(name, wrapped, namespace)
        registerS3method(generic, class, wrapped, envir = namespace)
    }

    patchGraphics <- function(...) {
        namespace <- asNamespace("graphics")
        s3 <- function(generic, record) wrapMethod(namespace, generic, "default", record)
        s3("plot", function(value, x, y = NULL, type = "p", ...) {
            xy <- grDevices::xy.coords(x, y)
            kind <- if (type %in% c("l", "b", "o", "s", "S", "c")) "line" else "scatter"
            addSeries(series("", kind, xy$x, xy$y), "graphics")
        })
        s3("lines", function(value, x, y = NULL, ...) {
            xy <- grDevices::xy.coords(x, y)
            addSeries(series("", "line", xy$x, xy$y))
        })
        s3("points", function(value, x, y = NULL, ...) {
            xy <- grDevices::xy.coords(x, y)
            addSeries(series("", "scatter", xy$x, xy$y))
        })
        s3("hist", function(value, x, ..., plot = TRUE) {
            if (!isTRUE(plot)) return()
            counts <- if (identical(list(...)$freq, FALSE)) value$density else value$counts
            each <- series("", "histogram", utils::head(value$breaks, -1L), counts)
            each$bin_edges <- I(utils::head(value$breaks, maxPoints + 1L))
            addSeries(each, "graphics")
        })
        s3("barplot", function(value, height, ..., names.arg = NULL, plot = TRUE) {
            if (!isTRUE(plot)) return()
            if (is.matrix(height)) {
                names <- if (is.null(names.arg)) colnames(height) else names.arg
                for (row in seq_len(nrow(height))) {
                    x <- if (is.null(names)) seq_len(ncol(height)) else names
                    addSeries(series(rownames(height)[row], "bar", x, height[row, ]), "graphics")
                }
                return()
            }
            names <- if (!is.null(names.arg)) names.arg else if (!is.null(names(height))) names(height) else seq_along(height)
            addSeries(series("", "bar", names, as.numeric(height)), "graphics")
        })
        s3("boxplot", function(value, x, ..., plot = TRUE) {
            if (!isTRUE(plot) || is.null(value$stats)) return()
            stats <- value$stats
            labels <- if (length(value$names) == ncol(stats)) value$names else as.character(seq_len(ncol(stats)))
            boxes <- lapply(seq_len(ncol(stats)), function(i) {
                outliers <- value$out[value$group == i]
                list(label = labels[[i]], median = stats[3L, i], q1 = stats[2L, i], q3 = stats[4L, i],
                     whisker_low = stats[1L, i], whisker_high = stats[5L, i], outliers = I(utils::head(outliers, 50L)),
                     outlier_count = length(outliers))
            })
            each <- series("", "box", labels, stats[3L, ])
            each$boxes <- boxes
            addSeries(each, "graphics")
        })
        # The titles and axis labels every high-level plot hands to title() (or the script does).
        replace("title", recording(get("title", envir = namespace), function(value, main = NULL, sub = NULL,
                                                                             xlab = NULL, ylab = NULL, ...) {
            updatePage(function(page) {
                if (nzchar(label(main))) page$title <- label(main)
                if (nzchar(label(xlab))) page$xlab <- label(xlab)
                if (nzchar(label(ylab))) page$ylab <- label(ylab)
                page
            })
        }, always = TRUE), namespace)
        # A base graphics page: the first figure of a layout (par(mfrow)) starts it.
        setHook("plot.new", function() {
            try(if (!is.null(current()) && all(graphics::par("mfg")[1:2] == 1L)) newPage("graphics"), silent = TRUE)
        })
    }
    setHook("grid.newpage", function() {
        try(if (!is.null(current())) newPage("grid"), silent = TRUE)
    })

    # ggplot2: each layer of the plot printed on the default device, from the built plot (what is drawn: stats applied,
    # discrete positions named by their categories).
    ggplotKind <- function(layer) {
        geom <- class(layer$geom)[1L]
        stat <- class(layer$stat)[1L]
        if (stat == "StatBin" || stat == "StatBin2d") "histogram"
        else if (geom %in% c("GeomPoint", "GeomJitter")) "scatter"
        else if (geom %in% c("GeomLine", "GeomPath", "GeomStep", "GeomSmooth")) "line"
        else if (geom %in% c("GeomCol", "GeomBar", "GeomRect")) "bar"
        else if (geom == "GeomBoxplot") "box"
        else if (geom %in% c("GeomArea", "GeomRibbon", "GeomDensity")) "area"
        else NA_character_
    }
    recordGgplot <- function(built) {
        if (is.null(current())) return()
        labels <- built$plot$labels
        scale <- built$layout$panel_scales_x[[1L]]
        positions <- function(x) {
            if (!is.null(scale) && scale$is_discrete()) scale$get_limits()[as.integer(round(x))] else x
        }
        updatePage(function(page) {
            page$library <- "ggplot2"
            page$title <- label(labels$title)
            page$xlab <- label(labels$x)
            page$ylab <- label(labels$y)
            for (i in seq_along(built$data)) {
                kind <- ggplotKind(built$plot$layers[[i]])
                data <- built$data[[i]]
                if (is.na(kind) || !nrow(data)) next
                # Groups are series where they are lines or point sets (a colour each); a bar's or a box's group is
                # its category.
                grouped <- kind %in% c("line", "scatter", "area") && "group" %in% names(data)
                groups <- if (grouped) split(data, data$group) else list(data)
                for (g in seq_along(groups)) {
                    part <- groups[[g]]
                    name <- if (length(groups) > 1L) as.character(names(groups)[g]) else ""
                    if (kind == "box") {
                        boxes <- lapply(seq_len(nrow(part)), function(r) {
                            outliers <- unlist(part$outliers[r])
                            list(label = as.character(positions(part$x[r])), median = part$middle[r],
                                 q1 = part$lower[r], q3 = part$upper[r], whisker_low = part$ymin[r],
                                 whisker_high = part$ymax[r], outliers = I(utils::head(outliers, 50L)),
                                 outlier_count = length(outliers))
                        })
                        each <- series(name, "box", as.character(positions(part$x)), part$middle)
                        each$boxes <- boxes
                    } else if (kind == "histogram") {
                        each <- series(name, "histogram", part$xmin, part$y)
                        each$bin_edges <- I(utils::head(c(part$xmin, utils::tail(part$xmax, 1L)), maxPoints + 1L))
                    } else {
                        each <- series(name, kind, positions(part$x), part$y)
                    }
                    page$series[[length(page$series) + 1L]] <- each
                }
            }
            page
        })
    }
    patchGgplot <- function(...) {
        wrapMethod(asNamespace("ggplot2"), "ggplot_build", "ggplot", function(value, ...) recordGgplot(value))
    }

    # lattice: the panels of a trellis object printed on the default device.
    patchLattice <- function(...) {
        wrapMethod(asNamespace("lattice"), "print", "trellis", function(value, x, ...) {
            text <- function(value) if (is.list(value)) label(value[[1L]]) else label(value)
            updatePage(function(page) {
                page$library <- "lattice"
                page$title <- text(x$main)
                page$xlab <- text(x$xlab)
                page$ylab <- text(x$ylab)
                kind <- if (any(c("l", "b", "o") %in% x$panel.args.common$type)) "line" else "scatter"
                for (panel in x$panel.args) {
                    if (!is.null(panel$x) && !is.null(panel$y)) {
                        page$series[[length(page$series) + 1L]] <- series("", kind, panel$x, panel$y)
                    }
                }
                page
            })
        })
    }

    # --- Tables (issue 50) ---------------------------------------------------------------------
    # A data frame or tibble the script shows (the value of a top-level expression, print(df)) also comes back as a
    # table: table_N.csv in the output folder, as Python's display(df) writes it; its first maxTableRows rows, at most
    # maxTables tables a run (a loop that prints frames stays a loop, not a thousand files).
    state$tables <- 0L
    maxTables <- 20L
    maxTableRows <- 100000L
    writeTable <- function(value, ...) {
        if (!is.data.frame(value) || state$tables >= maxTables) {
            return(invisible())
        }
        state$tables <- state$tables + 1L
        frame <- as.data.frame(value)
        path <- freeName(sprintf("table_%d.csv", state$tables))
        utils::write.csv(utils::head(frame, maxTableRows), path, row.names = .row_names_info(frame) > 0L)
        if (nrow(frame) > maxTableRows) {
            message(sprintf("llm-sandbox: %s holds the first %d of %d rows", basename(path), maxTableRows, nrow(frame)))
        }
    }
    patchTables <- function(...) wrapMethod(asNamespace("base"), "print", "data.frame", writeTable)
    patchTibbles <- function(...) wrapMethod(asNamespace("pillar"), "print", "tbl", writeTable)

    options(device = defaultDevice)
    if (isNamespaceLoaded("grDevices")) {
        patchDevices()
    } else {
        setHook(packageEvent("grDevices", "onLoad"), patchDevices)
    }
    # The chart data is a bonus: a library whose insides changed draws as before, without it.
    guarded <- function(patch) {
        force(patch) # now, not when the hook runs (by then the loop below would have moved on)
        function(...) try(suppressWarnings(patch()), silent = TRUE)
    }
    for (each in list(list("graphics", patchGraphics), list("ggplot2", patchGgplot), list("lattice", patchLattice),
                      list("base", patchTables), list("pillar", patchTibbles))) {
        if (isNamespaceLoaded(each[[1L]])) {
            guarded(each[[2L]])()
        } else {
            setHook(packageEvent(each[[1L]], "onLoad"), guarded(each[[2L]]))
        }
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
