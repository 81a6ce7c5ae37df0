# bnclassify's side of bench/bnclassify.ts (see there): reads DIR/<name>.csv, .levels and .folds written by
# `node dist/bench/bnclassify.js export`, fits bnclassify's learners on each training fold through its public
# API and writes DIR/<name>.<method>.r.csv ("p,fold,row,posterior..." per test row; "a,fold,from,to" per
# feature arc, 0-based attribute indices; "f,fold" after each finished fold).
#
#   R_LIBS=<library with bnclassify 0.4.8> Rscript bench/bnclassify.R DIR [dataset,...] [method,...] [fold,...]
#
# Before each fold's fit the script calls set.seed(fold), so a fit draws from R's stream as a script that
# calls set.seed(S) right before tan_hc/kdb does (bnclab's `r_seed: S`). The optional fold list keeps only
# those folds (e.g. the first three of a slow dataset).
suppressPackageStartupMessages(library(bnclassify))
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
datasets <- if (length(args) >= 2) strsplit(args[2], ",")[[1]] else
  sub("\\.csv$", "", list.files(dir, pattern = "\\.csv$")[!grepl("\\.r\\.csv$", list.files(dir, pattern = "\\.csv$"))])
methods <- if (length(args) >= 3) strsplit(args[3], ",")[[1]] else c("tan-tie", "tan-hc", "kdb-hc", "wanbia")
only <- if (length(args) >= 4) as.integer(strsplit(args[4], ",")[[1]]) else NULL
fit <- function(method, train) {
  switch(method,
    "tan-tie" = lp(tan_cl("class", train, score = "loglik"), train, smooth = 1),
    "tan-hc" = lp(tan_hc("class", train, k = 5, epsilon = 0, smooth = 1), train, smooth = 1),
    "kdb-hc" = lp(kdb("class", train, k = 5, kdbk = 2, epsilon = 0, smooth = 1), train, smooth = 1),
    "wanbia" = lp(nb("class", train), train, smooth = 1, wanbia = TRUE),
    "awnb" = lp(nb("class", train), train, smooth = 1, awnb_trees = 10, awnb_bootstrap = 0.5))
}
for (name in datasets) {
  raw <- read.csv(file.path(dir, paste0(name, ".csv")), colClasses = "character")
  levels <- as.integer(strsplit(readLines(file.path(dir, paste0(name, ".levels"))), ",")[[1]])
  m <- ncol(raw) - 1
  for (a in seq_len(m)) raw[[a]] <- factor(raw[[a]], levels = paste0("v", seq_len(levels[a]) - 1))
  raw$class <- factor(raw$class, levels = paste0("c", seq_len(levels[m + 1]) - 1))
  folds <- as.integer(readLines(file.path(dir, paste0(name, ".folds"))))
  for (method in methods) {
    file <- file.path(dir, paste0(name, ".", method, ".r.csv"))
    # Written fold by fold, so that a run stopped by a CPU limit keeps the folds it finished.
    cat("", file = file)
    started <- proc.time()[["elapsed"]]
    cpu <- 0
    for (f in sort(unique(folds))) {
      if (!is.null(only) && !(f %in% only)) next
      set.seed(f)
      train <- raw[folds != f, , drop = FALSE]
      test <- raw[folds == f, , drop = FALSE]
      t0 <- proc.time()
      x <- suppressWarnings(fit(method, train))
      t1 <- proc.time() - t0
      cpu <- cpu + t1[["user.self"]] + t1[["sys.self"]]
      p <- predict(x, test, prob = TRUE)
      rows <- which(folds == f)
      out <- c(paste("p", f, rows, apply(p, 1, function(r) paste(sprintf("%.17g", r), collapse = ",")), sep = ","))
      fam <- families(x)
      for (a in seq_len(m)) {
        ps <- setdiff(fam[[paste0("a", a - 1)]], c(paste0("a", a - 1), "class"))
        for (q in ps) out <- c(out, paste("a", f, sub("^a", "", q), a - 1, sep = ","))
      }
      # The fold's marker last: a fold counts only when all of its lines were written.
      cat(c(out, paste0("f,", f)), file = file, sep = "\n", append = TRUE)
      cat("\n", file = file, append = TRUE)
    }
    cat(sprintf("%s %s %.1f s (fitting: %.2f s CPU)\n", name, method, proc.time()[["elapsed"]] - started, cpu))
  }
}
