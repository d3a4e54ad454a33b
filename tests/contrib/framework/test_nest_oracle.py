"""contrib.framework.nest against TF 1.15: nest's TF 1.15 names."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.framework.nest." + n for n in (
    "flatten", "pack_sequence_as", "map_structure", "assert_same_structure", "flatten_up_to",
    "map_structure_up_to", "is_nested", "flatten_with_joined_string_paths"))

SNIPPET = r'''
import tensorflow as tf
nest = tf.contrib.framework.nest
structure = {"b": (1, [2, 3]), "a": 4}
report("nest_flatten", nest.flatten(structure))
report("nest_pack", str(nest.pack_sequence_as(structure, list(range(10, 14)))))
report("nest_map", str(nest.map_structure(lambda v: v * 2, structure)))
report("nest_up_to", nest.flatten_up_to({"a": 0, "b": 0}, structure))
report("nest_map_up_to", str(nest.map_structure_up_to({"a": 0, "b": 0}, lambda v: str(v), structure)))
report("nest_is_nested", [nest.is_nested(structure), nest.is_nested("str")])
report("nest_paths", nest.flatten_with_joined_string_paths(structure))
with case("nest_mismatch"):
    nest.assert_same_structure((1, 2), (1, 2, 3))
'''


@requires_tf115
def test_nest_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
