"""The rest of several small contrib modules against TF 1.15:

- contrib.autograph: to_graph / to_code / convert on functions with tensor loops and conditionals, the list and
  loop directives (set_element_type with stack; set_loop_options, which TF 1.15's converter dropped),
  converted_call in TF 1.15's argument order, ConversionOptions, Feature, AutoGraphError, StackTraceMapper, errors;
- contrib.cluster_resolver: GCEClusterResolver (a Compute Engine client passed as `service`),
  KubernetesClusterResolver (a client passed as `override_client`), SlurmClusterResolver (a Slurm step's
  environment and a stand-in `scontrol`), TPUClusterResolver (a grpc address): cluster specs, masters, task info,
  errors, without a network;
- contrib.framework.nest's path functions and their errors;
- contrib.lookup: the hash specs inside IdTableWithHashBuckets, the text-file initializers on a small vocabulary
  file, and TableInitializerBase / InitializableLookupTableBase / LookupInterface through subclasses;
- contrib.mixed_precision.LossScaleManager (a manager of one's own in LossScaleOptimizer) and
  contrib.opt.LazyAdamOptimizer (embedding and dense variables: values, slots, checkpoint keys).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.autograph." + n for n in (
    "AutoGraphError", "ConversionOptions", "Feature", "StackTraceMapper", "convert", "converted_call",
    "set_element_type", "set_loop_options", "to_code")) + tuple("tf.contrib.cluster_resolver." + n for n in (
        "GCEClusterResolver", "KubernetesClusterResolver", "SlurmClusterResolver", "TPUClusterResolver")) + tuple(
            "tf.contrib.framework.nest." + n for n in (
                "assert_shallow_structure", "flatten_dict_items", "flatten_with_tuple_paths",
                "flatten_with_tuple_paths_up_to", "get_traverse_shallow_structure", "map_structure_with_paths",
                "map_structure_with_tuple_paths", "map_structure_with_tuple_paths_up_to", "yield_flat_paths")) + tuple(
                    "tf.contrib.lookup." + n for n in (
                        "FastHashSpec", "HasherSpec", "InitializableLookupTableBase", "LookupInterface",
                        "StrongHashSpec", "TableInitializerBase", "TextFileIdTableInitializer",
                        "TextFileStringTableInitializer")) + (
                            "tf.contrib.mixed_precision.LossScaleManager", "tf.contrib.opt.LazyAdamOptimizer")

DIFFERENCES = {
    "slurm_accelerators": "TensorFlow 2.21's SlurmClusterResolver.num_accelerators() counts the GPUs one task sees "
                          "(gpus_per_task: its CUDA_VISIBLE_DEVICES), TF 1.15's the node's (gpus_per_node); TF 2.21's "
                          "strategies place replicas on what num_accelerators() says, so the node's count would "
                          "name GPUs the task cannot see. The cluster spec, task and master are TF 1.15's",
    "tpu_same": "tf.contrib.cluster_resolver.TPUClusterResolver is a subclass of TensorFlow 2.21's "
                "tf.distribute.cluster_resolver.TPUClusterResolver (a clear error when no TPU is reachable, TF 1.15's "
                "rpc_layer attribute); TF 1.15 served one class under both names. An instance of contrib's class is "
                "an instance of tf.distribute's, not the reverse",
}

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf

# ---- contrib.autograph
ag = tf.contrib.autograph

def collatz(n):
    steps = 0
    while n > 1:
        n = n // 2 if tf.equal(n % 2, 0) else 3 * n + 1
        steps += 1
    return steps

def squares(n):
    out = []
    ag.set_element_type(out, tf.int32)
    for i in tf.range(n):
        out.append(i * i)
    return ag.stack(out)

def capped(n):
    total = 0
    i = 0
    while i < n:
        ag.set_loop_options(parallel_iterations=3, maximum_iterations=4)
        total += i
        i += 1
    return total

@ag.convert()
def relu_sum(x):
    if tf.reduce_sum(x) > 0:
        return tf.reduce_sum(tf.nn.relu(x))
    else:
        return tf.constant(0.0)

graph_collatz = ag.to_graph(collatz)
code = ag.to_code(collatz)
report("to_code", [type(code).__name__, "def tf__collatz" in code, "while" in code or "while_stmt" in code])
results = {}
for name, make in (("collatz", lambda: graph_collatz(tf.constant(6))),
                   ("squares", lambda: ag.to_graph(squares, experimental_optional_features=ag.Feature.LISTS)(
                       tf.constant(5))),
                   ("capped", lambda: ag.to_graph(capped)(tf.constant(10))),
                   ("convert_pos", lambda: relu_sum(tf.constant([1.0, -2.0, 3.0]))),
                   ("convert_neg", lambda: relu_sum(tf.constant([-1.0, -2.0])))):
    with case(name):
        results[name] = make()

options = ag.ConversionOptions(recursive=True)
report("options", [options.recursive, options.user_requested, options.internal_convert_user_code,
                   options.uses(ag.Feature.ALL), options.uses(ag.Feature.ASSERT_STATEMENTS)])
report("features", sorted(f.name for f in ag.Feature))
with case("converted_call"):
    results["converted_call"] = ag.converted_call(collatz, options, (tf.constant(7),), {})
with case("converted_call_py"):
    report("converted_call_py", ag.converted_call(lambda a, b: a * b + 1, ag.ConversionOptions(), (3, 4), {}))
try:
    raise ag.AutoGraphError("conversion failed")
except ag.AutoGraphError as e:
    report("autograph_error", [str(e), isinstance(e, Exception)])
report_errors("errors", (("to_graph_int", lambda: ag.to_graph(42)),
                         ("to_code_int", lambda: ag.to_code(42))))
mapper = ag.StackTraceMapper(graph_collatz)
with mapper:
    pass
source_map = mapper.get_effective_source_map()
report("stack_trace_mapper", [type(source_map).__name__, len(source_map) > 0])
with tf.Session() as sess:
    for key, value in sorted(sess.run(results).items()):
        report(key, value)

# ---- contrib.cluster_resolver: each resolver from its environment / client, no network
cr = tf.contrib.cluster_resolver

def spec_of(resolver):
    return {job: resolver.cluster_spec().job_tasks(job) for job in sorted(resolver.cluster_spec().jobs)}

# GCE: the Compute Engine API client passed as `service` (no network)
class _Request(object):
    def __init__(self, response):
        self.response = response
    def execute(self):
        return self.response

class _Instances(object):
    def __init__(self, pages):
        self.pages = pages
    def listInstances(self, project, zone, instanceGroups, body, orderBy):
        calls.append(["listInstances", project, zone, instanceGroups, body, orderBy])
        return _Request(self.pages[None])
    def listInstances_next(self, previous_request, previous_response):
        token = previous_response.get("nextPageToken")
        return None if token is None else _Request(self.pages[token])

class _InstanceGetter(object):
    def get(self, project, zone, instance):
        calls.append(["get", project, zone, instance])
        return _Request({"networkInterfaces": [{"networkIP": "10.0.0.%d" % (int(instance[-1]) + 1)}]})

class _Service(object):
    def __init__(self, pages):
        self._groups = _Instances(pages)
    def instanceGroups(self):
        return self._groups
    def instances(self):
        return _InstanceGetter()

calls = []
pages = {None: {"items": [{"instance": "projects/p/zones/z/instances/vm0", "status": "RUNNING"},
                          {"instance": "projects/p/zones/z/instances/vm1", "status": "RUNNING"}],
                "nextPageToken": "t1"},
         "t1": {"items": [{"instance": "projects/p/zones/z/instances/vm2", "status": "RUNNING"}]}}
with case("gce"):
    gce = cr.GCEClusterResolver("p", "z", "group", 8470, task_type="worker", task_id=1, credentials=None,
                                service=_Service(pages))
    report("gce", [spec_of(gce), gce.master(), gce.task_type, gce.task_id, gce.rpc_layer,
                   gce.master(rpc_layer="grpc")])
    report_errors("gce_set", (("task_type", lambda: setattr(gce, "task_type", "ps")),
                              ("task_id", lambda: setattr(gce, "task_id", 0))))
    report("gce_after_set", [gce.task_type, gce.task_id, gce.master()])
report("gce_calls", calls)

# Kubernetes: a client object passed as override_client
class _Pod(object):
    def __init__(self, name, ip, phase):
        self.metadata = type("M", (), {"name": name})()
        self.status = type("S", (), {"host_ip": ip, "phase": phase})()

class _Client(object):
    def list_pod_for_all_namespaces(self, label_selector):
        calls.append(["pods", label_selector])
        pods = {"job-name=ps": [_Pod("ps-0", "10.1.0.1", "Running")],
                "job-name=worker": [_Pod("w-1", "10.1.1.2", "Running"), _Pod("w-0", "10.1.1.1", "Running")],
                "job-name=stopped": [_Pod("s-0", "10.1.2.1", "Pending")]}
        return type("L", (), {"items": pods.get(label_selector, [])})()

calls = []
with case("kubernetes"):
    k8s = cr.KubernetesClusterResolver({"worker": ["job-name=worker"], "ps": ["job-name=ps"]}, tf_server_port=2222,
                                       override_client=_Client())
    report("kubernetes", [spec_of(k8s), k8s.master(), k8s.master("worker", 1), k8s.task_type, k8s.task_id,
                          k8s.num_accelerators().get("CPU")])
report("kubernetes_calls", calls)
report_errors("kubernetes_errors", (
    ("pending", lambda: cr.KubernetesClusterResolver({"worker": ["job-name=stopped"]},
                                                     override_client=_Client()).cluster_spec()),
    ("no_client", lambda: cr.KubernetesClusterResolver({"worker": ["a"]}).cluster_spec()),))

# Slurm: the environment a Slurm step gives its tasks, and scontrol (a stand-in on PATH)
saved = dict(os.environ)
try:
    bin_dir = os.path.abspath("fake_bin")
    os.makedirs(bin_dir)
    with open(os.path.join(bin_dir, "scontrol"), "w") as f:
        f.write("#!/bin/sh\nprintf 'node1\\nnode2\\n'\n")
    os.chmod(os.path.join(bin_dir, "scontrol"), 0o755)
    os.environ["PATH"] = bin_dir + os.pathsep + os.environ["PATH"]
    os.environ.update({"SLURM_PROCID": "2", "SLURM_NTASKS": "4", "SLURM_NTASKS_PER_NODE": "2",
                       "SLURM_STEP_NUM_TASKS": "4", "SLURM_STEP_NODELIST": "node[1-2]",
                       "SLURM_STEP_TASKS_PER_NODE": "2(x2)", "SLURM_STEP_NUM_NODES": "2", "SLURM_JOB_NODELIST": "node[1-2]"})
    with case("slurm"):
        slurm = cr.SlurmClusterResolver({"worker": 3, "ps": 1}, port_base=9000, gpus_per_node=2, gpus_per_task=1,
                                        auto_set_gpu=False)
        report("slurm", [spec_of(slurm), slurm.master(), slurm.get_task_info(), slurm.master("ps", 0, rpc_layer="grpc+x")])
        report("slurm_accelerators", slurm.num_accelerators())
    report_errors("slurm_errors", (
        ("too_many_tasks", lambda: cr.SlurmClusterResolver({"worker": 5}, gpus_per_node=2, gpus_per_task=1,
                                                           auto_set_gpu=False)),
        ("too_many_gpus", lambda: cr.SlurmClusterResolver({"worker": 4}, gpus_per_node=1, gpus_per_task=1,
                                                          auto_set_gpu=False))))
finally:
    os.environ.clear()
    os.environ.update(saved)

# TPU: a grpc address needs no service
with case("tpu"):
    tpu = cr.TPUClusterResolver(tpu="grpc://10.2.0.1:8470")
    report("tpu", [spec_of(tpu), tpu.master(), tpu.get_master(), tpu.task_type, tpu.rpc_layer,
                   tpu.environment])
report("tpu_same", cr.TPUClusterResolver is tf.distribute.cluster_resolver.TPUClusterResolver)

# ---- contrib.framework.nest: the path functions
nest = tf.contrib.framework.nest
tree = {"b": (1, 2), "a": [3, {"c": 4, "d": 5}]}
shallow = {"b": 0, "a": [0, 0]}
report("nest_paths", {
    "flatten_with_tuple_paths": [[list(p), v] for p, v in nest.flatten_with_tuple_paths(tree)],
    "yield_flat_paths": [list(p) for p in nest.yield_flat_paths(tree)],
    "map_structure_with_paths": nest.map_structure_with_paths(lambda p, x: "%s=%s" % (p, x), tree),
    "map_structure_with_tuple_paths": nest.map_structure_with_tuple_paths(lambda p, x, y: [list(p), x + y], tree, tree),
    "flatten_with_tuple_paths_up_to": [[list(p), str(v)] for p, v in
                                       nest.flatten_with_tuple_paths_up_to(shallow, tree)],
    "map_structure_with_tuple_paths_up_to": nest.map_structure_with_tuple_paths_up_to(
        shallow, lambda p, x: [list(p), str(x)], tree),
    "get_traverse_shallow_structure": nest.get_traverse_shallow_structure(lambda x: not isinstance(x, tuple), tree),
    "get_traverse_shallow_structure_bools": nest.get_traverse_shallow_structure(
        lambda x: (True, False) if isinstance(x, tuple) else True, tree),
    "flatten_dict_items": sorted(nest.flatten_dict_items({(1, (2, 3)): ("a", ("b", "c")), 4: "d"}).items()),
    "map_paths_tuples": nest.map_structure_with_paths(lambda p, x: p, ((1, 2), [3])),
})
report_errors("nest_errors", (
    ("assert_ok", lambda: nest.assert_shallow_structure(shallow, tree)),
    ("assert_missing_key", lambda: nest.assert_shallow_structure({"z": 0}, tree)),
    ("assert_types", lambda: nest.assert_shallow_structure((0, 0), [1, 2])),
    ("assert_types_off", lambda: nest.assert_shallow_structure((0, 0), [1, 2], check_types=False)),
    ("assert_shorter", lambda: nest.assert_shallow_structure([0, 0, 0], [1, 2])),
    ("assert_not_sequence", lambda: nest.assert_shallow_structure([0], 1)),
    ("flatten_dict_items_not_dict", lambda: nest.flatten_dict_items([1])),
    ("flatten_dict_items_clash", lambda: nest.flatten_dict_items({(1, 2): ("a", "b"), 1: "c"})),
    ("traverse_bad_return", lambda: nest.get_traverse_shallow_structure(lambda x: "yes", tree)),
    ("up_to_mismatch", lambda: nest.flatten_with_tuple_paths_up_to({"q": 0}, tree))))

# ---- contrib.lookup: hash specs, text-file initializers, the base classes through subclasses
lookup = tf.contrib.lookup
vocab = os.path.join(ORACLE_SHARED, "vocab.txt")
with open(vocab, "w") as f:
    f.write("apple\t7\nbanana\t3\ncherry\t9\n")
keys = tf.constant(["banana", "apple", "durian", "cherry"])
whole = lookup.HashTable(lookup.TextFileIdTableInitializer(vocab, key_column_index=0, value_column_index=1,
                                                           delimiter="\t"), -1)
line_ids = lookup.HashTable(lookup.TextFileIdTableInitializer(vocab, key_column_index=0, delimiter="\t"), -1)
first_two = lookup.HashTable(lookup.TextFileIdTableInitializer(vocab, key_column_index=0, delimiter="\t",
                                                               vocab_size=2), -1)
names = lookup.HashTable(lookup.TextFileStringTableInitializer(vocab, key_column_index=lookup.TextFileIndex.LINE_NUMBER,
                                                               value_column_index=0, delimiter="\t"), "UNK")
lines = lookup.HashTable(lookup.TextFileStringTableInitializer(vocab), "UNK")
ids = tf.constant([2, 0, 5], tf.int64)
specs = [lookup.FastHashSpec, lookup.StrongHashSpec([7, 11]), lookup.HasherSpec("fasthash", None)]
report("hash_specs", [[s.hasher, None if s.key is None else list(s.key)] for s in specs] +
       [isinstance(lookup.StrongHashSpec([1, 2]), lookup.HasherSpec), lookup.StrongHashSpec([1, 2])._fields])
report_errors("hash_spec_errors", (("strong_short_key", lambda: lookup.StrongHashSpec([1])),
                                   ("strong_no_key", lambda: lookup.StrongHashSpec(None))))
hashed = [lookup.IdTableWithHashBuckets(line_ids, 5, hasher_spec=s).lookup(keys) for s in specs]
report("initializer_properties", [[str(i.key_dtype), str(i.value_dtype)] for i in (
    lookup.TextFileIdTableInitializer(vocab), lookup.TextFileStringTableInitializer(vocab))])

class RangeInitializer(lookup.TableInitializerBase):
    """Keys -> their positions, imported in one op."""
    def __init__(self, keys):
        self._keys = tf.constant(keys)
        super(RangeInitializer, self).__init__(tf.string, tf.int64)
    def initialize(self, table):
        init = tf.raw_ops.LookupTableImportV2(table_handle=table.resource_handle, keys=self._keys,
                                              values=tf.range(tf.size(self._keys, out_type=tf.int64)))
        tf.add_to_collection(tf.GraphKeys.TABLE_INITIALIZERS, init)
        return init

class PlainTable(lookup.InitializableLookupTableBase):
    """A hash table built on the base class, as TF 1.15's HashTable is."""
    def __init__(self, initializer, default_value):
        self._dtypes = (initializer.key_dtype, initializer.value_dtype)
        super(PlainTable, self).__init__(default_value, initializer)
    def _create_resource(self):
        return tf.raw_ops.HashTableV2(key_dtype=self._dtypes[0], value_dtype=self._dtypes[1])
    @property
    def name(self):
        return "plain_table"

