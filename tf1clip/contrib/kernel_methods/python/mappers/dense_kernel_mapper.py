"""`DenseKernelMapper`, the base of kernel mappers (dense input to dense features), and `InvalidShapeError`.

TF 1.15's `tensorflow/contrib/kernel_methods/python/mappers/dense_kernel_mapper.py`, tf1clip's code.
"""

import abc


class InvalidShapeError(Exception):
  """Exception thrown when a tensor's shape deviates from an expected shape."""


class DenseKernelMapper(abc.ABC):
  """Abstract class for a kernel mapper that maps dense inputs to dense outputs."""

  @abc.abstractmethod
  def map(self, input_tensor):
    """Maps the dense `input_tensor` with the (approximate) kernel map."""
    raise NotImplementedError("map is not implemented for {}.".format(self))

  @property
  @abc.abstractmethod
  def name(self):
    """Returns the name of the kernel mapper."""

  @property
  @abc.abstractmethod
  def output_dim(self):
    """Returns the output dimension of the mapping."""
