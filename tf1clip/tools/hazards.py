"""What breaks a legacy script outside tf.contrib: NumPy removals, TF 1.x APIs gone before 1.15, call-site changes.

Tables only (no TensorFlow, no NumPy import), read by `tf1clip check` (tools.check) and `tf1clip upgrade`
(tools.upgrade):

- `NUMPY_REMOVED`: `np.<name>` removed in NumPy 1.20-2.0 (NEP 52 and the alias removals of 1.24) -> the fix.
  tests/test_check_project.py holds each to the installed NumPy (the name must really be gone).
- `TF_REMOVED`: TF1 names that TensorFlow 1.x itself dropped before 1.15 (so neither TF 2.21 nor tf1clip has
  them), with the name they became. Consulted only for names the installed TensorFlow lacks.
- `ATTRIBUTE_HAZARDS`: attributes of TF objects that went away (`FLAGS._parse_flags` when tf.flags moved onto
  absl in TF 1.5).
- `CALL_WARNINGS`: call sites that run but behave differently than in TF 1.15 / NumPy 1.x; only ones that
  hold on TensorFlow 2.21 under `tf1clip run` (tf_upgrade_v2's argument warnings, such as a dropped
  `align_corners`, do not: tf.compat.v1 keeps the TF1 signatures).

Data flow: tools.hazards <- tools.check / tools.upgrade <- cli.
"""

_NP2 = "NumPy 2.0 removed it"
_NP124 = "NumPy 1.24 removed the alias"

# np.<name> -> (what happened, the fix)
NUMPY_REMOVED = {
    "int": (_NP124, "int (or np.int64 for a dtype)"),
    "float": (_NP124, "float (or np.float64)"),
    "complex": (_NP124, "complex (or np.complex128)"),
    "object": (_NP124, "object (or np.object_)"),
    "str": (_NP124, "str (or np.str_)"),
    "unicode": (_NP124, "str (or np.str_)"),
    "float_": (_NP2, "np.float64"),
    "complex_": (_NP2, "np.complex128"),
    "string_": (_NP2, "np.bytes_"),
    "unicode_": (_NP2, "np.str_"),
    "int0": (_NP2, "np.intp"),
    "uint0": (_NP2, "np.uintp"),
    "bool8": (_NP2, "np.bool_"),
    "object0": (_NP2, "np.object_"),
    "str0": (_NP2, "np.str_"),
    "bytes0": (_NP2, "np.bytes_"),
    "void0": (_NP2, "np.void"),
    "longfloat": (_NP2, "np.longdouble"),
    "singlecomplex": (_NP2, "np.complex64"),
    "cfloat": (_NP2, "np.complex128"),
    "longcomplex": (_NP2, "np.clongdouble"),
    "clongfloat": (_NP2, "np.clongdouble"),
    "Inf": (_NP2, "np.inf"),
    "Infinity": (_NP2, "np.inf"),
    "infty": (_NP2, "np.inf"),
    "PINF": (_NP2, "np.inf"),
    "NINF": (_NP2, "-np.inf"),
    "NaN": (_NP2, "np.nan"),
    "PZERO": (_NP2, "0.0"),
    "NZERO": (_NP2, "-0.0"),
    "asfarray": (_NP2, "np.asarray(a, dtype=np.float64)"),
    "cast": (_NP2, "np.asarray(a, dtype=...)"),
    "find_common_type": (_NP2, "np.result_type or np.promote_types"),
    "round_": (_NP2, "np.round"),
    "product": (_NP2, "np.prod"),
    "cumproduct": (_NP2, "np.cumprod"),
    "sometrue": (_NP2, "np.any"),
    "alltrue": (_NP2, "np.all"),
    "msort": (_NP2, "np.sort(a, axis=0)"),
    "issubclass_": (_NP2, "issubclass"),
    "mat": (_NP2, "np.asmatrix"),
    "source": (_NP2, "inspect.getsource"),
    "lookfor": (_NP2, "the documentation search"),
    "who": (_NP2, "an IDE variable explorer or locals()"),
    "safe_eval": (_NP2, "ast.literal_eval"),
    "set_string_function": (_NP2, "np.set_printoptions(formatter=...)"),
    "deprecate": (_NP2, "warnings.warn(..., DeprecationWarning)"),
    "deprecate_with_doc": (_NP2, "warnings.warn(..., DeprecationWarning)"),
    "disp": (_NP2, "print"),
    "byte_bounds": (_NP2, "np.lib.array_utils.byte_bounds"),
    "compare_chararrays": (_NP2, "np.char.compare_chararrays"),
    "format_parser": (_NP2, "np.rec.format_parser"),
    "recfromcsv": (_NP2, "np.genfromtxt(..., delimiter=',', names=True, dtype=None)"),
    "recfromtxt": (_NP2, "np.genfromtxt(..., dtype=None)"),
    "maximum_sctype": (_NP2, "an explicit dtype such as np.float64"),
    "obj2sctype": (_NP2, "np.dtype(obj).type"),
    "sctype2char": (_NP2, "np.dtype(t).char"),
    "sctypes": (_NP2, "an explicit list of dtypes"),
    "issctype": (_NP2, "issubclass(t, np.generic)"),
    "nbytes": (_NP2, "np.dtype(t).itemsize"),
    "fastCopyAndTranspose": (_NP2, "a.T.copy()"),
    "set_numeric_ops": (_NP2, "ufunc overrides (__array_ufunc__)"),
    "geterrobj": (_NP2, "np.geterr / np.errstate"),
    "seterrobj": (_NP2, "np.seterr / np.errstate"),
    "get_array_wrap": (_NP2, "nothing (internal helper)"),
    "add_newdoc_ufunc": (_NP2, "setting ufunc.__doc__"),
    "compat": (_NP2, "the Python 3 builtins it wrapped"),
    "asscalar": ("NumPy 1.23 removed it", "a.item()"),
    "typeDict": ("NumPy 1.21 removed it", "np.sctypeDict"),
    "MachAr": ("NumPy 1.24 removed it", "np.finfo"),
    "rank": ("NumPy 1.18 removed it", "np.ndim"),
    "loads": ("NumPy 1.17 removed it", "pickle.loads"),
}

