"""TF 1.15's tensor_forest protos (and the decision_trees model proto they use), built in a pool of our own.

Place in the data flow (DESIGN.md): protobuf (descriptor_pool, message_factory) <- **contrib.tensor_forest.proto**
<- contrib.tensor_forest.kernels / tensor_forest / stats_ops <- contrib <- compat <- cli.

TF 1.15's generated `*_pb2.py` files were written for protobuf 3.x and do not import with the protobuf 7 TensorFlow
2.21 runs on; the messages are the same when built from their descriptors. These are TF 1.15's
tensorflow/contrib/decision_trees/proto/generic_tree_model.proto, tensorflow/contrib/tensor_forest/proto/
tensor_forest_params.proto and fertile_stats.proto, each its FileDescriptorProto serialized (base64; with
generic_tree_model_extensions.proto's MatchingValuesTest, which TF 1.15 shipped no module for, written here), so a
TensorForestParams, a serialized tree (`decision_trees.Model`) or fertile stats (`FertileStats`) read and write
the bytes TF 1.15's did (its checkpoints hold them).
"""

import base64

from google.protobuf import any_pb2
from google.protobuf import descriptor_pb2
from google.protobuf import descriptor_pool
from google.protobuf import message_factory
from google.protobuf import wrappers_pb2

