"""scikit-learn's RandomForestClassifier (100 trees, its defaults) as a bnclab `external` learner.
Debian: apt-get install python3-sklearn. Needs `values: codes`. scikit-learn before 1.4 takes no missing
values, so a missing value becomes its own code, -1. Command: [/usr/bin/python3, ../learners/sklearn-random-forest.py], or with `server: true`
[/usr/bin/python3, ../learners/sklearn-random-forest.py, --server] (one process for many folds)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bnclab_fold import main  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402



def fit_predict(x_train, y_train, x_test, seed):
    model = RandomForestClassifier(n_estimators=100, random_state=seed).fit(np.nan_to_num(x_train, nan=-1), y_train)
    return model.classes_, model.predict_proba(np.nan_to_num(x_test, nan=-1))


main(fit_predict)