class Doubling(lookup.LookupInterface):
    """A lookup with no table: int64 keys -> 2 * key."""
    def __init__(self):
        super(Doubling, self).__init__(tf.int64, tf.int64)
    @property
    def name(self):
        return "doubling"
    def size(self, name=None):
        return tf.constant(-1, tf.int64)
    def lookup(self, keys, name=None):
        return keys * 2

plain = PlainTable(RangeInitializer(["x", "y", "z"]), tf.constant(-1, tf.int64))
doubling = Doubling()
report("base_classes", [str(plain.key_dtype), str(plain.value_dtype), plain.name, str(doubling.key_dtype),
                        str(doubling.value_dtype), isinstance(plain, lookup.LookupInterface),
                        isinstance(whole, lookup.InitializableLookupTableBase)])
fetch = {"whole": whole.lookup(keys), "line_ids": line_ids.lookup(keys), "first_two": first_two.lookup(keys),
         "names": names.lookup(ids), "lines": lines.lookup(ids), "sizes": [whole.size(), first_two.size(), lines.size()],
         "hashed": hashed, "plain": [plain.lookup(tf.constant(["z", "x", "w"])), plain.size()],
         "doubling": [doubling.lookup(tf.constant([3, 4], tf.int64)), doubling.size()]}
with tf.Session() as sess:
    sess.run(tf.tables_initializer())
    for key, value in sorted(sess.run(fetch).items()):
        report("lookup_" + key, value)

