"""scikit-learn's RandomForestClassifier (100 trees, its defaults) as a bnclab `external` learner.
Debian: apt-get install python3-sklearn. Needs `values: codes`. scikit-learn before 1.4 takes no missing
values, so a missing value becomes its own code, -1. Command: [/usr/bin/python3, ../learners/sklearn-random-forest.py]."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bnclab_fold import arguments, write_predictions  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402

x_train, y_train, x_test, output, seed = arguments()
model = RandomForestClassifier(n_estimators=100, random_state=seed).fit(np.nan_to_num(x_train, nan=-1), y_train)
write_predictions(output, model.classes_, model.predict_proba(np.nan_to_num(x_test, nan=-1)))
