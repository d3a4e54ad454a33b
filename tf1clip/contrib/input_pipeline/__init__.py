"""`tf.contrib.input_pipeline`: obtain_next, the next string of a list, round robin (TF 1.15's op, as TF ops).

`obtain_next(string_list_tensor, counter)` sets the int64 variable `counter` to (counter + 1) mod the list's length
(C's remainder, as TF 1.15's ObtainNext kernel) and returns the string at that position: with a counter starting
at -1, successive runs give the list's strings in order, over and over. TF 1.15's kernel is gone; here it is an
assign and a gather, under the op's name ("ObtainNext"). As in TF 1.15, `counter` must be a (non-resource)
variable of int64 and the list a 1-D string tensor; anything else raises TypeError or ValueError when built.
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog


def _string_list(string_list_tensor):
  if isinstance(string_list_tensor, (tf.Tensor, tf.Variable)) and string_list_tensor.dtype.base_dtype != tf.string:
    raise TypeError("Input 'list' of 'ObtainNext' Op has type %s that does not match expected type of string." %
                    string_list_tensor.dtype.base_dtype.name)
  try:
    strings = tf.convert_to_tensor(string_list_tensor, dtype=tf.string, name="list")
  except (TypeError, ValueError) as e:
    raise TypeError("Expected string passed to parameter 'list' of op 'ObtainNext', got %r: %s" % (
        string_list_tensor, e)) from None
  return strings


def _counter(counter):
  dtype = getattr(counter, "dtype", None)
  if not isinstance(dtype, tf.DType) or dtype == dtype.base_dtype:  # a reference (a RefVariable) is mutable
    raise TypeError("'ObtainNext' Op requires that input 'counter' be a mutable tensor (e.g.: a tf.Variable)")
  if dtype.base_dtype != tf.int64:
    raise TypeError("Input 'counter' of 'ObtainNext' Op has type %s that does not match expected type of int64." %
                    dtype.name)
  return counter


def _check_ranks(strings, counter):
  """TF 1.15's shape function: a vector of strings and a scalar counter."""
  for tensor, rank in ((strings, 1), (counter, 0)):
    if tensor.shape.rank not in (None, rank):
      raise ValueError("Shape must be rank %d but is rank %d for 'ObtainNext' (op: 'ObtainNext') with input "
                       "shapes: %s, %s." % (rank, tensor.shape.rank, strings.shape, counter.shape))


def obtain_next(string_list_tensor, counter):
  """Increments `counter` (mod the list's length) and returns that element of `string_list_tensor`.

  Args:
    string_list_tensor: A tensor that is a list of strings
    counter: an int64 ref tensor to keep track of which element is returned.

  Returns:
    An op that produces the element at counter + 1 in the list, round
    robin style.
  """
  with tf.compat.v1.name_scope(None, "ObtainNext", [string_list_tensor]) as scope:
    strings = _string_list(string_list_tensor)
    counter = _counter(counter)
    _check_ranks(strings, counter)
    position = tf.compat.v1.assign(
        counter, tf.truncatemod(counter + 1, tf.size(strings, out_type=tf.int64)), use_locking=True)
    return tf.identity(tf.gather(strings, position), name=scope)


__getattr__ = _catalog.module_getattr(__name__)
