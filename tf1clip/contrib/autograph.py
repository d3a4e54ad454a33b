"""`tf.contrib.autograph`: to_graph, to_code, convert, converted_call, do_not_convert, set_element_type, set_loop_options, stack, AutoGraphError, ConversionOptions, Feature, StackTraceMapper (tf.autograph's objects).

Place in the data flow (DESIGN.md): TensorFlow <- **contrib.autograph** <- compat <- cli. TF 1.15's names are
served as the very objects TensorFlow 2.21 still has (catalog.SERVED); anything else raises
ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog

__getattr__ = catalog.missing_attribute_hook("tf.contrib.autograph", lazy=catalog.served("tf.contrib.autograph"))
