"""`tf.contrib.graph_editor`: select, copy and rewire parts of a tf.Graph, with TF 1.15's API and semantics.

Place in the data flow (DESIGN.md): contrib (our own code, step 3: nothing maintained provides it) <-
compat (facade, runner) <- cli. Graph-rewriting scripts import it at module level
(`from tensorflow.contrib import graph_editor as ge`); gradient checkpointing
("memory_saving_gradients") is the classic user.

Modules, by concern (as TF 1.15's):
  select      choose ops / tensors: filter_ts, filter_ops, *_from_regex, select_ops, select_ts,
              get_forward_walk_ops, get_backward_walk_ops, get_walks_intersection_ops, ...
  subgraph    SubGraphView and make_view (`ge.sgv`), make_view_from_scope (`ge.sgv_scope`)
  reroute     reroute_ts, swap_ts, *_inputs / *_outputs / *_ios, add/remove_control_inputs
  edit        detach*, connect, bypass
  transform   Transformer, copy, copy_with_input_replacements, graph_replace
  _op_lists, _connections, _naming   private parts of what TF 1.15's util held (list normalisation,
              consumers and control outputs, placeholders and scopes); `util` serves them under TF 1.15's name
  _in_place   the only (private) module calling TensorFlow private API (op._update_input and control-input
              edits: TF 2.21's public API cannot change an existing op)

The TF1 facade applies the "graph_editor" shim (compat/graph_editor_shim.py) when a script first
touches tf.contrib: `tf.Operation._outputs` / `_inputs`, aliases of `outputs` / `inputs` that TF 1.x
graph-editor scripts read.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.graph_editor import _connections
from tf1clip.contrib.graph_editor import edit
from tf1clip.contrib.graph_editor import _naming
from tf1clip.contrib.graph_editor import _op_lists
from tf1clip.contrib.graph_editor import reroute
from tf1clip.contrib.graph_editor import select
from tf1clip.contrib.graph_editor import subgraph
from tf1clip.contrib.graph_editor import transform
from tf1clip.contrib.graph_editor import util
from tf1clip.contrib.graph_editor._connections import ControlOutputs
from tf1clip.contrib.graph_editor._connections import get_consuming_ops
from tf1clip.contrib.graph_editor._connections import get_generating_ops
from tf1clip.contrib.graph_editor.edit import bypass
from tf1clip.contrib.graph_editor.edit import connect
from tf1clip.contrib.graph_editor.edit import detach
from tf1clip.contrib.graph_editor.edit import detach_control_inputs
from tf1clip.contrib.graph_editor.edit import detach_control_outputs
from tf1clip.contrib.graph_editor.edit import detach_inputs
from tf1clip.contrib.graph_editor.edit import detach_outputs
from tf1clip.contrib.graph_editor._naming import find_corresponding
from tf1clip.contrib.graph_editor._naming import find_corresponding_elem
from tf1clip.contrib.graph_editor._naming import get_predefined_collection_names
from tf1clip.contrib.graph_editor._naming import make_placeholder_from_dtype_and_shape
from tf1clip.contrib.graph_editor._naming import make_placeholder_from_tensor
from tf1clip.contrib.graph_editor._naming import placeholder_name
from tf1clip.contrib.graph_editor._op_lists import ListView
from tf1clip.contrib.graph_editor._op_lists import concatenate_unique
from tf1clip.contrib.graph_editor._op_lists import flatten_tree
from tf1clip.contrib.graph_editor._op_lists import get_tensors
from tf1clip.contrib.graph_editor._op_lists import get_unique_graph
from tf1clip.contrib.graph_editor._op_lists import is_iterable
from tf1clip.contrib.graph_editor._op_lists import make_list_of_op
from tf1clip.contrib.graph_editor._op_lists import make_list_of_t
from tf1clip.contrib.graph_editor._op_lists import transform_tree
from tf1clip.contrib.graph_editor.reroute import add_control_inputs
from tf1clip.contrib.graph_editor.reroute import remove_control_inputs
from tf1clip.contrib.graph_editor.reroute import reroute_inputs
from tf1clip.contrib.graph_editor.reroute import reroute_ios
from tf1clip.contrib.graph_editor.reroute import reroute_outputs
from tf1clip.contrib.graph_editor.reroute import reroute_ts
from tf1clip.contrib.graph_editor.reroute import swap_inputs
from tf1clip.contrib.graph_editor.reroute import swap_ios
from tf1clip.contrib.graph_editor.reroute import swap_outputs
from tf1clip.contrib.graph_editor.reroute import swap_ts
from tf1clip.contrib.graph_editor.select import can_be_regex
from tf1clip.contrib.graph_editor.select import check_cios
from tf1clip.contrib.graph_editor.select import compute_boundary_ts
from tf1clip.contrib.graph_editor.select import filter_ops
from tf1clip.contrib.graph_editor.select import filter_ops_from_regex
from tf1clip.contrib.graph_editor.select import filter_ts
from tf1clip.contrib.graph_editor.select import filter_ts_from_regex
from tf1clip.contrib.graph_editor.select import get_backward_walk_ops
from tf1clip.contrib.graph_editor.select import get_forward_walk_ops
from tf1clip.contrib.graph_editor.select import get_name_scope_ops
from tf1clip.contrib.graph_editor.select import get_ops_ios
from tf1clip.contrib.graph_editor.select import get_walks_intersection_ops
from tf1clip.contrib.graph_editor.select import get_walks_union_ops
from tf1clip.contrib.graph_editor.select import get_within_boundary_ops
from tf1clip.contrib.graph_editor.select import make_regex
from tf1clip.contrib.graph_editor.select import select_ops
from tf1clip.contrib.graph_editor.select import select_ops_and_ts
from tf1clip.contrib.graph_editor.select import select_ts
from tf1clip.contrib.graph_editor.subgraph import SubGraphView
from tf1clip.contrib.graph_editor.subgraph import make_view
from tf1clip.contrib.graph_editor.subgraph import make_view_from_scope
from tf1clip.contrib.graph_editor.transform import Transformer
from tf1clip.contrib.graph_editor.transform import TransformerInfo
from tf1clip.contrib.graph_editor.transform import assign_renamed_collections_handler
from tf1clip.contrib.graph_editor.transform import copy
from tf1clip.contrib.graph_editor.transform import copy_op_handler
from tf1clip.contrib.graph_editor.transform import copy_with_input_replacements
from tf1clip.contrib.graph_editor.transform import graph_replace
from tf1clip.contrib.graph_editor.transform import keep_t_if_possible_handler
from tf1clip.contrib.graph_editor.transform import replace_t_with_placeholder_handler
from tf1clip.contrib.graph_editor.transform import transform_op_if_inside_handler

# TF 1.15's short aliases.
ph = make_placeholder_from_dtype_and_shape
sgv = make_view
sgv_scope = make_view_from_scope

__getattr__ = _catalog.module_getattr(__name__)
