"""scikit-learn's HistGradientBoostingClassifier (defaults; the LightGBM-style learner) as a bnclab
`external` learner. Debian: apt-get install python3-sklearn. Needs `values: codes`; missing values are
handled natively. Command: [/usr/bin/python3, ../learners/sklearn-hist-gradient-boosting.py]."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bnclab_fold import arguments, write_predictions  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402

x_train, y_train, x_test, output, seed = arguments()
model = HistGradientBoostingClassifier(random_state=seed).fit(x_train, y_train)
write_predictions(output, model.classes_, model.predict_proba(x_test))