# ---- contrib.mixed_precision.LossScaleManager: a manager of one's own inside LossScaleOptimizer
mp = tf.contrib.mixed_precision

class HalvingManager(mp.LossScaleManager):
    """Starts at 64 and halves after every step whose gradients were not finite."""
    def __init__(self):
        self._scale = tf.Variable(64.0, trainable=False, name="halving_scale")
    def get_loss_scale(self):
        return self._scale
    def update_loss_scale(self, finite_grads):
        return tf.assign(self._scale, tf.where(finite_grads, self._scale, self._scale / 2.0))

report_errors("loss_scale_manager_errors", (("abstract", lambda: mp.LossScaleManager()),))
with tf.Graph().as_default():
    w = tf.Variable([1.0, -2.0], name="w")
    x = tf.placeholder(tf.float32, [2])
    loss = tf.reduce_sum(w * w * x)
    manager = HalvingManager()
    train = mp.LossScaleOptimizer(tf.train.GradientDescentOptimizer(0.1), manager).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        trajectory = []
        for feed in ([1.0, 2.0], [np.inf, 1.0], [0.5, 0.5]):
            sess.run(train, {x: feed})
            trajectory.append(sess.run([w, manager.get_loss_scale()]))
        report("loss_scale_manager", trajectory)

# ---- contrib.opt.LazyAdamOptimizer: sparse (embedding) and dense variables, a few steps
with tf.Graph().as_default():
    table = tf.get_variable("table", [5, 3], initializer=tf.constant_initializer(
        np.arange(15, dtype=np.float32).reshape(5, 3) / 10.0))
    dense_w = tf.get_variable("dense_w", [3, 1], initializer=tf.constant_initializer([[0.5], [-0.2], [0.1]]))
    ids_in = tf.constant([[0, 2], [2, 4]])
    out = tf.matmul(tf.reduce_sum(tf.nn.embedding_lookup(table, ids_in), axis=1), dense_w)
    lazy_loss = tf.reduce_mean(tf.square(out - 1.0))
    step = tf.train.get_or_create_global_step()
    lazy = tf.contrib.opt.LazyAdamOptimizer(learning_rate=0.05, beta1=0.8, beta2=0.9, epsilon=1e-6)
    lazy_train = lazy.minimize(lazy_loss, global_step=step)
    report("lazy_adam_slots", sorted([v.op.name for v in tf.global_variables()]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(lazy_train)
        report("lazy_adam", sess.run([table, dense_w, lazy.get_slot(table, "m"), lazy.get_slot(table, "v"), step]))
        report_checkpoint(sess, "lazy_adam_checkpoint")
'''


@requires_tf115
def test_contrib_misc_rest_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert not [k for k in tf115 if k.endswith(":error")], [k for k in tf115 if k.endswith(":error")]
  assert tf115["capped"] == 45, tf115["capped"]  # TF 1.15 ignored set_loop_options(maximum_iterations=4)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6, differences=DIFFERENCES)
