"""`tf.contrib.graph_editor.util`: the name TF 1.15's helpers were published under.

TF 1.15 kept list normalisation, consumers / control outputs and placeholder naming in one `util` module;
tf1clip keeps them by concern (op_lists, connections, naming). This module only gives scripts that spell
`ge.util.make_list_of_op(...)` the same objects under TF 1.15's module name.
"""

# pylint: disable=unused-import
from tf1clip.contrib.graph_editor._connections import ControlOutputs
from tf1clip.contrib.graph_editor._connections import get_consuming_ops
from tf1clip.contrib.graph_editor._connections import get_generating_ops
from tf1clip.contrib.graph_editor._naming import make_placeholder_from_dtype_and_shape
from tf1clip.contrib.graph_editor._naming import make_placeholder_from_tensor
from tf1clip.contrib.graph_editor._naming import placeholder_name
from tf1clip.contrib.graph_editor._op_lists import concatenate_unique
from tf1clip.contrib.graph_editor._op_lists import flatten_tree
from tf1clip.contrib.graph_editor._op_lists import get_tensors
from tf1clip.contrib.graph_editor._op_lists import get_unique_graph
from tf1clip.contrib.graph_editor._op_lists import is_iterable
from tf1clip.contrib.graph_editor._op_lists import ListView
from tf1clip.contrib.graph_editor._op_lists import make_list_of_op
from tf1clip.contrib.graph_editor._op_lists import make_list_of_t
from tf1clip.contrib.graph_editor._op_lists import transform_tree
