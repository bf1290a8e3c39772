# Installs R packages for a sandbox run: Rscript install.R REPOSITORY|offline LIBRARY_DIR PACKAGE...
# install.packages() only warns when a package fails, so success is checked explicitly.
args <- commandArgs(trailingOnly = TRUE)
repo <- args[1]
lib <- args[2]
packages <- args[-(1:2)]
dir.create(lib, recursive = TRUE, showWarnings = FALSE)
if (repo == "offline") {
    install.packages(packages, lib = lib, repos = NULL, type = "source")
    names <- sub("_.*$", "", basename(packages))
} else {
    install.packages(packages, lib = lib, repos = repo)
    names <- packages
}
missing <- setdiff(names, rownames(installed.packages(lib.loc = lib)))
if (length(missing) > 0) {
    message("could not install: ", paste(missing, collapse = ", "))
    quit(status = 1)
}
