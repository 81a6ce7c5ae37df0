// A Weka classifier as a bnclab `external` learner. Run with Java 11+ and Weka on the class path, e.g. the
// Debian package `weka`. Two ways (docs/spec.md, "External programs"):
//
//   one run per fold: bnclab appends <train.arff> <test.arff> <output.csv> <seed>
//     java -cp /usr/share/java/weka.jar learners/WekaPredict.java <classifier class> [classifier options]
//
//   one process for many folds (`server: true`): reads "fold<TAB>train<TAB>test<TAB>seed" lines on stdin
//   (with `send: stdin`, "data<TAB>train bytes<TAB>test bytes<TAB>seed" lines, each followed by the two
//   ARFF files' bytes), answers each on stdout with "ok", the header and one row per test row (or
//   "error <message>"), exits at the end of stdin
//     java -cp /usr/share/java/weka.jar learners/WekaPredict.java --server <classifier class> [options]
//
// bnclab compiles the source once and caches the class (keyed by its content and the Java version). The
// classifier is built on the training file (class last) and its full-precision distributionForInstance for
// every test row is written as CSV, the header naming the class values in the ARFF's order. A Randomizable
// classifier gets the fold's seed. Each fold builds a fresh classifier from the same options.
// Works with Weka 3.6 (Debian) and 3.8: only Classifier, Utils.forName and Randomizable are used.
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Randomizable;
import weka.core.Utils;

public class WekaPredict {
  public static void main(String[] args) throws Exception {
    if (args.length >= 2 && args[0].equals("--server")) {
      serve(args[1], Arrays.copyOfRange(args, 2, args.length));
      return;
    }
    if (args.length < 5) {
      System.err.println("usage: WekaPredict <classifier> [options] <train.arff> <test.arff> <output.csv> <seed>");
      System.err.println("       WekaPredict --server <classifier> [options]   (folds on stdin)");
      System.exit(2);
    }
    int n = args.length;
    String[] options = Arrays.copyOfRange(args, 1, n - 4);
    try (PrintWriter out = new PrintWriter(args[n - 2], "UTF-8")) {
      predict(args[0], options, args[n - 4], args[n - 3], Long.parseLong(args[n - 1]), out);
    }
  }

  /** The line protocol: one fold per stdin line (and, for "data", the files' bytes after it), its answer on stdout. */
  private static void serve(String name, String[] options) throws Exception {
    InputStream in = new BufferedInputStream(System.in, 1 << 16);
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
    for (String line; (line = readLine(in)) != null; ) {
      String[] f = line.split("\t", -1);
      StringBuilder answer = new StringBuilder();
      int trainBytes = -1;
      int testBytes = -1;
      if (f.length == 4 && f[0].equals("data")) {
        try {
          trainBytes = Integer.parseInt(f[1]);
          testBytes = Integer.parseInt(f[2]);
          if (trainBytes < 0 || testBytes < 0) throw new NumberFormatException();
        } catch (NumberFormatException e) {
          // where the next request starts is unknown: answer and stop
          out.println("error WekaPredict: byte counts expected in '" + line + "'");
          out.flush();
          return;
        }
      }
      try {
        Instances train;
        Instances test;
        if (trainBytes >= 0) {
          Reader trainText = bytes(in, trainBytes); // both taken off stdin before either is parsed
          Reader testText = bytes(in, testBytes);
          train = read(trainText);
          test = read(testText);
        } else if (f.length == 4 && f[0].equals("fold")) {
          train = read(new FileReader(f[1]));
          test = read(new FileReader(f[2]));
        } else {
          throw new IllegalArgumentException(
              "WekaPredict: expected 'fold<TAB>train<TAB>test<TAB>seed' or 'data<TAB>train bytes<TAB>test bytes<TAB>seed', got '" + line + "'");
        }
        java.io.StringWriter buffer = new java.io.StringWriter();
        try (PrintWriter w = new PrintWriter(buffer)) {
          predict(name, options.clone(), train, test, Long.parseLong(f[3]), w);
        }
        answer.append("ok\n").append(buffer);
      } catch (EndOfInput e) {
        return; // stdin ended in the middle of a fold's bytes: bnclab has gone
      } catch (Exception e) {
        answer.setLength(0);
        answer.append("error ").append(String.valueOf(e).replace('\n', ' ')).append('\n');
      }
      out.print(answer);
      out.flush();
    }
  }

  private static final class EndOfInput extends IOException {}

  /** One line of stdin (UTF-8, without its newline), or null at the end. */
  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream(256);
    int c;
    while ((c = in.read()) != -1 && c != '\n') b.write(c);
    if (c == -1 && b.size() == 0) return null;
    String line = b.toString(StandardCharsets.UTF_8);
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }

  /** The next n bytes of stdin as a reader of UTF-8 text. */
  private static Reader bytes(InputStream in, int n) throws IOException {
    byte[] b = in.readNBytes(n);
    if (b.length < n) throw new EndOfInput();
    return new InputStreamReader(new ByteArrayInputStream(b), StandardCharsets.UTF_8);
  }

  private static void predict(String name, String[] options, String trainFile, String testFile, long seed, PrintWriter out)
      throws Exception {
    predict(name, options, read(new FileReader(trainFile)), read(new FileReader(testFile)), seed, out);
  }

  /** Builds the classifier on train (class last) and writes the header and test's rows of probabilities. */
  private static void predict(String name, String[] options, Instances train, Instances test, long seed, PrintWriter out)
      throws Exception {
    Classifier classifier = (Classifier) Utils.forName(Classifier.class, name, options);
    if (classifier instanceof Randomizable) ((Randomizable) classifier).setSeed((int) seed);
    classifier.buildClassifier(train);
    StringBuilder header = new StringBuilder();
    for (int c = 0; c < train.numClasses(); c++) {
      if (c > 0) header.append(',');
      header.append(train.classAttribute().value(c));
    }
    out.println(header);
    for (int i = 0; i < test.numInstances(); i++) {
      double[] p = classifier.distributionForInstance(test.instance(i));
      StringBuilder row = new StringBuilder();
      for (int c = 0; c < p.length; c++) {
        if (c > 0) row.append(',');
        row.append(Double.toString(p[c]));
      }
      out.println(row);
    }
  }

  private static Instances read(Reader text) throws Exception {
    try (BufferedReader r = new BufferedReader(text)) {
      Instances data = new Instances(r);
      data.setClassIndex(data.numAttributes() - 1);
      return data;
    }
  }
}
