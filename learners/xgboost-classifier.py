"""XGBoost's XGBClassifier (its defaults) as a bnclab `external` learner. Debian: apt-get install
python3-xgboost. Needs `values: codes`; missing values are handled natively. XGBoost wants the class codes
0..k-1 of the classes present in training, so they are renumbered and mapped back in the output header.
Command: [/usr/bin/python3, ../learners/xgboost-classifier.py], or with `server: true`
[/usr/bin/python3, ../learners/xgboost-classifier.py, --server] (one process for many folds)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bnclab_fold import main  # noqa: E402
from xgboost import XGBClassifier  # noqa: E402



def fit_predict(x_train, y_train, x_test, seed):
    classes, y = np.unique(y_train, return_inverse=True)
    if len(classes) == 1:  # one class in training: XGBoost cannot fit; that class has probability 1
        return classes, np.ones((x_test.shape[0], 1))
    model = XGBClassifier(random_state=seed, n_jobs=1).fit(x_train, y)
    return classes, model.predict_proba(x_test)


main(fit_predict)
