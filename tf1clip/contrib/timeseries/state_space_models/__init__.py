"""`tf.contrib.timeseries`' state space models (TF 1.15's code): the Kalman filter and the structural components.

Place in the data flow (DESIGN.md): contrib.timeseries.model / math_utils <- **contrib.timeseries.state_space_models**
<- StructuralEnsembleRegressor (contrib.timeseries.estimators).
"""
