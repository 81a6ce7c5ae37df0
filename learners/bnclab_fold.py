"""Reading and writing the files of a bnclab `external` learner (shared by the Python examples here).

bnclab runs `<command> <train.csv> <test.csv> <output.csv> <seed>`, or, with `server: true` in the spec and
`--server` in the command, starts the program once and sends it one fold per stdin line
(`fold<TAB>train<TAB>test<TAB>seed`, or with `send: stdin` `data<TAB>train bytes<TAB>test bytes<TAB>seed`
followed by the two files' bytes), the answer going to stdout (`ok`, the header, one row per test row; or
`error <message>`); `main` below does both. With `values: codes` every cell of the
CSV files is a number (categories as integer codes 0..r-1, numeric columns as read with `preprocess:
false`), an empty cell is a missing value, and the class is the last column. The output's first line names
the classes (their codes), then one row of probabilities per test row.
"""
import csv
import io
import os
import sys

# One thread: bnclab runs its jobs in parallel itself (--workers); set OMP_NUM_THREADS to override.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np


def read_csv(path):
    """The data rows of a bnclab CSV file as floats (NaN for missing): features X and the class codes y."""
    with open(path, newline="") as f:
        return _rows(f)


def _rows(f):
    rows = list(csv.reader(f))[1:]
    data = np.array([[float(v) if v != "" else np.nan for v in row] for row in rows], dtype=float)
    if data.size == 0:
        data = data.reshape(0, len(rows[0]) if rows else 1)
    return data[:, :-1], data[:, -1].astype(int)


def arguments():
    """(train X, train y, test X, output path, seed) from bnclab's four arguments."""
    if len(sys.argv) != 5:
        sys.exit(f"usage: {sys.argv[0]} <train.csv> <test.csv> <output.csv> <seed> (use values: codes)")
    train, test, output, seed = sys.argv[1:]
    x_train, y_train = read_csv(train)
    x_test, _ = read_csv(test)
    return x_train, y_train, x_test, output, int(seed) % (2**31)


def write_predictions(path, classes, proba):
    """The header naming the classes (codes), then one row of probabilities per test row."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([str(int(c)) for c in classes])
        for row in proba:
            w.writerow([repr(float(p)) for p in row])


def _write_rows(f, classes, proba):
    w = csv.writer(f, lineterminator="\n")
    w.writerow([str(int(c)) for c in classes])
    for row in proba:
        w.writerow([repr(float(p)) for p in row])


def serve(fit_predict):
    """The line protocol: one fold per stdin line (`fold`: file names; `data`: the files' bytes follow the
    line), its answer on stdout; ends at the end of stdin."""
    out = sys.stdout
    stdin = sys.stdin.buffer
    for raw in iter(stdin.readline, b""):
        line = raw.decode("utf-8").rstrip("\n").rstrip("\r")
        fields = line.split("\t")
        bodies = None
        if len(fields) == 4 and fields[0] == "data":
            sizes = [int(fields[1]), int(fields[2])]
            bodies = [stdin.read(n) for n in sizes]  # both read before either is parsed
            if any(len(b) != n for b, n in zip(bodies, sizes)):
                return  # stdin ended in the middle of a fold: bnclab has gone
        try:
            if bodies is not None:
                x_train, y_train = _rows(io.StringIO(bodies[0].decode("utf-8"), newline=""))
                x_test, _ = _rows(io.StringIO(bodies[1].decode("utf-8"), newline=""))
            elif len(fields) == 4 and fields[0] == "fold":
                x_train, y_train = read_csv(fields[1])
                x_test, _ = read_csv(fields[2])
            else:
                raise ValueError(f"expected 'fold<TAB>train<TAB>test<TAB>seed' or 'data<TAB>…', got {line.strip()!r}")
            classes, proba = fit_predict(x_train, y_train, x_test, int(fields[3]) % (2**31))
        except Exception as e:  # noqa: BLE001 - the fold fails, the server goes on
            out.write("error " + repr(e).replace("\n", " ") + "\n")
        else:
            out.write("ok\n")
            _write_rows(out, classes, proba)
        out.flush()


def main(fit_predict):
    """`fit_predict(x_train, y_train, x_test, seed) -> (classes, probabilities)` as a one-shot program or,
    with `--server` as its only argument, as a server."""
    if sys.argv[1:] == ["--server"]:
        serve(fit_predict)
        return
    x_train, y_train, x_test, output, seed = arguments()
    classes, proba = fit_predict(x_train, y_train, x_test, seed)
    write_predictions(output, classes, proba)
