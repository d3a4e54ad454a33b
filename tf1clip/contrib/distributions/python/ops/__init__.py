"""`tf1clip.contrib.distributions.python.ops`: the package TF 1.15 had at
`tensorflow.contrib.distributions.python.ops`.
"""
