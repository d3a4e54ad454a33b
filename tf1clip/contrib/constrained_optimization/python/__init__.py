"""`tf1clip.contrib.constrained_optimization.python`: the package TF 1.15 had at
`tensorflow.contrib.constrained_optimization.python`.
"""