TF1_REMOVED_NOTE = "removed in TensorFlow 1.x before 1.15"

# tf.<dotted> -> what to write instead. Only names the installed TensorFlow's tf.compat.v1 lacks matter
# (a test holds every entry to that).
TF_REMOVED = {
    "concat_v2": "tf.concat (TF 1.0 renamed it back)",
    "pack": "tf.stack",
    "unpack": "tf.unstack",
    "mul": "tf.multiply",
    "sub": "tf.subtract",
    "neg": "tf.negative",
    "select": "tf.where",
    "batch_matmul": "tf.matmul",
    "complex_abs": "tf.abs",
    "listdiff": "tf.setdiff1d",
    "scalar_summary": "tf.summary.scalar",
    "histogram_summary": "tf.summary.histogram",
    "image_summary": "tf.summary.image",
    "audio_summary": "tf.summary.audio",
    "merge_summary": "tf.summary.merge",
    "merge_all_summaries": "tf.summary.merge_all",
    "train.SummaryWriter": "tf.summary.FileWriter",
    "nn.rnn": "tf.nn.static_rnn",
    "nn.bidirectional_rnn": "tf.nn.static_bidirectional_rnn",
    "nn.seq2seq": "tf.contrib.legacy_seq2seq",
    "batch_matrix_inverse": "tf.matrix_inverse",
    "batch_matrix_determinant": "tf.matrix_determinant",
    "batch_fft": "tf.fft",
    "batch_ifft": "tf.ifft",
}

# Attributes of TF objects that are gone; keys are canonical chains ("tf.app.flags" is spelled "tf.flags").
ATTRIBUTE_HAZARDS = {
    "tf.flags.FLAGS._parse_flags": (
        "TF 1.5 moved tf.flags onto absl: flags are parsed by tf.app.run() (or FLAGS(sys.argv)); "
        "drop the call"),
    "tf.flags.FLAGS.__flags": (
        "TF 1.5 moved tf.flags onto absl: use FLAGS.flag_values_dict() for the dict of values"),
}

# Spellings of the flags module that all reach absl's flags.
FLAGS_MODULES = ("tf.app.flags", "tf.python.platform.flags")

# canonical symbol -> (keyword that triggers it or None for every call, warning)
CALL_WARNINGS = {
    "tf.enable_eager_execution": (None, (
        "on TensorFlow 2.21 this switches the process back to eager execution (tf1clip's TF1 API starts "
        "in graph mode), where tf.placeholder / tf.Session code fails; a graph-mode script should drop "
        "the call, eager code belongs to migration stage 3 (tf1clip.v2)")),
    "tf.enable_v2_behavior": (None, (
        "switches the process to TF2 behaviour, which TF1 graph code (placeholders, Session) does not "
        "survive; drop it while the script is TF1 code")),
    "np.array": ("copy", (
        "NumPy 2: np.array(..., copy=False) raises ValueError when a copy is needed; "
        "use np.asarray(...)")),
}