_GENERIC_TREE_MODEL = (
    "CkB0ZW5zb3JmbG93L2NvbnRyaWIvZGVjaXNpb25fdHJlZXMvcHJvdG8vZ2VuZXJpY190cmVlX21vZGVsLnByb3RvEhl0ZW5zb3JmbG93LmRlY2lz"
    "aW9uX3RyZWVzGhlnb29nbGUvcHJvdG9idWYvYW55LnByb3RvGh5nb29nbGUvcHJvdG9idWYvd3JhcHBlcnMucHJvdG8i6AEKBU1vZGVsEkAKDWRl"
    "Y2lzaW9uX3RyZWUYASABKAsyJy50ZW5zb3JmbG93LmRlY2lzaW9uX3RyZWVzLkRlY2lzaW9uVHJlZUgAEjcKCGVuc2VtYmxlGAIgASgLMiMudGVu"
    "c29yZmxvdy5kZWNpc2lvbl90cmVlcy5FbnNlbWJsZUgAEiwKDGN1c3RvbV9tb2RlbBgDIAEoCzIULmdvb2dsZS5wcm90b2J1Zi5BbnlIABItCg9h"
    "ZGRpdGlvbmFsX2RhdGEYBCADKAsyFC5nb29nbGUucHJvdG9idWYuQW55QgcKBW1vZGVsIp0DChBNb2RlbEFuZEZlYXR1cmVzEksKCGZlYXR1cmVz"
    "GAEgAygLMjkudGVuc29yZmxvdy5kZWNpc2lvbl90cmVlcy5Nb2RlbEFuZEZlYXR1cmVzLkZlYXR1cmVzRW50cnkSLwoFbW9kZWwYAiABKAsyIC50"
    "ZW5zb3JmbG93LmRlY2lzaW9uX3RyZWVzLk1vZGVsEi0KD2FkZGl0aW9uYWxfZGF0YRgDIAMoCzIULmdvb2dsZS5wcm90b2J1Zi5BbnkadgoHRmVh"
    "dHVyZRI8CgpmZWF0dXJlX2lkGAEgASgLMiQudGVuc29yZmxvdy5kZWNpc2lvbl90cmVlcy5GZWF0dXJlSWRCAhgBEi0KD2FkZGl0aW9uYWxfZGF0"
    "YRgCIAMoCzIULmdvb2dsZS5wcm90b2J1Zi5BbnkaZAoNRmVhdHVyZXNFbnRyeRILCgNrZXkYASABKAkSQgoFdmFsdWUYAiABKAsyMy50ZW5zb3Jm"
    "bG93LmRlY2lzaW9uX3RyZWVzLk1vZGVsQW5kRmVhdHVyZXMuRmVhdHVyZToCOAEijwQKCEVuc2VtYmxlEjsKB21lbWJlcnMYZCADKAsyKi50ZW5z"
    "b3JmbG93LmRlY2lzaW9uX3RyZWVzLkVuc2VtYmxlLk1lbWJlchJPCh9zdW1tYXRpb25fY29tYmluYXRpb25fdGVjaG5pcXVlGAEgASgLMiQudGVu"
    "c29yZmxvdy5kZWNpc2lvbl90cmVlcy5TdW1tYXRpb25IABJPCh9hdmVyYWdpbmdfY29tYmluYXRpb25fdGVjaG5pcXVlGAIgASgLMiQudGVuc29y"
    "Zmxvdy5kZWNpc2lvbl90cmVlcy5BdmVyYWdpbmdIABI8ChxjdXN0b21fY29tYmluYXRpb25fdGVjaG5pcXVlGAMgASgLMhQuZ29vZ2xlLnByb3Rv"
    "YnVmLkFueUgAEi0KD2FkZGl0aW9uYWxfZGF0YRgEIAMoCzIULmdvb2dsZS5wcm90b2J1Zi5BbnkanQEKBk1lbWJlchIyCghzdWJtb2RlbBgBIAEo"
    "CzIgLnRlbnNvcmZsb3cuZGVjaXNpb25fdHJlZXMuTW9kZWwSMAoLc3VibW9kZWxfaWQYAiABKAsyGy5nb29nbGUucHJvdG9idWYuSW50MzJWYWx1"
    "ZRItCg9hZGRpdGlvbmFsX2RhdGEYAyADKAsyFC5nb29nbGUucHJvdG9idWYuQW55QhcKFWNvbWJpbmF0aW9uX3RlY2huaXF1ZSI6CglTdW1tYXRp"
    "b24SLQoPYWRkaXRpb25hbF9kYXRhGAEgAygLMhQuZ29vZ2xlLnByb3RvYnVmLkFueSI6CglBdmVyYWdpbmcSLQoPYWRkaXRpb25hbF9kYXRhGAEg"
    "AygLMhQuZ29vZ2xlLnByb3RvYnVmLkFueSJxCgxEZWNpc2lvblRyZWUSMgoFbm9kZXMYASADKAsyIy50ZW5zb3JmbG93LmRlY2lzaW9uX3RyZWVz"
    "LlRyZWVOb2RlEi0KD2FkZGl0aW9uYWxfZGF0YRgCIAMoCzIULmdvb2dsZS5wcm90b2J1Zi5Bbnki9AIKCFRyZWVOb2RlEiwKB25vZGVfaWQYASAB"
    "KAsyGy5nb29nbGUucHJvdG9idWYuSW50MzJWYWx1ZRIqCgVkZXB0aBgCIAEoCzIbLmdvb2dsZS5wcm90b2J1Zi5JbnQzMlZhbHVlEjEKDHN1YnRy"
    "ZWVfc2l6ZRgDIAEoCzIbLmdvb2dsZS5wcm90b2J1Zi5JbnQzMlZhbHVlEjwKC2JpbmFyeV9ub2RlGAQgASgLMiUudGVuc29yZmxvdy5kZWNpc2lv"
    "bl90cmVlcy5CaW5hcnlOb2RlSAASLwoEbGVhZhgFIAEoCzIfLnRlbnNvcmZsb3cuZGVjaXNpb25fdHJlZXMuTGVhZkgAEjAKEGN1c3RvbV9ub2Rl"
    "X3R5cGUYBiABKAsyFC5nb29nbGUucHJvdG9idWYuQW55SAASLQoPYWRkaXRpb25hbF9kYXRhGAcgAygLMhQuZ29vZ2xlLnByb3RvYnVmLkFueUIL"
    "Cglub2RlX3R5cGUi/wIKCkJpbmFyeU5vZGUSMgoNbGVmdF9jaGlsZF9pZBgBIAEoCzIbLmdvb2dsZS5wcm90b2J1Zi5JbnQzMlZhbHVlEjMKDnJp"
    "Z2h0X2NoaWxkX2lkGAIgASgLMhsuZ29vZ2xlLnByb3RvYnVmLkludDMyVmFsdWUSSgoRZGVmYXVsdF9kaXJlY3Rpb24YAyABKA4yLy50ZW5zb3Jm"
    "bG93LmRlY2lzaW9uX3RyZWVzLkJpbmFyeU5vZGUuRGlyZWN0aW9uEk8KGmluZXF1YWxpdHlfbGVmdF9jaGlsZF90ZXN0GAQgASgLMikudGVuc29y"
    "Zmxvdy5kZWNpc2lvbl90cmVlcy5JbmVxdWFsaXR5VGVzdEgAEjYKFmN1c3RvbV9sZWZ0X2NoaWxkX3Rlc3QYBSABKAsyFC5nb29nbGUucHJvdG9i"
    "dWYuQW55SAAiIAoJRGlyZWN0aW9uEggKBExFRlQQABIJCgVSSUdIVBABQhEKD2xlZnRfY2hpbGRfdGVzdCK0AQoMU3BhcnNlVmVjdG9yEk4KDHNw"
    "YXJzZV92YWx1ZRgBIAMoCzI4LnRlbnNvcmZsb3cuZGVjaXNpb25fdHJlZXMuU3BhcnNlVmVjdG9yLlNwYXJzZVZhbHVlRW50cnkaVAoQU3BhcnNl"
    "VmFsdWVFbnRyeRILCgNrZXkYASABKAMSLwoFdmFsdWUYAiABKAsyIC50ZW5zb3JmbG93LmRlY2lzaW9uX3RyZWVzLlZhbHVlOgI4ASI5CgZWZWN0"
    "b3ISLwoFdmFsdWUYASADKAsyIC50ZW5zb3JmbG93LmRlY2lzaW9uX3RyZWVzLlZhbHVlIrQBCgRMZWFmEjMKBnZlY3RvchgBIAEoCzIhLnRlbnNv"
    "cmZsb3cuZGVjaXNpb25fdHJlZXMuVmVjdG9ySAASQAoNc3BhcnNlX3ZlY3RvchgCIAEoCzInLnRlbnNvcmZsb3cuZGVjaXNpb25fdHJlZXMuU3Bh"
    "cnNlVmVjdG9ySAASLQoPYWRkaXRpb25hbF9kYXRhGAMgAygLMhQuZ29vZ2xlLnByb3RvYnVmLkFueUIGCgRsZWFmImQKCUZlYXR1cmVJZBIoCgJp"
    "ZBgBIAEoCzIcLmdvb2dsZS5wcm90b2J1Zi5TdHJpbmdWYWx1ZRItCg9hZGRpdGlvbmFsX2RhdGEYAiADKAsyFC5nb29nbGUucHJvdG9idWYuQW55"
    "IloKD09ibGlxdWVGZWF0dXJlcxI2CghmZWF0dXJlcxgBIAMoCzIkLnRlbnNvcmZsb3cuZGVjaXNpb25fdHJlZXMuRmVhdHVyZUlkEg8KB3dlaWdo"
    "dHMYAiADKAIi3gIKDkluZXF1YWxpdHlUZXN0EjoKCmZlYXR1cmVfaWQYASABKAsyJC50ZW5zb3JmbG93LmRlY2lzaW9uX3RyZWVzLkZlYXR1cmVJ"
    "ZEgAEj0KB29ibGlxdWUYBCABKAsyKi50ZW5zb3JmbG93LmRlY2lzaW9uX3RyZWVzLk9ibGlxdWVGZWF0dXJlc0gAEjwKBHR5cGUYAiABKA4yLi50"
    "ZW5zb3JmbG93LmRlY2lzaW9uX3RyZWVzLkluZXF1YWxpdHlUZXN0LlR5cGUSMwoJdGhyZXNob2xkGAMgASgLMiAudGVuc29yZmxvdy5kZWNpc2lv"
    "bl90cmVlcy5WYWx1ZSJQCgRUeXBlEhEKDUxFU1NfT1JfRVFVQUwQABINCglMRVNTX1RIQU4QARIUChBHUkVBVEVSX09SX0VRVUFMEAISEAoMR1JF"
    "QVRFUl9USEFOEANCDAoKRmVhdHVyZVN1bSKbAQoFVmFsdWUSFQoLZmxvYXRfdmFsdWUYASABKAJIABIWCgxkb3VibGVfdmFsdWUYAiABKAFIABIV"
    "CgtpbnQzMl92YWx1ZRgDIAEoBUgAEhUKC2ludDY0X3ZhbHVlGAQgASgDSAASLAoMY3VzdG9tX3ZhbHVlGAUgASgLMhQuZ29vZ2xlLnByb3RvYnVm"
    "LkFueUgAQgcKBXZhbHVlQgP4AQFiBnByb3RvMw=="
)
_TENSOR_FOREST_PARAMS = (
    "CkF0ZW5zb3JmbG93L2NvbnRyaWIvdGVuc29yX2ZvcmVzdC9wcm90by90ZW5zb3JfZm9yZXN0X3BhcmFtcy5wcm90bxIXdGVuc29yZmxvdy50ZW5z"
    "b3Jmb3Jlc3QaQHRlbnNvcmZsb3cvY29udHJpYi9kZWNpc2lvbl90cmVlcy9wcm90by9nZW5lcmljX3RyZWVfbW9kZWwucHJvdG8ioAEKElNwbGl0"
    "UHJ1bmluZ0NvbmZpZxJJChNwcnVuZV9ldmVyeV9zYW1wbGVzGAEgASgLMiwudGVuc29yZmxvdy50ZW5zb3Jmb3Jlc3QuRGVwdGhEZXBlbmRlbnRQ"
    "YXJhbRI/CgR0eXBlGAIgASgOMjEudGVuc29yZmxvdy50ZW5zb3Jmb3Jlc3QuU3BsaXRQcnVuaW5nU3RyYXRlZ3lUeXBlIpwBChFTcGxpdEZpbmlz"
    "aENvbmZpZxJHChFjaGVja19ldmVyeV9zdGVwcxgBIAEoCzIsLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LkRlcHRoRGVwZW5kZW50UGFyYW0SPgoE"
    "dHlwZRgCIAEoDjIwLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LlNwbGl0RmluaXNoU3RyYXRlZ3lUeXBlIlMKC0xpbmVhclBhcmFtEg0KBXNsb3Bl"
    "GAEgASgCEhMKC3lfaW50ZXJjZXB0GAIgASgCEg8KB21pbl92YWwYAyABKAISDwoHbWF4X3ZhbBgEIAEoAiJcChBFeHBvbmVudGlhbFBhcmFtEgwK"
    "BGJpYXMYASABKAISDAoEYmFzZRgCIAEoAhISCgptdWx0aXBsaWVyGAMgASgCEhgKEGRlcHRoX211bHRpcGxpZXIYBCABKAIiSAoOVGhyZXNob2xk"
    "UGFyYW0SEAoIb25fdmFsdWUYASABKAISEQoJb2ZmX3ZhbHVlGAIgASgCEhEKCXRocmVzaG9sZBgDIAEoAiL0AQoTRGVwdGhEZXBlbmRlbnRQYXJh"
    "bRIYCg5jb25zdGFudF92YWx1ZRgBIAEoAkgAEjYKBmxpbmVhchgCIAEoCzIkLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LkxpbmVhclBhcmFtSAAS"
    "QAoLZXhwb25lbnRpYWwYAyABKAsyKS50ZW5zb3JmbG93LnRlbnNvcmZvcmVzdC5FeHBvbmVudGlhbFBhcmFtSAASPAoJdGhyZXNob2xkGAQgASgL"
    "MicudGVuc29yZmxvdy50ZW5zb3Jmb3Jlc3QuVGhyZXNob2xkUGFyYW1IAEILCglQYXJhbVR5cGUitwgKElRlbnNvckZvcmVzdFBhcmFtcxI5Cgls"
    "ZWFmX3R5cGUYASABKA4yJi50ZW5zb3JmbG93LnRlbnNvcmZvcmVzdC5MZWFmTW9kZWxUeXBlEjsKCnN0YXRzX3R5cGUYAiABKA4yJy50ZW5zb3Jm"
    "bG93LnRlbnNvcmZvcmVzdC5TdGF0c01vZGVsVHlwZRJFCg9jb2xsZWN0aW9uX3R5cGUYAyABKA4yLC50ZW5zb3JmbG93LnRlbnNvcmZvcmVzdC5T"
    "cGxpdENvbGxlY3Rpb25UeXBlEkEKDHBydW5pbmdfdHlwZRgEIAEoCzIrLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LlNwbGl0UHJ1bmluZ0NvbmZp"
    "ZxI/CgtmaW5pc2hfdHlwZRgFIAEoCzIqLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LlNwbGl0RmluaXNoQ29uZmlnEhEKCW51bV90cmVlcxgGIAEo"
    "BRIRCgltYXhfbm9kZXMYByABKAUSFAoMbnVtX2ZlYXR1cmVzGBUgASgFEkwKFGluZXF1YWxpdHlfdGVzdF90eXBlGBMgASgOMi4udGVuc29yZmxv"
    "dy5kZWNpc2lvbl90cmVlcy5JbmVxdWFsaXR5VGVzdC5UeXBlEhUKDWlzX3JlZ3Jlc3Npb24YCCABKAgSGAoQZHJvcF9maW5hbF9jbGFzcxgJIAEo"
    "CBIYChBjb2xsYXRlX2V4YW1wbGVzGAogASgIEhgKEGNoZWNrcG9pbnRfc3RhdHMYCyABKAgSIAoYdXNlX3J1bm5pbmdfc3RhdHNfbWV0aG9kGBQg"
    "ASgIEiEKGWluaXRpYWxpemVfYXZlcmFnZV9zcGxpdHMYFiABKAgSHAoUaW5mZXJlbmNlX3RyZWVfcGF0aHMYFyABKAgSEwoLbnVtX291dHB1dHMY"
    "DCABKAUSTAoWbnVtX3NwbGl0c190b19jb25zaWRlchgNIAEoCzIsLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LkRlcHRoRGVwZW5kZW50UGFyYW0S"
    "SQoTc3BsaXRfYWZ0ZXJfc2FtcGxlcxgOIAEoCzIsLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LkRlcHRoRGVwZW5kZW50UGFyYW0SRwoRZG9taW5h"
    "dGVfZnJhY3Rpb24YDyABKAsyLC50ZW5zb3JmbG93LnRlbnNvcmZvcmVzdC5EZXB0aERlcGVuZGVudFBhcmFtEkcKEW1pbl9zcGxpdF9zYW1wbGVz"
    "GBIgASgLMiwudGVuc29yZmxvdy50ZW5zb3Jmb3Jlc3QuRGVwdGhEZXBlbmRlbnRQYXJhbRIRCglncmFwaF9kaXIYECABKAkSGwoTbnVtX3NlbGVj"
    "dF9mZWF0dXJlcxgRIAEoBRIcChRudW1fY2xhc3Nlc190b190cmFjaxgYIAEoBSqQAQoNTGVhZk1vZGVsVHlwZRIeChpNT0RFTF9ERU5TRV9DTEFT"
    "U0lGSUNBVElPThAAEh8KG01PREVMX1NQQVJTRV9DTEFTU0lGSUNBVElPThABEhQKEE1PREVMX1JFR1JFU1NJT04QAhIoCiRNT0RFTF9TUEFSU0Vf"
    "T1JfREVOU0VfQ0xBU1NJRklDQVRJT04QAyqlAQoOU3RhdHNNb2RlbFR5cGUSFAoQU1RBVFNfREVOU0VfR0lOSRAAEhUKEVNUQVRTX1NQQVJTRV9H"
    "SU5JEAESIgoeU1RBVFNfTEVBU1RfU1FVQVJFU19SRUdSRVNTSU9OEAISIAocU1RBVFNfU1BBUlNFX1RIRU5fREVOU0VfR0lOSRADEiAKHFNUQVRT"
    "X0ZJWEVEX1NJWkVfU1BBUlNFX0dJTkkQBCpIChNTcGxpdENvbGxlY3Rpb25UeXBlEhQKEENPTExFQ1RJT05fQkFTSUMQABIbChdHUkFQSF9SVU5O"
    "RVJfQ09MTEVDVElPThABKpYBChhTcGxpdFBydW5pbmdTdHJhdGVneVR5cGUSFAoQU1BMSVRfUFJVTkVfTk9ORRAAEhQKEFNQTElUX1BSVU5FX0hB"
    "TEYQARIXChNTUExJVF9QUlVORV9RVUFSVEVSEAISGgoWU1BMSVRfUFJVTkVfMTBfUEVSQ0VOVBADEhkKFVNQTElUX1BSVU5FX0hPRUZGRElORxAE"
    "KnsKF1NwbGl0RmluaXNoU3RyYXRlZ3lUeXBlEhYKElNQTElUX0ZJTklTSF9CQVNJQxAAEiMKH1NQTElUX0ZJTklTSF9ET01JTkFURV9IT0VGRkRJ"
    "TkcQAhIjCh9TUExJVF9GSU5JU0hfRE9NSU5BVEVfQk9PVFNUUkFQEANiBnByb3RvMw=="
)
_FERTILE_STATS = (
    "Cjp0ZW5zb3JmbG93L2NvbnRyaWIvdGVuc29yX2ZvcmVzdC9wcm90by9mZXJ0aWxlX3N0YXRzLnByb3RvEhd0ZW5zb3JmbG93LnRlbnNvcmZvcmVz"
    "dBpAdGVuc29yZmxvdy9jb250cmliL2RlY2lzaW9uX3RyZWVzL3Byb3RvL2dlbmVyaWNfdHJlZV9tb2RlbC5wcm90byJKCgxGZXJ0aWxlU3RhdHMS"
    "OgoMbm9kZV90b19zbG90GAEgAygLMiQudGVuc29yZmxvdy50ZW5zb3Jmb3Jlc3QuRmVydGlsZVNsb3QiGwoJR2luaVN0YXRzEg4KBnNxdWFyZRgC"
    "IAEoAiLSBAoITGVhZlN0YXQSEgoKd2VpZ2h0X3N1bRgDIAEoAhJbCg5jbGFzc2lmaWNhdGlvbhgBIAEoCzJBLnRlbnNvcmZsb3cudGVuc29yZm9y"
    "ZXN0LkxlYWZTdGF0LkdpbmlJbXB1cml0eUNsYXNzaWZpY2F0aW9uU3RhdHNIABJTCgpyZWdyZXNzaW9uGAIgASgLMj0udGVuc29yZmxvdy50ZW5z"
    "b3Jmb3Jlc3QuTGVhZlN0YXQuTGVhc3RTcXVhcmVzUmVncmVzc2lvblN0YXRzSAAa2gEKH0dpbmlJbXB1cml0eUNsYXNzaWZpY2F0aW9uU3RhdHMS"
    "OQoMZGVuc2VfY291bnRzGAEgASgLMiEudGVuc29yZmxvdy5kZWNpc2lvbl90cmVlcy5WZWN0b3JIABJACg1zcGFyc2VfY291bnRzGAIgASgLMicu"
    "dGVuc29yZmxvdy5kZWNpc2lvbl90cmVlcy5TcGFyc2VWZWN0b3JIABIwCgRnaW5pGAMgASgLMiIudGVuc29yZmxvdy50ZW5zb3Jmb3Jlc3QuR2lu"
    "aVN0YXRzQggKBmNvdW50cxqVAQobTGVhc3RTcXVhcmVzUmVncmVzc2lvblN0YXRzEjYKC21lYW5fb3V0cHV0GAEgASgLMiEudGVuc29yZmxvdy5k"
    "ZWNpc2lvbl90cmVlcy5WZWN0b3ISPgoTbWVhbl9vdXRwdXRfc3F1YXJlcxgCIAEoCzIhLnRlbnNvcmZsb3cuZGVjaXNpb25fdHJlZXMuVmVjdG9y"
    "QgsKCWxlYWZfc3RhdCLiAQoLRmVydGlsZVNsb3QSNQoKbGVhZl9zdGF0cxgEIAEoCzIhLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LkxlYWZTdGF0"
    "EjsKCmNhbmRpZGF0ZXMYASADKAsyJy50ZW5zb3JmbG93LnRlbnNvcmZvcmVzdC5TcGxpdENhbmRpZGF0ZRI/ChRwb3N0X2luaXRfbGVhZl9zdGF0"
    "cxgGIAEoCzIhLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0LkxlYWZTdGF0Eg8KB25vZGVfaWQYBSABKAUSDQoFZGVwdGgYByABKAUiyAEKDlNwbGl0"
    "Q2FuZGlkYXRlEjQKBXNwbGl0GAEgASgLMiUudGVuc29yZmxvdy5kZWNpc2lvbl90cmVlcy5CaW5hcnlOb2RlEjUKCmxlZnRfc3RhdHMYBCABKAsy"
    "IS50ZW5zb3JmbG93LnRlbnNvcmZvcmVzdC5MZWFmU3RhdBI2CgtyaWdodF9zdGF0cxgFIAEoCzIhLnRlbnNvcmZsb3cudGVuc29yZm9yZXN0Lkxl"
    "YWZTdGF0EhEKCXVuaXF1ZV9pZBgGIAEoCSJGCghUcmVlUGF0aBI6Cg1ub2Rlc192aXNpdGVkGAEgAygLMiMudGVuc29yZmxvdy5kZWNpc2lvbl90"
    "cmVlcy5UcmVlTm9kZUID+AEBYgZwcm90bzM="
)

