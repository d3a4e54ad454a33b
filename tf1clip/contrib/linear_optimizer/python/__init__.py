"""`tf1clip.contrib.linear_optimizer.python`: the package TF 1.15 had at
`tensorflow.contrib.linear_optimizer.python`.
"""
