// A Weka classifier as a bnclab `external` learner. Run with Java 11+ and Weka on the class path, e.g. the
// Debian package `weka`. Two ways (docs/spec.md, "External programs"):
//
//   one run per fold: bnclab appends <train.arff> <test.arff> <output.csv> <seed>
//     java -cp /usr/share/java/weka.jar learners/WekaPredict.java <classifier class> [classifier options]
//
//   one process for many folds (`server: true`): reads "fold<TAB>train<TAB>test<TAB>seed" lines on stdin,
//   answers each on stdout with "ok", the header and one row per test row (or "error <message>"), exits at
//   the end of stdin
//     java -cp /usr/share/java/weka.jar learners/WekaPredict.java --server <classifier class> [options]
//
// bnclab compiles the source once and caches the class (keyed by its content and the Java version). The
// classifier is built on the training file (class last) and its full-precision distributionForInstance for
// every test row is written as CSV, the header naming the class values in the ARFF's order. A Randomizable
// classifier gets the fold's seed. Each fold builds a fresh classifier from the same options.
// Works with Weka 3.6 (Debian) and 3.8: only Classifier, Utils.forName and Randomizable are used.
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
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

  /** The line protocol: one fold per stdin line, its answer on stdout. */
  private static void serve(String name, String[] options) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
    for (String line; (line = in.readLine()) != null; ) {
      String[] f = line.split("\t", -1);
      if (f.length != 4 || !f[0].equals("fold")) {
        out.println("error WekaPredict: expected 'fold<TAB>train<TAB>test<TAB>seed', got '" + line + "'");
      } else {
        StringBuilder answer = new StringBuilder();
        try {
          java.io.StringWriter buffer = new java.io.StringWriter();
          try (PrintWriter w = new PrintWriter(buffer)) {
            predict(name, options.clone(), f[1], f[2], Long.parseLong(f[3]), w);
          }
          answer.append("ok\n").append(buffer);
        } catch (Exception e) {
          answer.setLength(0);
          answer.append("error ").append(String.valueOf(e).replace('\n', ' ')).append('\n');
        }
        out.print(answer);
      }
      out.flush();
    }
  }

  private static void predict(String name, String[] options, String trainFile, String testFile, long seed, PrintWriter out)
      throws Exception {
    Instances train = read(trainFile);
    Instances test = read(testFile);
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

  private static Instances read(String file) throws Exception {
    try (BufferedReader r = new BufferedReader(new FileReader(file))) {
      Instances data = new Instances(r);
      data.setClassIndex(data.numAttributes() - 1);
      return data;
    }
  }
}
