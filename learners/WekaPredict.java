// A Weka classifier as a bnclab `external` learner. Run with Java 11+ (single-file source launch) and
// Weka on the class path, e.g. the Debian package `weka`:
//
//   java -cp /usr/share/java/weka.jar learners/WekaPredict.java <classifier class> [classifier options]
//        <train.arff> <test.arff> <output.csv> <seed>
//
// bnclab appends the last four arguments. The classifier is built on the training file (class last) and
// its full-precision distributionForInstance for every test row is written as CSV, the header naming the
// class values in the ARFF's order. A Randomizable classifier gets the fold's seed.
// Works with Weka 3.6 (Debian) and 3.8: only Classifier, Utils.forName and Randomizable are used.
import java.io.BufferedReader;
import java.io.FileReader;
import java.io.PrintWriter;
import java.util.Arrays;
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Randomizable;
import weka.core.Utils;

public class WekaPredict {
  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println("usage: WekaPredict <classifier> [options] <train.arff> <test.arff> <output.csv> <seed>");
      System.exit(2);
    }
    int n = args.length;
    String[] options = Arrays.copyOfRange(args, 1, n - 4);
    Instances train = read(args[n - 4]);
    Instances test = read(args[n - 3]);
    Classifier classifier = (Classifier) Utils.forName(Classifier.class, args[0], options);
    if (classifier instanceof Randomizable) ((Randomizable) classifier).setSeed((int) Long.parseLong(args[n - 1]));
    classifier.buildClassifier(train);
    try (PrintWriter out = new PrintWriter(args[n - 2], "UTF-8")) {
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
  }

  private static Instances read(String file) throws Exception {
    try (BufferedReader r = new BufferedReader(new FileReader(file))) {
      Instances data = new Instances(r);
      data.setClassIndex(data.numAttributes() - 1);
      return data;
    }
  }
}
