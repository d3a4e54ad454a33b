"""`tf.contrib.timeseries`' state space models: the Kalman filter, the linear Gaussian model and its components.

Place in the data flow (DESIGN.md): contrib.timeseries.model / math_utils <- **contrib.timeseries.state_space_models**
<- StateSpaceRegressor and StructuralEnsembleRegressor (contrib.timeseries.estimators).

Our code with TF 1.15's module names, classes, variable names and behaviour (compared with TF 1.15 in
tests/contrib/timeseries/test_*_oracle.py): `kalman_filter`, `state_space_model` (the base model and its ensembles),
the components `level_trend`, `periodic` and `varma`, `structural_ensemble` (their sums) and
`filtering_postprocessor` (anomaly handling after each filtering step). TF 1.15 did not export them from
tf.contrib.timeseries either; they serve its Estimators.
"""
