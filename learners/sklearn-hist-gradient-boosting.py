"""scikit-learn's HistGradientBoostingClassifier (defaults; the LightGBM-style learner) as a bnclab
`external` learner. Debian: apt-get install python3-sklearn. Needs `values: codes`; missing values are
handled natively. Command: [/usr/bin/python3, ../learners/sklearn-hist-gradient-boosting.py], or with `server: true`
[/usr/bin/python3, ../learners/sklearn-hist-gradient-boosting.py, --server] (one process for many folds)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bnclab_fold import main  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier  # noqa: E402



def fit_predict(x_train, y_train, x_test, seed):
    # scikit-learn's default early_stopping='auto' holds out a stratified 10 % validation set above 10,000
    # training rows, and that split fails when a class has a single training row (nursery's 'recommend' class
    # in some folds). There, and only there, boosting runs without early stopping, and the script says so.
    early_stopping = "auto"
    if len(y_train) > 10000 and np.unique(y_train, return_counts=True)[1].min() < 2:
        early_stopping = False
        print("sklearn-hist-gradient-boosting: a class has one training row, so early stopping (which needs a "
              "stratified validation split) is off for this fold", file=sys.stderr)
    model = HistGradientBoostingClassifier(random_state=seed, early_stopping=early_stopping)
    model = model.fit(x_train, y_train)
    return model.classes_, model.predict_proba(x_test)


main(fit_predict)