_FILES = (_GENERIC_TREE_MODEL, _TENSOR_FOREST_PARAMS, _FERTILE_STATS)
_POOL = []
_EXTENSIONS = "tensorflow/contrib/decision_trees/proto/generic_tree_model_extensions.proto"


def _extensions():
  """TF 1.15's generic_tree_model_extensions.proto (a categorical split's MatchingValuesTest), as a descriptor.

  TF 1.15's pip package shipped no generated module for it (its kernels used it in C++ only), so it is written here
  from the .proto's three-field messages.
  """
  f = descriptor_pb2.FileDescriptorProto(name=_EXTENSIONS, package="tensorflow.decision_trees", syntax="proto3",
                                         dependency=["tensorflow/contrib/decision_trees/proto/generic_tree_model.proto"])
  label = descriptor_pb2.FieldDescriptorProto
  for name, second in (("MatchingValuesTest", ("value", label.LABEL_REPEATED, "inverse")),
                       ("ConstResultTest", ("value_for_dtype", label.LABEL_OPTIONAL, "test_result"))):
    m = f.message_type.add(name=name)
    m.field.add(name="feature_id", number=1, label=label.LABEL_OPTIONAL, type=label.TYPE_MESSAGE,
                type_name=".tensorflow.decision_trees.FeatureId")
    m.field.add(name=second[0], number=2, label=second[1], type=label.TYPE_MESSAGE,
                type_name=".tensorflow.decision_trees.Value")
    m.field.add(name=second[2], number=3, label=label.LABEL_OPTIONAL, type=label.TYPE_BOOL)
  return f.SerializeToString()


def pool():
  """The descriptor pool holding the three files (and the well-known types they import), built once."""
  if not _POOL:
    new = descriptor_pool.DescriptorPool()  # ours alone: nothing else in the process defines these names
    for module in (any_pb2, wrappers_pb2):
      new.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
    for parts in _FILES:
      new.AddSerializedFile(base64.b64decode("".join(parts)))
    new.AddSerializedFile(_extensions())
    _POOL.append(new)
  return _POOL[0]


def message(full_name):
  """The message class of `full_name` ("tensorflow.tensorforest.TensorForestParams", ...)."""
  return message_factory.GetMessageClass(pool().FindMessageTypeByName(full_name))


def fill_module(namespace, file_name):
  """Puts a generated module's names into `namespace`: its messages, enums and enum values, and DESCRIPTOR."""
  descriptor = pool().FindFileByName(file_name)
  namespace["DESCRIPTOR"] = descriptor
  for name, message_type in descriptor.message_types_by_name.items():
    namespace[name] = message(message_type.full_name)
  for name, enum_type in descriptor.enum_types_by_name.items():
    namespace[name] = enum_type
    for value in enum_type.values:
      namespace[value.name] = value.number
