# Regenerates r-4.2.2-random.json, the randomised golden cases used by test/stats/golden.test.ts.
# Run with R 4.2.2 (Debian r-base-core 4.2.2.20221110-2), base packages only:
#   Rscript test/stats/golden/generate-random.R   (writes golden.json in the working directory)
set.seed(20240611)
out <- list()
# p.adjust cases
pa <- list()
for (i in 1:40) {
  m <- sample(2:12, 1)
  p <- round(runif(m)^2, 4)
  if (i %% 5 == 0) p[sample(m, 2)] <- p[1]  # ties
  pa[[i]] <- list(p = p, hommel = p.adjust(p, "hommel"), holm = p.adjust(p, "holm"), hochberg = p.adjust(p, "hochberg"), bonferroni = p.adjust(p, "bonferroni"))
}
# wilcoxon cases
wl <- list()
for (i in 1:40) {
  n <- sample(1:60, 1)
  x <- round(rnorm(n, 0.3, 1), sample(c(1, 2, 6), 1))
  y <- round(rnorm(n, 0, 1), 1)
  if (i %% 4 == 0) y[sample(n, max(1, n %/% 5))] <- x[sample(n, max(1, n %/% 5))]
  alt <- sample(c("two.sided", "less", "greater"), 1)
  cor <- sample(c(TRUE, FALSE), 1)
  mu <- sample(c(0, 0, 0.1), 1)
  w <- suppressWarnings(wilcox.test(x, y, paired = TRUE, alternative = alt, correct = cor, mu = mu))
  wl[[i]] <- list(x = x, y = y, alternative = alt, correct = cor, mu = mu, V = unname(w$statistic), p = w$p.value, exact = grepl("exact", w$method))
}
# friedman cases
fr <- list()
for (i in 1:20) {
  N <- sample(2:25, 1); k <- sample(2:8, 1)
  m <- matrix(round(runif(N * k), 1), N, k)
  f <- friedman.test(m)
  fr[[i]] <- list(m = lapply(seq_len(N), function(r) m[r, ]), chi2 = unname(f$statistic), p = f$p.value)
}
# binom
bt <- list()
for (i in 1:20) { n <- sample(1:80, 1); x <- sample(0:n, 1); p0 <- sample(c(0.5, 0.5, 0.3, 0.7), 1)
  bt[[i]] <- list(x = x, n = n, p0 = p0, p = binom.test(x, n, p0)$p.value) }
# qtukey / ptukey
tk <- list()
for (i in 1:15) { k <- sample(2:20, 1); df <- sample(c(5, 10, 30, 120, 1000, Inf), 1); a <- sample(c(0.01, 0.05, 0.1), 1)
  tk[[i]] <- list(k = k, df = if (is.finite(df)) df else "Inf", alpha = a, q = qtukey(1 - a, k, df), pt = ptukey(3, k, df)) }
toj <- function(v) {
  if (is.list(v)) {
    if (!is.null(names(v))) return(paste0("{", paste0('"', names(v), '":', sapply(v, toj), collapse = ","), "}"))
    return(paste0("[", paste(sapply(v, toj), collapse = ","), "]"))
  }
  if (is.character(v)) { s <- paste0('"', v, '"'); return(if (length(v) == 1) s else paste0("[", paste(s, collapse=","), "]")) }
  if (is.logical(v)) { s <- ifelse(v, "true", "false"); return(if (length(v) == 1) s else paste0("[", paste(s, collapse=","), "]")) }
  s <- ifelse(is.na(v), "null", ifelse(is.infinite(v), '"Inf"', sprintf("%.15g", v)))
  if (length(v) == 1 && !isTRUE(attr(v, "vec"))) s else paste0("[", paste(s, collapse = ","), "]")
}
vec <- function(x) { attr(x, "vec") <- TRUE; x }
for (i in seq_along(pa)) pa[[i]] <- lapply(pa[[i]], vec)
for (i in seq_along(wl)) { wl[[i]]$x <- vec(wl[[i]]$x); wl[[i]]$y <- vec(wl[[i]]$y) }
for (i in seq_along(fr)) fr[[i]]$m <- lapply(fr[[i]]$m, vec)
writeLines(toj(list(generator = "R 4.2.2 (Debian r-base-core 4.2.2.20221110-2), set.seed(20240611)", padjust = pa, wilcoxon = wl, friedman = fr, binom = bt, tukey = tk)), "golden.json")
